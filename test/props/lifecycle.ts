/**
 * One resource type's lifecycle as Terraform drives it, through the real provider executable and the
 * Terraform-side client (which applies Terraform's own ProposedNew, AssertPlanValid and
 * AssertObjectCompatible checks), against an emulator: create, refresh and re-plan, update (or
 * replace where the plan says so), import, destroy, and the emulator's store after each run.
 *
 * What it reports: a configuration validation or planning refuses is `rejected` (fine: the property is
 * "accepted at plan time ⇒ apply succeeds and settles"); anything else that goes wrong is thrown, with
 * the step and the configuration, after the run's objects are cleaned up so the next run starts clean.
 */
import { YET_TO_COME } from '../../packages/framework/src/engine/catalogue/catalogue-checks.js';
import { impliedType, type SchemaBlock } from '../../packages/framework/src/schema/block.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import { valueToPlain } from '../../packages/framework/src/schema/model.js';
import { samePlatformSettings } from '../../packages/framework/src/engine/plan/index.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { ProviderCallError, type PlannedChange, type TerraformClient } from '../../src/tfclient/terraform-client.js';
import { fill, type Case, type EmulatorHandle } from '../acceptance/examples-workspace.js';
import { expectEmulatorHoldsState, type Baseline, type TypeRecord } from '../acceptance/ledger.js';
import type { StateResource } from '../acceptance/terraform.js';
import type { Plain } from './configs.js';

/** A resource type under test: its declaration, its example's acceptance case, and a known-valid configuration. */
export interface Subject {
  readonly type: string;
  readonly fields: Fields;
  readonly case: Case;
  readonly base: Plain;
}

/** What the runs of one type did, for the printed figures and to show the generator reaches each step. */
export interface Tally {
  rejected: number;
  /** Why configurations were refused: diagnostic summary and path → count. */
  readonly refusals: Map<string, number>;
  created: number;
  updated: number;
  replaced: number;
  silentUpdates: number;
  imported: number;
}

export const emptyTally = (): Tally => ({
  refusals: new Map(),
  rejected: 0,
  created: 0,
  updated: 0,
  replaced: 0,
  silentUpdates: 0,
  imported: 0,
});

/** A step that went wrong for a configuration the provider accepted: what the property test exists to find. */
export class Finding extends Error {
  override readonly name = 'Finding';
}

/** Diagnostics our own checks (ported from Terraform) add: the provider broke a rule, it did not refuse the input. */
const TERRAFORM_CHECK = /^Provider produced|^Import returned|^Cannot import non-existent/;

export type Verdict =
  | { accepted: true; config: ObjectValue; planned: PlannedChange }
  | { accepted: false; why: string[] };

export class Lifecycle {
  constructor(
    readonly tf: TerraformClient,
    readonly emulator: EmulatorHandle,
    /** Whether an emulator request changes something (the rest only read). */
    private readonly isWrite: (operation: string) => boolean,
    private readonly records: ReadonlyMap<string, TypeRecord>,
    private readonly baseline: Baseline,
  ) {}

  block(type: string): SchemaBlock {
    return this.tf.resourceSchema(type).block;
  }

  config(type: string, plain: Plain): ObjectValue {
    return this.tf.config(this.block(type), plain);
  }

  /** Validation, then the plan of a create (or of a change from `prior`): accepted, or refused with the reason. */
  async verdict(type: string, plain: Plain, prior: ObjectValue | null = null): Promise<Verdict> {
    const config = this.config(type, plain);
    try {
      await this.tf.validateResource(type, config);
      const before = this.tf.received.length;
      const planned = await this.tf.plan(type, prior, config);
      // An argument naming an object the platform does not hold: the plan says the apply refuses it
      // unless the object comes first (docs/decisions.md, "Whose object is it"), a refusal foretold.
      const missing = this.tf.received.slice(before).filter((d) => d.detail.includes(YET_TO_COME));
      if (missing.length > 0) return { accepted: false, why: missing.map((d) => `${d.summary} at ${d.path}`) };
      return { accepted: true, config, planned };
    } catch (err) {
      if (err instanceof ProviderCallError && !err.diagnostics.some((d) => TERRAFORM_CHECK.test(d.summary))) {
        return { accepted: false, why: err.diagnostics.map((d) => `${d.summary}${d.path ? ` at ${d.path}` : ''}`) };
      }
      throw err;
    }
  }

