/**
 * Generic operations on values (value.ts), always driven by a CtyType: semantic equality, knownness,
 * type conformance, go-cty's canonical set order and a short Terraform-style rendering.
 */
import { type CtyType, DYNAMIC, isPrimitive, typeEquals, typeToJSONString } from './cty-type.js';
import type { AttributePath, PathStep } from './path.js';
import { Decimal, DynamicValue, Unknown, type CtyNumber, type ObjectValue, type Value } from './value.js';
import { compareNumbers, numberEquals, numberSetHashText, numberText } from './number.js';
import { ownEntry } from '../wire/own-entry.js';

// ---------------------------------------------------------------------------------------------
// Small shared helpers.
// ---------------------------------------------------------------------------------------------

export const isCtyNumber = (v: Value): v is CtyNumber => typeof v === 'number' || v instanceof Decimal;

/** A plain object usable as a map/object value (not an array, Unknown, Decimal or DynamicValue). */
export const isPlainObject = (v: unknown): v is ObjectValue =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  !(v instanceof Unknown) &&
  !(v instanceof Decimal) &&
  !(v instanceof DynamicValue);

const hasOwn = (o: object, k: string): boolean => Object.hasOwn(o, k);

/**
 * Orders strings by their UTF-8 bytes (= by code point), as Go's `sort.Strings` does for map keys,
 * object attributes and string sets. JS `<` compares UTF-16 units, which differs for U+E000–U+FFFF
 * versus astral characters.
 */
