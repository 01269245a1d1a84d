/**
 * A managed resource's calls as Terraform makes them, for the harness (./harness.ts): which RPCs in
 * which order, with what Terraform keeps between them (each state's private data and identity), and
 * Terraform's own checks of every answer (engine/checks).
 *
 * - A plan validates the configuration, proposes the new state (proposedNew), plans, and checks the
 *   plan; a replacement is planned again as a create, as Terraform plans it.
 * - An apply does nothing for a no-op plan, a destroy then a create for a replacement, and checks the
 *   result against the plan.
 * - A read checks what it got; an import reads what it imported once, as Terraform does.
 *
 * It serves as Terraform's apply walk does (plans with `deferral_allowed`): the checks of a plan that
 * judge objects no state tracks (look-alikes of a create) are for the plan walk, and are not made.
 */
import { isDeepStrictEqual } from 'node:util';
import { checkApplyResult, checkPlannedState, checkReadResult, proposedNew } from '../engine/checks/index.js';
import type { PrivateState } from '../engine/context/index.js';
import type { ProviderEngine } from '../engine/entry/index.js';
import type { IdentifiedOutcome } from '../engine/resources/index.js';
import type { SchemaBlock } from '../schema/block.js';
import { formatPath } from '../schema/path.js';
import type { ObjectValue } from '../schema/value.js';
import type { CallReport } from './harness-diagnostics.js';
import { actionOf, problemsAsErrors, type PlannedAction } from './harness-plan.js';
import { configValue, modelOf, stateValue, type HarnessModel } from './harness-values.js';

/** What to plan or apply: the prior state (none for a create) and the configuration (none for a destroy). */
export interface ChangeRequest {
  readonly prior?: HarnessModel | null;
  readonly config: Record<string, unknown> | null;
}

/** A state as the engine takes it, with what Terraform keeps beside it. */
interface Prior {
  readonly state: ObjectValue;
  readonly private: PrivateState;
  readonly identity: ObjectValue | null;
}

/** A state the harness returned: the model as returned, to tell whether the test changed it since. */
interface Kept extends Prior {
  readonly typeName: string;
  readonly returned: HarnessModel;
}

/** A plan, with what its apply needs. */
export interface PlanOutcome {
  readonly action: PlannedAction;
  readonly prior: Prior | null;
  readonly config: ObjectValue | null;
  readonly planned: ObjectValue | null;
  readonly plannedPrivate: PrivateState;
  readonly plannedIdentity: ObjectValue | null;
  /** The changed paths that replace the object, as Terraform writes them. */
  readonly replacing: readonly string[];
  /** For a replacement, the private data the destroy's plan gave (this plan is the create's). */
  readonly destroyPrivate?: PrivateState;
}

/** Terraform 1.11 and later carry write-only values. */
export const CLIENT = { writeOnlyAttributesAllowed: true };
/** Terraform's apply walk plans with `deferral_allowed` (engine/walk.ts). */
const APPLY_WALK = { deferralAllowed: true };
const INVALID_PLAN = 'Provider produced invalid plan';
const INCONSISTENT = 'Provider produced inconsistent result after apply';
const INVALID_OBJECT = 'Provider produced invalid object';

export class ResourceLifecycle {
  private readonly kept = new WeakMap<object, Kept>();

  constructor(private readonly engine: ProviderEngine<unknown>) {}

  async plan(typeName: string, block: SchemaBlock, request: ChangeRequest, report: CallReport): Promise<PlanOutcome> {
    const prior = request.prior == null ? null : this.prior(typeName, block, request.prior, report);
    const config = request.config === null ? null : report.model(() => configValue(block, request.config));
    if (prior === null && config === null)
      report.fail(
        'Nothing to plan',
        'A plan needs a prior state (an update or destroy) or a configuration (a create).',
      );
    if (config !== null) report.check(this.engine.validateResourceConfig(typeName, config, CLIENT).items);
    const first = await this.planOnce(typeName, block, prior, config, report);
    const { action, replacing } = actionOf(block, prior?.state ?? null, first.planned, first.requiresReplace);
    const outcome = { action, prior, config, ...first, replacing: replacing.map(formatPath) };
    if (action !== 'replace') return outcome;
    const created = await this.planOnce(typeName, block, null, config, report, first.plannedPrivate);
    return { ...outcome, ...created, destroyPrivate: first.plannedPrivate };
  }

