/**
 * PlanResourceChange's schema walk (docs/protocol.md, "What our planner decides"): starting from
 * Terraform's proposed new state, fill defaults, keep the prior form of semantically equal values,
 * make computed values unknown only where they will change, and collect the paths whose change
 * forces replacement.
 */
import type { AttrDef, BlockDef, Fields } from '../../schema/define.js';
import { type AttributePath, attrStep, indexStep, keyStep } from '../../schema/path.js';
import { setEntry } from '../../schema/entries.js';
import { UNKNOWN, Unknown, objectOrNull, type ObjectValue, type Value } from '../../schema/value.js';
import { isWhollyKnown } from '../../schema/value-ops.js';
import { sameMeaningOf, saysNothing } from '../../schema/empty-string.js';
import { plainToValue, valueToPlain, sameElements, sameFieldMeaning } from '../../schema/model.js';
import { fieldList, fieldType, nestedAsBlock, type NamedField } from '../../schema/fields.js';
import { isConfigurable, samePlatformSettings, sameSetting } from './platform-settings.js';

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

/**
 * What the planner does beyond the walk of every field, per schema, found once: the computed values
 * it decides (phase 2 of planLevel) and the attributes whose change may force replacement, so that a
 * schema without them costs nothing for them.
 */
interface PlanSteps {
  readonly all: readonly NamedField[];
  /** Computed attributes without a default. */
  readonly computed: readonly NamedAttribute[];
  /** Fields with a `replace` rule. */
  readonly replaceRules: readonly NamedField[];
}

interface NamedAttribute {
  readonly name: string;
  readonly def: AttrDef<unknown>;
}

const planStepsCache = new WeakMap<Fields, PlanSteps>();

function planSteps(fields: Fields): PlanSteps {
  let steps = planStepsCache.get(fields);
  if (steps === undefined) {
    const all = fieldList(fields);
    steps = {
      all,
      computed: all.filter(
        (f): f is NamedAttribute =>
          f.def.kind === 'attr' && f.def.options.computed === true && f.def.options.default === undefined,
      ),
      replaceRules: all.filter(({ def }) => def.options.replace),
    };
    planStepsCache.set(fields, steps);
  }
  return steps;
}

/** `planned` with every volatile value, at every depth, unknown: the update will stamp it anew. */
function volatileUnknown(fields: Fields, planned: ObjectValue): ObjectValue {
  const out: ObjectValue = { ...planned };
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
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
  const steps = planSteps(fields);
  // Phase 1: configurable values (defaults, semantic equality) and nested blocks.
  const all = steps.all;
  for (let i = 0; i < all.length; i++) {
    const { name, def } = all[i]!;
    const p = prior === null ? null : (prior[name] ?? null);
    const n = proposed[name] ?? null;
    if (def.kind === 'attr') {
      const c = configured(def, config, name);
      const nested = c === null || c instanceof Unknown ? undefined : nestedAsBlock(def);
      // A configured nested attribute is planned as a block is, inner attribute by inner attribute.
      planned[name] = nested
        ? planBlock(nested, p, n, c, [...path, attrStep(name)], replace)
        : planConfigurable(def, p, n, c);
    } else {
      const c = config === null ? null : (config[name] ?? null);
      planned[name] = planBlock(def, p, n, c, [...path, attrStep(name)], replace);
    }
  }
  if (steps.computed.length > 0) planComputed(fields, steps.computed, prior, config, planned);
  if (prior !== null && steps.replaceRules.length > 0)
    forcedReplacements(steps.replaceRules, prior, planned, path, replace);
  return planned;
}

/**
 * Phase 2: computed values, kept unless what they follow changes (volatile ones: planObject).
 * Null and empty mean the same (model sameFieldMeaning): a change between them changes nothing.
 */
function planComputed(
  fields: Fields,
  computed: readonly NamedAttribute[],
  prior: ObjectValue | null,
  config: ObjectValue | null,
  planned: ObjectValue,
): void {
  for (let i = 0; i < computed.length; i++) {
    const { name, def } = computed[i]!;
    if (configured(def, config, name) !== null) continue;
    // What the platform computed stays as it was (Terraform proposes the prior value; a request
    // proposing another is not believed) unless the rules below say it will change.
    if (prior === null) planned[name] = UNKNOWN;
    else {
      planned[name] = prior[name] ?? null;
      const changesWith = def.options.changesWith;
      if (changesWith !== undefined && anyChanged(fields, changesWith, prior, planned)) planned[name] = UNKNOWN;
    }
  }
}

/** Whether any of the named siblings changes meaning from `prior` to `planned`. */
function anyChanged(fields: Fields, names: readonly string[], prior: ObjectValue, planned: ObjectValue): boolean {
  for (let i = 0; i < names.length; i++) {
    const sib = names[i]!;
    if (!sameFieldMeaning(fields[sib]!, prior[sib] ?? null, planned[sib] ?? null)) return true;
  }
  return false;
}

/** Phase 3: the paths whose change forces replacement. */
function forcedReplacements(
  rules: readonly NamedField[],
  prior: ObjectValue,
  planned: ObjectValue,
  path: AttributePath,
  replace: AttributePath[],
): void {
  for (let i = 0; i < rules.length; i++) {
    const { name, def } = rules[i]!;
    const rule = def.options.replace;
    if (!rule) continue;
    const p = prior[name] ?? null;
    const n = planned[name] ?? null;
    // Terraform counts an unknown planned value as a change (docs/protocol.md, "Forced replacement").
    const changed = n instanceof Unknown || !sameFieldMeaning(def, p, n);
    const forces =
      changed && (rule === true || !isWhollyKnown(fieldType(def), n) || rule(valueToPlain(p), valueToPlain(n)));
    if (forces) replace.push([...path, attrStep(name)]);
  }
}

