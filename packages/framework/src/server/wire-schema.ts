/**
 * Neutral schema and paths → tfplugin6 message objects
 * (docs/protocol.md, "The schema on the wire"). Attribute and block order follows the declaration;
 * Terraform does not care, and docs read better.
 */
import type { Schema, SchemaAttribute, SchemaBlock, SchemaNestedBlock, Nesting } from '../schema/block.js';
import { typeToJSONString } from '../schema/cty-type.js';
import { withDeprecation } from '../schema/define.js';
import type { AttributePath } from '../schema/path.js';
import type { FunctionDef, FunctionParameter } from '../engine/functions/index.js';

type Msg = Record<string, unknown>;

const NESTING: Record<Nesting, number> = { single: 1, list: 2, set: 3, map: 4, group: 5 };
const STRING_KIND = { plain: 0, markdown: 1 } as const;

export function schemaToProto(schema: Schema): Msg {
  return { version: schema.version, block: blockToProto(schema.block) };
}

function blockToProto(block: SchemaBlock): Msg {
  return {
    version: 0,
    attributes: Object.values(block.attributes).map(attributeToProto),
    block_types: Object.values(block.blockTypes).map(nestedToProto),
    description: block.description,
    description_kind: STRING_KIND[block.descriptionKind],
    deprecated: block.deprecated,
    ...(block.deprecationMessage ? { deprecation_message: block.deprecationMessage } : {}),
  };
}

/** An attribute: a cty `type`, or a nested attribute's `nested_type` (never both: docs/protocol.md). */
function attributeToProto(a: SchemaAttribute): Msg {
  return {
    name: a.name,
    ...(a.nestedType
      ? {
          nested_type: {
            attributes: Object.values(a.nestedType.attributes).map(attributeToProto),
            nesting: NESTING[a.nestedType.nesting],
          },
        }
      : { type: Buffer.from(typeToJSONString(a.type)) }),
    description: a.description,
    description_kind: STRING_KIND[a.descriptionKind],
    required: a.required,
    optional: a.optional,
    computed: a.computed,
    sensitive: a.sensitive,
    deprecated: a.deprecated,
    ...(a.deprecationMessage ? { deprecation_message: a.deprecationMessage } : {}),
    write_only: a.writeOnly,
  };
}

function nestedToProto(nb: SchemaNestedBlock): Msg {
  return {
    type_name: nb.typeName,
    block: blockToProto(nb.block),
    nesting: NESTING[nb.nesting],
    min_items: nb.minItems,
    max_items: nb.maxItems,
  };
}

export function pathToProto(path: AttributePath): Msg {
  return {
    steps: path.map((s) =>
      'attr' in s
        ? { attribute_name: s.attr }
        : 'key' in s
          ? { element_key_string: s.key }
          : { element_key_int: s.index },
    ),
  };
}

/** A provider function as GetFunctions and GetProviderSchema carry it (tfplugin6.Function). */
export function functionToProto(def: FunctionDef): Msg {
  return {
    parameters: def.parameters.map(parameterToProto),
    ...(def.variadic ? { variadic_parameter: parameterToProto(def.variadic) } : {}),
    return: { type: Buffer.from(typeToJSONString(def.returns)) },
    summary: def.summary,
    description: withDeprecation(def.description, def.deprecated),
    description_kind: STRING_KIND.markdown,
    ...(def.deprecated ? { deprecation_message: def.deprecated } : {}),
  };
}

function parameterToProto(p: FunctionParameter): Msg {
  return {
    name: p.name,
    type: Buffer.from(typeToJSONString(p.type)),
    allow_null_value: p.allowNull === true,
    allow_unknown_values: p.allowUnknown === true,
    description: p.description,
    description_kind: STRING_KIND.markdown,
  };
}
