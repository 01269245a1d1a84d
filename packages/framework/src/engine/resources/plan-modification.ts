/**
 * A resource's own say in its plan (ResourceDef `modifyPlan`, given plan-context.ts): called in
 * PlanResourceChange once the engine has planned and judged a create or an update, never for a destroy
 * (Terraform plans no state for one) nor for a configuration in error. The hook may plan a computed
 * value (known, or unknown until apply), ask for replacement at a path, and add warnings or errors.
 *
 * What the hook planned is then checked as Terraform checks every plan (checks/index.ts
 * checkPlannedState: write-only values null, the schema's types, objchange.AssertPlanValid): a
 * configured argument keeps its configured value (or the prior one), an optional and computed argument
 * set in the configuration does not change, an argument left unset is not given one. A break is an
 * error at the attribute's path that says which hook did it, instead of Terraform's "Provider produced
 * invalid plan" after the fact.
 */
import { toConfigModel, toModel, plainToValue } from '../../schema/model.js';
import type { AttrDef, ConfigModelOf, Fields } from '../../schema/define.js';
import { attrStep, formatPath, pathEquals, type AttributePath } from '../../schema/path.js';
import { UNKNOWN, type ObjectValue, type Value } from '../../schema/value.js';
import { checkPlannedState } from '../checks/index.js';
import type { ResourceDef } from '../contracts/index.js';
import { DiagnosticError, type Diagnostics } from '../diagnostics/index.js';
import { MODEL_OPTIONS, type EngineContext, type PrivateState } from '../context/index.js';
import type { Logger } from '../diagnostics/index.js';
import type { PlanContext } from '../contracts/index.js';

/** A plan on its way out of PlanResourceChange. */
export interface Plan {
  planned: ObjectValue;
  requiresReplace: AttributePath[];
  plannedPrivate: PrivateState;
  diags: Diagnostics;
}

/**
 * The plan after the resource's `modifyPlan` (the same plan without one). `config` is the
 * configuration the plan was made from. What the hook throws is the caller's to report.
 */
export function modifiedPlan<C>(
  r: ResourceDef<Fields, C>,
  engine: EngineContext<C>,
  prior: ObjectValue | null,
  config: ObjectValue,
  plan: Plan,
): Plan {
  if (!r.modifyPlan) return plan;
  const fields = r.schema.fields;
  let planned = plan.planned;
  const changed: string[] = [];
  const requiresReplace = [...plan.requiresReplace];
  const plannedModel = toConfigModel(fields, planned) as Record<string, unknown>;
  const set = (name: string, value: Value, shown: unknown) => {
    planned = { ...planned, [name]: value };
    plannedModel[name] = shown;
    if (!changed.includes(name)) changed.push(name);
  };
  let log: Logger | undefined;
  const ctx: PlanContext<Fields, C> = {
    client: engine.client,
    signal: engine.stopSignal,
    get log(): Logger {
      return (log ??= engine.log.child({ tf_resource_type: r.typeName }));
    },
    diags: plan.diags,
    private: { ...plan.plannedPrivate },
    config: toConfigModel(fields, config),
    prior: prior === null ? null : toModel(fields, prior, MODEL_OPTIONS),
    planned: plannedModel as ConfigModelOf<Fields>,
    setPlanned(name, value) {
      set(name, plannedValue(r.typeName, attribute(r, name), name, value), value ?? null);
    },
    setUnknown(name) {
      attribute(r, name);
      set(name, UNKNOWN, undefined);
    },
    requireReplace(at) {
      const path = typeof at === 'string' ? [attrStep(at)] : at;
      const first = path[0];
      if (first === undefined || !('attr' in first) || !Object.hasOwn(fields, first.attr))
        throw hookError(r.typeName, `asked for replacement at ${formatPath(path) || 'no path'}, which names no field`);
      if (!requiresReplace.some((p) => pathEquals(p, path))) requiresReplace.push(path);
    },
  };
  r.modifyPlan(ctx);
  const out = { planned, requiresReplace, plannedPrivate: ctx.private, diags: plan.diags };
  if (changed.length > 0) brokenRules(r, prior, config, out);
  return out;
}

/** The top-level attribute `name` of the resource, or the hook's error for a name that is none. */
function attribute<C>(r: ResourceDef<Fields, C>, name: string): AttrDef<unknown> {
  const def = Object.hasOwn(r.schema.fields, name) ? r.schema.fields[name] : undefined;
  if (def?.kind !== 'attr') throw hookError(r.typeName, `planned "${name}", which is not an attribute`);
  return def;
}

/** A model value as a Value of the attribute's type, or the hook's error for one of another type. */
function plannedValue(typeName: string, def: AttrDef<unknown>, name: string, value: unknown): Value {
  try {
    return plainToValue(def.type.cty, value, name);
  } catch (err) {
    throw hookError(typeName, `planned a value of the wrong type (${(err as Error).message})`, name);
  }
}

function hookError(typeName: string, what: string, at?: string): DiagnosticError {
  return new DiagnosticError(
    'Invalid plan modification',
    `The plan modification of ${typeName} (modifyPlan) ${what}. This is a bug in the provider; please report it.`,
    at === undefined ? undefined : [attrStep(at)],
  );
}

/** Terraform's checks of a planned state, each problem an error at its path naming the hook. */
function brokenRules<C>(r: ResourceDef<Fields, C>, prior: ObjectValue | null, config: ObjectValue, plan: Plan): void {
  for (const problem of checkPlannedState(r.schema.block, prior, config, plan.planned)) {
    const at = formatPath(problem.path);
    plan.diags.error(
      'Invalid plan modification',
      `The plan modification of ${r.typeName} (modifyPlan) planned ${at === '' ? 'the object' : `\`${at}\``} ` +
        `against Terraform's rules: ${problem.message}. Terraform would refuse the plan ("Provider produced ` +
        'invalid plan"): a plan may change only computed values the configuration does not set. This is a bug ' +
        'in the provider; please report it.',
      problem.path,
    );
  }
}