  async apply(typeName: string, block: SchemaBlock, plan: PlanOutcome, report: CallReport) {
    const { prior } = plan;
    if (plan.action === 'no-op') return this.keep(typeName, prior!);
    if (plan.action === 'delete' || plan.action === 'replace') {
      const priv = plan.destroyPrivate ?? plan.plannedPrivate;
      const out = await this.engine.applyWithIdentity(typeName, prior!.state, null, priv, null, prior!.identity);
      this.applyChecked(typeName, block, null, out, report);
      if (plan.action === 'delete') return null;
    }
    const before = plan.action === 'replace' ? null : prior;
    const out = await this.engine.applyWithIdentity(
      typeName,
      before?.state ?? null,
      plan.planned,
      plan.plannedPrivate,
      plan.config,
      before === null ? null : plan.plannedIdentity,
    );
    return this.applyChecked(typeName, block, plan.planned, out, report)!;
  }

  /** ReadResource: the object now, or null when it is gone. */
  async read(typeName: string, block: SchemaBlock, model: HarnessModel, report: CallReport) {
    const prior = this.prior(typeName, block, model, report);
    const out = await this.engine.readWithIdentity(typeName, prior.state, prior.private, prior.identity);
    report.check(out.diags.items);
    if (out.state === null) return null;
    report.check(problemsAsErrors(INVALID_OBJECT, typeName, checkReadResult(block, out.state)));
    return this.keep(typeName, out as Prior);
  }

  /** ImportResourceState, then the read that completes it: the imported object's state. */
  async import(
    typeName: string,
    block: SchemaBlock,
    by: { id: string } | { identity: ObjectValue },
    report: CallReport,
  ): Promise<HarnessModel> {
    const imported = await this.engine.importWithIdentity(typeName, by);
    report.check(imported.diags.items);
    const read =
      imported.state === null
        ? null
        : await this.engine.readWithIdentity(typeName, imported.state, imported.private, imported.identity);
    if (read !== null) report.check(read.diags.items);
    if (read?.state == null)
      return report.fail(
        'Cannot import non-existent remote object',
        `While attempting to import an existing object to ${typeName}, the provider detected that no object ` +
          `exists with the given ${'id' in by ? 'id' : 'identity'}. Only pre-existing objects can be imported.`,
      );
    report.check(problemsAsErrors(INVALID_OBJECT, typeName, checkReadResult(block, read.state)));
    return this.keep(typeName, read as Prior);
  }

  /** The identity Terraform keeps beside a state the harness returned. */
  identityOf(model: HarnessModel): ObjectValue | null {
    return this.kept.get(model)?.identity ?? null;
  }

  /** The model of a state, remembered with what Terraform keeps beside it. */
  keep(typeName: string, kept: Prior): HarnessModel {
    const model = modelOf(kept.state);
    this.kept.set(model, {
      typeName,
      returned: modelOf(kept.state),
      state: kept.state,
      private: kept.private,
      identity: kept.identity,
    });
    return model;
  }

  private async planOnce(
    typeName: string,
    block: SchemaBlock,
    prior: Prior | null,
    config: ObjectValue | null,
    report: CallReport,
    priorPrivate: PrivateState = prior?.private ?? {},
  ) {
    const before = prior?.state ?? null;
    const proposed = config === null ? null : (proposedNew(block, before, config) as ObjectValue);
    const out = await this.engine.planWithNotices(
      typeName,
      before,
      proposed,
      config,
      priorPrivate,
      prior?.identity ?? null,
      APPLY_WALK,
    );
    report.check(out.diags.items);
    if (out.planned !== null)
      report.check(problemsAsErrors(INVALID_PLAN, typeName, checkPlannedState(block, before, config, out.planned)));
    const { planned, plannedPrivate, identity: plannedIdentity, requiresReplace } = out;
    return { planned, plannedPrivate, plannedIdentity, requiresReplace };
  }

  /** An apply's result: its errors reject with what the state keeps; then Terraform's checks of it. */
  private applyChecked(
    typeName: string,
    block: SchemaBlock,
    planned: ObjectValue | null,
    out: IdentifiedOutcome,
    report: CallReport,
  ): HarnessModel | null {
    const state = out.state === null ? null : this.keep(typeName, out as Prior);
    report.check(out.diags.items, state);
    report.check(
      problemsAsErrors(INCONSISTENT, typeName, checkApplyResult(block, planned, out.state, planned === null)),
    );
    return state;
  }

  /** A state model as the engine takes it: as returned when the test did not change it since. */
  private prior(typeName: string, block: SchemaBlock, model: HarnessModel, report: CallReport): Prior {
    const kept = this.kept.get(model);
    if (kept && kept.typeName === typeName && isDeepStrictEqual(kept.returned, model)) return kept;
    const state = report.model(() => stateValue(block, model));
    // Changed by the test: its private data still holds; its identity is the engine's to compute.
    return { state, private: kept?.private ?? {}, identity: null };
  }
}
