/**
 * Small helpers shared by the ports of Terraform's objchange checks: reading attributes of
 * possibly-null/unknown objects, a block's "empty value", path building and problem records.
 */
import { type SchemaBlock, type SchemaNestedBlock, impliedType } from '../../schema/block.js';
import { type CtyType, listOf, mapOf, setOf } from '../../schema/cty-type.js';
import { type AttributePath, type PathStep, attrStep } from '../../schema/path.js';
import { type ObjectValue, type Value, DynamicValue, UNKNOWN, isObjectValue, isUnknown } from '../../schema/value.js';

/** One inconsistency found by a check, relative to the resource object's root. */
export interface CheckProblem {
  path: AttributePath;
  message: string;
}

export const problem = (path: AttributePath, message: string): CheckProblem => ({ path, message });

export const childPath = (path: AttributePath, step: PathStep): AttributePath => [...path, step];
export const attrPath = (path: AttributePath, name: string): AttributePath => childPath(path, attrStep(name));

/**
 * An attribute of an object value, following cty's GetAttr: an unknown object has unknown
 * attributes, and we treat a null object as having null attributes (callers that must not
 * read through null check that themselves, as the Go code does).
 */
export function attrOf(obj: Value, name: string): Value {
  if (isUnknown(obj)) return UNKNOWN;
  if (!isObjectValue(obj)) return null;
  return obj[name] ?? null;
}

/** The elements of a list/set/tuple value; empty for null/unknown. */
export function elementsOf(v: Value): Value[] {
  return Array.isArray(v) ? v : [];
}

/** The entries of a map value; empty for null/unknown. */
export function entriesOf(v: Value): Record<string, Value> {
  return isObjectValue(v) ? v : {};
}

/** Known and not null. */
export const isKnownNonNull = (v: Value): boolean => v !== null && !isUnknown(v);

/** Element count of a known collection value (list/set as arrays, map as objects). */
export function lengthOf(v: Value): number {
  if (Array.isArray(v)) return v.length;
  if (isObjectValue(v)) return Object.keys(v).length;
  return 0;
}

/** configschema Block.EmptyValue: what an absent block body decodes to. */
export function emptyBlockValue(block: SchemaBlock): ObjectValue {
  const out: ObjectValue = {};
  for (const name of Object.keys(block.attributes)) out[name] = null;
  for (const [name, nb] of Object.entries(block.blockTypes)) out[name] = emptyNestedBlockValue(nb);
  return out;
}

/** configschema NestedBlock.EmptyValue: zero blocks of this type. */
export function emptyNestedBlockValue(nb: SchemaNestedBlock): Value {
  switch (nb.nesting) {
    case 'single':
      return null;
    case 'group':
      return emptyBlockValue(nb.block);
    case 'list':
    case 'set':
      return [];
    case 'map':
      return {};
  }
}

/**
 * The value type of a nested block. Unlike block.ts nestedBlockType, a LIST/MAP block with
 * dynamic attributes stays list/map-shaped here (our values are arrays/objects either way).
 */
export function nestedBlockValueType(nb: SchemaNestedBlock): CtyType {
  const inner = impliedType(nb.block);
  switch (nb.nesting) {
    case 'single':
    case 'group':
      return inner;
    case 'list':
      return listOf(inner);
    case 'set':
      return setOf(inner);
    case 'map':
      return mapOf(inner);
  }
}

/** The concrete type of a value at a `dynamic` position (or the static type elsewhere). */
export function effectiveType(type: CtyType, v: Value): CtyType {
  return type.kind === 'dynamic' && v instanceof DynamicValue ? v.type : type;
}

/** Terraform's tfdiags.FormatCtyPath rendering: `.rule[0].port`, `.tags["env"]`. */
export function ctyPathString(path: AttributePath): string {
  let out = '';
  for (const step of path) {
    if ('attr' in step) out += `.${step.attr}`;
    else if ('key' in step) out += `[${JSON.stringify(step.key)}]`;
    else out += `[${step.index}]`;
  }
  return out;
}

/** Terraform's tfdiags.FormatError for a path error: `.x: was "a", but now "b"`. */
export function formatProblem(p: CheckProblem): string {
  return p.path.length === 0 ? p.message : `${ctyPathString(p.path)}: ${p.message}`;
}
