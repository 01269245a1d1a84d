/**
 * Attributes that are one field of an API message as it is
 * (docs/decisions.md, "One contract per platform"): a block's attributes name their fields
 * (`http_proxy_url: 'http_proxy_url'`) and nothing else is written for them. The field's protovalidate
 * rules are the attribute's plan checks (./rules.ts), it is sent when set, and it is read back as the
 * platform answers it. Neither the client's types nor the emulator's records need it: the codecs take
 * every field from the descriptors. An enum is held as the name of its value (`COMPRESSION_ZSTD`), its
 * zero value (`…_UNSPECIFIED`) read as unset and never sent, and checked to be one of its values even
 * where the `.proto` names no rule. A message or a field whose value the provider reshapes is mapped by
 * hand instead.
 *
 * The fields are known from the table `npm run build` writes from the `.proto` files (VDB_FIELD_SHAPES),
 * so a wiring is checked when the provider's schema is built, without loading the descriptors.
 */
import {
  type AttrDef,
  type Fields,
  type ModelOf,
  ownEntry,
  type Validator,
  validators,
} from '@keel/provider-framework';
import { VDB_FIELD_ENUMS, VDB_FIELD_RULES, VDB_FIELD_SHAPES } from '../../wire/vdb-field-rules.js';
import { jsonName } from '../../wire/vdb-json-name.js';
import type { FieldShape } from '../../wire/vdb-rules.js';
import { type ApiRuleOptions, apiRules } from './rules.js';

const PACKAGE = 'vdb.cloud.';

/**
 * A wired attribute's field: its name in the message, and how its rules apply (their words where a regex would
 * read, whether a distinct list is sent with each value once).
 */
export type WiredField = string | ({ readonly field: string } & ApiRuleOptions);

/** Attribute name → its field in the message. */
export type Wiring<F extends Fields> = { readonly [K in keyof F]?: WiredField };

/** The attribute types each scalar kind of field can be held in. */
const HELD_AS: Readonly<Record<string, string>> = {
  string: 'string',
  enum: 'string',
  bool: 'bool',
  double: 'number',
  float: 'number',
  ...Object.fromEntries(
    ['int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'fixed32', 'fixed64', 'sfixed32', 'sfixed64'].map(
      (kind) => [kind, 'number'],
    ),
  ),
};

/** The block's fields with the wired ones' checks, and how the wired ones go to and come from the message. */
export interface WiredMessage<F extends Fields, W extends Wiring<F>> {
  readonly fields: F;
  /** Every wired attribute the model sets, by its field's JSON name, to spread into the message sent. */
  send(model: Record<string, unknown>): Record<string, unknown>;
  /**
   * Each wired attribute as the message holds it. A field proto3 cannot tell unset from zero, an empty text
   * or an empty list reads as null when zero, unless the attribute was configured so (`prior`): both mean
   * the same to the platform.
   */
  read(
    message: object | undefined,
    prior: Record<string, unknown> | undefined,
  ): { [K in keyof W & keyof F]: ModelOf<F>[K] };
}

/**
 * The attributes `wiring` names, resolved once against `message` (`hybrid.v1.HybridCloudEnvironmentConfiguration`):
 * each is checked by its field's rules. A field the message lacks, an enum or message field, an attribute of
 * another type than its field, or a rule the attribute already checks itself fails here, naming both.
 */
