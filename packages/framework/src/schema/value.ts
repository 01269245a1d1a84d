/**
 * Terraform values (cty) as plain JavaScript data, always interpreted together with a CtyType:
 *
 * | cty            | JS representation                                                         |
 * |----------------|---------------------------------------------------------------------------|
 * | null (any type)| `null`                                                                     |
 * | unknown        | an `Unknown` instance (`UNKNOWN` when it carries no refinements)           |
 * | string         | `string` (NFC)                                                             |
 * | bool           | `boolean`                                                                  |
 * | number         | `number` when the value is exactly a float64; otherwise a `Decimal`        |
 * | list/set/tuple | `Value[]` (sets: no duplicates, order not significant)                    |
 * | map/object     | `{ [key]: Value }` plain object; objects always hold every attribute      |
 * | at a `dynamic` position | a `DynamicValue` (concrete type + value), or `null` / `Unknown`  |
 *
 * Plain data keeps the codecs close to raw msgpack speed and lets the engine walk values with the schema.
 */
import type { CtyType } from './cty-type.js';

/**
 * Refinements of an unknown value (docs/protocol.md, "Refined unknowns"). Absent fields mean
 * "nothing known".
 */
export interface Refinements {
  notNull?: boolean;
  /** Known prefix of an unknown string. */
  stringPrefix?: string;
  /** Bounds of an unknown number: [bound, inclusive]. */
  numberLower?: [CtyNumber, boolean];
  numberUpper?: [CtyNumber, boolean];
  /** Bounds on the length of an unknown collection. */
  lengthLower?: number;
  lengthUpper?: number;
}

/**
 * A value not known until apply (Terraform's unknown), with what is known of it (its refinements: not
 * null, a prefix, bounds). A model shows one as `undefined`; a function or plan hook that sees values
 * as they are tests for it with `instanceof Unknown`. `UNKNOWN` is the plain one.
 */
export class Unknown {
  constructor(readonly refinements: Readonly<Refinements> | null = null) {}
}

/** The plain unknown, with no refinements. */
export const UNKNOWN = new Unknown();

/**
 * A number that a float64 cannot hold exactly (0.1, 2^64+1, …), kept as canonical decimal text:
 * optional '-', digits, optional '.' and digits, no exponent, no redundant zeros.
 */
export class Decimal {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type CtyNumber = number | Decimal;

/** A value at a `dynamic` type position: it carries its own concrete type. */
export class DynamicValue {
  constructor(
    readonly type: CtyType,
    readonly value: Value,
  ) {}
}

export type Value = null | string | boolean | CtyNumber | Unknown | DynamicValue | Value[] | { [key: string]: Value };

export type ObjectValue = { [key: string]: Value };

export const isUnknown = (v: Value): v is Unknown => v instanceof Unknown;
export const isNull = (v: Value): v is null => v === null;
export const isObjectValue = (v: Value): v is ObjectValue =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  !(v instanceof Unknown) &&
  !(v instanceof Decimal) &&
  !(v instanceof DynamicValue);

/** The value as an object when it is a known object (or map), otherwise null. */
export const objectOrNull = (v: Value): ObjectValue | null => (isObjectValue(v) ? v : null);
