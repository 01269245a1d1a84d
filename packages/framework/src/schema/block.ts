/**
 * The protocol-neutral schema of a resource, data source or provider: Terraform's configschema.
 * The declaration DSL (define.ts) produces it; the wire encoder, the planner, Terraform's checks
 * (engine/checks), the docs and the Pulumi mapping all read it.
 */
import { Unknown, type ObjectValue, type Value } from './value.js';
import type { AttributePath } from './path.js';
import { hasNullElement, isWhollyKnown } from './value-ops.js';
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
  /**
   * A nested attribute's object (tfplugin6 `Schema.Attribute.nested_type`): its attributes, each with
   * its own flags, and how they nest. `type` is then its implied type (nestedAttributeType).
   */
  readonly nestedType?: SchemaObject;
}

/** How a nested attribute's objects nest (configschema.Object: no GROUP). */
export type ObjectNesting = 'single' | 'list' | 'set' | 'map';

/** configschema.Object: the type of a nested attribute. */
export interface SchemaObject {
  readonly attributes: Readonly<Record<string, SchemaAttribute>>;
  readonly nesting: ObjectNesting;
}

/**
 * configschema.Object.ImpliedType: an object of the inner attributes' types (no optional markers:
 * those only shape how configuration converts), as one object or a list, set or map of them.
 */
export function nestedAttributeType(attributes: Readonly<Record<string, CtyType>>, nesting: ObjectNesting): CtyType {
  const inner = objectOf({ ...attributes });
  switch (nesting) {
    case 'single':
      return inner;
    case 'list':
      return listOf(inner);
    case 'set':
      return setOf(inner);
    case 'map':
      return mapOf(inner);
  }
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
  /** What to use instead, when deprecated (Schema.Block.deprecation_message). */
  readonly deprecationMessage?: string;
}

export interface Schema {
  /** State schema version, for UpgradeResourceState. */
  readonly version: number;
  readonly block: SchemaBlock;
}

/**
 * True when the type contains `dynamic` anywhere (changes a LIST block to a tuple,
 * docs/protocol.md, "Dynamic types in blocks").
 */
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

/** Which of Terraform's guarantees a decoded value is checked against (see blockShapeProblem). */
export interface ShapeRules {
  /** List blocks have between min and max items: Terraform enforces them on configuration. */
  readonly itemCounts: boolean;
  /** No collection attribute holds a null element: true of every state this provider wrote. */
  readonly noNullElements: boolean;
  /** No value anywhere is unknown: true of every stored state (Terraform stores only known values). */
  readonly known: boolean;
}

/** The rules a decoded value is still to be checked against, or null when none is left. */
export function rulesLeftAfterDecoding(
  rules: ShapeRules,
  decoded: { readonly sawUnknown: boolean; readonly sawNullElement: boolean },
): ShapeRules | null {
  // A value with no unknown and no null element anywhere keeps every rule but the item counts: its
  // attributes are known and hold no null element, its blocks' elements are neither null nor unknown.
  if (decoded.sawUnknown || decoded.sawNullElement) return rules;
  return rules.itemCounts ? ITEM_COUNTS_ONLY : null;
}

const ITEM_COUNTS_ONLY: ShapeRules = Object.freeze({ itemCounts: true, noNullElements: false, known: false });

/**
 * Where an object value breaks what Terraform guarantees for blocks (the elements of a nested
 * block's list, set or map are objects, never null or unknown) or the given rules. Decoding alone
 * cannot tell: an attribute of type list(object) may hold null elements. Null when the value keeps to
 * them all, so resource code may rely on them.
 */
