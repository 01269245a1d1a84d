/**
 * Conversion between Values and the plain models resource code works with. Models never contain
 * unknowns (an unknown becomes null) and use JS numbers.
 */
import type { CtyType } from './cty-type.js';
import { Decimal, DynamicValue, Unknown, type ObjectValue, type Value } from './value.js';
import { setEntry } from './entries.js';
import type { AttrDef, ConfigModelOf, Fields, FieldDef, ModelOf } from './define.js';
import { fieldList, fieldType } from './fields.js';
import {
  dedupeSetElements,
  equalityKey,
  hasNullElement,
  isPlainObject,
  isWhollyKnown,
  nfc,
  valueEquals,
} from './value-ops.js';
import { sameMeaningOf, saysNothing } from './empty-string.js';

export { fieldType };

/** Value → plain JS: null/unknown → null, Decimal → number, collections → arrays/objects. */
export function valueToPlain(v: Value): unknown {
  if (typeof v !== 'object') return v; // a string, number or bool: the usual value, and its own plain form
  if (v === null || v instanceof Unknown) return null;
  if (v instanceof Decimal) return Number(v.text);
  if (v instanceof DynamicValue) return valueToPlain(v.value);
  if (Array.isArray(v)) return v.map(valueToPlain);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) setEntry(out, k, valueToPlain(e));
    return out;
  }
  return v;
}

/** Like valueToPlain, but numbers stay exact (a Decimal where a float64 cannot hold them), for validators. */
export function valueToExactPlain(v: Value): unknown {
  if (typeof v !== 'object') return v;
  if (v instanceof Decimal) return v;
  if (v === null || v instanceof Unknown) return null;
  if (v instanceof DynamicValue) return valueToExactPlain(v.value);
  if (Array.isArray(v)) return v.map(valueToExactPlain);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, valueToExactPlain(e)]));
  return v;
}

/** Plain JS → Value of the given type; undefined and null become null. Throws TypeError on a mismatch. */
export function plainToValue(type: CtyType, p: unknown, where = 'value'): Value {
  if (p === undefined || p === null) return null;
  switch (type.kind) {
    case 'string':
      if (typeof p !== 'string') throw new TypeError(`${where}: expected a string, got ${typeof p}`);
      return nfc(p);
    case 'bool':
      if (typeof p !== 'boolean') throw new TypeError(`${where}: expected a bool, got ${typeof p}`);
      return p;
    case 'number':
      if (typeof p === 'number' && Number.isFinite(p)) return p;
      if (p instanceof Decimal) return p;
      throw new TypeError(`${where}: expected a number, got ${typeof p}`);
    case 'list':
    case 'set': {
      if (!Array.isArray(p)) throw new TypeError(`${where}: expected an array`);
      const elems: Value[] = [];
      for (let i = 0; i < p.length; i++) elems.push(plainToValue(type.element, p[i], `${where}[${i}]`));
      // Sets hold each element once; models built from API lists may repeat elements.
      return type.kind === 'set' ? dedupeSetElements(type.element, elems) : elems;
    }
    case 'map': {
      if (typeof p !== 'object') throw new TypeError(`${where}: expected an object`);
      const out: ObjectValue = {};
      for (const [k, e] of Object.entries(p as object))
        setEntry(out, k, plainToValue(type.element, e, `${where}[${JSON.stringify(k)}]`));
      return out;
    }
    case 'object': {
      if (typeof p !== 'object') throw new TypeError(`${where}: expected an object`);
      const out: ObjectValue = {};
      for (const [k, at] of Object.entries(type.attributes))
        setEntry(
          out,
          k,
          plainToValue(at, Object.hasOwn(p, k) ? (p as Record<string, unknown>)[k] : null, `${where}.${k}`),
        );
      return out;
    }
    default:
      throw new TypeError(`${where}: ${type.kind} values cannot come from a model`);
  }
}

/**
 * Whether a field's two values mean the same (value-ops `sameMeaning`: null ≡ empty at every depth,
 * under each attribute's `emptyString` rule), also counting, for a block declared `emptyMeansAbsent`,
 * elements that set nothing as absent.
 */
export function sameFieldMeaning(def: FieldDef, a: Value, b: Value): boolean {
  if (def.kind === 'block' && def.options.emptyMeansAbsent)
    return sameMeaningOf(def, withoutUnsetElements(def.fields, a), withoutUnsetElements(def.fields, b));
  if (def.kind === 'attr' && bothUnset(def, a, b)) return true;
  return sameMeaningOf(def, a, b);
}