export function compareStringsBytewise(a: string, b: string): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) < utf8Rank(y) ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Maps a UTF-16 unit so that unit order matches code point order (surrogates above U+FFFF's BMP). */
const utf8Rank = (unit: number): number => (unit < 0xd800 ? unit : unit >= 0xe000 ? unit - 0x800 : unit + 0x2000);

const sortedKeysCache = new WeakMap<object, readonly string[]>();

/** Attribute names of an object type in bytewise order (cached per type object). */
/** Characters from U+0300 on: below it every string is already NFC. */
const MAY_NEED_NFC = /[\u0300-\uffff]/;

/** Text as cty holds it (cty.StringVal): normalized to NFC. */
export function nfc(s: string): string {
  return MAY_NEED_NFC.test(s) ? s.normalize('NFC') : s;
}

export function sortedAttributeNames(type: Extract<CtyType, { kind: 'object' }>): readonly string[] {
  let names = sortedKeysCache.get(type.attributes);
  if (!names) {
    names = Object.keys(type.attributes).sort(compareStringsBytewise);
    sortedKeysCache.set(type.attributes, names);
  }
  return names;
}

/** Splits a value at a dynamic position into its concrete type and value (untyped null/unknown stay). */
function unwrapDynamic(v: Value): { type: CtyType; value: Value } {
  return v instanceof DynamicValue ? { type: v.type, value: v.value } : { type: DYNAMIC, value: v };
}

// ---------------------------------------------------------------------------------------------
// Equality.
// ---------------------------------------------------------------------------------------------

/**
 * Semantic equality: numbers by value, sets order-insensitive, maps/objects by key, dynamic by
 * type + value. An Unknown equals any other Unknown (refinements ignored) and never a known value;
 * null equals only null (a typed null at a dynamic position equals an untyped one, as in cty).
 */
export function valueEquals(type: CtyType, a: Value, b: Value): boolean {
  if (sameScalar(type, a, b)) return true;
  if (type.kind === 'dynamic') return dynamicEquals(a, b);
  const aUnknown = a instanceof Unknown;
  const bUnknown = b instanceof Unknown;
  if (aUnknown || bUnknown) return aUnknown && bUnknown;
  if (a === null || b === null) return a === b;
  switch (type.kind) {
    case 'string':
    case 'bool':
      return a === b;
    case 'number':
      return isCtyNumber(a) && isCtyNumber(b) && numberEquals(a, b);
    case 'list':
      return Array.isArray(a) && Array.isArray(b) && listEquals(type.element, a, b);
    case 'tuple':
      return Array.isArray(a) && Array.isArray(b) && a.length === b.length && tupleEquals(type.elements, a, b);
    case 'set':
      return Array.isArray(a) && Array.isArray(b) && setEquals(type.element, a, b);
    case 'map':
      return isPlainObject(a) && isPlainObject(b) && mapEquals(type.element, a, b);
    case 'object':
      return isPlainObject(a) && isPlainObject(b) && objectEquals(type, a, b);
  }
}

function listEquals(elementType: CtyType, a: Value[], b: Value[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!valueEquals(elementType, a[i]!, b[i]!)) return false;
  return true;
}

function tupleEquals(types: readonly CtyType[], a: Value[], b: Value[]): boolean {
  for (let i = 0; i < types.length; i++) if (!valueEquals(types[i]!, a[i]!, b[i]!)) return false;
  return true;
}

function objectEquals(type: Extract<CtyType, { kind: 'object' }>, a: ObjectValue, b: ObjectValue): boolean {
  const names = sortedAttributeNames(type);
  for (let i = 0; i < names.length; i++) {
    const k = names[i]!;
    if (!valueEquals(type.attributes[k]!, a[k] ?? null, b[k] ?? null)) return false;
  }
  return true;
}

/**
 * Two identical texts, numbers or bools of a primitive type: equal, and the same in meaning (the
 * usual case of the comparisons, answered before their general walk).
 */
export function sameScalar(type: CtyType, a: Value, b: Value): boolean {
  return a === b && typeof a !== 'object' && (type.kind === 'string' || type.kind === 'bool' || type.kind === 'number');
}

/**
 * Whether a value says nothing: null, an empty string, or an empty collection. The platforms make no
 * difference between an argument left out and one set empty, so neither does the engine (README:
 * "Null, empty, unknown and validation").
 */
export function isEmptyValue(v: Value): boolean {
  if (v === null || v === '') return true;
  if (typeof v !== 'object') return false;
  return Array.isArray(v) ? v.length === 0 : isPlainObject(v) && hasNoEntries(v);
}

/** Whether an object has no entries (Object.keys(o).length === 0, without making the array). */
function hasNoEntries(o: ObjectValue): boolean {
  for (const k in o) if (hasOwn(o, k)) return false;
  return true;
}

/**
 * Equality up to null ≡ empty, at every depth: `""`, `[]` and `{}` mean the same as null, for an
 * attribute and for each field of the objects inside it. Unknown equals only unknown.
 */
export function sameMeaning(type: CtyType, a: Value, b: Value): boolean {
  if (sameScalar(type, a, b)) return true;
  const aEmpty = isEmptyValue(a);
  const bEmpty = isEmptyValue(b);
  if (aEmpty && bEmpty) return true;
  if (aEmpty || bEmpty || type.kind === 'dynamic') return valueEquals(type, a, b);
  if (a instanceof Unknown || b instanceof Unknown) return a instanceof Unknown && b instanceof Unknown;
  switch (type.kind) {
    case 'list':
      return Array.isArray(a) && Array.isArray(b) && listsMeanTheSame(type.element, a, b);
    case 'set':
      return (
        Array.isArray(a) &&
        Array.isArray(b) &&
        a.length === b.length &&
        a.every((x) => b.some((y) => sameMeaning(type.element, x, y))) &&
        b.every((y) => a.some((x) => sameMeaning(type.element, x, y)))
      );
    case 'map':
      return (
        isPlainObject(a) &&
        isPlainObject(b) &&
        Object.keys(a).length === Object.keys(b).length &&
        Object.keys(a).every((k) => hasOwn(b, k) && sameMeaning(type.element, a[k]!, b[k]!))
      );
    case 'object':
      return isPlainObject(a) && isPlainObject(b) && objectsMeanTheSame(type, a, b);
    default:
      return valueEquals(type, a, b);
  }
}

function listsMeanTheSame(elementType: CtyType, a: Value[], b: Value[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameMeaning(elementType, a[i]!, b[i]!)) return false;
  return true;
}

function objectsMeanTheSame(type: Extract<CtyType, { kind: 'object' }>, a: ObjectValue, b: ObjectValue): boolean {
  const names = sortedAttributeNames(type);
  for (let i = 0; i < names.length; i++) {
    const k = names[i]!;
    if (!sameMeaning(type.attributes[k]!, a[k] ?? null, b[k] ?? null)) return false;
  }
  return true;
}

function dynamicEquals(a: Value, b: Value): boolean {
  const x = unwrapDynamic(a);
  const y = unwrapDynamic(b);
  const xUnknown = x.value instanceof Unknown;
  const yUnknown = y.value instanceof Unknown;
  if (xUnknown || yUnknown) return xUnknown && yUnknown;
  if (x.value === null || y.value === null) return x.value === y.value;
  return typeEquals(x.type, y.type) && x.type.kind !== 'dynamic' && valueEquals(x.type, x.value, y.value);
}

function mapEquals(elementType: CtyType, a: ObjectValue, b: ObjectValue): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (!hasOwn(b, k) || !valueEquals(elementType, a[k]!, b[k]!)) return false;
  }
  return true;
}

