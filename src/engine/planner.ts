/**
 * PlanResourceChange's schema walk (architecture §2.4): starting from Terraform's proposed new state,
 * fill defaults, keep the prior form of semantically equal values, make computed values unknown only
 * where they will change, and collect the paths whose change forces replacement.
 */
import type { AttrDef, BlockDef, Fields } from '../schema/define.js';
import { type AttributePath, attrStep, indexStep } from '../schema/path.js';
import { UNKNOWN, Unknown, objectOrNull, type ObjectValue, type Value } from '../schema/value.js';
import { isEmptyValue, isWhollyKnown, sameMeaning } from '../schema/value-ops.js';
import { plainToValue, valueToPlain, fieldType, sameElements, sameFieldMeaning } from '../schema/model.js';
import { isConfigurable, samePlatformSettings, sameSetting } from './platform-settings.js';

export { isConfigurable, isPlatformSetting } from './platform-settings.js';

export interface PlanResult {
  planned: ObjectValue;
  requiresReplace: AttributePath[];
}

/** Plans `proposed` against `prior` (null on create). */
export function planObject(
  fields: Fields,
  prior: ObjectValue | null,
  proposed: ObjectValue,
  config: ObjectValue,
): PlanResult {
  const requiresReplace: AttributePath[] = [];
  const planned = planLevel(fields, prior, proposed, config, [], requiresReplace);
  // The platform stamps its volatile values (a last-modified time) on every update of the object,
  // whichever part of it changed: a rename moves the time inside a nested configuration block too. A
  // change the platform would not see (a change of form alone) is no update.
  const updated = prior !== null && !samePlatformSettings(fields, prior, planned);
  return { planned: updated ? volatileUnknown(fields, planned) : planned, requiresReplace };
}

/** `planned` with every volatile value, at every depth, unknown: the update will stamp it anew. */
function volatileUnknown(fields: Fields, planned: ObjectValue): ObjectValue {
  const out: ObjectValue = { ...planned };
  for (const [name, def] of Object.entries(fields)) {
    const v = planned[name] ?? null;
    if (def.kind === 'attr') {
      if (def.options.volatile) out[name] = UNKNOWN;
    } else if (Array.isArray(v)) out[name] = v.map((e) => volatileUnknown(def.fields, e as ObjectValue));
    else if (v !== null && !(v instanceof Unknown)) out[name] = volatileUnknown(def.fields, v as ObjectValue);
  }
  return out;
}

function planLevel(
  fields: Fields,
  prior: ObjectValue | null,
  proposed: ObjectValue,
  config: ObjectValue | null,
  path: AttributePath,
  replace: AttributePath[],
): ObjectValue {
  const planned: ObjectValue = { ...proposed };
  // Phase 1: configurable values (defaults, semantic equality) and nested blocks.
  for (const [name, def] of Object.entries(fields)) {
    const here = [...path, attrStep(name)];
    if (def.kind === 'attr')
      planned[name] = planConfigurable(
        def,
        prior?.[name] ?? null,
        proposed[name] ?? null,
        configured(def, config, name),
      );
    else
      planned[name] = planBlock(
        def,
        prior?.[name] ?? null,
        proposed[name] ?? null,
        config?.[name] ?? null,
        here,
        replace,
      );
  }
  // Phase 2: computed values, kept unless what they follow changes (volatile ones: planObject).
  // Null and empty mean the same (model sameFieldMeaning): a change between them changes nothing.
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind !== 'attr' || !def.options.computed || def.options.default !== undefined) continue;
    if (configured(def, config, name) !== null) continue;
    // What the platform computed stays as it was (Terraform proposes the prior value; a request
    // proposing another is not believed) unless the rules below say it will change.
    if (prior !== null) planned[name] = prior[name] ?? null;
    if (prior === null) planned[name] = UNKNOWN;
    else if (
      def.options.changesWith?.some((sib) => !sameFieldMeaning(fields[sib]!, prior[sib] ?? null, planned[sib] ?? null))
    )
      planned[name] = UNKNOWN;
  }
  if (prior !== null) {
    for (const [name, def] of Object.entries(fields)) {
      const rule = def.options.replace;
      if (!rule) continue;
      const p = prior[name] ?? null;
      const n = planned[name] ?? null;
      // Terraform counts an unknown planned value as a change (protocol.md §4.3).
      const changed = n instanceof Unknown || !sameFieldMeaning(def, p, n);
      const forces =
        changed && (rule === true || !isWhollyKnown(fieldType(def), n) || rule(valueToPlain(p), valueToPlain(n)));
      if (forces) replace.push([...path, attrStep(name)]);
    }
  }
  return planned;
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
  for (const [name, def] of Object.entries(fields)) {
    const [p, n] = [prior[name] ?? null, planned[name] ?? null];
    const here = [...path, attrStep(name)];
    if (def.kind === 'attr') {
      const rule = def.options.refusedChange;
      const judged =
        rule && p !== null && n !== null && isWhollyKnown(def.type.cty, p) && isWhollyKnown(def.type.cty, n);
      if (judged && rule.refuses(valueToPlain(p), valueToPlain(n)))
        out.push({ summary: rule.summary, detail: rule.detail, path: here });
      continue;
    }
    if (def.nesting === 'set' || n instanceof Unknown || p instanceof Unknown) continue;
    if (def.nesting === 'single' || def.nesting === 'group') {
      const [po, no] = [objectOrNull(p), objectOrNull(n)];
      if (po !== null && no !== null) out.push(...refusedChanges(def.fields, po, no, here));
      continue;
    }
    const [pe, ne] = [Array.isArray(p) ? (p as ObjectValue[]) : [], Array.isArray(n) ? (n as ObjectValue[]) : []];
    ne.forEach((e, i) => {
      if (pe[i] !== undefined && !(e instanceof Unknown))
        out.push(...refusedChanges(def.fields, pe[i]!, e, [...here, indexStep(i)]));
    });
  }
  return out;
}

