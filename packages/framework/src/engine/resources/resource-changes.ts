/**
 * A managed resource's changes: ValidateResourceConfig, PlanResourceChange (no API call: the plan is
 * the schema walked by engine/plan/planner.ts) and ApplyResourceChange (create, update or delete through the
 * resource's operations, keeping whatever exists when they fail; creates go through
 * engine/creates/create-recovery.ts).
 */
import type { ListedReads } from './listed-reads.js';
import { impliedType } from '../../schema/block.js';
import type { Fields, ModelOf } from '../../schema/define.js';
import { fromModel, toModel } from '../../schema/model.js';
import type { AttributePath } from '../../schema/path.js';
import type { ObjectValue } from '../../schema/value.js';
import { isWhollyKnown, valueEquals } from '../../schema/value-ops.js';
import { holdsOnlyStored } from '../../schema/fields.js';
import { isApiError } from '../../wire/api-error.js';
import {
  deadline,
  lateCreate,
  operationLimit,
  type ResourceDef,
  UNTRACKED_BESIDE,
  untrackedBeside,
} from '../contracts/index.js';
import { CatalogueChecks } from '../catalogue/index.js';
import {
  CreateLookalikes,
  CreateLedger,
  createTracked,
  describe,
  type CreateBooks,
  type CreateRecoveryOptions,
} from '../creates/index.js';
import { Diagnostics, DiagnosticError, diagnosticFromError, sentences, type Diagnostic } from '../diagnostics/index.js';
import {
  MODEL_OPTIONS,
  errorsOf,
  isNotFound,
  providerRuleErrors,
  type EngineContext,
  type PrivateState,
  type StateOutcome,
} from '../context/index.js';
import {
  assignedValueChanges,
  planObject,
  refusedChanges,
  type RefusedChangeAt,
  samePlatformSettings,
  withoutRepeats,
  withWriteOnlyValues,
  finalizeApplied,
  type Mismatch,
  checkConfig,
  type ClientCapabilities,
} from '../plan/index.js';
import { modifiedPlan } from './plan-modification.js';

export interface PlanOutcome {
  planned: ObjectValue | null;
  requiresReplace: AttributePath[];
  plannedPrivate: PrivateState;
  diags: Diagnostics;
}

export class ResourceChanges<C> {
  /** What this process's creates listed, made and adopted (engine/creates/create-recovery.ts). */
  private readonly creates: CreateLedger;
  /** What plans of creates say about records of killed runs and objects alike (engine/creates/create-lookalikes.ts). */
  private readonly lookalikes: CreateLookalikes<C>;
  private readonly catalogue: CatalogueChecks<C>;

  constructor(
    private readonly ctx: EngineContext<C>,
    createRecovery: CreateRecoveryOptions,
    private readonly listed: ListedReads<C>,
  ) {
    this.creates = new CreateLedger(createRecovery);
    this.lookalikes = new CreateLookalikes(ctx, this.creates);
    this.catalogue = new CatalogueChecks(ctx, createRecovery.lookBudgetMs);
  }

  /**
   * What Terraform's plan tells the records of creates, and what they and the platform tell the plan:
   * a prior state shows its object tracked; a create is warned about a killed run's record, and told
   * of objects like it that exist but no state tracks (refused by default: engine/creates/create-lookalikes.ts). A
   * failure of these checks themselves never fails the plan.
   */
  async planNotices(
    typeName: string,
    prior: ObjectValue | null,
    config: ObjectValue | null,
    out: PlanOutcome,
  ): Promise<void> {
    const r = this.ctx.resources.get(typeName);
    if (!r || out.diags.hasErrors) return;
    // What the platform's catalogue decides, for a create or a change (never a destroy, nor a plan
    // that changes nothing: what the platform holds already is not judged again).
    const changes =
      out.planned !== null && (prior === null || !valueEquals(impliedType(r.schema.block), prior, out.planned));
    if (config !== null && changes) await this.catalogue.check(r, config, out.diags);
    if (out.diags.hasErrors) return;
    // A plan of an object its state holds (kept or changed).
    if (prior !== null) this.ctx.seen(r, prior, 'tracked');
    else if (out.planned !== null) {
      out.plannedPrivate = { ...out.plannedPrivate };
      await this.lookalikes.check(r, out.planned, out.diags, out.plannedPrivate).catch((error) => {
        this.ctx.log.debug('the look-alike check of a create failed', { tf_resource_type: typeName, error });
      });
    }
    this.ctx.journalWarning(out.diags);
  }

