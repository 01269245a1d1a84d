/**
 * Terraform core's plan/apply consistency logic, ported so our tests catch what real Terraform
 * would reject (docs/protocol.md, "Terraform's checks"). The three building blocks mirror
 * internal/plans/objchange; the check* functions bundle them the way
 * internal/terraform/node_resource_abstract_instance.go applies them around PlanResourceChange,
 * ApplyResourceChange and ReadResource. Nothing here throws: every function returns the problems it
 * found (empty = Terraform would accept).
 */
import { type SchemaBlock, impliedType } from '../../schema/block.js';
import type { CtyType } from '../../schema/cty-type.js';
import { type AttributePath, indexStep, keyStep } from '../../schema/path.js';
import { type Value, DynamicValue, isUnknown } from '../../schema/value.js';
import { conformanceError } from '../../schema/value-ops.js';
import { assertObjectCompatible } from './object-compatible.js';
import { assertPlanValid } from './plan-valid.js';
import {
  type CheckProblem,
  attrOf,
  attrPath,
  childPath,
  ctyPathString,
  elementsOf,
  entriesOf,
  isKnownNonNull,
  problem,
} from './util.js';

/**
 * The checks Terraform runs on a PlanResourceChange response ("Provider produced invalid
 * plan"), in its order: write-only attributes null, type conformance, then AssertPlanValid.
 * Each stage only runs when the previous one passed, as in Terraform.
 */
export function checkPlannedState(schema: SchemaBlock, prior: Value, config: Value, planned: Value): CheckProblem[] {
  const writeOnly = writeOnlyProblems(schema, planned, 'during planning');
  if (writeOnly.length > 0) return writeOnly;
  const conformance = conformanceProblems(schema, planned, 'planned an invalid value');
  if (conformance.length > 0) return conformance;
  return assertPlanValid(schema, prior, config, planned);
}

/**
 * The checks Terraform runs on an ApplyResourceChange result, in its order: conformance
 * ("Provider produced invalid object"), write-only null, no unknowns ("Provider returned
 * invalid result object after apply"), AssertObjectCompatible for non-deletes ("Provider
 * produced inconsistent result after apply"), then the null/non-null result rules — each later
 * stage skipped once an earlier one found problems, as Terraform does.
 */
export function checkApplyResult(
  schema: SchemaBlock,
  planned: Value,
  actual: Value,
  isDelete: boolean,
): CheckProblem[] {
  const conformance = conformanceProblems(schema, actual, 'produced an invalid value after apply');
  if (conformance.length > 0) return conformance;
  const writeOnly = writeOnlyProblems(schema, actual, 'after apply');
  if (writeOnly.length > 0) return writeOnly;

  const problems = unknownPaths(impliedType(schema), actual, []).map((p) =>
    problem(
      p,
      `the provider still indicated an unknown value for ${describePath(p)}; all values must be known after apply`,
    ),
  );
  if (!isDelete && problems.length === 0) problems.push(...assertObjectCompatible(schema, planned, actual));
  if (problems.length > 0) return problems;

  if (isDelete && actual !== null) {
    return [
      problem(
        [],
        'after applying a Delete plan, the provider returned a non-null object; destroying should always produce a ' +
          'null value',
      ),
    ];
  }
  if (!isDelete && actual === null) {
    return [
      problem(
        [],
        'after applying a Create or Update plan, the provider returned a null object; only destroying should ' +
          'produce a null value',
      ),
    ];
  }
  return [];
}

/**
 * The checks Terraform runs on a ReadResource result ("Provider produced invalid object"):
 * wholly known and conforming, then write-only attributes null. A null state (object gone)
 * is fine.
 */
export function checkReadResult(schema: SchemaBlock, state: Value): CheckProblem[] {
  const problems = unknownPaths(impliedType(schema), state, []).map((p) =>
    problem(
      p,
      `planned an invalid value during refresh: the returned state contains unknown values (at ${describePath(p)})`,
    ),
  );
  problems.push(...conformanceProblems(schema, state, 'planned an invalid value during refresh'));
  if (problems.length > 0) return problems;
  return writeOnlyProblems(schema, state, 'during refresh');
}