/**
 * The configured value of an attribute, as the plan takes it. One the user may not set (computed
 * only, or an SDK-style `id`) counts as unset: validation refuses it, and `ignore_changes` copies the
 * prior value into it.
 */
function configured(def: AttrDef<unknown>, config: ObjectValue | null, name: string): Value {
  return !isConfigurable(def) || def.options.notConfigurable !== undefined ? null : (config?.[name] ?? null);
}

function planConfigurable(def: AttrDef<unknown>, prior: Value, proposed: Value, config: Value): Value {
  const o = def.options;
  // Never in a plan (protocol.md §4): the engine takes write-only values from the configuration at apply.
  if (o.writeOnly) return null;
  if (config === null && o.default !== undefined) return plainToValue(def.type.cty, o.default);
  // An empty value says no more than null (value-ops isEmptyValue): for an argument the platform
  // fills, the platform's value stays, as it does for null, instead of a change to "" forcing a diff.
  if (o.computed && isEmptyValue(config) && prior !== null && !(prior instanceof Unknown)) return prior;
  if (config === null) return proposed;
  // A configured value is planned as configured: Terraform proposes exactly it, and a request that
  // proposes something else (an unknown configured, null proposed) is not believed.
  if (config instanceof Unknown || prior === null || prior instanceof Unknown) return config;
  // Terraform accepts the prior value for a configured one (protocol.md §4.2 rule 2): use it when
  // the two mean the same, so formatting the API normalises never shows as a diff.
  if (sameMeaning(def.type.cty, config, prior)) return prior;
  if (o.equal && isWhollyKnown(def.type.cty, config) && o.equal(valueToPlain(config), valueToPlain(prior)))
    return prior;
  // A list whose order means nothing, in another order: the prior order stays.
  if (o.unordered && sameElements(def, config, prior)) return prior;
  return config;
}

function planBlock(
  def: BlockDef<Fields>,
  prior: Value,
  proposed: Value,
  config: Value,
  path: AttributePath,
  replace: AttributePath[],
): Value {
  if (proposed === null || proposed instanceof Unknown) return proposed;
  if (def.nesting === 'single' || def.nesting === 'group') {
    return planLevel(def.fields, objectOrNull(prior), proposed as ObjectValue, objectOrNull(config), path, replace);
  }
  const elems = proposed as ObjectValue[];
  const priorElems = Array.isArray(prior) ? (prior as ObjectValue[]) : [];
  const configElems = Array.isArray(config) ? (config as ObjectValue[]) : [];
  if (def.nesting === 'list') {
    return elems.map((e, i) =>
      planLevel(def.fields, priorElems[i] ?? null, e, configElems[i] ?? null, [...path, indexStep(i)], replace),
    );
  }
  // Set elements cannot be addressed by path; a replace inside a set block is reported on the block.
  const used = new Set<number>();
  const out = elems.map((e) => {
    const partner = priorElems.findIndex((p, i) => !used.has(i) && sameConfigurable(def.fields, p, e));
    if (partner >= 0) used.add(partner);
    const cfg = configElems.find((c) => sameConfigurable(def.fields, c, e)) ?? null;
    return planLevel(def.fields, partner >= 0 ? priorElems[partner]! : null, e, cfg, path, []);
  });
  return out;
}

/** Whether two block elements agree on every user-settable attribute (set-element correlation). */
function sameConfigurable(fields: Fields, a: ObjectValue, b: ObjectValue): boolean {
  return Object.entries(fields).every(([n, d]) => {
    if (!isConfigurable(d)) return true;
    const av = a[n] ?? null;
    const bv = b[n] ?? null;
    // Defaults are filled into the plan but not the proposal; treat a null as matching its default.
    if (d.kind === 'attr' && d.options.default !== undefined && (av === null || bv === null)) return true;
    // The same to the platform pairs: another spelling `equal` accepts, another order of an unordered list.
    return sameSetting(d, av, bv);
  });
}
