/**
 * Attributes that are one field of a body as it is (docs/decisions.md, "One contract per platform"):
 * the attribute names the field by its path in the body (`channelProps.subjectPrefix`) and nothing
 * else is written for it. The contract's rules for the field are its plan checks, it is sent when set
 * and read back as the platform answers it. A field with a secret, a default the platform fills in or a
 * shape of its own (a list kept as one text) is mapped by hand instead.
 */
import { type AttrDef, type Fields, validators } from '@keel/provider-framework';
import { contractField, type FieldSpec, hasContractField } from '../../wire/sec-contract/index.js';
import { checkedBy, rulesOfSpec, secRules } from './rules.js';

const EMPTY = validators.nonEmpty<string>();

/** Attribute name → the path of its field in the body. */
export type Wiring<F extends Fields> = { readonly [K in keyof F]?: string };

/** The attribute types each field kind can be held in. */
const HELD_AS: Readonly<Record<FieldSpec['kind'], readonly string[]>> = {
  string: ['string'],
  integer: ['number'],
  boolean: ['bool'],
  flag: ['bool'],
  object: [],
  array: ['list(string)', 'set(string)'],
  union: [],
};

export interface WiringOptions {
  /**
   * The body an update sends, where it is not the create's (`Queries:update`): a wired field it does not
   * declare is set by a create alone, so its attribute replaces the object when it changes.
   */
  readonly update?: string;
}

/** The fields with the wired ones' checks, and how the wired ones go to and come from the body. */
export interface WiredFields<F extends Fields> {
  readonly fields: F;
  /** `data` with every wired attribute the model sets put at its path (objects on the way made as needed). */
  send(model: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown>;
  /** Every wired attribute's value by its path, null when the model leaves it unset (a client's `declared`). */
  declared(model: Record<string, unknown>): Record<string, unknown>;
  /**
   * Each wired attribute as `data` holds it; null when the field is absent, or blank where the contract
   * refuses a blank one (the platform's way of saying "not set").
   */
  read(data: unknown): Record<string, unknown>;
}

/**
 * The attributes `wiring` names, resolved once against `body` (`AlertChannels:EmailUser`): each is checked by
 * its field's rules. A path the body lacks, a secret, or an attribute of another type than its field fails
 * here, when the provider's schema is built.
 */
export function wireFields<F extends Fields>(
  body: string,
  fields: F,
  wiring: Wiring<F>,
  options: WiringOptions = {},
): WiredFields<F> {
  const out: Record<string, unknown> = { ...fields };
  const wired: { name: string; keys: string[]; blankIsUnset: boolean }[] = [];
  for (const [name, path] of Object.entries(wiring)) {
    if (typeof path !== 'string') continue;
    const def = fields[name] as AttrDef<unknown, boolean> | undefined;
    const spec = contractField(`${body}.${path}`);
    const where = `${body}.${path} (attribute ${name})`;
    if (def?.kind !== 'attr') throw new Error(`${where}: only an attribute can be wired to a field`);
    if (spec.secret) throw new Error(`${where}: a secret is sent and read by hand (sentSecret, masked)`);
    if (spec.kind === 'array' && spec.items.kind !== 'string')
      throw new Error(`${where}: only a list of strings is wired`);
    const cty = def.type.cty;
    const held = 'element' in cty ? `${cty.kind}(${cty.element.kind})` : cty.kind;
    if (!HELD_AS[spec.kind].includes(held))
      throw new Error(`${where}: a ${spec.kind} field cannot be held in a ${held} attribute`);
    const own = def.options.validate ?? [];
    // The platform refuses a blank text unless its field allows one; the derived checks leave that out.
    const blankIsUnset = spec.kind === 'string' && !spec.allowEmpty;
    const blank = blankIsUnset && !own.some((v) => v.description === EMPTY.description);
    const checks = [...(blank ? [EMPTY] : []), ...secRules<unknown>(`${body}.${path}`)];
    // A field the update's body lacks can only be set by a create: a change to it makes a new object.
    // One it has is the same field, whose rules there the same attribute checks.
    const createOnly = options.update !== undefined && !hasContractField(`${options.update}.${path}`);
    if (options.update !== undefined && !createOnly) {
      const updated = `${options.update}.${path}`;
      for (const kind of rulesOfSpec(contractField(updated)))
        if (kind !== 'check') checkedBy(updated, kind, { sameAs: `${body}.${path}` });
    }
    const replace = def.options.replace ?? (createOnly || undefined);
    out[name] = { ...def, options: { ...def.options, validate: [...own, ...checks], ...(replace ? { replace } : {}) } };
    wired.push({ name, keys: path.split('.'), blankIsUnset });
  }
  return {
    fields: out as F,
    send(model, data) {
      for (const { name, keys } of wired) {
        const value = model[name];
        if (value === null || value === undefined) continue;
        let at = data;
        for (const key of keys.slice(0, -1)) {
          const next = at[key];
          at = at[key] = typeof next === 'object' && next !== null ? { ...(next as Record<string, unknown>) } : {};
        }
        at[keys.at(-1)!] = value;
      }
      return data;
    },
    declared(model) {
      return Object.fromEntries(wired.map(({ name, keys }) => [keys.join('.'), model[name] ?? null]));
    },
    read(data) {
      const read: Record<string, unknown> = {};
      for (const { name, keys, blankIsUnset } of wired) {
        let value: unknown = data;
        for (const key of keys)
          value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
        read[name] = value === undefined || (blankIsUnset && value === '') ? null : value;
      }
      return read;
    },
  };
}