  validateResourceConfig(typeName: string, config: ObjectValue, client?: ClientCapabilities): Diagnostics {
    const diags = new Diagnostics();
    const r = this.ctx.resources.find(typeName, diags);
    if (!r) return diags;
    if (r.schema.deprecated !== undefined) {
      diags.warning(`Resource type ${typeName} is deprecated`, r.schema.deprecated);
    }
    // A destroy sends nothing of the configuration, and Terraform validates it with the values of that
    // run (`plantimestamp()`): what a create or an update would need (an expiry still in the future) is
    // not judged, so nothing of the configuration blocks a destroy, as its plans do not.
    if (!this.ctx.host.command.destroying) checkConfig(r, config, diags, { client, limits: this.ctx.def.limits });
    return withObjectNamed(diags, r, config);
  }

  planResourceChange(
    typeName: string,
    prior: ObjectValue | null,
    proposed: ObjectValue | null,
    config: ObjectValue | null,
    priorPrivate: PrivateState,
  ): PlanOutcome {
    const diags = new Diagnostics();
    const r = this.ctx.resources.find(typeName, diags);
    if (!r) return unplanned(proposed, priorPrivate, diags);
    if (proposed === null) return { planned: null, requiresReplace: [], plannedPrivate: priorPrivate, diags };
    // The plan Terraform and OpenTofu make of the whole configuration before a destroy sends nothing it
    // plans: what a create or an update would need (an expiry still in the future, a change the platform
    // refuses) is not judged, so nothing of the configuration blocks a destroy (engine/host/host-view.ts).
    const judged = config !== null && !this.ctx.host.command.destroying;
    // What validation could not judge (values unknown then, the provider's configuration) is judged
    // now; its warnings were shown already.
    if (judged && diags.append(this.errorsOf(r, config, prior)).hasErrors) {
      return unplanned(proposed, priorPrivate, diags);
    }
    try {
      const { planned, requiresReplace } = planObject(r.schema.fields, prior, proposed, config ?? proposed);
      // A change the platform refuses is refused now, at its path, not at apply; so is a
      // platform-assigned value the configuration repeats that this change replaces.
      if (judged && prior !== null && diags.append(refusals(r.schema.fields, prior, planned)).hasErrors)
        return unplanned(proposed, priorPrivate, diags);
      const repeated = judged && prior !== null ? assignedValueChanges(r.schema.fields, config, planned) : [];
      if (diags.append(asErrors(repeated)).hasErrors) return unplanned(proposed, priorPrivate, diags);
      // The resource's own say, held to Terraform's rules (plan-modification.ts).
      const plan = { planned, requiresReplace, plannedPrivate: priorPrivate, diags };
      const modified = modifiedPlan(r, this.ctx, prior, config ?? proposed, plan);
      return diags.hasErrors ? unplanned(proposed, priorPrivate, diags) : modified;
    } catch (err) {
      diags.append([diagnosticFromError(`Cannot plan ${typeName}`, err)]);
      return unplanned(proposed, priorPrivate, diags);
    }
  }

