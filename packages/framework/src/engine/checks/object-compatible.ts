/**
 * Port of Terraform core's objchange.AssertObjectCompatible (internal/plans/objchange/compatible.go):
 * is `actual` (an apply result, or a re-plan during apply) a valid completion of the possibly
 * partly unknown `planned` value? (docs/protocol.md, "The apply result";
 * docs/protocol.md, "Re-planning during apply"). Terraform reports each problem as "Provider
 * produced inconsistent result after apply … produced an unexpected new value: <problem>".
 *
 * A nested attribute (`nested_type`) is judged as a value of its implied type (valueCompatible: an
 * inner value planned unknown may become anything, a known one must stay), as Terraform's
 * assertNestedObjectCompatible does, except that a sensitive inner value is not hidden in the message.
 * Not ported: computed blocks (protocol 6.11;
 * not modelled by SchemaBlock), value marks beyond the schema's `sensitive` flag. Set elements
 * cannot be addressed by our AttributePath, so set problems are reported at the set's path.
 */
import { type SchemaBlock, type SchemaNestedBlock, impliedType } from '../../schema/block.js';
import { type CtyType, friendlyTypeName, typeEquals } from '../../schema/cty-type.js';
import { compareNumbers, numberText } from '../../schema/number.js';
import { type AttributePath, indexStep, keyStep } from '../../schema/path.js';
import {
  type CtyNumber,
  type Refinements,
  type Value,
  Decimal,
  DynamicValue,
  Unknown,
  isUnknown,
} from '../../schema/value.js';
import { formatValue, valueEquals } from '../../schema/value-ops.js';
import {
  type CheckProblem,
  attrOf,
  attrPath,
  childPath,
  elementsOf,
  entriesOf,
  isKnownNonNull,
  lengthOf,
  problem,
} from './util.js';

export type { CheckProblem } from './util.js';

/** objchange.AssertObjectCompatible; an empty result means Terraform accepts `actual`. */
export function assertObjectCompatible(schema: SchemaBlock, planned: Value, actual: Value): CheckProblem[] {
  return objectCompatible(schema, planned, actual, []);
}

/** objchange.assertObjectCompatible: one block object. */
function objectCompatible(schema: SchemaBlock, planned: Value, actual: Value, path: AttributePath): CheckProblem[] {
  const atRoot = path.length === 0 ? 'Root object ' : '';
  if (planned === null && actual !== null) return [problem(path, `${atRoot}was absent, but now present`)];
  if (actual === null && planned !== null) return [problem(path, `${atRoot}was present, but now absent`)];
  if (planned === null) return [];

  const problems: CheckProblem[] = [];
  for (const [name, attr] of Object.entries(schema.attributes)) {
    const p = attrPath(path, name);
    const found = valueCompatible(attr.type, attrOf(planned, name), attrOf(actual, name), p);
    // Never disclose sensitive values: one vague problem instead of the details.
    if (attr.sensitive && found.length > 0) problems.push(problem(p, 'inconsistent values for sensitive attribute'));
    else problems.push(...found);
  }
  for (const [name, nb] of Object.entries(schema.blockTypes)) {
    problems.push(...blockCompatible(nb, attrOf(planned, name), attrOf(actual, name), attrPath(path, name)));
  }
  return problems;
}

/** The nested-block half of objchange.assertObjectCompatible. */
function blockCompatible(nb: SchemaNestedBlock, plannedV: Value, actualV: Value, path: AttributePath): CheckProblem[] {
  switch (nb.nesting) {
    case 'single':
    case 'group':
      // An unknown placeholder block may have expanded to no block at all.
      if (isUnknown(plannedV) && actualV === null) return [];
      return objectCompatible(nb.block, plannedV, actualV, path);
    case 'list':
      return listBlockCompatible(nb, plannedV, actualV, path);
    case 'map':
      return mapBlockCompatible(nb, plannedV, actualV, path);
    case 'set':
      return setBlockCompatible(nb, plannedV, actualV, path);
  }
}

function listBlockCompatible(
  nb: SchemaNestedBlock,
  plannedV: Value,
  actualV: Value,
  path: AttributePath,
): CheckProblem[] {
  if (!isKnownNonNull(plannedV) || !isKnownNonNull(actualV)) return [];
  const plannedElems = elementsOf(plannedV);
  const actualElems = elementsOf(actualV);
  if (plannedElems.length !== actualElems.length) {
    return [problem(path, `block count changed from ${plannedElems.length} to ${actualElems.length}`)];
  }
  return plannedElems.flatMap((plannedEV, i) =>
    objectCompatible(nb.block, plannedEV, actualElems[i]!, childPath(path, indexStep(i))),
  );
}