/** Multiset comparison through equality keys, so large sets stay O(n log n). */
function setEquals(elementType: CtyType, a: Value[], b: Value[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const x of a) {
    const k = equalityKey(elementType, x);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  for (const y of b) {
    const k = equalityKey(elementType, y);
    const c = counts.get(k);
    if (!c) return false;
    counts.set(k, c - 1);
  }
  return true;
}

/**
 * A string that is identical for two values exactly when valueEquals holds: numbers by canonical
 * text, unknowns all '?', nested sets order-insensitive, typed and untyped nulls alike.
 */
export function equalityKey(type: CtyType, v: Value): string {
  if (v instanceof Unknown) return '?';
  if (v === null) return '~';
  switch (type.kind) {
    case 'dynamic': {
      const { type: t, value } = unwrapDynamic(v);
      if (value instanceof Unknown) return '?';
      if (value === null) return '~';
      return `${typeToJSONString(t)}:${t.kind === 'dynamic' ? '!' : equalityKey(t, value)}`;
    }
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return isCtyNumber(v) ? numberText(v) : '!';
    case 'bool':
      return v === true ? 'T' : 'F';
    case 'list':
      return Array.isArray(v) ? `[${v.map((e) => equalityKey(type.element, e)).join(',')}]` : '!';
    case 'tuple':
      return Array.isArray(v) ? `<${type.elements.map((t, i) => equalityKey(t, v[i] ?? null)).join(',')}>` : '!';
    case 'set':
      return Array.isArray(v)
        ? `[${v
            .map((e) => equalityKey(type.element, e))
            .sort()
            .join(',')}]`
        : '!';
    case 'map':
      if (!isPlainObject(v)) return '!';
      return `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${equalityKey(type.element, v[k]!)}`)
        .join(',')}}`;
    case 'object':
      if (!isPlainObject(v)) return '!';
      return `{${sortedAttributeNames(type)
        .map((k) => equalityKey(type.attributes[k]!, v[k] ?? null))
        .join(',')}}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Knownness.
// ---------------------------------------------------------------------------------------------

/** True when no Unknown appears anywhere in the value. */
export function isWhollyKnown(type: CtyType, v: Value): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (v instanceof Unknown) return false;
  switch (type.kind) {
    case 'dynamic': {
      if (!(v instanceof DynamicValue)) return true;
      return v.type.kind === 'dynamic' ? !(v.value instanceof Unknown) : isWhollyKnown(v.type, v.value);
    }
    case 'list':
    case 'set':
      return !Array.isArray(v) || elementsKnown(type.element, v);
    case 'tuple':
      return !Array.isArray(v) || type.elements.every((t, i) => isWhollyKnown(t, v[i] ?? null));
    case 'map':
      return !isPlainObject(v) || Object.values(v).every((e) => isWhollyKnown(type.element, e));
    case 'object':
      return !isPlainObject(v) || attributesKnown(type, v);
    default:
      return true;
  }
}

function elementsKnown(elementType: CtyType, elements: Value[]): boolean {
  for (let i = 0; i < elements.length; i++) if (!isWhollyKnown(elementType, elements[i]!)) return false;
  return true;
}

function attributesKnown(type: Extract<CtyType, { kind: 'object' }>, v: ObjectValue): boolean {
  const names = sortedAttributeNames(type);
  for (let i = 0; i < names.length; i++) {
    const k = names[i]!;
    if (!isWhollyKnown(type.attributes[k]!, v[k] ?? null)) return false;
  }
  return true;
}