/** Type conformance (cty TestConformance), as one problem; conformanceError stops at the first. */
function conformanceProblems(schema: SchemaBlock, value: Value, what: string): CheckProblem[] {
  const err = conformanceError(impliedType(schema), value);
  return err ? [problem(err.path, `${what}: ${err.message}`)] : [];
}

/**
 * ephemeral.ValidateWriteOnlyAttributes over configschema Block.WriteOnlyPaths: every
 * write-only attribute in every present block object must be null. Inside set blocks the path
 * stops at the set (one problem per set).
 */
export function writeOnlyProblems(schema: SchemaBlock, value: Value, when: string): CheckProblem[] {
  return writeOnlyPaths(schema, value, []).map((p) =>
    problem(
      p,
      `returned a value for the write-only attribute "${describePath(p)}" ${when}; write-only attributes cannot be ` +
        `read back from the provider`,
    ),
  );
}

function writeOnlyPaths(schema: SchemaBlock, value: Value, path: AttributePath): AttributePath[] {
  if (!isKnownNonNull(value)) return [];
  const found: AttributePath[] = [];
  for (const [name, attr] of Object.entries(schema.attributes)) {
    if (attr.writeOnly && attrOf(value, name) !== null) found.push(attrPath(path, name));
  }
  for (const [name, nb] of Object.entries(schema.blockTypes)) {
    const blockV = attrOf(value, name);
    const blockPath = attrPath(path, name);
    if (!isKnownNonNull(blockV)) continue;
    switch (nb.nesting) {
      case 'single':
      case 'group':
        found.push(...writeOnlyPaths(nb.block, blockV, blockPath));
        break;
      case 'list':
        elementsOf(blockV).forEach((ev, i) =>
          found.push(...writeOnlyPaths(nb.block, ev, childPath(blockPath, indexStep(i)))),
        );
        break;
      case 'set':
        // Set elements cannot be addressed: one report at the set, however many offenders.
        if (elementsOf(blockV).some((ev) => writeOnlyPaths(nb.block, ev, blockPath).length > 0)) found.push(blockPath);
        break;
      case 'map':
        for (const [k, ev] of Object.entries(entriesOf(blockV)))
          found.push(...writeOnlyPaths(nb.block, ev, childPath(blockPath, keyStep(k))));
        break;
    }
  }
  return found;
}

/**
 * Paths of the unknown values in `value`, as Terraform's cty.Walk finds them (not descending
 * into an unknown). Set elements cannot be addressed, so a set holding unknowns is reported once,
 * at its own path.
 */
export function unknownPaths(type: CtyType, value: Value, path: AttributePath): AttributePath[] {
  if (isUnknown(value)) return [path];
  if (value === null) return [];
  switch (type.kind) {
    case 'dynamic':
      return value instanceof DynamicValue ? unknownPaths(value.type, value.value, path) : [];
    case 'list':
      return elementsOf(value).flatMap((ev, i) => unknownPaths(type.element, ev, childPath(path, indexStep(i))));
    case 'tuple':
      return type.elements.flatMap((et, i) =>
        unknownPaths(et, elementsOf(value)[i] ?? null, childPath(path, indexStep(i))),
      );
    case 'set':
      // Set elements cannot be addressed: one report at the set, however many unknowns.
      return elementsOf(value).some((ev) => unknownPaths(type.element, ev, path).length > 0) ? [path] : [];
    case 'map':
      return Object.entries(entriesOf(value)).flatMap(([k, ev]) =>
        unknownPaths(type.element, ev, childPath(path, keyStep(k))),
      );
    case 'object':
      return Object.entries(type.attributes).flatMap(([name, at]) =>
        unknownPaths(at, attrOf(value, name), attrPath(path, name)),
      );
    default:
      return [];
  }
}

/** How Terraform names a place inside the resource: `<addr>.x[0]`; here just `x[0]`. */
function describePath(path: AttributePath): string {
  if (path.length === 0) return 'the object';
  const s = ctyPathString(path);
  return s.startsWith('.') ? s.slice(1) : s;
}