/**
 * Whether two values of a field are the same to the platform: they mean the same (null ≡ empty, an
 * argument's `unsetAs`), its own `equal` says so, or, for an `unordered` list, they hold the same
 * elements in any order. The one comparison plan, apply, read and import use for an attribute.
 */
export function sameFieldValue(def: FieldDef, a: Value, b: Value): boolean {
  if (sameMeaningOf(def, a, b)) return true;
  if (def.kind !== 'attr') return false;
  if (def.options.unsetAs !== undefined && sameFieldMeaning(def, a, b)) return true;
  if (a === null || b === null || a instanceof Unknown || b instanceof Unknown) return false;
  if (def.options.equal?.(valueToPlain(a), valueToPlain(b))) return true;
  return def.options.unordered === true && sameElements(def, a, b);
}

/**
 * Whether two lists of an `unordered` attribute hold the same elements, as sets: each element of one
 * has an equal in the other (by value, or by the attribute's `equal` given the two elements alone).
 */
export function sameElements(def: AttrDef<unknown>, a: Value, b: Value): boolean {
  const type = def.type.cty;
  if (type.kind !== 'list' || !Array.isArray(a) || !Array.isArray(b)) return false;
  if (!isWhollyKnown(type, a) || !isWhollyKnown(type, b)) return false;
  const keysOf = (values: Value[]) => new Set(values.map((v) => equalityKey(type.element, v)));
  const [ka, kb] = [keysOf(a), keysOf(b)];
  // Elements equal by value pair at once; only the rest need the attribute's own equality.
  const onlyA = a.filter((v) => !kb.has(equalityKey(type.element, v)));
  const onlyB = b.filter((v) => !ka.has(equalityKey(type.element, v)));
  if (onlyA.length === 0 && onlyB.length === 0) return true;
  const equal = def.options.equal;
  if (!equal || hasNullElement(type, a) || hasNullElement(type, b)) return false;
  const same = (x: Value, y: Value) => equal([valueToPlain(x)], [valueToPlain(y)]);
  return onlyA.every((x) => b.some((y) => same(x, y))) && onlyB.every((y) => a.some((x) => same(x, y)));
}

/** Whether `v` is the value the platform holds for an argument left unset (`unsetAs`, in any of its spellings). */
export function isUnsetValue(def: FieldDef, v: Value): boolean {
  if (def.kind !== 'attr' || def.options.unsetAs === undefined) return false;
  if (v === null || !isWhollyKnown(def.type.cty, v)) return false;
  const unset = def.options.unsetAs;
  if (valueEquals(def.type.cty, v, plainToValue(def.type.cty, unset))) return true;
  return def.options.equal?.(valueToPlain(v), unset) ?? false;
}

/** Whether two values of an argument both mean "not set": null (or empty), or the platform's `unsetAs`. */
function bothUnset(def: FieldDef, a: Value, b: Value): boolean {
  const unset = (v: Value) => saysNothing(def, v) || isUnsetValue(def, v);
  return def.kind === 'attr' && def.options.unsetAs !== undefined && unset(a) && unset(b);
}

/** `v` without the elements whose every field is null, empty or its default. */
function withoutUnsetElements(fields: Fields, v: Value): Value {
  if (!Array.isArray(v)) return v;
  const kept = v.filter((e) => !(isPlainObject(e) && setsNothing(fields, e)));
  return kept.length === v.length ? v : kept;
}

/** Whether every field of a block element is null, empty or its default. */
function setsNothing(fields: Fields, e: ObjectValue): boolean {
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) if (!isUnset(list[i]!.def, e[list[i]!.name] ?? null)) return false;
  return true;
}

function isUnset(def: FieldDef, v: Value): boolean {
  if (saysNothing(def, v)) return true;
  return (
    def.kind === 'attr' &&
    def.options.default !== undefined &&
    !(v instanceof Unknown) &&
    valueEquals(def.type.cty, v, plainToValue(def.type.cty, def.options.default))
  );
}

/**
 * An attribute value → its model value. A collection with an unknown element (`[var.a, "b"]` at
 * validation) is not known yet as a whole, so it is null like any unknown: a model's list of strings
 * holds strings only.
 */