/** Whether a collection anywhere inside `v` has a null element (unknown parts are skipped). */
export function hasNullElement(type: CtyType, v: Value): boolean {
  if (v === null || typeof v !== 'object' || v instanceof Unknown) return false;
  switch (type.kind) {
    case 'list':
    case 'set': {
      const elements = v as Value[];
      for (let i = 0; i < elements.length; i++) {
        const e = elements[i]!;
        if (e === null || hasNullElement(type.element, e)) return true;
      }
      return false;
    }
    case 'map':
      return Object.values(v as ObjectValue).some((e) => e === null || hasNullElement(type.element, e));
    case 'object':
      return Object.entries(type.attributes).some(([k, t]) => hasNullElement(t, (v as ObjectValue)[k] ?? null));
    default:
      return false;
  }
}

export const containsUnknown = (type: CtyType, v: Value): boolean => !isWhollyKnown(type, v);

// ---------------------------------------------------------------------------------------------
// Conformance.
// ---------------------------------------------------------------------------------------------

export interface ConformanceError {
  path: AttributePath;
  message: string;
}

/**
 * Checks that a JS value really is a value of the type (value.ts representation): every object
 * attribute present and no others, tuples of the right length, sets without duplicates, canonical
 * numbers, well-formed strings, refinements that fit the type. Returns the first problem found.
 */
export function conformanceError(type: CtyType, v: Value): ConformanceError | null {
  const path: PathStep[] = [];
  const message = checkConformance(type, v, path);
  return message === null ? null : { path: [...path], message };
}

/** Returns a message, leaving `path` pointing at the offending value, or null. */
function checkConformance(type: CtyType, v: Value, path: PathStep[]): string | null {
  if (v === null) return null;
  if (v instanceof Unknown) return checkRefinements(type, v);
  switch (type.kind) {
    case 'dynamic':
      return checkDynamic(v, path);
    case 'string':
      if (typeof v !== 'string') return 'string is required';
      return isWellFormedUnicode(v) ? null : 'string contains an unpaired surrogate (not valid Unicode)';
    case 'bool':
      return typeof v === 'boolean' ? null : 'bool is required';
    case 'number':
      return checkNumber(v);
    case 'list':
      if (!Array.isArray(v)) return 'a list is required';
      return checkElements(type.element, v, path, true);
    case 'set':
      if (!Array.isArray(v)) return 'a set is required';
      return checkElements(type.element, v, path, false) ?? checkSetDuplicates(type.element, v);
    case 'tuple':
      if (!Array.isArray(v)) return 'a tuple is required';
      if (v.length !== type.elements.length) return `a tuple of length ${type.elements.length} is required`;
      return checkTupleElements(type.elements, v, path);
    case 'map':
      if (!isPlainObject(v)) return 'a map is required';
      return checkMapElements(type.element, v, path);
    case 'object':
      if (!isPlainObject(v)) return 'an object is required';
      return checkObject(type, v, path);
  }
}

function checkDynamic(v: Value, path: PathStep[]): string | null {
  if (!(v instanceof DynamicValue))
    return 'a value at a dynamic position must be a DynamicValue (concrete type + value)';
  if (v.type.kind === 'dynamic') return 'a DynamicValue must carry a concrete type, not "dynamic"';
  return checkConformance(v.type, v.value, path);
}

function checkNumber(v: Value): string | null {
  if (typeof v === 'number') return Number.isNaN(v) ? 'number is required (NaN is not a number)' : null;
  if (!(v instanceof Decimal)) return 'number is required';
  return /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/.test(v.text) && v.text !== '-0'
    ? null
    : `number text ${JSON.stringify(v.text.slice(0, 40))} is not canonical`;
}

function checkElements(elementType: CtyType, elems: Value[], path: PathStep[], addressable: boolean): string | null {
  for (let i = 0; i < elems.length; i++) {
    // Set elements cannot be addressed (path.ts): the path stops at the set.
    if (addressable) path.push({ index: i });
    const err = checkConformance(elementType, elems[i]!, path);
    if (err !== null) return err;
    if (addressable) path.pop();
  }
  return null;
}

function checkTupleElements(types: readonly CtyType[], elems: Value[], path: PathStep[]): string | null {
  for (let i = 0; i < types.length; i++) {
    path.push({ index: i });
    const err = checkConformance(types[i]!, elems[i]!, path);
    if (err !== null) return err;
    path.pop();
  }
  return null;
}

