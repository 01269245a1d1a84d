/**
 * tfplugin6 schema messages → the neutral SchemaBlock, on the Terraform side. It also enforces the
 * schema rules Terraform checks when it loads a provider
 * (docs/protocol.md, "Rules Terraform checks when it loads a schema"), so a schema Terraform would
 * refuse fails our tests first.
 */
import {
  type Schema,
  type SchemaBlock,
  type SchemaNestedBlock,
  type Nesting,
  type SchemaAttribute,
  type SchemaObject,
  nestedAttributeType,
} from './block.js';
import { type CtyType, typeFromJSON } from './cty-type.js';
import { ownEntry } from '../wire/own-entry.js';

type Msg = Record<string, any>;
const NESTING: Record<number, Nesting> = { 1: 'single', 2: 'list', 3: 'set', 4: 'map', 5: 'group' };

export function schemaFromProto(msg: Msg, where: string): Schema {
  if (!msg?.block) throw new Error(`${where}: schema has no block`);
  if (Number(msg.version) < 0) throw new Error(`${where}: negative schema version`);
  return { version: Number(msg.version ?? 0), block: blockFromProto(msg.block, where) };
}

/** An attribute: a cty `type`, or a nested attribute's `nested_type` (exactly one of them). */
function attributeFromProto(a: Msg, where: string): SchemaAttribute {
  const at = `${where}.${a.name}`;
  if (!/^[a-z0-9_]+$/.test(a.name)) throw new Error(`${at}: invalid attribute name`);
  const flags = [a.required, a.optional, a.computed];
  if (!flags.some(Boolean)) throw new Error(`${at}: must be required, optional or computed`);
  if (a.required && (a.optional || a.computed)) throw new Error(`${at}: cannot be required and optional/computed`);
  const hasType = a.type !== undefined && a.type !== null && Buffer.from(a.type).length > 0;
  if (hasType === (a.nested_type !== undefined && a.nested_type !== null))
    throw new Error(`${at}: needs exactly one of type and nested_type`);
  let type: CtyType;
  let nestedType: SchemaObject | undefined;
  if (hasType) type = typeFromJSON(JSON.parse(Buffer.from(a.type).toString('utf8')));
  else {
    const nesting = ownEntry(NESTING, a.nested_type.nesting);
    if (nesting === undefined || nesting === 'group') throw new Error(`${at}: invalid nesting mode`);
    const inner: Record<string, SchemaAttribute> = {};
    for (const n of a.nested_type.attributes ?? []) {
      if (Object.hasOwn(inner, n.name)) throw new Error(`${at}.${n.name}: duplicate attribute`);
      inner[n.name] = attributeFromProto(n, at);
    }
    nestedType = { attributes: inner, nesting };
    type = nestedAttributeType(Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, v.type])), nesting);
  }
  return {
    name: a.name,
    type,
    description: a.description ?? '',
    descriptionKind: a.description_kind === 1 ? 'markdown' : 'plain',
    required: !!a.required,
    optional: !!a.optional,
    computed: !!a.computed,
    sensitive: !!a.sensitive,
    deprecated: !!a.deprecated,
    writeOnly: !!a.write_only,
    ...(nestedType ? { nestedType } : {}),
  };
}

function blockFromProto(b: Msg, where: string): SchemaBlock {
  const attributes: Record<string, SchemaAttribute> = {};
  const blockTypes: Record<string, SchemaNestedBlock> = {};
  for (const a of b.attributes ?? []) {
    if (a.name in attributes) throw new Error(`${where}.${a.name}: duplicate attribute`);
    attributes[a.name] = attributeFromProto(a, where);
  }
  for (const nb of b.block_types ?? []) {
    const at = `${where}.${nb.type_name}`;
    if (Object.hasOwn(attributes, nb.type_name) || Object.hasOwn(blockTypes, nb.type_name))
      throw new Error(`${at}: name used twice`);
    const nesting = ownEntry(NESTING, nb.nesting);
    if (!nesting) throw new Error(`${at}: invalid nesting mode ${nb.nesting}`);
    const min = Number(nb.min_items ?? 0);
    const max = Number(nb.max_items ?? 0);
    if (nesting === 'single' && !(min === max && (min === 0 || min === 1)))
      throw new Error(`${at}: single block needs min = max = 0 or 1`);
    if ((nesting === 'group' || nesting === 'map') && (min !== 0 || max !== 0))
      throw new Error(`${at}: ${nesting} block cannot have min/max items`);
    if (max !== 0 && min > max) throw new Error(`${at}: min_items > max_items`);
    blockTypes[nb.type_name] = {
      typeName: nb.type_name,
      nesting,
      minItems: min,
      maxItems: max,
      block: blockFromProto(nb.block ?? {}, at),
    };
  }
  return {
    attributes,
    blockTypes,
    description: b.description ?? '',
    descriptionKind: b.description_kind === 1 ? 'markdown' : 'plain',
    deprecated: !!b.deprecated,
  };
}