  /**
   * Create `a`, re-plan, change to `b` (when accepted), re-plan, import, re-plan, destroy; the emulator
   * then holds nothing the run made. Throws a Finding for anything that goes wrong after acceptance.
   */
  async run(s: Subject, a: Plain, b: Plain | null, tally: Tally): Promise<void> {
    // Takes in what the emulator received so far: its log keeps only the newest requests.
    this.emulator.operations();
    const first = await this.verdict(s.type, a);
    if (!first.accepted) return refused(tally, first.why);
    let state: ObjectValue | null = null;
    let step = 'create';
    let current = a;
    try {
      state = await this.apply(s.type, null, first.planned, first.config);
      if (state === null) throw new Finding('the create returned no object');
      tally.created++;
      step = 'refresh and re-plan after the create';
      state = await this.settled(s.type, state, current);
      this.holdsOnly(s.type, state, 'after the create');

      if (b !== null) {
        const second = await this.verdict(s.type, b, state);
        if (!second.accepted) refused(tally, second.why);
        else {
          step = 'update';
          current = b;
          state = await this.change(s, state, second, tally);
          step = 'refresh and re-plan after the update';
          state = await this.settled(s.type, state, current);
          this.holdsOnly(s.type, state, 'after the update');
        }
      }

      if (s.case.importId !== undefined) {
        step = 'import and re-plan';
        state = await this.importAndPlan(s, state, current);
        tally.imported++;
      }

      step = 'destroy';
      await this.destroy(s.type, state);
      state = null;
      step = 'check the emulator after the destroy';
      this.holdsOnly(s.type, null, 'after the destroy');
    } catch (err) {
      await this.cleanUp(s.type, state);
      const message = err instanceof Error ? err.message : String(err);
      throw new Finding(
        `${s.type}: ${step} failed for a configuration the provider accepted: ${message}\n  first configuration: ${show(a)}${b ? `\n  second configuration: ${show(b)}` : ''}`,
      );
    }
  }

  /** The emulator holds the object `state` tracks (none when null) and nothing else the run made. */
  private holdsOnly(type: string, state: ObjectValue | null, when: string): void {
    const tracked = new Map<string, StateResource>();
    if (state !== null)
      tracked.set(`${type}.run`, {
        address: `${type}.run`,
        mode: 'managed',
        type,
        values: valueToPlain(state) as Record<string, unknown>,
        sensitive_values: {},
      });
    expectEmulatorHoldsState(this.emulator, this.records, this.baseline, tracked, `${type} ${when}`);
  }

  private async apply(
    type: string,
    prior: ObjectValue | null,
    planned: PlannedChange,
    config: ObjectValue | null,
  ): Promise<ObjectValue | null> {
    return (await this.tf.apply(type, prior, planned, config)).state;
  }

  /** Terraform's refresh, then a plan that must be empty; returns the refreshed state. */
  private async settled(type: string, state: ObjectValue, plain: Plain): Promise<ObjectValue> {
    const fresh = (await this.tf.read(type, state)).state;
    if (fresh === null) throw new Finding('the object is gone after it was applied');
    const again = await this.tf.plan(type, fresh, this.config(type, plain));
    const changed = differences(this.block(type), fresh, again.planned!);
    if (changed.length > 0 || again.requiresReplace.length > 0) {
      throw new Finding(
        `the re-plan is not empty: ${changed.join('; ')}${again.requiresReplace.length > 0 ? ' (replacement)' : ''}`,
      );
    }
    return fresh;
  }

  /** An update, or a replacement where the plan requires one; a change between null and empty sends nothing. */
  private async change(
    s: Subject,
    prior: ObjectValue,
    next: Extract<Verdict, { accepted: true }>,
    tally: Tally,
  ): Promise<ObjectValue> {
    if (next.planned.requiresReplace.length > 0) {
      await this.destroy(s.type, prior);
      const created = await this.tf.plan(s.type, null, next.config);
      tally.replaced++;
      return (await this.apply(s.type, null, created, next.config))!;
    }
    const sameMeaning = sameArguments(s.fields, prior, next.planned.planned!);
    const before = this.emulator.operations().length;
    const state = (await this.apply(s.type, prior, next.planned, next.config))!;
    if (sameMeaning) {
      const writes = this.emulator.operations().slice(before).filter(this.isWrite);
      if (writes.length > 0) throw new Finding(`a change between null and empty only sent ${writes.join(', ')}`);
      tally.silentUpdates++;
    } else tally.updated++;
    return state;
  }