function checkMapElements(elementType: CtyType, v: ObjectValue, path: PathStep[]): string | null {
  for (const key of Object.keys(v)) {
    path.push({ key });
    const err = checkConformance(elementType, v[key]!, path);
    if (err !== null) return err;
    path.pop();
  }
  return null;
}

function checkObject(type: Extract<CtyType, { kind: 'object' }>, v: ObjectValue, path: PathStep[]): string | null {
  for (const key of Object.keys(v)) {
    if (!hasOwn(type.attributes, key)) return `unsupported attribute ${JSON.stringify(key)}`;
  }
  for (const name of sortedAttributeNames(type)) {
    if (!hasOwn(v, name)) return `attribute ${JSON.stringify(name)} is required`;
    path.push({ attr: name });
    const err = checkConformance(type.attributes[name]!, v[name]!, path);
    if (err !== null) return err;
    path.pop();
  }
  return null;
}

function checkSetDuplicates(elementType: CtyType, elems: Value[]): string | null {
  const seen = new Set<string>();
  for (const e of elems) {
    if (!isWhollyKnown(elementType, e)) continue;
    const k = equalityKey(elementType, e);
    if (seen.has(k)) return `set contains duplicate element ${formatValue(elementType, e)}`;
    seen.add(k);
  }
  return null;
}

/**
 * Refinements must fit the type (docs/protocol.md, "Refined unknowns"): prefix for strings, bounds
 * for numbers, lengths for collections.
 */
function checkRefinements(type: CtyType, u: Unknown): string | null {
  const r = u.refinements;
  if (!r) return null;
  if (r.stringPrefix !== undefined && type.kind !== 'string') return 'a string prefix refinement needs a string type';
  if ((r.numberLower || r.numberUpper) && type.kind !== 'number') return 'number bound refinements need a number type';
  const isCollection = type.kind === 'list' || type.kind === 'set' || type.kind === 'map';
  if ((r.lengthLower !== undefined || r.lengthUpper !== undefined) && !isCollection)
    return 'length refinements need a collection type';
  for (const len of [r.lengthLower, r.lengthUpper]) {
    if (len !== undefined && !(Number.isSafeInteger(len) && len >= 0))
      return 'length refinements must be non-negative integers';
  }
  return null;
}