export function wireMessage<F extends Fields, const W extends Wiring<F>>(
  message: string,
  fields: F,
  wiring: W,
): WiredMessage<F, W> {
  const out: Record<string, unknown> = { ...fields };
  const wired: { name: string; json: string; zero: unknown }[] = [];
  for (const [name, entry] of Object.entries(wiring)) {
    if (entry === undefined) continue;
    const { field, ...options } = typeof entry === 'string' ? { field: entry } : entry;
    const full = `${message}.${field}`;
    const where = `${PACKAGE}${full} (attribute ${name})`;
    const shape = ownEntry(VDB_FIELD_SHAPES, `${PACKAGE}${full}`);
    const def = fields[name] as AttrDef<unknown, boolean> | undefined;
    if (!shape) throw new Error(`${where}: the message has no such field in proto/vdb`);
    if (def?.kind !== 'attr') throw new Error(`${where}: only an attribute can be wired to a field`);
    const scalar = ownEntry(HELD_AS, shape.type);
    if (!scalar) throw new Error(`${where}: a field of type ${shape.type} is mapped by hand, not wired`);
    const cty = def.type.cty;
    const held = 'element' in cty ? `${cty.kind}(${cty.element.kind})` : cty.kind;
    const fits = shape.repeated ? held === `list(${scalar})` || held === `set(${scalar})` : held === scalar;
    if (!fits) throw new Error(`${where}: ${kindOf(shape)} field cannot be held in ${held}`);
    const own = def.options.validate ?? [];
    const values = shape.type === 'enum' ? (ownEntry(VDB_FIELD_ENUMS, `${PACKAGE}${full}`) ?? []) : [];
    const checks = Object.hasOwn(VDB_FIELD_RULES, `${PACKAGE}${full}`)
      ? apiRules<unknown>(full, options)
      : values.length > 0
        ? // An enum the .proto bounds by no rule is still one of its values (its zero means unset).
          [validators.oneOf(...values.filter(([, n]) => n !== 0).map(([name]) => name)) as Validator<unknown>]
        : [];
    const twice = checks.find((check) => own.some((v: Validator<unknown>) => v.description === check.description));
    if (twice) throw new Error(`${where}: checks "${twice.description}" itself; the wiring derives it`);
    out[name] = { ...def, options: { ...def.options, validate: [...own, ...checks] } };
    wired.push({ name, json: jsonName(field), zero: unsetAs(shape, values) });
  }
  return {
    fields: out as F,
    send(model) {
      const sent: Record<string, unknown> = {};
      for (const { name, json, zero } of wired) {
        const value = model[name];
        // Nothing to send for null; a zero value is not sent either (proto3 leaves it off the wire).
        if (value === null || value === undefined || isZero(value, zero)) continue;
        sent[json] = Array.isArray(value) ? [...value] : value;
      }
      return sent;
    },
    read(answer, prior) {
      const read: Record<string, unknown> = {};
      for (const { name, json, zero } of wired) {
        const value = (answer as Record<string, unknown> | undefined)?.[json];
        const was = prior?.[name];
        if (value === undefined || isZero(value, zero))
          read[name] = was !== null && was !== undefined && isZero(was, zero) ? was : null;
        else read[name] = Array.isArray(value) ? [...value] : value;
      }
      return read as { [K in keyof W & keyof F]: ModelOf<F>[K] };
    },
  };
}

/**
 * What a field reads as when the platform holds it unset: proto3 writes no zero value, so a field that is
 * not `optional` reads as its zero. An empty text means unset to the platform even where proto3 could tell
 * them apart, so it is never sent; an enum's zero value (`…_UNSPECIFIED`) is its unset; a number or flag
 * of an `optional` field is a value when present.
 */
function unsetAs(shape: FieldShape, enumValues: readonly (readonly [string, number])[]): unknown {
  if (shape.repeated) return [];
  if (shape.type === 'string') return '';
  if (shape.type === 'enum') return enumValues.find(([, n]) => n === 0)?.[0];
  if (shape.optional) return undefined;
  return shape.type === 'bool' ? false : 0;
}

/** "a repeated string", "an enum": a field's kind with its article. */
function kindOf(shape: FieldShape): string {
  const kind = `${shape.repeated ? 'repeated ' : ''}${shape.type}`;
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function isZero(value: unknown, zero: unknown): boolean {
  return Array.isArray(zero) ? Array.isArray(value) && value.length === 0 : value === zero;
}
