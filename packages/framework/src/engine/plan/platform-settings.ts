/**
 * What the platform holds of an object, as the engine compares it: which fields are settings the
 * user gives the platform, and whether two values of an object hold the same settings, so that a
 * change the platform would not see (null to empty, another order of an unordered list, a
 * deprecated argument to the one that replaces it) sends nothing.
 */
import type { AttrDef, BlockDef, FieldDef, Fields } from '../../schema/define.js';
import { plainToValue, sameFieldMeaning, sameFieldValue, valueToPlain } from '../../schema/model.js';
import { fieldIndex, fieldList, fieldType } from '../../schema/fields.js';
import { Unknown, objectOrNull, type ObjectValue, type Value } from '../../schema/value.js';
import { dedupeSetElements, isWhollyKnown } from '../../schema/value-ops.js';
import { saysNothing } from '../../schema/empty-string.js';

/** A field the user can set (as opposed to computed-only output). */
export function isConfigurable(def: AttrDef<unknown> | BlockDef<Fields>): boolean {
  return (
    def.kind === 'block' ||
    def.options.required === true ||
    def.options.optional === true ||
    def.options.default !== undefined
  );
}

/** A field the user sets that the platform holds: a change to one is a change of the object (not `providerOnly`). */
export function isPlatformSetting(def: AttrDef<unknown> | BlockDef<Fields>): boolean {
  return isConfigurable(def) && !(def.kind === 'attr' && def.options.providerOnly === true);
}

/**
 * Whether two values of an object hold the same settings on the platform, so that an update between
 * them has nothing to send: every setting the same to the platform (`sameFieldValue`, at every depth),
 * each deprecated argument or block counted in the one that replaces it (its `readAs`), as the request
 * carries it. A change of form alone is no change of the object.
 */
export function samePlatformSettings(fields: Fields, a: ObjectValue, b: ObjectValue): boolean {
  const x = inCurrentForm(fields, a);
  const y = inCurrentForm(fields, b);
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    if (isPlatformSetting(def) && !sameSetting(def, x[name] ?? null, y[name] ?? null)) return false;
  }
  return true;
}

/** Whether two values of a field hold the same settings (see samePlatformSettings), blocks element by element. */
export function sameSetting(def: AttrDef<unknown> | BlockDef<Fields>, a: Value, b: Value): boolean {
  if (def.kind === 'attr') return sameFieldValue(def, a, b);
  if (sameFieldMeaning(def, a, b)) return true;
  if (def.nesting === 'single' || def.nesting === 'group') {
    const x = objectOrNull(a);
    const y = objectOrNull(b);
    return x !== null && y !== null && samePlatformSettings(def.fields, x, y);
  }
  const xs = elementsOf(a);
  const ys = elementsOf(b);
  if (xs === null || ys === null || xs.length !== ys.length) return false;
  if (def.nesting === 'list') {
    for (let i = 0; i < xs.length; i++) if (!samePlatformSettings(def.fields, xs[i]!, ys[i]!)) return false;
    return true;
  }
  // Set elements have no order: each pairs with one of the other's that holds the same.
  const used = new Set<number>();
  return xs.every((x) => {
    const i = ys.findIndex((y, j) => !used.has(j) && samePlatformSettings(def.fields, x, y));
    return i >= 0 && used.add(i) !== undefined;
  });
}

const elementsOf = (v: Value): ObjectValue[] | null =>
  v === null ? [] : Array.isArray(v) ? (v as ObjectValue[]) : null;

/**
 * `value` with each deprecated argument or block that has a replacement (`readAs`) moved into it, at
 * every depth: the form the platform's request takes, whichever the configuration wrote. A schema
 * with no such field anywhere (most) has the value in that form already: it is returned as it is.
 */
export function inCurrentForm(fields: Fields, value: ObjectValue): ObjectValue {
  const index = fieldIndex(fields);
  if (!index.readAsAnywhere) return value;
  const out: ObjectValue = { ...value };
  for (const { name, def } of index.all) {
    const v = out[name] ?? null;
    if (def.kind === 'block' && Array.isArray(v)) out[name] = v.map((e) => inCurrentForm(def.fields, e as ObjectValue));
    else if (def.kind === 'block' && v !== null && !(v instanceof Unknown))
      out[name] = inCurrentForm(def.fields, v as ObjectValue);
  }
  for (const { name, def } of index.readAs) {
    const readAs = def.options.readAs;
    const v = out[name] ?? null;
    if (!readAs || saysNothing(def, v) || !isWhollyKnown(fieldType(def), v)) continue;
    const into = out[readAs.field] ?? null;
    if (!isWhollyKnown(fieldType(fields[readAs.field]!), into)) continue;
    out[readAs.field] = movedInto(fields[readAs.field]!, into, v, readAs.convert);
    out[name] = def.kind === 'block' ? [] : null;
  }
  return out;
}

/**
 * `value` (of a deprecated field) in the form of the field that replaces it (`intoDef`), whose value
 * is `into`: collections (and blocks) take its elements, converted, after their own; another value
 * takes it when it has none.
 */
export function movedInto(
  intoDef: FieldDef,
  into: Value,
  value: Value,
  convert: (v: unknown) => unknown = (v) => v,
): Value {
  const type = fieldType(intoDef);
  if (type.kind !== 'list' && type.kind !== 'set') {
    return saysNothing(intoDef, into) ? plainToValue(type, convert(valueToPlain(value))) : into;
  }
  const own = Array.isArray(into) ? into : [];
  const moved = (valueToPlain(value) as unknown[]).map((e) => plainToValue(type.element, convert(e)));
  return type.kind === 'set' ? dedupeSetElements(type.element, [...own, ...moved]) : [...own, ...moved];
}