function mapBlockCompatible(
  nb: SchemaNestedBlock,
  plannedV: Value,
  actualV: Value,
  path: AttributePath,
): CheckProblem[] {
  // Go would fail on an unknown actual here; treat it like the other "cannot compare" cases.
  if (!isKnownNonNull(plannedV) || !isKnownNonNull(actualV)) return [];
  const plannedL = lengthOf(plannedV);
  const actualL = lengthOf(actualV);
  if (plannedL !== actualL) return [problem(path, `block count changed from ${plannedL} to ${actualL}`)];
  const actualEntries = entriesOf(actualV);
  const problems: CheckProblem[] = [];
  for (const [key, plannedEV] of Object.entries(entriesOf(plannedV))) {
    if (!Object.hasOwn(actualEntries, key)) continue;
    problems.push(...objectCompatible(nb.block, plannedEV, actualEntries[key]!, childPath(path, keyStep(key))));
  }
  return problems;
}

function setBlockCompatible(
  nb: SchemaNestedBlock,
  plannedV: Value,
  actualV: Value,
  path: AttributePath,
): CheckProblem[] {
  if (!isKnownNonNull(plannedV) || !isKnownNonNull(actualV)) return [];
  const problems = setValuesCompatible(
    impliedType(nb.block),
    elementsOf(plannedV),
    elementsOf(actualV),
    path,
    (p, a) => objectCompatible(nb.block, p, a, path).length === 0,
  );
  // Elements may coalesce once known, but a set must never grow.
  const plannedL = lengthOf(plannedV);
  const actualL = lengthOf(actualV);
  if (plannedL < actualL) problems.push(problem(path, `block set length changed from ${plannedL} to ${actualL}`));
  return problems;
}

/** objchange.assertValueCompatible: one attribute value (or part of one). */
export function valueCompatible(type: CtyType, planned: Value, actual: Value, path: AttributePath): CheckProblem[] {
  if (type.kind === 'dynamic') return dynamicCompatible(planned, actual, path);

  // Unknown during plan: the final value need only satisfy the placeholder's refinements.
  if (planned instanceof Unknown) {
    if (rangeIncludes(type, planned.refinements, actual)) return [];
    return [
      problem(
        path,
        `final value ${formatValue(type, actual)} does not conform to planning placeholder ` +
          `${describePlaceholder(planned)}`,
      ),
    ];
  }
  if (actual === null)
    return planned === null ? [] : [problem(path, `was ${formatValue(type, planned)}, but now null`)];
  if (planned === null) return [problem(path, `was null, but now ${formatValue(type, actual)}`)];
  if (isUnknown(actual)) return [problem(path, 'was known, but now unknown')];

  switch (type.kind) {
    case 'string':
    case 'number':
    case 'bool':
      // valueEquals compares numbers by value, as cty's Equals does.
      return valueEquals(type, planned, actual)
        ? []
        : [problem(path, `was ${formatValue(type, planned)}, but now ${formatValue(type, actual)}`)];
    case 'list':
      return sequenceCompatible(() => type.element, elementsOf(planned), elementsOf(actual), path);
    case 'tuple':
      return sequenceCompatible((i) => type.elements[i]!, elementsOf(planned), elementsOf(actual), path);
    case 'map':
      return mapCompatible(type.element, entriesOf(planned), entriesOf(actual), path);
    case 'object':
      return Object.entries(type.attributes).flatMap(([name, at]) =>
        valueCompatible(at, attrOf(planned, name), attrOf(actual, name), attrPath(path, name)),
      );
    case 'set':
      return setCompatible(type.element, elementsOf(planned), elementsOf(actual), path);
  }
}

/** A `dynamic` position: an untyped (null or unknown) plan allows anything, else types must agree. */
function dynamicCompatible(planned: Value, actual: Value, path: AttributePath): CheckProblem[] {
  if (!(planned instanceof DynamicValue)) return [];
  if (!(actual instanceof DynamicValue)) {
    // An untyped null or unknown result does not conform to the planned concrete type.
    return [problem(path, `wrong final value type: ${friendlyTypeName(planned.type)} required`)];
  }
  if (!typeEquals(actual.type, planned.type)) {
    return [
      problem(
        path,
        `wrong final value type: ${friendlyTypeName(planned.type)} required, but have ${friendlyTypeName(actual.type)}`,
      ),
    ];
  }
  return valueCompatible(planned.type, planned.value, actual.value, path);
}

/** Lists and tuples: elements correlate by index and none may vanish or appear. */
function sequenceCompatible(
  elemType: (i: number) => CtyType,
  planned: Value[],
  actual: Value[],
  path: AttributePath,
): CheckProblem[] {
  const problems: CheckProblem[] = [];
  planned.forEach((plannedEV, i) => {
    if (i >= actual.length) problems.push(problem(path, `element ${i} has vanished`));
    else problems.push(...valueCompatible(elemType(i), plannedEV, actual[i]!, childPath(path, indexStep(i))));
  });
  for (let i = planned.length; i < actual.length; i++) problems.push(problem(path, `new element ${i} has appeared`));
  return problems;
}

