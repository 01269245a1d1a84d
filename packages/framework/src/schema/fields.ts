/**
 * A schema's fields as the walkers read them, made once per declaration: the engine visits every
 * field of every value on every call (validate, plan, read, the models), and the schema never
 * changes. `Object.entries(fields)` made a new array of pairs at each level of each call, and its
 * destructuring loop (the iterator protocol, twice) made the hot walkers large to run and to
 * optimise; an array of named fields, walked by index, is neither.
 */
import type { CtyType } from './cty-type.js';
import type { AttrDef, BlockDef, FieldDef, Fields } from './define.js';
import { nestedBlockType } from './block.js';
import type { ObjectValue } from './value.js';
import { valueEquals } from './value-ops.js';

/** One field of a schema with its name. */
export interface NamedField {
  readonly name: string;
  readonly def: FieldDef;
}

export interface FieldIndex {
  /** Every field, in the order `Object.entries` gives them. */
  readonly all: readonly NamedField[];
  /** The deprecated fields that name a replacement (`readAs`): most schemas have none. */
  readonly readAs: readonly NamedField[];
  /** Whether a field with `readAs` is here or in a block at any depth. */
  readonly readAsAnywhere: boolean;
}

const indexes = new WeakMap<Fields, FieldIndex>();

/** The index of a schema's fields (made at its first use, then shared). */
export function fieldIndex(fields: Fields): FieldIndex {
  let index = indexes.get(fields);
  if (index === undefined) {
    const all = Object.entries(fields).map(([name, def]): NamedField => ({ name, def }));
    const readAs = all.filter((f) => f.def.options.readAs !== undefined);
    const readAsAnywhere =
      readAs.length > 0 || all.some((f) => f.def.kind === 'block' && fieldIndex(f.def.fields).readAsAnywhere);
    index = { all, readAs, readAsAnywhere };
    indexes.set(fields, index);
  }
  return index;
}

/** The fields of a schema in the order `Object.entries` gives them, as an array made once. */
export const fieldList = (fields: Fields): readonly NamedField[] => fieldIndex(fields).all;

const blockTypeCache = new WeakMap<FieldDef, CtyType>();

/** The value type of a field; block types are built once per declaration (the planner asks often). */
export function fieldType(def: AttrDef<unknown> | BlockDef<Fields>): CtyType {
  if (def.kind === 'attr') return def.type.cty;
  let type = blockTypeCache.get(def);
  if (!type) {
    type = nestedBlockType({
      typeName: '',
      nesting: def.nesting,
      minItems: 0,
      maxItems: 0,
      block: blockOfFields(def.fields),
    });
    blockTypeCache.set(def, type);
  }
  return type;
}

// nestedBlockType only needs the implied type of the inner block; build it from the field types.
function blockOfFields(fields: Fields) {
  const attributes: Record<string, { type: CtyType }> = {};
  const blockTypes: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'attr') attributes[name] = { type: def.type.cty };
    else blockTypes[name] = { nesting: def.nesting, block: blockOfFields(def.fields) };
  }
  return { attributes, blockTypes } as never;
}

const asBlocks = new WeakMap<AttrDef<unknown>, BlockDef<Fields>>();

/**
 * A nested attribute's objects as the walkers of blocks read them: a block of its inner attributes with
 * its nesting, made once per declaration. Undefined for any other attribute. The walkers that treat a
 * nested attribute's inner attributes as a block's (validation, the plan) take it; the attribute itself,
 * which may be null, computed or have a default, stays an attribute.
 */
export function nestedAsBlock(def: AttrDef<unknown>): BlockDef<Fields> | undefined {
  const nested = def.nested;
  if (nested === undefined) return undefined;
  let block = asBlocks.get(def);
  if (block === undefined) {
    block = {
      kind: 'block',
      nesting: nested.nesting,
      fields: nested.fields,
      options: { description: def.options.description },
    };
    asBlocks.set(def, block);
  }
  return block;
}

/**
 * Whether every value of `config` is null or the stored one: then the configuration says nothing the
 * stored object did not, and the rules between arguments were judged when it was stored.
 */
export function holdsOnlyStored(fields: Fields, config: ObjectValue, stored: ObjectValue | null): boolean {
  if (stored === null) return false;
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const v = config[name] ?? null;
    if (v !== null && !valueEquals(fieldType(def), v, stored[name] ?? null)) return false;
  }
  return true;
}