function isWellFormedUnicode(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false;
    const d = s.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
    i++;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Sets: deduplication and go-cty's canonical order.
// ---------------------------------------------------------------------------------------------

/**
 * Removes duplicates and puts set elements in go-cty's order (cty setRules.Less + set.Values):
 *  - known non-null elements first, then unknown ones, then null;
 *  - strings by UTF-8 bytes, numbers by value, false before true;
 *  - any other element kind by bytewise order of cty's set "hash bytes" (see setHashText);
 *  - ties (elements with identical hash bytes, e.g. several unknowns) keep their given order, which
 *    is what Go's stable sort over same-bucket insertion order produces.
 * Only wholly known elements are deduplicated: cty never treats two values containing unknowns as the
 * same set element (Equals is unknown for them), so a set may hold several unknowns.
 */
export function normalizeSet(elementType: CtyType, elems: readonly Value[]): Value[] {
  return sortSetElements(elementType, dedupeSetElements(elementType, elems));
}

/** Drops later duplicates of wholly known elements (cty keeps the first one added). */
export function dedupeSetElements(elementType: CtyType, elems: readonly Value[]): Value[] {
  if (elems.length < 2) return [...elems];
  const seen = new Set<unknown>();
  const out: Value[] = [];
  for (const e of elems) {
    const k = dedupeKey(elementType, e);
    if (k !== undefined) {
      if (seen.has(k)) continue;
      seen.add(k);
    }
    out.push(e);
  }
  return out;
}

const NULL_KEY = Symbol('null');

/** The equality key of a wholly known element (cheap for primitives), or undefined when it holds unknowns. */
function dedupeKey(elementType: CtyType, e: Value): unknown {
  if (e instanceof Unknown) return undefined;
  if (e === null) return NULL_KEY;
  switch (elementType.kind) {
    case 'string':
    case 'bool':
      return e;
    case 'number':
      return isCtyNumber(e) ? numberText(e) : e;
    default:
      return isWhollyKnown(elementType, e) ? equalityKey(elementType, e) : undefined;
  }
}

const enum Rank {
  Known = 0,
  Unknown = 1,
  Null = 2,
}

interface SortEntry {
  value: Value;
  inner: Value;
  rank: Rank;
  index: number;
  hash: string;
}

function sortSetElements(elementType: CtyType, elems: Value[]): Value[] {
  if (elems.length < 2) return elems;
  const entries: SortEntry[] = elems.map((value, index) => {
    const inner = elementType.kind === 'dynamic' ? unwrapDynamic(value).value : value;
    const rank = inner === null ? Rank.Null : inner instanceof Unknown ? Rank.Unknown : Rank.Known;
    return { value, inner, rank, index, hash: '' };
  });
  const ordering = orderingFor(elementType, elems);
  if (ordering === 'hash') {
    for (const e of entries) if (e.rank === Rank.Known) e.hash = setHashText(elementType, e.value);
  }
  entries.sort((a, b) => {
    if (a.rank !== b.rank) return a.rank - b.rank;
    const c = a.rank === Rank.Known ? compareKnown(ordering, a, b) : 0;
    return c !== 0 ? c : a.index - b.index;
  });
  return entries.map((e) => e.value);
}

type Ordering = 'string' | 'number' | 'bool' | 'hash';

/**
 * Which of cty's ordering rules applies. A set(dynamic) holds values of one concrete type in cty, so
 * its order follows that type; if the elements disagree (not a valid cty set) we fall back to hashes.
 */
function orderingFor(elementType: CtyType, elems: Value[]): Ordering {
  let t = elementType;
  if (t.kind === 'dynamic') {
    const types = elems.filter((e): e is DynamicValue => e instanceof DynamicValue).map((e) => e.type);
    if (types.length === 0 || !types.every((x) => typeEquals(x, types[0]!))) return 'hash';
    t = types[0]!;
  }
  return isPrimitive(t) ? (t.kind as Ordering) : 'hash';
}

function compareKnown(ordering: Ordering, a: SortEntry, b: SortEntry): number {
  switch (ordering) {
    case 'string':
      return compareStringsBytewise(a.inner as string, b.inner as string);
    case 'number':
      return compareNumbers(a.inner as CtyNumber, b.inner as CtyNumber);
    case 'bool':
      return a.inner === b.inner ? 0 : a.inner === false ? -1 : 1;
    case 'hash':
      return compareStringsBytewise(a.hash, b.hash);
  }
}

/**
 * go-cty's set "hash bytes" of a value (appendSetHashBytes): '?' unknown, '~' null, numbers as
 * big.Float.String() (%g, 10 digits), 'T'/'F', strings Go-%q-quoted, maps `{k:v;}`, lists and sets
 * `[e;]`, objects (attributes sorted) and tuples `<e;>`. Compared bytewise to order non-primitive sets.
 */
export function setHashText(type: CtyType, v: Value): string {
  if (v instanceof Unknown) return '?';
  if (v === null) return '~';
  switch (type.kind) {
    case 'dynamic': {
      const { type: t, value } = unwrapDynamic(v);
      return t.kind === 'dynamic' ? (value instanceof Unknown ? '?' : '~') : setHashText(t, value);
    }
    case 'number':
      return numberSetHashText(v as CtyNumber);
    case 'bool':
      return v ? 'T' : 'F';
    case 'string':
      return goQuote(v as string);
    case 'map': {
      const m = v as ObjectValue;
      let out = '{';
      for (const k of Object.keys(m).sort(compareStringsBytewise))
        out += `${goQuote(k)}:${setHashText(type.element, m[k]!)};`;
      return `${out}}`;
    }
    case 'list':
      return `[${(v as Value[]).map((e) => `${setHashText(type.element, e)};`).join('')}]`;
    case 'set':
      return `[${normalizeSet(type.element, v as Value[])
        .map((e) => `${setHashText(type.element, e)};`)
        .join('')}]`;
    case 'object': {
      const o = v as ObjectValue;
      return `<${sortedAttributeNames(type)
        .map((k) => `${setHashText(type.attributes[k]!, o[k] ?? null)};`)
        .join('')}>`;
    }
    case 'tuple':
      return `<${type.elements.map((t, i) => `${setHashText(t, (v as Value[])[i] ?? null)};`).join('')}>`;
  }
}

/** Go's printable runes (unicode.IsPrint): letters, marks, numbers, punctuation, symbols; plus ' '. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * Go's strconv.Quote (fmt %q), used in set hash bytes. Escape choices follow Go; "printable" uses
 * Node's Unicode tables, which may differ from a given Go release's for newly assigned characters.
 */
export function goQuote(s: string): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out += quoteRune(cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : ch, cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
  }
  return `${out}"`;
}

