/**
 * The changes a plan makes that the platform refuses (`refusedChange`) or that a configuration cannot
 * hold (a repeated platform-assigned value the plan changes): judged after the schema walk (planner.ts).
 */
import type { Fields } from '../../schema/define.js';
import { type AttributePath, attrStep, indexStep } from '../../schema/path.js';
import { Unknown, objectOrNull, type ObjectValue } from '../../schema/value.js';
import { isWhollyKnown } from '../../schema/value-ops.js';
import { valueToPlain } from '../../schema/model.js';
import { fieldList } from '../../schema/fields.js';

const refusalsCache = new WeakMap<Fields, boolean>();

/** Whether an attribute here or in a nested block (not a set's) declares `refusedChange`. */
function hasRefusals(fields: Fields): boolean {
  let found = refusalsCache.get(fields);
  if (found === undefined) {
    found = fieldList(fields).some(({ def }) =>
      def.kind === 'attr' ? def.options.refusedChange !== undefined : def.nesting !== 'set' && hasRefusals(def.fields),
    );
    refusalsCache.set(fields, found);
  }
  return found;
}

/** A change the plan makes that the platform refuses (`refusedChange`), at its path. */
export interface RefusedChangeAt {
  readonly summary: string;
  readonly detail: string;
  readonly path: AttributePath;
}

/**
 * The changes from `prior` to `planned` that the platform refuses (`refusedChange` of each attribute,
 * at every depth): judged only where both values are known. Set elements have no path and no prior
 * partner, so their attributes are not judged.
 */
export function refusedChanges(
  fields: Fields,
  prior: ObjectValue,
  planned: ObjectValue,
  path: AttributePath = [],
): RefusedChangeAt[] {
  const out: RefusedChangeAt[] = [];
  if (hasRefusals(fields)) collectRefusedChanges(fields, prior, planned, path, out);
  return out;
}

function collectRefusedChanges(
  fields: Fields,
  prior: ObjectValue,
  planned: ObjectValue,
  path: AttributePath,
  out: RefusedChangeAt[],
): void {
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const p = prior[name] ?? null;
    const n = planned[name] ?? null;
    if (def.kind === 'attr') {
      const rule = def.options.refusedChange;
      const judged =
        rule && p !== null && n !== null && isWhollyKnown(def.type.cty, p) && isWhollyKnown(def.type.cty, n);
      if (judged && rule.refuses(valueToPlain(p), valueToPlain(n)))
        out.push({ summary: rule.summary, detail: rule.detail, path: [...path, attrStep(name)] });
      continue;
    }
    if (def.nesting === 'set' || n instanceof Unknown || p instanceof Unknown) continue;
    const here = [...path, attrStep(name)];
    if (def.nesting === 'single' || def.nesting === 'group') {
      const po = objectOrNull(p);
      const no = objectOrNull(n);
      if (po !== null && no !== null) collectRefusedChanges(def.fields, po, no, here, out);
      continue;
    }
    const pe = Array.isArray(p) ? (p as ObjectValue[]) : [];
    const ne = Array.isArray(n) ? (n as ObjectValue[]) : [];
    ne.forEach((e, i) => {
      if (pe[i] !== undefined && !(e instanceof Unknown))
        collectRefusedChanges(def.fields, pe[i]!, e, [...here, indexStep(i)], out);
    });
  }
}

/**
 * The platform-assigned values (`platformAssigned`, top level) that the configuration repeats but
 * this plan changes (`changesWith`: the platform assigns a new one): the configuration would then hold
 * a value the object no longer has.
 */
export function assignedValueChanges(fields: Fields, config: ObjectValue, planned: ObjectValue): RefusedChangeAt[] {
  const out: RefusedChangeAt[] = [];
  for (const { name, def } of fieldList(fields)) {
    if (def.kind !== 'attr' || def.options.platformAssigned !== true) continue;
    const repeated = config[name] ?? null;
    if (repeated === null || repeated instanceof Unknown || !(planned[name] instanceof Unknown)) continue;
    const causes = (def.options.changesWith ?? []).map((c) => `\`${c}\``).join(' or ');
    out.push({
      summary: `Invalid attribute "${name}"`,
      detail:
        `The platform assigns a new \`${name}\` when ${causes || 'the object'} changes, so the configuration cannot ` +
        `hold this one; remove \`${name}\` from the configuration.`,
      path: [attrStep(name)],
    });
  }
  return out;
}
