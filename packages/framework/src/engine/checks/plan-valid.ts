/**
 * Port of Terraform core's objchange.AssertPlanValid (internal/plans/objchange/plan_valid.go):
 * is the provider's `planned_state` an acceptable way to get from `prior` to `config`?
 * (docs/protocol.md, "Planned values Terraform accepts"). Problems are worded as Terraform words
 * them; Terraform prefixes each with "Provider produced invalid plan".
 *
 * The attributes, nested attributes (`nested_type`) among them, are judged in plan-valid-attributes.ts.
 * Not ported: computed blocks (protocol 6.11; SchemaBlock has no `computed` flag, so every block is
 * treated as non-computed). Set-block elements cannot be
 * addressed by our AttributePath, so problems inside them are reported at the set's path.
 */
import type { SchemaBlock, SchemaNestedBlock } from '../../schema/block.js';
import { plannedAttrsValid } from './plan-valid-attributes.js';
import type { AttributePath } from '../../schema/path.js';
import { indexStep, keyStep } from '../../schema/path.js';
import { type Value, isUnknown } from '../../schema/value.js';
import { formatValue, valueEquals } from '../../schema/value-ops.js';
import {
  type CheckProblem,
  attrOf,
  attrPath,
  childPath,
  elementsOf,
  entriesOf,
  lengthOf,
  nestedBlockValueType,
  problem,
} from './util.js';

export type { CheckProblem } from './util.js';

/** objchange.AssertPlanValid; an empty result means Terraform accepts the plan. */
export function assertPlanValid(schema: SchemaBlock, prior: Value, config: Value, planned: Value): CheckProblem[] {
  return planValidBlock(schema, prior, config, planned, []);
}

/** objchange.assertPlanValid: one block object (the resource itself or a nested block). */
function planValidBlock(
  schema: SchemaBlock,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
): CheckProblem[] {
  if (planned === null && config !== null) return [problem(path, 'planned for absence but config wants existence')];
  if (config === null && planned !== null) return [problem(path, 'planned for existence but config wants absence')];
  if (planned === null) return [];

  const problems = plannedAttrsValid(schema.attributes, prior, config, planned, path);
  for (const [name, nb] of Object.entries(schema.blockTypes)) {
    problems.push(
      ...plannedBlockValid(nb, attrOf(prior, name), attrOf(config, name), attrOf(planned, name), attrPath(path, name)),
    );
  }
  return problems;
}

/** The nested-block half of objchange.assertPlanValid. */
function plannedBlockValid(
  nb: SchemaNestedBlock,
  priorV: Value,
  configV: Value,
  plannedV: Value,
  path: AttributePath,
): CheckProblem[] {
  // Only a single block may be null; the computed-block shortcut below must not hide that.
  if (nb.nesting !== 'single' && plannedV === null) {
    return [
      problem(
        path,
        `attribute representing a ${nb.nesting} of nested blocks must be empty to indicate no blocks, not null`,
      ),
    ];
  }
  const type = nestedBlockValueType(nb);
  if (valueEquals(type, plannedV, configV)) return [];
  // A `dynamic` block with unknown for_each cannot be altered by the provider.
  if (isUnknown(configV))
    return [problem(path, `planned value ${formatValue(type, plannedV)} for unknown dynamic block`)];
  // The rest cannot cope with a wholly unknown block value, so reject it as a whole.
  if (isUnknown(plannedV)) return [problem(path, 'planned unknown value for non-computed block')];

  switch (nb.nesting) {
    case 'single':
    case 'group':
      return planValidBlock(nb.block, priorV, configV, plannedV, path);
    case 'list':
      return plannedListBlockValid(nb, priorV, configV, plannedV, path);
    case 'map':
      return plannedMapBlockValid(nb, priorV, configV, plannedV, path);
    case 'set':
      return plannedSetBlockValid(plannedV, path);
  }
}

const UNKNOWN_ELEMENT =
  'element representing nested block must not be unknown itself; set nested attribute values to unknown instead';

/** NestingList: counts must match config, elements correlate by index. */
function plannedListBlockValid(
  nb: SchemaNestedBlock,
  priorV: Value,
  configV: Value,
  plannedV: Value,
  path: AttributePath,
): CheckProblem[] {
  // A null config list (possible via ignore_changes on legacy values) counts as empty.
  const configElems = elementsOf(configV);
  const plannedElems = elementsOf(plannedV);
  if (plannedElems.length !== configElems.length) {
    return [
      problem(
        path,
        `block count in plan (${plannedElems.length}) disagrees with count in config (${configElems.length})`,
      ),
    ];
  }
  const priorElems = elementsOf(priorV);
  const problems: CheckProblem[] = [];
  plannedElems.forEach((plannedEV, i) => {
    const elemPath = childPath(path, indexStep(i));
    if (isUnknown(plannedEV)) {
      problems.push(problem(elemPath, UNKNOWN_ELEMENT));
      return;
    }
    const priorEV = i < priorElems.length ? priorElems[i]! : null;
    problems.push(...planValidBlock(nb.block, priorEV, configElems[i]!, plannedEV, elemPath));
  });
  return problems;
}

/** NestingMap: keys must match config exactly, elements correlate by key. */
function plannedMapBlockValid(
  nb: SchemaNestedBlock,
  priorV: Value,
  configV: Value,
  plannedV: Value,
  path: AttributePath,
): CheckProblem[] {
  const plannedL = lengthOf(plannedV);
  const configL = lengthOf(configV);
  if (plannedL !== configL) {
    return [problem(path, `block count in plan (${plannedL}) disagrees with count in config (${configL})`)];
  }
  const configEntries = entriesOf(configV);
  const plannedEntries = entriesOf(plannedV);
  const priorEntries = entriesOf(priorV);
  const problems: CheckProblem[] = [];
  for (const [key, plannedEV] of Object.entries(plannedEntries)) {
    const elemPath = childPath(path, keyStep(key));
    if (isUnknown(plannedEV)) {
      problems.push(problem(elemPath, UNKNOWN_ELEMENT));
      continue;
    }
    if (!Object.hasOwn(configEntries, key)) {
      problems.push(problem(elemPath, `block key ${JSON.stringify(key)} from plan is not present in config`));
      continue;
    }
    const priorEV = Object.hasOwn(priorEntries, key) ? priorEntries[key]! : null;
    problems.push(...planValidBlock(nb.block, priorEV, configEntries[key]!, plannedEV, elemPath));
  }
  for (const key of Object.keys(configEntries)) {
    if (!Object.hasOwn(plannedEntries, key)) {
      problems.push(problem(path, `block key ${JSON.stringify(key)} from config is not present in plan`));
    }
  }
  return problems;
}

/**
 * NestingSet: elements have no identity to correlate with config, so Terraform only rejects
 * unknown elements and otherwise trusts the provider.
 */
function plannedSetBlockValid(plannedV: Value, path: AttributePath): CheckProblem[] {
  return elementsOf(plannedV)
    .filter((e) => isUnknown(e))
    .map(() => problem(path, UNKNOWN_ELEMENT));
}