const GO_ESCAPES: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  11: '\\v',
  34: '\\"',
  92: '\\\\',
};

function quoteRune(ch: string, cp: number): string {
  const escaped = ownEntry(GO_ESCAPES, cp);
  if (escaped !== undefined) return escaped;
  if (cp === 0x20 || (cp > 0x20 && cp < 0x7f)) return ch;
  if (cp >= 0x80 && GO_PRINTABLE.test(ch)) return ch;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  return cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

// ---------------------------------------------------------------------------------------------
// Rendering for diagnostics.
// ---------------------------------------------------------------------------------------------

const FORMAT_LIMIT = 200;

class TextBudgetExceeded extends Error {}

/** Accumulates text and stops the rendering (by throwing) once the budget is spent. */
class BudgetedText {
  text = '';
  constructor(private readonly limit: number) {}
  add(s: string): void {
    this.text += s;
    if (this.text.length > this.limit) throw new TextBudgetExceeded();
  }
}

/**
 * Short human rendering, Terraform style: `"abc"`, `42`, `true`, `null`, `(known after apply)`,
 * `["a", "b"]`, `{ x = 1 }`, `{ "k" = "v" }` for maps. Cut at about 200 characters with '…'.
 */
export function formatValue(type: CtyType, v: Value): string {
  const out = new BudgetedText(FORMAT_LIMIT);
  try {
    renderValue(type, v, out);
    return out.text;
  } catch (e) {
    if (e instanceof TextBudgetExceeded) return `${out.text.slice(0, FORMAT_LIMIT)}…`;
    throw e;
  }
}

function renderValue(type: CtyType, v: Value, out: BudgetedText): void {
  if (v === null) return out.add('null');
  if (v instanceof Unknown) return out.add('(known after apply)');
  switch (type.kind) {
    case 'dynamic': {
      const { type: t, value } = unwrapDynamic(v);
      return t.kind === 'dynamic' ? out.add(String(value)) : renderValue(t, value, out);
    }
    case 'string':
      return out.add(
        typeof v === 'string' ? JSON.stringify(v.length > FORMAT_LIMIT ? v.slice(0, FORMAT_LIMIT + 1) : v) : String(v),
      );
    case 'number':
      return out.add(isCtyNumber(v) ? numberText(v) : String(v));
    case 'bool':
      return out.add(String(v));
    case 'list':
    case 'set':
      return Array.isArray(v) ? renderSequence(v.length, (i) => [type.element, v[i]!], out) : out.add(String(v));
    case 'tuple':
      return Array.isArray(v)
        ? renderSequence(type.elements.length, (i) => [type.elements[i]!, v[i] ?? null], out)
        : out.add(String(v));
    case 'map':
      if (!isPlainObject(v)) return out.add(String(v));
      return renderPairs(
        Object.keys(v)
          .sort(compareStringsBytewise)
          .map((k) => [JSON.stringify(k), type.element, v[k]!] as const),
        out,
      );
    case 'object':
      if (!isPlainObject(v)) return out.add(String(v));
      return renderPairs(
        sortedAttributeNames(type).map((k) => [k, type.attributes[k]!, v[k] ?? null] as const),
        out,
      );
  }
}

function renderSequence(length: number, item: (i: number) => [CtyType, Value], out: BudgetedText): void {
  out.add('[');
  for (let i = 0; i < length; i++) {
    if (i > 0) out.add(', ');
    const [t, e] = item(i);
    renderValue(t, e, out);
  }
  out.add(']');
}

function renderPairs(items: ReadonlyArray<readonly [string, CtyType, Value]>, out: BudgetedText): void {
  if (items.length === 0) return out.add('{}');
  out.add('{ ');
  items.forEach(([label, t, e], i) => {
    if (i > 0) out.add(', ');
    out.add(`${label} = `);
    renderValue(t, e, out);
  });
  out.add(' }');
}
