/**
 * Attributes that are one field of a body as it is (docs/decisions.md, "One contract per platform"):
 * the attribute names the field by its path in the body (`channelProps.subjectPrefix`) and nothing
 * else is written for it. The contract's rules for the field are its plan checks, it is sent when set
 * and read back as the platform answers it. A field with a secret, a default the platform fills in or a
 * shape of its own (a list kept as one text) is mapped by hand instead.
 */
import { type AttrDef, type Fields, validators } from '@keel/provider-framework';
import { contractField, type FieldSpec } from '../../wire/sec-contract/index.js';
import { secRules } from './rules.js';

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
};

/**
 * `fields` with each wired attribute checked by its field's rules in `body` (`AlertChannels:EmailUser`).
 * A path the body lacks, a secret, or an attribute of another type than its field fails here, when the
 * provider's schema is built.
 */
export function withWiredChecks<F extends Fields>(body: string, fields: F, wiring: Wiring<F>): F {
  const out: Record<string, unknown> = { ...fields };
  for (const [name, path] of wiredEntries(wiring)) {
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
    const blank = spec.kind === 'string' && !spec.allowEmpty && !own.some((v) => v.description === EMPTY.description);
    const checks = [...(blank ? [EMPTY] : []), ...secRules<unknown>(`${body}.${path}`)];
    out[name] = { ...def, options: { ...def.options, validate: [...own, ...checks] } };
  }
  return out as F;
}

/** `data` with every wired attribute the model sets put at its path (objects on the way made as needed). */
export function sendWired<F extends Fields>(
  model: Record<string, unknown>,
  wiring: Wiring<F>,
  data: Record<string, unknown>,
): Record<string, unknown> {
  for (const [name, path] of wiredEntries(wiring)) {
    const value = model[name];
    if (value === null || value === undefined) continue;
    const keys = path.split('.');
    let at = data;
    for (const key of keys.slice(0, -1)) {
      const next = at[key];
      at = at[key] = typeof next === 'object' && next !== null ? { ...(next as Record<string, unknown>) } : {};
    }
    at[keys.at(-1)!] = value;
  }
  return data;
}

/**
 * Each wired attribute as `data` holds it; null when the field is absent, or blank where the contract
 * refuses a blank one (the platform's way of saying "not set").
 */
export function readWired<F extends Fields>(body: string, data: unknown, wiring: Wiring<F>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, path] of wiredEntries(wiring)) {
    let value: unknown = data;
    for (const key of path.split('.'))
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    const spec = contractField(`${body}.${path}`);
    const blank = value === '' && spec.kind === 'string' && !spec.allowEmpty;
    out[name] = value === undefined || blank ? null : value;
  }
  return out;
}

const wiredEntries = <F extends Fields>(wiring: Wiring<F>) =>
  Object.entries(wiring).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