/**
 * The configured value of an attribute, as the plan takes it. One the user may not set (computed
 * only) or that the platform assigns (an SDK-style `id`, which a configuration may only repeat:
 * validate.ts) counts as unset, and `ignore_changes` copies the prior value into it.
 */
function configured(def: AttrDef<unknown>, config: ObjectValue | null, name: string): Value {
  return !isConfigurable(def) || def.options.platformAssigned === true ? null : (config?.[name] ?? null);
}

function planConfigurable(def: AttrDef<unknown>, prior: Value, proposed: Value, config: Value): Value {
  const o = def.options;
  // Never in a plan (docs/protocol.md, "Write-only attributes"): the engine takes write-only values
  // from the configuration at apply.
  if (o.writeOnly) return null;
  if (config === null && o.default !== undefined) return plainToValue(def.type.cty, o.default);
  // An empty value says no more than null (empty-string.ts saysNothing): for an argument the platform
  // fills, the platform's value stays, as it does for null, instead of a change to "" forcing a diff.
  if (o.computed && saysNothing(def, config) && prior !== null && !(prior instanceof Unknown)) return prior;
  if (config === null) return proposed;
  // A configured value is planned as configured: Terraform proposes exactly it, and a request that
  // proposes something else (an unknown configured, null proposed) is not believed.
  if (config instanceof Unknown || prior === null || prior instanceof Unknown) return config;
  // Terraform accepts the prior value for a configured one
  // (docs/protocol.md, "Planned values Terraform accepts", rule 2): use it when the two mean the
  // same, so formatting the API normalises never shows as a diff.
  if (sameMeaningOf(def, config, prior)) return prior;
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
  // Terraform never proposes a list or set of blocks as null (no blocks is an empty collection);
  // other clients, such as pulumi-terraform-bridge, may: plan the form Terraform would, so that what
  // create stores and what read returns agree.
  if (proposed === null && (def.nesting === 'list' || def.nesting === 'set')) return [];
  if (proposed === null || proposed instanceof Unknown) return proposed;
  if (def.nesting === 'single' || def.nesting === 'group') {
    return planLevel(def.fields, objectOrNull(prior), proposed as ObjectValue, objectOrNull(config), path, replace);
  }
  const elems = proposed as ObjectValue[];
  const priorElems = Array.isArray(prior) ? (prior as ObjectValue[]) : [];
  const configElems = Array.isArray(config) ? (config as ObjectValue[]) : [];
  if (def.nesting === 'map') return planMap(def, prior, proposed as ObjectValue, config, path, replace);
  if (def.nesting === 'list') {
    // An element not known yet (a nested attribute's `[var.object]`) is planned as configured.
    return elems.map((e, i) =>
      e instanceof Unknown
        ? e
        : planLevel(def.fields, priorElems[i] ?? null, e, configElems[i] ?? null, [...path, indexStep(i)], replace),
    );
  }
  // Set elements cannot be addressed by path; a replace inside a set block is reported on the block.
  const used = new Set<number>();
  const out = elems.map((e) => {
    if (e instanceof Unknown) return e;
    const partner = priorElems.findIndex((p, i) => !used.has(i) && sameConfigurable(def.fields, p, e));
    if (partner >= 0) used.add(partner);
    const cfg = configElems.find((c) => sameConfigurable(def.fields, c, e)) ?? null;
    return planLevel(def.fields, partner >= 0 ? priorElems[partner]! : null, e, cfg, path, []);
  });
  return out;
}

/** A map of objects (a map nested attribute's): elements correlate by key. */
function planMap(
  def: BlockDef<Fields>,
  prior: Value,
  proposed: ObjectValue,
  config: Value,
  path: AttributePath,
  replace: AttributePath[],
): ObjectValue {
  const priorEntries = objectOrNull(prior) ?? {};
  const configEntries = objectOrNull(config) ?? {};
  const out: ObjectValue = {};
  for (const key of Object.keys(proposed)) {
    const e = proposed[key]!;
    const p = Object.hasOwn(priorEntries, key) ? priorEntries[key]! : null;
    const c = Object.hasOwn(configEntries, key) ? configEntries[key]! : null;
    const planned =
      e instanceof Unknown || e === null
        ? e
        : planLevel(def.fields, objectOrNull(p), e as ObjectValue, objectOrNull(c), [...path, keyStep(key)], replace);
    setEntry(out, key, planned);
  }
  return out;
}

/** Whether two block elements agree on every user-settable attribute (set-element correlation). */
function sameConfigurable(fields: Fields, a: ObjectValue, b: ObjectValue): boolean {
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    if (!isConfigurable(def)) continue;
    const av = a[name] ?? null;
    const bv = b[name] ?? null;
    // Defaults are filled into the plan but not the proposal; treat a null as matching its default.
    if (def.kind === 'attr' && def.options.default !== undefined && (av === null || bv === null)) continue;
    // The same to the platform pairs: another spelling `equal` accepts, another order of an unordered list.
    if (!sameSetting(def, av, bv)) return false;
  }
  return true;
}