/** Maps: elements correlate by key and none may vanish or appear. */
function mapCompatible(
  elemType: CtyType,
  planned: Record<string, Value>,
  actual: Record<string, Value>,
  path: AttributePath,
): CheckProblem[] {
  const problems: CheckProblem[] = [];
  for (const [key, plannedEV] of Object.entries(planned)) {
    if (!Object.hasOwn(actual, key)) problems.push(problem(path, `element ${JSON.stringify(key)} has vanished`));
    else problems.push(...valueCompatible(elemType, plannedEV, actual[key]!, childPath(path, keyStep(key))));
  }
  for (const key of Object.keys(actual)) {
    if (!Object.hasOwn(planned, key)) problems.push(problem(path, `new element ${JSON.stringify(key)} has appeared`));
  }
  return problems;
}

/** Set-typed attributes: pairwise correlation, and the set must not grow. */
function setCompatible(elemType: CtyType, planned: Value[], actual: Value[], path: AttributePath): CheckProblem[] {
  const problems = setValuesCompatible(
    elemType,
    planned,
    actual,
    path,
    (p, a) => valueCompatible(elemType, p, a, path).length === 0,
  );
  if (planned.length < actual.length)
    problems.push(problem(path, `length changed from ${planned.length} to ${actual.length}`));
  return problems;
}

/**
 * objchange.assertSetValuesCompatible: every planned element must be compatible with some
 * actual element and vice versa (set elements have no identity to correlate by).
 */
function setValuesCompatible(
  elemType: CtyType,
  planned: Value[],
  actual: Value[],
  path: AttributePath,
  compatible: (plannedEV: Value, actualEV: Value) => boolean,
): CheckProblem[] {
  const plannedMatched = planned.map(() => false);
  const actualMatched = actual.map(() => false);
  planned.forEach((p, pi) => {
    actual.forEach((a, ai) => {
      if (plannedMatched[pi] && actualMatched[ai]) return;
      if (compatible(p, a)) plannedMatched[pi] = actualMatched[ai] = true;
    });
  });
  const unmatchedPlanned = planned.filter((_, i) => !plannedMatched[i]);
  if (unmatchedPlanned.length > 0) {
    // Stop here: the other direction would mostly repeat the same mismatch.
    return unmatchedPlanned.map((p) =>
      problem(path, `planned set element ${formatValue(elemType, p)} does not correlate with any element in actual`),
    );
  }
  return actual
    .filter((_, i) => !actualMatched[i])
    .map((a) =>
      problem(path, `actual set element ${formatValue(elemType, a)} does not correlate with any element in plan`),
    );
}

/**
 * cty ValueRange.Includes for an unknown placeholder: false only when `actual` definitely
 * falls outside the refinements (not-null, string prefix, number bounds, collection length).
 */
export function rangeIncludes(type: CtyType, refinements: Readonly<Refinements> | null, actual: Value): boolean {
  if (!refinements) return true;
  if (actual === null) return !refinements.notNull;
  // An unknown result could still turn out to be anything in range.
  if (isUnknown(actual)) return true;
  switch (type.kind) {
    case 'string':
      return (
        refinements.stringPrefix === undefined ||
        (typeof actual === 'string' && actual.startsWith(refinements.stringPrefix))
      );
    case 'number':
      return numberInBounds(actual as CtyNumber, refinements);
    case 'list':
    case 'set':
    case 'map':
      return lengthInBounds(lengthOf(actual), refinements);
    default:
      return true;
  }
}

function numberInBounds(n: CtyNumber, r: Readonly<Refinements>): boolean {
  if (typeof n !== 'number' && !(n instanceof Decimal)) return true;
  if (r.numberLower) {
    const [bound, inclusive] = r.numberLower;
    const c = compareNumbers(n, bound);
    if (c < 0 || (c === 0 && !inclusive)) return false;
  }
  if (r.numberUpper) {
    const [bound, inclusive] = r.numberUpper;
    const c = compareNumbers(n, bound);
    if (c > 0 || (c === 0 && !inclusive)) return false;
  }
  return true;
}

function lengthInBounds(len: number, r: Readonly<Refinements>): boolean {
  if (r.lengthLower !== undefined && len < r.lengthLower) return false;
  if (r.lengthUpper !== undefined && len > r.lengthUpper) return false;
  return true;
}

/** formatValue shows every unknown alike; a placeholder's refinements are the point here. */
function describePlaceholder(planned: Unknown): string {
  const r = planned.refinements;
  const parts: string[] = [];
  if (r?.notNull) parts.push('not null');
  if (r?.stringPrefix !== undefined) parts.push(`prefix ${JSON.stringify(r.stringPrefix)}`);
  if (r?.numberLower) parts.push(`${r.numberLower[1] ? '>=' : '>'} ${numberText(r.numberLower[0])}`);
  if (r?.numberUpper) parts.push(`${r.numberUpper[1] ? '<=' : '<'} ${numberText(r.numberUpper[0])}`);
  if (r?.lengthLower !== undefined) parts.push(`length >= ${r.lengthLower}`);
  if (r?.lengthUpper !== undefined) parts.push(`length <= ${r.lengthUpper}`);
  return parts.length === 0 ? '(known after apply)' : `(known after apply, ${parts.join(', ')})`;
}