  /**
   * Import into an empty state, then the plan against the configuration: empty but for null ↔ empty
   * (import has no configuration to take the form from), the provider's own settings (an import takes
   * their defaults) or what the example says import cannot restore (`importChanges`); any such plan
   * is applied, sending nothing unless `importChanges` says why, and the next one must be empty.
   */
  private async importAndPlan(s: Subject, state: ObjectValue, plain: Plain): Promise<ObjectValue> {
    const id = fill(s.case.importId!, valueToPlain(state) as Record<string, unknown>);
    const imported = await this.tf.importState(s.type, id);
    const config = this.config(s.type, plain);
    const plan = await this.tf.plan(s.type, imported, config);
    const changed = differences(this.block(s.type), imported, plan.planned!);
    if (changed.length === 0 && plan.requiresReplace.length === 0) return imported;
    if (plan.requiresReplace.length > 0)
      throw new Finding(`the plan after import replaces the object (${changed.join('; ')})`);
    const onlyForm = sameArguments(s.fields, imported, plan.planned!);
    // A secret an import cannot read (its value, its write-only form's version) is sent once by the first apply.
    const onlySecrets = sameArguments(
      s.fields,
      withoutSecrets(s.fields, imported),
      withoutSecrets(s.fields, plan.planned!),
    );
    if (!onlySecrets && s.case.importChanges === undefined)
      throw new Finding(`the plan after import is not empty: ${changed.join('; ')}`);
    const before = this.emulator.operations().length;
    const applied = (await this.apply(s.type, imported, plan, config))!;
    if (onlyForm) {
      const writes = this.emulator.operations().slice(before).filter(this.isWrite);
      if (writes.length > 0)
        throw new Finding(`after import, a change between null and empty only sent ${writes.join(', ')}`);
    }
    return this.settled(s.type, applied, plain);
  }

  private async destroy(type: string, state: ObjectValue): Promise<void> {
    const plan = await this.tf.plan(type, state, null);
    await this.tf.apply(type, state, plan, null);
  }

  /** After a failed run: destroy what the state holds, then remove whatever the run left in the emulator. */
  private async cleanUp(type: string, state: ObjectValue | null): Promise<void> {
    if (state !== null) await this.destroy(type, state).catch(() => undefined);
    for (const [collection, before] of this.baseline) {
      for (const id of this.emulator.ids(collection)) if (!before.has(id)) this.emulator.remove(collection, id);
    }
  }
}

export function refused(tally: Tally, why: readonly string[]): void {
  tally.rejected++;
  for (const reason of new Set(why)) tally.refusals.set(reason, (tally.refusals.get(reason) ?? 0) + 1);
}

/** Top-level attributes and blocks whose planned value differs from the prior state, with both values. */
export function differences(block: SchemaBlock, prior: ObjectValue, planned: ObjectValue): string[] {
  const type = impliedType(block);
  if (type.kind !== 'object') return [];
  return Object.entries(type.attributes)
    .filter(([name, t]) => !valueEquals(t, prior[name] ?? null, planned[name] ?? null))
    .map(
      ([name]) => `${name}: ${show(valueToPlain(prior[name] ?? null))} → ${show(valueToPlain(planned[name] ?? null))}`,
    );
}

/**
 * Whether every argument and block the platform holds is the same to it in both (null ≡ empty, a
 * deprecated form and its replacement, another order of an unordered list): then a change sends
 * nothing. The provider's own settings (`providerOnly`) are not the platform's.
 */
const sameArguments = (fields: Fields, a: ObjectValue, b: ObjectValue): boolean => samePlatformSettings(fields, a, b);

/** `value` without the secrets that have write-only twins and the twins themselves, at every depth. */
function withoutSecrets(fields: Fields, value: ObjectValue): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, def] of Object.entries(fields)) {
    const v = value[name] ?? null;
    if (def.kind === 'attr') {
      if (!def.options.writeOnlyTwin && def.options.twinOf === undefined) out[name] = v;
    } else if (Array.isArray(v)) out[name] = v.map((e) => withoutSecrets(def.fields, e as ObjectValue));
    else
      out[name] =
        v !== null && typeof v === 'object' && v.constructor === Object
          ? withoutSecrets(def.fields, v as ObjectValue)
          : v;
  }
  return out;
}

/** A configuration or value for a failure message (test values only: no real secrets). */
export function show(v: unknown): string {
  return JSON.stringify(v);
}
