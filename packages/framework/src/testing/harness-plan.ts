/**
 * What Terraform makes of a provider's plan, for the harness (./harness.ts): the action it takes
 * (plans/objchange and node_resource_abstract_instance.go: a replacement only where a path that
 * requires one changes, no-op only when the planned state is known and equal to the prior), which
 * attributes the plan changes, and its consistency checks' findings as the errors it stops with.
 */
import type { Diagnostic } from '../engine/diagnostics/index.js';
import { emptyBlockValue, type CheckProblem } from '../engine/checks/index.js';
import { impliedType, nestedBlockType, type SchemaBlock, type SchemaObject } from '../schema/block.js';
import type { CtyType } from '../schema/cty-type.js';
import { attrStep, formatPath, indexStep, type AttributePath, type PathStep } from '../schema/path.js';
import { isObjectValue, Unknown, type ObjectValue, type Value } from '../schema/value.js';
import { isWhollyKnown, valueEquals } from '../schema/value-ops.js';

/** What Terraform does with a resource's plan. */
export type PlannedAction = 'create' | 'update' | 'replace' | 'delete' | 'no-op';

/** The action, and the paths that require replacing the object among those the plan changes. */
export function actionOf(
  block: SchemaBlock,
  prior: ObjectValue | null,
  planned: ObjectValue | null,
  requiresReplace: readonly AttributePath[],
): { action: PlannedAction; replacing: AttributePath[] } {
  if (prior === null) return { action: 'create', replacing: [] };
  if (planned === null) return { action: 'delete', replacing: [] };
  const type = impliedType(block);
  const replacing = requiresReplace.filter((path) => changedAt(type, prior, planned, path));
  if (replacing.length > 0) return { action: 'replace', replacing };
  return { action: same(type, prior, planned) ? 'no-op' : 'update', replacing: [] };
}

/**
 * The attributes and blocks whose planned value differs from the prior one (unknown counts as a
 * change): into a single block and a list of blocks that keeps its length, element by element. A
 * missing object is one with nothing set.
 */
export function changedPaths(block: SchemaBlock, prior: ObjectValue | null, planned: ObjectValue | null): string[] {
  const found: AttributePath[] = [];
  walkChanges(block, prior ?? emptyBlockValue(block), planned ?? emptyBlockValue(block), [], found);
  return found.map(formatPath);
}

function walkChanges(block: SchemaBlock, a: ObjectValue, b: ObjectValue, path: AttributePath, found: AttributePath[]) {
  for (const [name, attribute] of Object.entries(block.attributes)) {
    const [av, bv] = [a[name] ?? null, b[name] ?? null];
    if (same(attribute.type, av, bv)) continue;
    const here = [...path, attrStep(name)];
    const nested = attribute.nestedType;
    // Into a nested attribute's object, and its list's objects where the list keeps its length.
    if (nested === undefined) found.push(here);
    else if (nested.nesting === 'single' && isObjectValue(av) && isObjectValue(bv))
      walkChanges(objectBlock(nested), av, bv, here, found);
    else if (nested.nesting === 'list' && Array.isArray(av) && Array.isArray(bv) && av.length === bv.length)
      av.forEach((e, i) => {
        const f = bv[i]!;
        if (isObjectValue(e) && isObjectValue(f))
          walkChanges(objectBlock(nested), e, f, [...here, indexStep(i)], found);
        else found.push([...here, indexStep(i)]);
      });
    else found.push(here);
  }
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    const [av, bv] = [a[name] ?? null, b[name] ?? null];
    const here = [...path, attrStep(name)];
    if (same(nestedBlockType(nb), av, bv)) continue;
    if ((nb.nesting === 'single' || nb.nesting === 'group') && isObjectValue(av) && isObjectValue(bv))
      walkChanges(nb.block, av, bv, here, found);
    else if (nb.nesting === 'list' && Array.isArray(av) && Array.isArray(bv) && av.length === bv.length)
      av.forEach((e, i) => {
        const f = bv[i]!;
        if (isObjectValue(e) && isObjectValue(f)) walkChanges(nb.block, e, f, [...here, indexStep(i)], found);
        else found.push([...here, indexStep(i)]);
      });
    else found.push(here);
  }
}

/** A nested attribute's object as a block of its attributes (for the walk of changes). */
const objectBlock = (nested: SchemaObject): SchemaBlock => ({
  attributes: nested.attributes,
  blockTypes: {},
  description: '',
  descriptionKind: 'plain',
  deprecated: false,
});

/**
 * Terraform's findings on a provider's answer (engine/checks), as the errors it stops with: `summary`
 * is its own ("Provider produced invalid plan").
 */
export function problemsAsErrors(summary: string, typeName: string, problems: readonly CheckProblem[]): Diagnostic[] {
  return problems.map((p) => ({
    severity: 'error',
    summary,
    detail:
      `Terraform refuses what the provider answered for ${typeName}: ${p.message.replace(/\.$/, '')}. ` +
      'This is a bug in the provider.',
    ...(p.path.length > 0 ? { path: p.path } : {}),
  }));
}

/** Equal and known (cty's Equals is unknown, so not true, when either side holds an unknown). */
function same(type: CtyType, a: Value, b: Value): boolean {
  return isWhollyKnown(type, a) && isWhollyKnown(type, b) && valueEquals(type, a, b);
}

/**
 * Whether the value at `path` changed (Terraform's getRequiredReplaces): a path that reaches neither
 * value changed nothing; one that reaches only one compares it with null.
 */
function changedAt(type: CtyType, prior: Value, planned: Value, path: AttributePath): boolean {
  const before = at(type, prior, path);
  const after = at(type, planned, path);
  if (before === undefined && after === undefined) return false;
  const t = (before ?? after)!.type;
  return !same(t, before?.value ?? null, after?.value ?? null);
}

/** The value at `path` and its type (hcl.ApplyPath); undefined when the path does not reach a value. */
function at(type: CtyType, v: Value, path: AttributePath): { type: CtyType; value: Value } | undefined {
  let here = { type, value: v };
  for (const step of path) {
    const next = stepInto(here.type, here.value, step);
    if (next === undefined) return undefined;
    here = next;
  }
  return here;
}

function stepInto(type: CtyType, v: Value, step: PathStep): { type: CtyType; value: Value } | undefined {
  if (v === null) return undefined;
  if ('attr' in step) {
    if (type.kind !== 'object' || !(step.attr in type.attributes)) return undefined;
    const t = type.attributes[step.attr]!;
    return { type: t, value: v instanceof Unknown ? v : isObjectValue(v) ? (v[step.attr] ?? null) : null };
  }
  if ('key' in step) {
    if (type.kind !== 'map') return undefined;
    if (v instanceof Unknown) return { type: type.element, value: v };
    return isObjectValue(v) && Object.hasOwn(v, step.key) ? { type: type.element, value: v[step.key]! } : undefined;
  }
  const element = type.kind === 'list' ? type.element : type.kind === 'tuple' ? type.elements[step.index] : undefined;
  if (element === undefined) return undefined;
  if (v instanceof Unknown) return { type: element, value: v };
  return Array.isArray(v) && step.index < v.length ? { type: element, value: v[step.index]! } : undefined;
}