export function blockShapeProblem(
  block: SchemaBlock,
  value: ObjectValue,
  rules: ShapeRules,
  path: AttributePath = [],
): { path: AttributePath; message: string } | null {
  const entries = blockEntries(block);
  // Without the `known` rule, only a collection can break a rule: the other attributes are not visited.
  const attributes = rules.known ? entries.attributes : rules.noNullElements ? entries.collections : NONE;
  const blockTypes = entries.blockTypes;
  for (let i = 0; i < attributes.length; i++) {
    const { name, type } = attributes[i]!;
    const v = value[name] ?? null;
    if (rules.noNullElements && hasNullElement(type, v))
      return { path: [...path, { attr: name }], message: 'a collection holds a null element' };
    if (rules.known && !isWhollyKnown(type, v))
      return { path: [...path, { attr: name }], message: 'the value is unknown, which a stored state never is' };
  }
  for (let i = 0; i < blockTypes.length; i++) {
    const { name, nb } = blockTypes[i]!;
    const v = value[name] ?? null;
    if (v === null && !rules.itemCounts) continue;
    const problem = nestedBlockProblem(name, nb, v, rules, path);
    if (problem) return problem;
  }
  return null;
}

/** The attributes and nested blocks of a block as arrays, made once per block (see blockShapeProblem). */
interface NamedType {
  readonly name: string;
  readonly type: CtyType;
}

interface BlockEntries {
  readonly attributes: readonly NamedType[];
  /** The attributes whose values may hold a null element (hasNullElement): lists, sets, maps and objects. */
  readonly collections: readonly NamedType[];
  readonly blockTypes: readonly { readonly name: string; readonly nb: SchemaNestedBlock }[];
}

const NONE: readonly NamedType[] = [];

const blockEntriesCache = new WeakMap<SchemaBlock, BlockEntries>();

function blockEntries(block: SchemaBlock): BlockEntries {
  let entries = blockEntriesCache.get(block);
  if (entries === undefined) {
    const attributes = Object.entries(block.attributes).map(([name, a]) => ({ name, type: a.type }));
    entries = {
      attributes,
      collections: attributes.filter(
        ({ type }) => type.kind === 'list' || type.kind === 'set' || type.kind === 'map' || type.kind === 'object',
      ),
      blockTypes: Object.entries(block.blockTypes).map(([name, nb]) => ({ name, nb })),
    };
    blockEntriesCache.set(block, entries);
  }
  return entries;
}

function nestedBlockProblem(
  name: string,
  nb: SchemaNestedBlock,
  v: Value,
  rules: ShapeRules,
  path: AttributePath,
): { path: AttributePath; message: string } | null {
  const here = [...path, { attr: name }];
  if (rules.itemCounts && nb.nesting === 'list' && !(v instanceof Unknown)) {
    const n = v === null ? 0 : (v as Value[]).length;
    if (n < nb.minItems)
      return { path: here, message: `at least ${nb.minItems} ${name} block(s) are required (${n} given)` };
    if (nb.maxItems > 0 && n > nb.maxItems)
      return { path: here, message: `at most ${nb.maxItems} ${name} block(s) are allowed (${n} given)` };
  }
  if (rules.known && v instanceof Unknown)
    return { path: here, message: 'the block is unknown, which a stored state never is' };
  if (v === null || v instanceof Unknown) return null;
  if (nb.nesting === 'single' || nb.nesting === 'group')
    return blockShapeProblem(nb.block, v as ObjectValue, rules, here);
  if (nb.nesting === 'map') {
    for (const k of Object.keys(v as ObjectValue)) {
      const problem = elementProblem(name, nb, (v as ObjectValue)[k]!, rules, [...here, { key: k }]);
      if (problem) return problem;
    }
    return null;
  }
  const elements = v as Value[];
  for (let i = 0; i < elements.length; i++) {
    const problem = elementProblem(
      name,
      nb,
      elements[i]!,
      rules,
      nb.nesting === 'list' ? [...here, { index: i }] : here,
    );
    if (problem) return problem;
  }
  return null;
}

function elementProblem(
  name: string,
  nb: SchemaNestedBlock,
  e: Value,
  rules: ShapeRules,
  at: AttributePath,
): { path: AttributePath; message: string } | null {
  if (e === null || e instanceof Unknown)
    return { path: at, message: `a ${name} block element is ${e === null ? 'null' : 'unknown'}` };
  return blockShapeProblem(nb.block, e as ObjectValue, rules, at);
}

export { tupleOf };