  /**
   * ApplyResourceChange. `config`, when given, is checked once more before a create or update, as
   * every value is known now: nothing invalid reaches the API.
   */
  async applyResourceChange(
    typeName: string,
    prior: ObjectValue | null,
    planned: ObjectValue | null,
    plannedPrivate: PrivateState,
    config: ObjectValue | null = null,
    /** Aborted when the caller went away: a created object's result then never reaches it. */
    caller?: AbortSignal,
  ): Promise<StateOutcome> {
    const diags = new Diagnostics();
    const r = this.ctx.resources.find(typeName, diags);
    if (!r) return { state: prior, private: plannedPrivate, diags };
    const fields = r.schema.fields;
    let partial: object | undefined;
    this.listed.changes(typeName); // what a listing said of the type is past (listed-reads.ts)
    const action = planned === null ? 'delete' : prior === null ? 'create' : 'update';
    // Counted from the request: a create's look for what a lost answer made is part of its time.
    const limit = deadline(action, operationLimit(fields, planned ?? prior, action), lateCreate(r));
    const ctx = this.ctx.operation(diags, plannedPrivate, typeName, (m) => (partial = m), limit.signal);
    /** The untracked objects a create is made beside, on its user's word (`untracked_objects`). */
    const beside: string[] = [];
    const books: CreateBooks = {
      ledger: this.creates,
      journal: this.ctx.journal,
      record: null,
      judgeCensus: async (census) =>
        planned ? this.lookalikes.judgeCreate(r, planned, plannedPrivate, census, beside) : undefined,
      stateNow: (id) => this.lookalikes.holdings.now(r, id),
    };
    try {
      if (planned === null) {
        await limit.bound(r.delete(toModel(fields, prior!, MODEL_OPTIONS), ctx));
        this.ctx.seen(r, prior!, 'gone');
        this.catalogue.gone(r, prior!);
        return { state: null, private: {}, diags };
      }
      if (prior !== null) this.ctx.seen(r, prior, 'tracked');
      if (config !== null && diags.append(this.errorsOf(r, config, prior)).hasErrors) {
        return { state: prior, private: plannedPrivate, diags };
      }
      if (prior !== null && diags.append(refusals(fields, prior, planned)).hasErrors) {
        return { state: prior, private: plannedPrivate, diags };
      }
      // Nothing the platform holds changed (null and empty mean the same, a deprecated form says what
      // its replacement does; the provider's own settings are not sent): the API has nothing to do.
      if (
        prior !== null &&
        isWhollyKnown(impliedType(r.schema.block), planned) &&
        samePlatformSettings(fields, prior, planned)
      ) {
        return { state: this.finalize(r, planned, planned), private: plannedPrivate, diags };
      }
      // The objects its arguments name, and the rest of the catalogue, once more before anything is sent:
      // what the plan only warned about (an object yet to come) is an error now.
      if (config !== null) {
        await this.catalogue.check(r, config, diags, 'apply');
        if (diags.hasErrors) return { state: prior, private: plannedPrivate, diags };
      }
      // Write-only values come from the configuration: never in the plan, sent when they are due; a
      // value a `distinct` list repeats is sent once.
      const plan = withoutRepeats(
        fields,
        withWriteOnlyValues(fields, toModel(fields, planned, MODEL_OPTIONS), config, prior),
      );
      const result = await limit.bound(
        prior === null
          ? createTracked(r, plan, planned, ctx, books)
          : (r.update ?? notUpdatable(typeName))(plan, toModel(fields, prior, MODEL_OPTIONS), ctx),
      );
      const state = this.finalize(r, planned, fromModel(fields, result, planned));
      await this.ctx.journal.finish(books.record, caller?.aborted ? 'kept' : 'returned');
      this.ctx.journalWarning(diags);
      const besides = [...new Set([...untrackedBeside(plannedPrivate), ...beside])];
      const stored = beside.length > 0 ? { ...plannedPrivate, [UNTRACKED_BESIDE]: besides } : plannedPrivate;
      return { state, private: stored, diags };
    } catch (err) {
      // The object exists (it goes to the state, tainted), or the record stays for the next run.
      await this.ctx.journal.finish(books.record, partial && planned && !caller?.aborted ? 'returned' : 'kept');
      this.ctx.journalWarning(diags);
      if (action === 'delete' && isNotFound(err)) {
        this.ctx.seen(r, prior!, 'gone');
        return { state: null, private: {}, diags };
      }
      const failure = diagnosticFromError(`Cannot ${action} ${typeName}`, err);
      // Keep what exists: a partially created object goes to state (Terraform taints it); a failed
      // update keeps the prior state; a failed delete keeps the object.
      if (partial && planned) {
        const state = this.finalize(r, planned, fromModel(fields, partial, planned));
        const tainted = action === 'create' ? sentences(failure.detail, keptTainted(r, toModel(fields, state))) : null;
        diags.append([tainted !== null ? { ...failure, detail: tainted } : failure]);
        return { state, private: plannedPrivate, diags };
      }
      if (action === 'create' && isApiError(err, 'cancelled')) {
        const detail = `${failure.detail}: ${describe(r, toModel(fields, planned!))} was not created.`;
        diags.append([{ ...failure, summary: `Create of ${typeName} cancelled`, detail }]);
      } else diags.append([failure]);
      return { state: prior, private: plannedPrivate, diags };
    }
  }

