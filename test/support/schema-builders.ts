/** Small builders for hand-made Terraform wire schemas, for the tests that need one. */
import type {
  Nesting,
  Schema,
  SchemaAttribute,
  SchemaBlock,
  SchemaNestedBlock,
} from '../../packages/framework/src/schema/block.js';
import {
  BOOL,
  NUMBER,
  STRING,
  listOf,
  setOf,
  mapOf,
  objectOf,
  type CtyType,
} from '../../packages/framework/src/schema/cty-type.js';
import type { Value } from '../../packages/framework/src/schema/value.js';

/** R required, O optional, C computed, OC optional+computed. */
export type Mode = 'R' | 'O' | 'C' | 'OC';

export interface AttrExtras {
  description?: string;
  sensitive?: boolean;
  deprecated?: string;
  default?: Value;
  writeOnly?: boolean;
}

/** A wire attribute with every flag off but those `flags` set. */
export function schemaAttribute(name: string, type: CtyType, flags: Partial<SchemaAttribute> = {}): SchemaAttribute {
  return {
    name,
    type,
    description: '',
    descriptionKind: 'markdown',
    required: false,
    optional: false,
    computed: false,
    sensitive: false,
    deprecated: false,
    writeOnly: false,
    ...flags,
  };
}

export function attr(type: CtyType, mode: Mode, extras: AttrExtras = {}): SchemaAttribute {
  // A default is applied at plan time, so the attribute is optional+computed (as define.ts declares it).
  const m: Mode = extras.default !== undefined ? 'OC' : mode;
  return schemaAttribute('', type, {
    description: extras.description ?? '',
    required: m === 'R',
    optional: m === 'O' || m === 'OC',
    computed: m === 'C' || m === 'OC',
    sensitive: extras.sensitive === true,
    deprecated: extras.deprecated !== undefined,
    ...(extras.deprecated !== undefined ? { deprecationMessage: extras.deprecated } : {}),
    writeOnly: extras.writeOnly === true,
    ...(extras.default !== undefined ? { default: extras.default } : {}),
  });
}

export const str = (mode: Mode, extras?: AttrExtras) => attr(STRING, mode, extras);
export const num = (mode: Mode, extras?: AttrExtras) => attr(NUMBER, mode, extras);
export const bool = (mode: Mode, extras?: AttrExtras) => attr(BOOL, mode, extras);
export const strList = (mode: Mode, extras?: AttrExtras) => attr(listOf(STRING), mode, extras);
export const strSet = (mode: Mode, extras?: AttrExtras) => attr(setOf(STRING), mode, extras);
export const strMap = (mode: Mode, extras?: AttrExtras) => attr(mapOf(STRING), mode, extras);
export { STRING, NUMBER, BOOL, listOf, setOf, mapOf, objectOf };

export type Field = SchemaAttribute | SchemaNestedBlock;
const isBlock = (f: Field): f is SchemaNestedBlock => 'nesting' in f;

export function block(fields: Record<string, Field>, description = '', deprecated = false): SchemaBlock {
  const attributes: Record<string, SchemaAttribute> = {};
  const blockTypes: Record<string, SchemaNestedBlock> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (isBlock(f)) blockTypes[name] = { ...f, typeName: name };
    else attributes[name] = { ...f, name };
  }
  return { attributes, blockTypes, description, descriptionKind: 'markdown', deprecated };
}

export function nested(
  nesting: Nesting,
  fields: Record<string, Field>,
  opts: { min?: number; max?: number; description?: string; deprecated?: boolean } = {},
): SchemaNestedBlock {
  return {
    typeName: '',
    nesting,
    block: block(fields, opts.description ?? '', opts.deprecated ?? false),
    minItems: opts.min ?? 0,
    maxItems: opts.max ?? 0,
  };
}

/** A single object written as a block: LIST, max_items 1 (min_items 1 when required). */
export const one = (fields: Record<string, Field>, required = false, description = '') =>
  nested('list', fields, { min: required ? 1 : 0, max: 1, description });

export function schema(fields: Record<string, Field>, description = ''): Schema {
  return { version: 0, block: block(fields, description) };
}
