/**
 * The attributes' half of Terraform core's objchange.AssertPlanValid (internal/plans/objchange/
 * plan_valid.go assertPlannedAttrsValid, assertPlannedValueValid and assertPlannedObjectValid): a
 * planned attribute value is the configured one, the prior one kept for an equivalent configured
 * value, or, where the attribute is computed and unset, anything; a configured nested attribute
 * (`nested_type`) is judged inner attribute by inner attribute, its objects correlated by index (list)
 * or key (map); a set's are only counted, as Terraform can correlate them no better.
 */
import type { SchemaAttribute, SchemaObject } from '../../schema/block.js';
import { NUMBER } from '../../schema/cty-type.js';
import type { AttributePath } from '../../schema/path.js';
import { indexStep } from '../../schema/path.js';
import { type Value, isUnknown } from '../../schema/value.js';
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

type Attributes = Readonly<Record<string, SchemaAttribute>>;

/** objchange.assertPlannedAttrsValid: any of the three objects may be null here; read through null as null. */
export function plannedAttrsValid(
  attrs: Attributes,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
): CheckProblem[] {
  const problems: CheckProblem[] = [];
  for (const [name, attr] of Object.entries(attrs)) {
    problems.push(
      ...plannedValueValid(
        attr,
        attrOf(prior, name),
        attrOf(config, name),
        attrOf(planned, name),
        attrPath(path, name),
      ),
    );
  }
  return problems;
}

/** objchange.assertPlannedValueValid. */
function plannedValueValid(
  attr: SchemaAttribute,
  priorV: Value,
  configV: Value,
  plannedV: Value,
  path: AttributePath,
): CheckProblem[] {
  // Refinements are ignored here (Go compares unrefined values); valueEquals does the same.
  if (valueEquals(attr.type, plannedV, configV)) return [];
  // The provider may keep the prior value for a functionally-equivalent configured value.
  if (priorV !== null && configV !== null && valueEquals(attr.type, plannedV, priorV)) return [];

  if (attr.writeOnly) {
    return plannedV === null ? [] : [problem(path, 'planned value for write-only attribute is not null')];
  }
  // Computed-only attributes may be planned as anything.
  if (attr.computed && !attr.optional) return [];
  // Optional+computed attributes may be filled in when unset in config.
  if (configV === null && attr.computed) return [];
  if (configV === null && plannedV !== null) {
    return [
      problem(
        path,
        attr.sensitive
          ? 'sensitive planned value for a non-computed attribute'
          : `planned value ${formatValue(attr.type, plannedV)} for a non-computed attribute`,
      ),
    ];
  }
  if (attr.nestedType !== undefined) return plannedObjectValid(attr.nestedType, priorV, configV, plannedV, path);
  return [mismatchProblem(attr, priorV, configV, plannedV, path)];
}

function mismatchProblem(
  attr: SchemaAttribute,
  priorV: Value,
  configV: Value,
  plannedV: Value,
  path: AttributePath,
): CheckProblem {
  const t = attr.type;
  if (priorV === null) {
    return problem(
      path,
      attr.sensitive
        ? 'sensitive planned value does not match config value'
        : `planned value ${formatValue(t, plannedV)} does not match config value ${formatValue(t, configV)}`,
    );
  }
  return problem(
    path,
    attr.sensitive
      ? 'sensitive planned value does not match config value nor prior value'
      : `planned value ${formatValue(t, plannedV)} does not match config value ${formatValue(t, configV)} nor prior ` +
          `value ${formatValue(t, priorV)}`,
  );
}

/** objchange.assertPlannedObjectValid: a configured nested attribute. */
function plannedObjectValid(
  schema: SchemaObject,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
): CheckProblem[] {
  if (planned === null && config !== null) return [problem(path, 'planned for absence but config wants existence')];
  if (config === null && planned !== null) return [problem(path, 'planned for existence but config wants absence')];
  if (config !== null && isUnknown(planned)) return [problem(path, 'planned unknown for configured value')];
  if (planned === null) return [];
  switch (schema.nesting) {
    case 'single':
      return plannedAttrsValid(schema.attributes, prior, config, planned, path);
    case 'list': {
      const counted = countProblem(config, planned, path);
      if (counted) return counted;
      const [configElems, priorElems] = [elementsOf(config), elementsOf(prior)];
      return elementsOf(planned).flatMap((plannedEV, i) =>
        plannedAttrsValid(
          schema.attributes,
          i < priorElems.length ? priorElems[i]! : null,
          configElems[i]!,
          plannedEV,
          childPath(path, indexStep(i)),
        ),
      );
    }
    case 'map':
      return plannedMapValid(schema, prior, config, planned, path);
    case 'set':
      // Set elements have no identity to correlate: Terraform only counts them, where both counts are known.
      return isKnownNonNull(config) ? (countProblem(config, planned, path) ?? []) : [];
  }
}

/** NestingMap: the keys must be the configuration's; elements correlate by key (Go steps in by attribute name). */
function plannedMapValid(
  schema: SchemaObject,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
): CheckProblem[] {
  const counted = countProblem(config, planned, path);
  if (counted) return counted;
  const [configEntries, plannedEntries, priorEntries] = [entriesOf(config), entriesOf(planned), entriesOf(prior)];
  const problems: CheckProblem[] = [];
  for (const [key, plannedEV] of Object.entries(plannedEntries)) {
    if (!Object.hasOwn(configEntries, key)) {
      problems.push(problem(path, `map key ${JSON.stringify(key)} from plan is not present in config`));
      continue;
    }
    const priorEV = Object.hasOwn(priorEntries, key) ? priorEntries[key]! : null;
    problems.push(
      ...plannedAttrsValid(schema.attributes, priorEV, configEntries[key]!, plannedEV, attrPath(path, key)),
    );
  }
  for (const key of Object.keys(configEntries))
    if (!Object.hasOwn(plannedEntries, key))
      problems.push(problem(path, `map key ${JSON.stringify(key)} from config is not present in plan`));
  return problems;
}

/**
 * The counts of a planned and a configured collection must agree; an unknown configured collection
 * (whose count is unknown) makes the known planned one's disagree, as Go's unknown comparison does.
 */
function countProblem(config: Value, planned: Value, path: AttributePath): CheckProblem[] | undefined {
  const count = (v: Value): string =>
    isKnownNonNull(v) ? formatValue(NUMBER, lengthOf(v)) : 'cty.UnknownVal(cty.Number)';
  if (isKnownNonNull(config) && lengthOf(config) === lengthOf(planned)) return undefined;
  return [problem(path, `count in plan (${count(planned)}) disagrees with count in config (${count(config)})`)];
}
