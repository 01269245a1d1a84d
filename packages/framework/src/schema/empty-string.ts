/**
 * What an empty string is for an attribute (AttrOptions `emptyString`), decided here once for every
 * step that counts empty values as null (value-ops `isEmptyValue`, "null ≡ empty"): validation, plan,
 * the models operations get, apply, read and generated configuration. By default `""` says no more
 * than null; for an attribute declared `emptyString: 'value'` it is a value of its own, distinct from
 * null in every comparison. Empty collections (`[]`, `{}`) mean null for every attribute.
 */
import type { BlockDef, FieldDef, Fields } from './define.js';
import { fieldList, fieldType } from './fields.js';
import type { ObjectValue, Value } from './value.js';
import { isEmptyValue, isPlainObject, sameMeaning, valueEquals } from './value-ops.js';

/** The rule: whether `""` is a value of its own for this field (only an attribute that declares it). */
export function emptyStringIsValue(def: FieldDef): boolean {
  return def.kind === 'attr' && def.options.emptyString === 'value';
}

/**
 * Whether a value of the field says no more than null: null, an empty collection, or `""` unless the
 * field's rule makes it a value. What every attribute-level "is it empty" of the engine asks.
 */
export function saysNothing(def: FieldDef, v: Value): boolean {
  return v === '' ? !emptyStringIsValue(def) : isEmptyValue(v);
}

/**
 * value-ops `sameMeaning` (null ≡ empty, at every depth) under the fields' rules: for an attribute
 * whose `""` is a value, `""` and null differ, also for one inside a block.
 */
export function sameMeaningOf(def: FieldDef, a: Value, b: Value): boolean {
  if (def.kind === 'attr')
    return emptyStringIsValue(def) ? valueEquals(def.type.cty, a, b) : sameMeaning(def.type.cty, a, b);
  if (!holdsEmptyStringValues(def.fields)) return sameMeaning(fieldType(def), a, b);
  return sameBlockMeaning(def, a, b);
}

const holding = new WeakMap<Fields, boolean>();

/** Whether an attribute here or in a block at any depth declares `emptyString: 'value'` (most hold none). */
function holdsEmptyStringValues(fields: Fields): boolean {
  let holds = holding.get(fields);
  if (holds === undefined) {
    holds = fieldList(fields).some(({ def }) =>
      def.kind === 'attr' ? emptyStringIsValue(def) : holdsEmptyStringValues(def.fields),
    );
    holding.set(fields, holds);
  }
  return holds;
}

/** A block's values compared field by field, so that each attribute's rule is heard. */
function sameBlockMeaning(def: BlockDef<Fields>, a: Value, b: Value): boolean {
  const type = fieldType(def);
  if (def.nesting === 'single' || def.nesting === 'group')
    return isPlainObject(a) && isPlainObject(b) ? sameObjectMeaning(def.fields, a, b) : sameMeaning(type, a, b);
  // Null and no elements mean the same; a null or unknown against elements differs, as sameMeaning says.
  if (!Array.isArray(a) || !Array.isArray(b) || a.length === 0 || b.length === 0) return sameMeaning(type, a, b);
  if (a.length !== b.length) return false;
  const element = (type as { readonly element: typeof type }).element;
  const same = (x: Value, y: Value) =>
    isPlainObject(x) && isPlainObject(y) ? sameObjectMeaning(def.fields, x, y) : sameMeaning(element, x, y);
  if (def.nesting === 'list') return a.every((x, i) => same(x, b[i]!));
  return a.every((x) => b.some((y) => same(x, y))) && b.every((y) => a.some((x) => same(x, y)));
}

function sameObjectMeaning(fields: Fields, a: ObjectValue, b: ObjectValue): boolean {
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    if (!sameMeaningOf(def, a[name] ?? null, b[name] ?? null)) return false;
  }
  return true;
}
