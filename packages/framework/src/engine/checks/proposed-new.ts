/**
 * Port of Terraform core's objchange.ProposedNew (internal/plans/objchange/objchange.go): the
 * `proposed_new_state` Terraform sends in PlanResourceChange, merging the configuration with
 * the computed parts of the prior state (docs/protocol.md, "The proposed new state").
 *
 * The attributes, nested attributes (`nested_type`) among them, are merged in
 * proposed-new-attributes.ts. Not ported: the optional+computed "prior holds non-computed values"
 * exception of newer Terraform releases (optionalValueNotComputable), and computed blocks
 * (protocol 6.11), which SchemaBlock does not model.
 */
import { type SchemaAttribute, type SchemaBlock, type SchemaNestedBlock, impliedType } from '../../schema/block.js';
import { proposedNewAttributes } from './proposed-new-attributes.js';
import type { CtyType } from '../../schema/cty-type.js';
import { type ObjectValue, type Value, UNKNOWN, isUnknown } from '../../schema/value.js';
import { setEntry } from '../../schema/entries.js';
import { normalizeSet, valueEquals } from '../../schema/value-ops.js';
import {
  attrOf,
  effectiveType,
  elementsOf,
  emptyBlockValue,
  entriesOf,
  isKnownNonNull,
  nestedBlockValueType,
} from './util.js';

/**
 * objchange.ProposedNew. `prior` must be wholly known (null on create); `config` may contain
 * unknowns. Both must conform to the schema's implied type.
 */
export function proposedNew(schema: SchemaBlock, prior: Value, config: Value): Value {
  // Both null: stay null rather than inventing non-null nested blocks.
  if (config === null && prior === null) return null;
  // On create, pretend the prior was an empty block so every level has an object to read.
  const effectivePrior = prior === null ? emptyBlockValue(schema) : prior;
  return proposedNewBlock(schema, effectivePrior, config);
}

/**
 * objchange.PlannedDataResourceObject: how core plans a data source without asking the
 * provider. Running the merge against a wholly unknown prior turns every computed attribute
 * that is null in config into an unknown.
 */
export function plannedDataResourceObject(schema: SchemaBlock, config: Value): Value {
  return proposedNewBlock(schema, UNKNOWN, config);
}

/** objchange.proposedNew: prior is non-null here (maybe unknown). */
function proposedNewBlock(schema: SchemaBlock, prior: Value, config: Value): Value {
  if (config === null || isUnknown(config)) return prior;
  const out = proposedNewAttributes(schema.attributes, prior, config);
  for (const [name, nb] of Object.entries(schema.blockTypes)) {
    out[name] = proposedNewNestedBlock(nb, attrOf(prior, name), attrOf(config, name));
  }
  return out;
}

/** objchange.proposedNewNestedBlock: dispatch on nesting mode. */
function proposedNewNestedBlock(nb: SchemaNestedBlock, prior: Value, config: Value): Value {
  // Only a `dynamic` block with unknown for_each makes a whole block value unknown.
  if (isUnknown(config)) return config;
  switch (nb.nesting) {
    case 'single':
      // A single block may be absent (null); blocks cannot be computed, so take config.
      return config === null ? null : proposedNew(nb.block, prior, config);
    case 'group':
      return proposedNew(nb.block, prior, config);
    case 'list':
      return proposedNewNestingList(nb.block, prior, config);
    case 'map':
      return proposedNewNestingMap(nb.block, prior, config);
    case 'set':
      return proposedNewNestingSet(nb.block, prior, config);
  }
}

/** objchange.proposedNewNestingList: elements correlate by index. */
function proposedNewNestingList(block: SchemaBlock, prior: Value, config: Value): Value {
  const configElems = elementsOf(config);
  if (configElems.length === 0) return config;
  const priorElems = elementsOf(prior);
  return configElems.map((configEV, i) => {
    // A config element without a prior partner is taken as is.
    if (!isUnknown(prior) && i >= priorElems.length) return configEV;
    const priorEV = isUnknown(prior) ? UNKNOWN : priorElems[i]!;
    return proposedNew(block, priorEV, configEV);
  });
}

/** objchange.proposedNewNestingMap: elements correlate by key (the block label). */
function proposedNewNestingMap(block: SchemaBlock, prior: Value, config: Value): Value {
  const configEntries = entriesOf(config);
  if (config === null || Object.keys(configEntries).length === 0) return config;
  const priorEntries = isKnownNonNull(prior) ? entriesOf(prior) : {};
  const out: ObjectValue = {};
  for (const [key, configEV] of Object.entries(configEntries)) {
    const priorEV = Object.hasOwn(priorEntries, key) ? priorEntries[key]! : isUnknown(prior) ? UNKNOWN : null;
    setEntry(out, key, proposedNew(block, priorEV, configEV));
  }
  return out;
}

