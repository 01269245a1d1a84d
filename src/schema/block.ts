/**
 * The protocol-neutral schema of a resource, data source or provider: Terraform's configschema.
 * The declaration DSL (define.ts) produces it; the wire encoder, the planner, Terraform's checks
 * (engine/checks), the docs and the Pulumi mapping all read it.
 */
import type { Value } from './value.js';
import { type CtyType, listOf, setOf, mapOf, objectOf, DYNAMIC, tupleOf } from './cty-type.js';

export type DescriptionKind = 'plain' | 'markdown';

export interface SchemaAttribute {
  readonly name: string;
  readonly type: CtyType;
  readonly description: string;
  readonly descriptionKind: DescriptionKind;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly sensitive: boolean;
  readonly deprecated: boolean;
  readonly deprecationMessage?: string;
  readonly writeOnly: boolean;
  /** Plan-time default for a null config value (not on the wire; used by planner, docs and Pulumi). */
  readonly default?: Value;
}

export type Nesting = 'single' | 'group' | 'list' | 'set' | 'map';

export interface SchemaNestedBlock {
  readonly typeName: string;
  readonly nesting: Nesting;
  readonly block: SchemaBlock;
  readonly minItems: number;
  /** 0 = unlimited */
  readonly maxItems: number;
}

export interface SchemaBlock {
  readonly attributes: Readonly<Record<string, SchemaAttribute>>;
  readonly blockTypes: Readonly<Record<string, SchemaNestedBlock>>;
  readonly description: string;
  readonly descriptionKind: DescriptionKind;
  readonly deprecated: boolean;
}

export interface Schema {
  /** State schema version, for UpgradeResourceState. */
  readonly version: number;
  readonly block: SchemaBlock;
}

/** True when the type contains `dynamic` anywhere (changes a LIST block to a tuple, protocol.md §2.3). */
export function containsDynamic(t: CtyType): boolean {
  switch (t.kind) {
    case 'dynamic':
      return true;
    case 'list':
    case 'set':
    case 'map':
      return containsDynamic(t.element);
    case 'object':
      return Object.values(t.attributes).some(containsDynamic);
    case 'tuple':
      return t.elements.some(containsDynamic);
    default:
      return false;
  }
}

const impliedCache = new WeakMap<SchemaBlock, CtyType>();

/** The object type that a block's values have on the wire (configschema ImpliedType). */
export function impliedType(block: SchemaBlock): CtyType {
  const cached = impliedCache.get(block);
  if (cached) return cached;
  const attrs: Record<string, CtyType> = {};
  for (const [name, a] of Object.entries(block.attributes)) attrs[name] = a.type;
  for (const [name, nb] of Object.entries(block.blockTypes)) attrs[name] = nestedBlockType(nb);
  const t = objectOf(attrs);
  impliedCache.set(block, t);
  return t;
}

export function nestedBlockType(nb: SchemaNestedBlock): CtyType {
  const inner = impliedType(nb.block);
  switch (nb.nesting) {
    case 'single':
    case 'group':
      return inner;
    case 'list':
      // A list block whose element type has a dynamic part is a tuple of unknown length; we never
      // declare dynamic attributes inside blocks, so this stays a list in practice.
      return containsDynamic(inner) ? DYNAMIC : listOf(inner);
    case 'set':
      return setOf(inner);
    case 'map':
      return containsDynamic(inner) ? DYNAMIC : mapOf(inner);
  }
}

export { tupleOf };
