/**
 * Terraform's type system (cty) and its JSON form, as used in schema attribute `type` bytes
 * (docs/protocol.md, "Types and their JSON form"). Types are plain immutable objects; compare them
 * with `typeEquals`.
 */
import { setEntry } from './entries.js';

export type CtyType =
  | { readonly kind: 'string' }
  | { readonly kind: 'number' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'dynamic' }
  | { readonly kind: 'list'; readonly element: CtyType }
  | { readonly kind: 'set'; readonly element: CtyType }
  | { readonly kind: 'map'; readonly element: CtyType }
  | {
      readonly kind: 'object';
      readonly attributes: Readonly<Record<string, CtyType>>;
      readonly optional?: readonly string[];
    }
  | { readonly kind: 'tuple'; readonly elements: readonly CtyType[] };

export const STRING: CtyType = Object.freeze({ kind: 'string' });
export const NUMBER: CtyType = Object.freeze({ kind: 'number' });
export const BOOL: CtyType = Object.freeze({ kind: 'bool' });
export const DYNAMIC: CtyType = Object.freeze({ kind: 'dynamic' });

export const listOf = (element: CtyType): CtyType => ({ kind: 'list', element });
export const setOf = (element: CtyType): CtyType => ({ kind: 'set', element });
export const mapOf = (element: CtyType): CtyType => ({ kind: 'map', element });
export const objectOf = (attributes: Record<string, CtyType>, optional?: string[]): CtyType =>
  optional && optional.length > 0
    ? { kind: 'object', attributes, optional: [...optional].sort() }
    : { kind: 'object', attributes };
export const tupleOf = (elements: CtyType[]): CtyType => ({ kind: 'tuple', elements });

export function isPrimitive(t: CtyType): boolean {
  return t.kind === 'string' || t.kind === 'number' || t.kind === 'bool';
}

export function isCollection(t: CtyType): t is Extract<CtyType, { kind: 'list' | 'set' | 'map' }> {
  return t.kind === 'list' || t.kind === 'set' || t.kind === 'map';
}

/**
 * The JSON form of a type (docs/protocol.md, "Types and their JSON form"); object attribute names
 * in sorted order.
 */
export function typeToJSON(t: CtyType): unknown {
  switch (t.kind) {
    case 'string':
    case 'number':
    case 'bool':
    case 'dynamic':
      return t.kind;
    case 'list':
    case 'set':
    case 'map':
      return [t.kind, typeToJSON(t.element)];
    case 'object': {
      const attrs: Record<string, unknown> = {};
      for (const name of Object.keys(t.attributes).sort()) setEntry(attrs, name, typeToJSON(t.attributes[name]!));
      return t.optional && t.optional.length > 0 ? ['object', attrs, [...t.optional].sort()] : ['object', attrs];
    }
    case 'tuple':
      return ['tuple', t.elements.map(typeToJSON)];
  }
}

/** The exact bytes that go into a schema attribute's `type` field. */
export function typeToJSONString(t: CtyType): string {
  return JSON.stringify(typeToJSON(t));
}

/** Parses a type's JSON form; throws TypeError with a readable message on anything else. */
export function typeFromJSON(json: unknown): CtyType {
  if (typeof json === 'string') {
    switch (json) {
      case 'string':
        return STRING;
      case 'number':
        return NUMBER;
      case 'bool':
        return BOOL;
      case 'dynamic':
        return DYNAMIC;
    }
    throw new TypeError(`unknown type name ${JSON.stringify(json.slice(0, 64))}`);
  }
  if (!Array.isArray(json) || json.length < 2 || typeof json[0] !== 'string') {
    throw new TypeError('a type must be a type name or an array [kind, ...]');
  }
  const [kind, arg, extra] = json as [string, unknown, unknown];
  switch (kind) {
    case 'list':
    case 'set':
    case 'map':
      if (json.length !== 2) throw new TypeError(`${kind} type takes exactly one element type`);
      return { kind, element: typeFromJSON(arg) };
    case 'object': {
      if (arg === null || typeof arg !== 'object' || Array.isArray(arg))
        throw new TypeError('object type needs an attribute map');
      const attributes: Record<string, CtyType> = {};
      for (const [name, at] of Object.entries(arg as Record<string, unknown>))
        setEntry(attributes, name, typeFromJSON(at));
      if (json.length === 3) {
        if (!Array.isArray(extra) || !extra.every((n) => typeof n === 'string' && Object.hasOwn(attributes, n))) {
          throw new TypeError('object type optional-attribute list is malformed');
        }
        return objectOf(attributes, extra as string[]);
      }
      if (json.length !== 2) throw new TypeError('object type has too many parts');
      return { kind: 'object', attributes };
    }
    case 'tuple':
      if (!Array.isArray(arg) || json.length !== 2) throw new TypeError('tuple type needs an array of element types');
      return { kind: 'tuple', elements: arg.map(typeFromJSON) };
  }
  throw new TypeError(`unknown type kind ${JSON.stringify(kind.slice(0, 64))}`);
}

export function typeEquals(a: CtyType, b: CtyType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'list':
    case 'set':
    case 'map':
      return typeEquals(a.element, (b as typeof a).element);
    case 'object': {
      const bo = b as typeof a;
      const ak = Object.keys(a.attributes);
      if (ak.length !== Object.keys(bo.attributes).length) return false;
      for (const k of ak) {
        const bt = bo.attributes[k];
        if (!bt || !typeEquals(a.attributes[k]!, bt)) return false;
      }
      return (a.optional ?? []).join('\0') === (bo.optional ?? []).join('\0');
    }
    case 'tuple': {
      const bt = b as typeof a;
      return a.elements.length === bt.elements.length && a.elements.every((e, i) => typeEquals(e, bt.elements[i]!));
    }
    default:
      return true;
  }
}

/** Human form for diagnostics, as Terraform prints types: `list of string`, `object`. */
export function friendlyTypeName(t: CtyType): string {
  switch (t.kind) {
    case 'list':
    case 'set':
    case 'map':
      return `${t.kind} of ${friendlyTypeName(t.element)}`;
    default:
      return t.kind;
  }
}