function valueToModel(type: CtyType, v: Value): unknown {
  if (typeof v !== 'object') return v; // a string, number or bool is its own model (valueToPlain)
  switch (type.kind) {
    case 'list':
    case 'set': {
      if (!Array.isArray(v)) return valueToPlain(v);
      const out: unknown[] = [];
      for (let i = 0; i < v.length; i++) {
        const e = v[i]!;
        if (e instanceof Unknown) return null;
        out.push(valueToModel(type.element, e));
      }
      return out;
    }
    case 'map': {
      if (v === null || v instanceof Unknown || Array.isArray(v)) return valueToPlain(v);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        const e = (v as ObjectValue)[k]!;
        if (e instanceof Unknown) return null;
        setEntry(out, k, valueToModel(type.element, e));
      }
      return out;
    }
    case 'object': {
      if (v === null || v instanceof Unknown || Array.isArray(v)) return valueToPlain(v);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(type.attributes))
        setEntry(out, k, valueToModel(type.attributes[k]!, (v as ObjectValue)[k] ?? null));
      return out;
    }
    default:
      return valueToPlain(v);
  }
}

/**
 * Whether a configured value says no more than null: an empty value (`""`, `[]`, `{}`; `""` not where
 * the attribute's `emptyString` rule makes it a value) of an optional argument that has no default and
 * that the platform does not fill. Validation and operations take it as null (null ≡ empty).
 */
export function meansNull(def: FieldDef, v: Value): boolean {
  if (def.kind !== 'attr') return false;
  const o = def.options;
  return o.optional === true && !o.computed && o.default === undefined && v !== null && saysNothing(def, v);
}

export interface ToModelOptions {
  /**
   * Optional arguments (not computed, no default) that are empty (`""`, `[]`, `{}`) come as null:
   * the platforms make no difference, so operations need not either.
   */
  readonly emptyOptionalsAsNull?: boolean;
}

/** An object Value of the schema → its model. */
export function toModel<F extends Fields>(fields: F, v: ObjectValue, options: ToModelOptions = {}): ModelOf<F> {
  return modelOf(fields, v, options.emptyOptionalsAsNull === true) as ModelOf<F>;
}

function modelOf(fields: Fields, v: ObjectValue, emptyAsNull: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const fv = v[name] ?? null;
    if (def.kind === 'attr') out[name] = emptyAsNull && meansNull(def, fv) ? null : valueToModel(def.type.cty, fv);
    else if (def.nesting === 'single' || def.nesting === 'group')
      out[name] = fv === null || fv instanceof Unknown ? null : modelOf(def.fields, fv as ObjectValue, emptyAsNull);
    else out[name] = Array.isArray(fv) ? fv.map((e) => modelOf(def.fields, e as ObjectValue, emptyAsNull)) : [];
  }
  return out;
}

/**
 * An object Value of the schema, possibly partly unknown (a configuration at validate or plan
 * time) → its configuration model: as `toModel` for operations (an empty optional argument is null),
 * but what is not known yet is `undefined`, never mistaken for null or empty. A collection with an unknown element is
 * unknown as a whole; a block collection that is unknown (a `dynamic` block whose `for_each` is not known) is
 * `undefined`.
 */
export function toConfigModel<F extends Fields>(fields: F, v: ObjectValue): ConfigModelOf<F> {
  const out: Record<string, unknown> = {};
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const fv = v[name] ?? null;
    if (fv instanceof Unknown || (def.kind === 'attr' && !isWhollyKnown(def.type.cty, fv))) out[name] = undefined;
    else if (def.kind === 'attr') out[name] = meansNull(def, fv) ? null : valueToModel(def.type.cty, fv);
    else if (def.nesting === 'single' || def.nesting === 'group')
      out[name] = fv === null ? null : toConfigModel(def.fields, fv as ObjectValue);
    else out[name] = Array.isArray(fv) ? fv.map((e) => toConfigModel(def.fields, e as ObjectValue)) : [];
  }
  return out as ConfigModelOf<F>;
}

/**
 * A model → an object Value of the schema. Fields the model leaves `undefined` take the value from
 * `base` (the prior or planned state) so that operations only need to set what they know.
 */
export function fromModel<F extends Fields>(
  fields: F,
  model: Partial<ModelOf<F>>,
  base: ObjectValue | null,
  where = '',
): ObjectValue {
  const out: ObjectValue = {};
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const m = (model as Record<string, unknown>)[name];
    if (m === undefined) {
      out[name] = base ? (base[name] ?? null) : def.kind === 'block' && def.nesting !== 'single' ? [] : null;
      continue;
    }
    const path = where ? `${where}.${name}` : name;
    if (def.kind === 'attr') out[name] = plainToValue(def.type.cty, m, path);
    else if (def.nesting === 'single' || def.nesting === 'group')
      out[name] = m === null ? null : fromModel(def.fields, m as object, null, path);
    else {
      if (!Array.isArray(m)) throw new TypeError(`${path}: expected an array of blocks`);
      out[name] = m.map((e, i) => fromModel(def.fields, e as object, null, `${path}[${i}]`));
    }
  }
  return out;
}
