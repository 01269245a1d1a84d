/**
 * Rules the platform's catalogue decides, checked at plan: that a region is one of the provider's, a
 * package is offered there and fits the cluster, a permission exists. A resource declares them
 * (`checkAgainstCatalogue`); the engine runs them when a create or an update is planned with the
 * provider configured, on the configuration as known then (unknown values `undefined`: skipped), and
 * reports what the catalogue refuses as errors at the argument's path, naming what it offers.
 *
 * Each listing is read once per process and kept (the catalogue changes far more slowly than a run):
 * the plans of many resources and the apply walk's second plan share it; before a check names a value
 * missing, it reads the listing again (an environment made earlier in the same apply is newer than
 * it). A listing that fails, or that the platform does not answer within its budget (6 s), is not kept
 * and costs the check a warning, never the plan (the apply decides then, as the platform does); the
 * process then asks no more at plan.
 *
 * An argument that names an object the platform does not hold (`missing`: a reference, an alert profile,
 * a policy) may name one that another configuration of a pipeline, or a step of this apply, makes
 * before this create is sent: at plan that is a warning unless `missing_references` is "refuse", and the
 * same check runs again before the create or update is sent (`phase` "apply"), where it is an error and
 * nothing is sent (docs/decisions.md, "Whose object is it").
 *
 * Never for a destroy, its first plan included (Terraform and OpenTofu plan the whole configuration
 * before a destroy, and an error of that plan stops it; engine/host/host-view.ts tells), nor for a plan that
 * changes nothing: a cluster may keep a package the platform no longer offers.
 */
import type { Fields } from '../../schema/define.js';
import { toConfigModel } from '../../schema/model.js';
import type { ObjectValue } from '../../schema/value.js';
import type { ResourceDef, CatalogueContext, ReferenceKinds } from '../contracts/index.js';
import { PlannedObjects, checkReferences } from './reference-checks.js';
import { Diagnostics } from '../diagnostics/index.js';
import type { EngineContext } from '../context/index.js';

export class CatalogueChecks<C> {
  private readonly listings = new Map<string, Promise<unknown>>();
  private readonly planned = new PlannedObjects();

  constructor(
    private readonly ctx: EngineContext<C>,
    /** How long a plan waits for the platform to answer one of its listings. */
    private readonly budgetMs: number,
  ) {}

  /**
   * Runs `r`'s catalogue check, and the check of the objects its arguments name, adding what they find
   * to `diags`: at plan (`phase` "plan"), or before a create or update is sent ("apply").
   */
  async check(
    r: ResourceDef<Fields, C>,
    config: ObjectValue,
    diags: Diagnostics,
    phase: 'plan' | 'apply' = 'plan',
  ): Promise<void> {
    const references = this.ctx.def.references;
    const model = toConfigModel(r.schema.fields, config);
    if (phase === 'plan') this.planned.note(references as ReferenceKinds<unknown> | undefined, r.typeName, model);
    if ((!r.checkAgainstCatalogue && !references) || this.ctx.client === undefined) return;
    if (phase === 'plan' && this.ctx.host.command.destroying) return;
    if (phase === 'plan' && this.ctx.unreachable !== undefined) {
      diags.warning(...couldNotCheck(r.typeName, this.ctx.unreachable));
      return;
    }
    const found = new Diagnostics();
    const budget = phase === 'plan' ? AbortSignal.timeout(this.budgetMs) : undefined;
    const signal = budget ? AbortSignal.any([this.ctx.stopSignal, budget]) : this.ctx.stopSignal;
    const strict = this.ctx.createSettings.missingReferences === 'refuse';
    try {
      const ctx: CatalogueContext<C> = {
        client: this.ctx.client,
        signal,
        diags: found,
        listing: (key, read, options) => this.listing(key, read, signal, options?.fresh === true),
        planned: (kind, id) => this.planned.has(kind, id),
        missing: (summary, detail, path) => {
          if (phase === 'apply') found.error(summary, `${detail} ${NOT_SENT}`, path);
          else if (strict) found.error(summary, `${detail} ${this.strict()}`, path);
          else found.warning(summary, `${detail} ${this.yetToCome()}`, path);
        },
      };
      if (references) await checkReferences(references, r.schema.fields, model, ctx);
      await r.checkAgainstCatalogue?.(model, ctx);
      diags.append(found.items);
    } catch (err) {
      if (this.ctx.stopSignal.aborted) return;
      diags.append(found.items);
      const why = budget?.aborted
        ? `the platform did not answer within ${this.budgetMs / 1000} s`
        : err instanceof Error
          ? err.message
          : String(err);
      if (phase === 'plan') this.ctx.unreachable ??= why;
      diags.warning(...couldNotCheck(r.typeName, why));
    }
  }

  /** An object this process deleted is no longer one a reference may name as planned. */
  gone(r: ResourceDef<Fields, C>, prior: ObjectValue): void {
    const kinds = this.ctx.def.references as ReferenceKinds<unknown> | undefined;
    this.planned.forget(kinds, r.typeName, toConfigModel(r.schema.fields, prior));
  }

  /** What a missing object's warning at plan adds: it may come, and where to say that it must exist now. */
  private yetToCome(): string {
    return (
      `${YET_TO_COME}: the ${this.ctx.terms.applyCommand} looks again then, and sends nothing if it is still ` +
      `missing. To refuse such a plan instead, set ${this.ctx.terms.setting('missing_references', 'refuse')}.`
    );
  }

  private strict(): string {
    return `${this.ctx.terms.settingName('missing_references')} is "refuse", so the plan stops here.`;
  }

  private listing<T>(
    key: string,
    read: (signal: AbortSignal) => Promise<T>,
    signal: AbortSignal,
    fresh: boolean,
  ): Promise<T> {
    let held = fresh ? undefined : (this.listings.get(key) as Promise<T> | undefined);
    if (!held) {
      held = read(signal);
      this.listings.set(key, held);
      // A failed read is not kept: the next plan asks again.
      held.catch(() => this.listings.delete(key));
    }
    return held;
  }
}

/** How a missing object's warning at plan begins what it adds to the check's own words. */
export const YET_TO_COME =
  'Another configuration of a pipeline, or a step of this apply, may make it before this change is sent';
export const NOT_SENT = 'Checked again just before sending, it is still missing: nothing was sent.';

function couldNotCheck(typeName: string, why: string): [string, string] {
  return [
    `Could not check ${typeName} against the platform's catalogue`,
    `${why}. The plan goes on; the apply decides.`,
  ];
}
