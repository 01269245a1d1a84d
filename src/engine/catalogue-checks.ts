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
 * it). A listing that fails is not
 * kept, costs the check a warning, never the plan: the apply decides then, as the platform does.
 * Never for a destroy (nothing of the configuration is judged then), nor for a plan that changes
 * nothing: a cluster may keep a package the platform no longer offers.
 */
import type { Fields } from '../schema/define.js';
import { toConfigModel } from '../schema/model.js';
import type { ObjectValue } from '../schema/value.js';
import type { CatalogueContext, ResourceDef } from './contracts.js';
import { PlannedObjects, checkReferences, type ReferenceKinds } from './reference-checks.js';
import { Diagnostics } from './diagnostics.js';
import type { EngineContext } from './engine-context.js';

export class CatalogueChecks<C> {
  private readonly listings = new Map<string, Promise<unknown>>();
  private readonly planned = new PlannedObjects();

  constructor(private readonly ctx: EngineContext<C>) {}

  /** Runs `r`'s catalogue check, and the check of the objects its arguments name, adding what they find to `diags`. */
  async check(r: ResourceDef<Fields, C>, config: ObjectValue, diags: Diagnostics): Promise<void> {
    const references = this.ctx.def.references;
    const model = toConfigModel(r.schema.fields, config);
    this.planned.note(references as ReferenceKinds<unknown> | undefined, r.typeName, model);
    if ((!r.checkAgainstCatalogue && !references) || this.ctx.client === undefined) return;
    const found = new Diagnostics();
    const signal = this.ctx.stopSignal;
    try {
      const ctx: CatalogueContext<C> = {
        client: this.ctx.client,
        signal,
        diags: found,
        listing: (key, read, options) => this.listing(key, read, options?.fresh === true),
        planned: (kind, id) => this.planned.has(kind, id),
      };
      if (references) await checkReferences(references, r.schema.fields, model, ctx);
      await r.checkAgainstCatalogue?.(model, ctx);
      diags.append(found.items);
    } catch (err) {
      if (signal.aborted) return;
      diags.append(found.items);
      diags.warning(
        `Could not check ${r.typeName} against the platform's catalogue`,
        `${err instanceof Error ? err.message : String(err)}. The plan goes on; the apply decides.`,
      );
    }
  }

  /** An object this process deleted is no longer one a reference may name as planned. */
  gone(r: ResourceDef<Fields, C>, prior: ObjectValue): void {
    const kinds = this.ctx.def.references as ReferenceKinds<unknown> | undefined;
    this.planned.forget(kinds, r.typeName, toConfigModel(r.schema.fields, prior));
  }

  private listing<T>(key: string, read: (signal: AbortSignal) => Promise<T>, fresh: boolean): Promise<T> {
    let held = fresh ? undefined : (this.listings.get(key) as Promise<T> | undefined);
    if (!held) {
      held = read(this.ctx.stopSignal);
      this.listings.set(key, held);
      // A failed read is not kept: the next plan asks again.
      held.catch(() => this.listings.delete(key));
    }
    return held;
  }
}