/**
 * objchange.proposedNewNestingSet: set elements have no identity, so each config element is
 * paired with the first unused prior element that could have been produced from it (same
 * non-computed values). Both sides are walked in go-cty's set order (normalizeSet) so that
 * ties resolve as they do in Terraform.
 */
function proposedNewNestingSet(block: SchemaBlock, prior: Value, config: Value): Value {
  const elemType = impliedType(block);
  const configElems = elementsOf(config);
  if (configElems.length === 0) return config;
  const priorElems = isKnownNonNull(prior) ? normalizeSet(elemType, elementsOf(prior)) : [];
  const used = priorElems.map(() => false);
  const merged = normalizeSet(elemType, configElems).map((configEV) => {
    const match = priorElems.findIndex((priorEV, i) => !used[i] && validPriorFromConfig(block, priorEV, configEV));
    if (match >= 0) used[match] = true;
    return proposedNew(block, match >= 0 ? priorElems[match]! : null, configEV);
  });
  // cty.SetVal collapses elements that became equal (only wholly known ones can).
  return normalizeSet(elemType, merged);
}

/**
 * objchange.validPriorFromConfig: could `prior` (a block object) have been planned from
 * `config`? True when they are equal, or differ only in computed attributes that are null in
 * config. Nested sets must match exactly. Go walks the prior value with cty.Walk and applies
 * each path to the config; this recursion visits the same places in the same way.
 */
export function validPriorFromConfig(block: SchemaBlock, prior: Value, config: Value): boolean {
  return blockObjectMatches(block, prior, config);
}

function blockObjectMatches(block: SchemaBlock, prior: Value, config: Value): boolean {
  const type = impliedType(block);
  if (valueEquals(type, config, prior)) return true;
  // cty.Walk does not descend into null or unknown prior values.
  if (!isKnownNonNull(prior)) return true;
  // Applying an attribute step to a null config value fails, which ends the walk as invalid.
  if (config === null) return Object.keys(block.attributes).length + Object.keys(block.blockTypes).length === 0;
  for (const [name, attr] of Object.entries(block.attributes)) {
    if (!leafMatches(attr, attrOf(prior, name), attrOf(config, name))) return false;
  }
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    if (!nestedBlockMatches(nb, attrOf(prior, name), attrOf(config, name))) return false;
  }
  return true;
}

/** A leaf attribute may only differ when it is computed and unset in config. */
function leafMatches(attr: SchemaAttribute, priorV: Value, configV: Value): boolean {
  if (valueEquals(attr.type, configV, priorV)) return true;
  // Values inside sets cannot be correlated further, so a set-typed value must match exactly.
  if (isSetType(effectiveType(attr.type, configV))) return false;
  return attr.computed && configV === null;
}

function nestedBlockMatches(nb: SchemaNestedBlock, priorV: Value, configV: Value): boolean {
  const type = nestedBlockValueType(nb);
  if (valueEquals(type, configV, priorV)) return true;
  if (nb.nesting === 'set') return false;
  if (!isKnownNonNull(priorV)) return true;
  switch (nb.nesting) {
    case 'single':
    case 'group':
      return blockObjectMatches(nb.block, priorV, configV);
    case 'list':
      return elementsOf(priorV).every((priorEV, i) => {
        const configEV = indexApply(configV, i);
        return configEV !== NO_VALUE && blockObjectMatches(nb.block, priorEV, configEV);
      });
    case 'map':
      return Object.entries(entriesOf(priorV)).every(([key, priorEV]) => {
        const configEV = keyApply(configV, key);
        return configEV !== NO_VALUE && blockObjectMatches(nb.block, priorEV, configEV);
      });
  }
}

/** Marks a failed cty.Path.Apply step (null collection, missing index or key). */
const NO_VALUE = Symbol('no value');

function indexApply(collection: Value, i: number): Value | typeof NO_VALUE {
  if (isUnknown(collection)) return UNKNOWN;
  const elems = Array.isArray(collection) ? collection : null;
  return elems && i < elems.length ? elems[i]! : NO_VALUE;
}

function keyApply(collection: Value, key: string): Value | typeof NO_VALUE {
  if (isUnknown(collection)) return UNKNOWN;
  const entries = entriesOf(collection);
  return collection !== null && Object.hasOwn(entries, key) ? entries[key]! : NO_VALUE;
}

function isSetType(t: CtyType): boolean {
  return t.kind === 'set';
}