  /**
   * The errors of a resource's configuration, its rules that need the configured provider included;
   * what `stored` (the prior state) holds is not judged again (engine/plan/validate.ts).
   */
  private errorsOf(r: ResourceDef<Fields, C>, config: ObjectValue, stored: ObjectValue | null = null): Diagnostic[] {
    const errors = errorsOf(r, config, stored, this.ctx.def.limits);
    if (errors.length > 0 || !r.validateWithProvider || holdsOnlyStored(r.schema.fields, config, stored)) return errors;
    return providerRuleErrors(r, config, this.ctx.client, 'Invalid configuration');
  }

  private finalize(r: ResourceDef<Fields, C>, planned: ObjectValue, result: ObjectValue): ObjectValue {
    const mismatches: Mismatch[] = [];
    const state = finalizeApplied(r.schema.fields, planned, result, mismatches);
    if (mismatches.length > 0) {
      this.ctx.log.warn(
        'the API stored values that differ from the plan; the state holds what it stored, and the client ' +
          'reports the inconsistent result',
        { tf_resource_type: r.typeName, paths: mismatches.map((m) => m.path) },
      );
    }
    return state;
  }
}

/** The changes the platform refuses (`refusedChange`), as error diagnostics at their paths. */
function refusals(fields: Fields, prior: ObjectValue, planned: ObjectValue): Diagnostic[] {
  return asErrors(refusedChanges(fields, prior, planned));
}

function asErrors(refused: readonly RefusedChangeAt[]): Diagnostic[] {
  return refused.map((r) => ({ severity: 'error', ...r }));
}

/** A plan that changes nothing Terraform proposed: an unknown type, a configuration in error, a failure. */
function unplanned(proposed: ObjectValue | null, priorPrivate: PrivateState, diags: Diagnostics): PlanOutcome {
  return { planned: proposed, requiresReplace: [], plannedPrivate: priorPrivate, diags };
}

/** What a create that failed after the object came to exist leaves behind, said once for every type. */
function keptTainted<C>(r: ResourceDef<Fields, C>, state: ModelOf<Fields>): string {
  const id = (state as { id?: unknown }).id;
  const which = typeof id === 'string' && id !== '' ? `${r.typeName} ${id}` : capitalizedDescription(r, state);
  return (
    `${which} exists and is kept in the state, marked tainted, so the next apply replaces it ` +
    '(`terraform untaint` keeps it instead).'
  );
}

function capitalizedDescription<C>(r: ResourceDef<Fields, C>, model: ModelOf<Fields>): string {
  const text = describe(r, model);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function notUpdatable(typeName: string): never {
  // Only a request Terraform would not send gets here: every change of such a type forces replacement.
  throw new DiagnosticError(
    'Cannot update in place',
    `${typeName} cannot be updated in place; a change to it must replace it, as its plan says.`,
  );
}

/**
 * The errors for a missing required argument, each naming its object by its `name` where the
 * configuration gives one. Terraform 1.14 and later parse each resource of a configuration they
 * generate on its own, so the errors of several objects sit at the same place, and Terraform keeps
 * only the first of errors alike in text and place (tfdiags AppendWithoutDuplicates): without the
 * name, a generated configuration lacking a secret in ten objects would show one error.
 */
function withObjectNamed<C>(diags: Diagnostics, r: ResourceDef<Fields, C>, config: ObjectValue): Diagnostics {
  const name = config.name;
  const def = r.schema.fields.name;
  if (typeof name !== 'string' || name === '' || def?.kind !== 'attr' || def.options.sensitive) return diags;
  const typeName = r.typeName;
  const named = new Diagnostics();
  for (const d of diags.items)
    named.append([
      d.severity === 'error' && d.summary === 'Missing configuration for required argument'
        ? { ...d, detail: `${d.detail} (${typeName} ${JSON.stringify(name)})` }
        : d,
    ]);
  return named;
}
