/**
 * What a create finds of objects that already hold its key (docs/decisions.md and README, "Whose
 * object is it"), judged only on facts that stay true: what the client sent in the request (its
 * planned private data), what the records of creates and the notes of the workspaces say, and what the
 * platform holds. Never on which calls of a walk came first or how long it was quiet: a plan walk shows
 * what its state holds in no fixed order, so a create planned before the walk showed an object cannot
 * know whether the state holds it.
 *
 * - When a record of a killed run of this workspace matches it (engine/journal/create-journal.ts), the
 *   plan warns that the apply looks for what that run made first (create-records.ts). Only a record
 *   another process left counts: the creates of this very run write records too.
 * - Otherwise, the objects that already hold its key (and every setting the platform reports, where the
 *   platform lets two objects share a key), each judged on evidence of whose it is:
 *   - made or adopted by this process (the ledger): this state's;
 *   - noted by a workspace of this directory as its state's (engine/journal/journal-notes.ts: the plan
 *     walk before an apply notes every object it shows), or made, or maybe made, by another workspace's
 *     open create record: a state's, never this create's to refuse or take over. Where the platform
 *     keeps the key unique, the create cannot succeed, and the plan says whose object holds it;
 *   - named in the create's planned private data: what its user chose to create it beside
 *     (`untracked_beside`, carried by a replacement's plan);
 *   - nothing known: what a run killed before its state was saved leaves (a CI job's timeout, on a
 *     fresh runner), an object of this state at another address whose plan walk was on another runner
 *     (a saved plan), or another's. `untracked_objects` decides: `refuse` (the default), `create` or
 *     `warn` (the apply creates beside them, and the private state keeps their ids). `adopt` is retired
 *     and refuses: it took objects that another state may hold.
 *
 * Where the verdict is said. Terraform's and OpenTofu's plan walk cannot know, at a create's plan,
 * whether the walk shows an object later, so their plan only warns (one summary for every create, which
 * the CLI folds into one), and the verdict is said in ApplyResourceChange, before the request is sent,
 * once the plan walk of that apply has noted what it showed. Pulumi plans each create right before
 * applying it, in the process that applies it and with the same facts: there the plan says the verdict.
 *
 * Never in the plan Terraform makes before a destroy (nothing is created), nor in an apply walk's
 * re-plans. A listing that fails, or the platform not answering within its budget, costs the plan's
 * check, never the plan: a warning says so, and the apply's own census judges.
 */
import type { Fields, ModelOf } from '../../schema/define.js';
import { fromModel, toModel } from '../../schema/model.js';
import { Unknown, type ObjectValue } from '../../schema/value.js';
import { type ResourceDef, untrackedBeside } from '../contracts/index.js';
import type { CreateLedger, Lookup, Model } from './create-evidence.js';
import { describe, messageOf } from './create-messages.js';
import { cannotFindCreated, unsettledWarning } from './unfound-creates.js';
import { createEntry, mayHaveMade } from './create-records.js';
import { Diagnostics } from '../diagnostics/index.js';
import { MODEL_OPTIONS, type EngineContext, type PrivateState } from '../context/index.js';
import { type CreateEntry, digest, notesName, type OtherRecord, stateLabel } from '../journal/index.js';
import { heldElsewhere, verdictOn, type Pending, type Verdict } from './lookalike-verdicts.js';
import { differencesFromPlan } from '../plan/index.js';
import { StateHoldings } from './state-holdings.js';

export class CreateLookalikes<C> {
  /** Whether this workspace's state holds an object as the apply begins (state-holdings.ts). */
  readonly holdings: StateHoldings<C>;

  constructor(
    private readonly ctx: EngineContext<C>,
    /** The census of this process's creates: the listing a plan makes serves the create that follows it. */
    private readonly ledger: CreateLedger,
  ) {
    this.holdings = new StateHoldings(ctx);
  }

  /**
   * What the plan of a create of `r` says (nothing when its key is not known yet, in an apply walk, or
   * before a destroy).
   */
  async check(
    r: ResourceDef<Fields, C>,
    planned: ObjectValue,
    diags: Diagnostics,
    plannedPrivate: PrivateState,
  ): Promise<void> {
    const lookup = r.findCreated;
    if (this.ctx.client === undefined || this.ctx.walk.isApply || !requiredKnown(r, planned)) return;
    if (this.ctx.host.command.destroying || this.ctx.host.command.appliesSavedPlan) return;
    if (!lookup && !cannotFindCreated(r)) return;
    const plan = toModel(r.schema.fields, planned, MODEL_OPTIONS);
    if (!lookup) return unsettledWarning(r, plan, planned, this.ctx.journal, diags);
    const what = describe(r, plan);
    const entry = createEntry(r, plan, planned);
    if (await this.cutOff(entry)) {
      // Each summary names its object: Terraform folds warnings of one summary into the first.
      diags.warning(
        `An earlier run was cut off while creating ${what}`,
        `A run of this state was cut off (its provider never got the client's orderly shutdown) while its ` +
          `request to create ${what} was out, and no run since showed what it made. The apply looks for that ` +
          "object before sending anything: it takes it over when the record proves it is that run's, and says so, " +
          'or stops and names it with the command that adopts it.',
      );
      return;
    }
    const listed = await this.listing(r, lookup, plan, what, diags);
    if (!listed) return;
    const phase = this.ctx.host.appliesRightAfterPlan ? 'apply' : 'plan';
    const p = await this.pendingOf(r, lookup, plan, planned, listed, plannedPrivate, diags, phase);
    if (!p) return;
    const verdict = verdictOn(this.ctx, p, p.objects, phase);
    diags.append([{ severity: verdict.severity, summary: verdict.summary, detail: verdict.detail }]);
  }

  /**
   * The verdict on a create about to be sent (ApplyResourceChange), on its census: an error refuses it;
   * undefined when nothing is unknown. `beside` takes the untracked objects it is created beside
   * (`untracked_objects` "create" or "warn"), for its private state.
   */
  async judgeCreate(
    r: ResourceDef<Fields, C>,
    planned: ObjectValue,
    plannedPrivate: PrivateState,
    census: readonly Model[],
    beside: string[],
  ): Promise<Verdict | undefined> {
    const lookup = r.findCreated;
    if (!lookup) return undefined;
    const plan = toModel(r.schema.fields, planned, MODEL_OPTIONS);
    const diags = new Diagnostics();
    const p = await this.pendingOf(r, lookup, plan, planned, census, plannedPrivate, diags, 'apply');
    const error = diags.items.find((d) => d.severity === 'error');
    if (error) return { severity: 'error', summary: error.summary, detail: error.detail };
    if (!p) return undefined;
    const verdict = verdictOn(this.ctx, p, p.objects, 'apply');
    if (verdict.severity === 'warning') beside.push(...p.objects.map((o) => lookup.importId(o)));
    return verdict;
  }

  /**
   * The create's look-alikes that no fact says whose they are (undefined: none). A key the platform
   * keeps unique that another workspace's object holds is an error now: the create cannot succeed.
   */
  private async pendingOf(
    r: ResourceDef<Fields, C>,
    lookup: Lookup<C>,
    plan: ModelOf<Fields>,
    planned: ObjectValue,
    listed: readonly Model[],
    plannedPrivate: PrivateState,
    diags: Diagnostics,
    phase: 'plan' | 'apply',
  ): Promise<Pending<C> | undefined> {
    const what = describe(r, plan);
    const unique = isUnique(lookup, plan);
    const holders = listed.filter((o) => lookup.holdsKey(plan, o));
    const alike = unique ? holders : holders.filter((o) => matchesPlan(r, lookup, planned, o));
    const named = new Set(untrackedBeside(plannedPrivate));
    const unjudged = alike.filter((o) => {
      const id = lookup.importId(o);
      return !this.ledger.isClaimed(r.typeName, id) && !named.has(id);
    });
    if (unjudged.length === 0) return undefined;
    const entry = createEntry(r, plan, planned);
    const journal = this.ctx.journal;
    const notes = phase === 'plan' ? await journal.notesBeforeThisProcess() : await journal.allNotes();
    const records = await journal.otherRecords();
    const mine = journal.stateIdentity;
    const objects: Model[] = [];
    const removed: string[] = [];
    const forgotten: string[] = [];
    for (const o of unjudged) {
      const id = lookup.importId(o);
      // In the apply, what this run shows its state holds (state-holdings.ts) comes first.
      const now = phase === 'apply' ? await this.holdings.now(r, id) : undefined;
      if (now === 'held') continue;
      // Held by a state, or held until a walk destroyed it (a census may be older than the destroy).
      const owners = notes.filter((n) => notesName(n, r.typeName, id));
      const own = owners.some((n) => n.state.dir === journal.stateName);
      if (own && (now === 'removed' || now === 'forgotten')) {
        // This state held it, and no longer does, or will not once this apply ends: taken out of it
        // (`state rm`, `removed`, `state mv`), the same verdict whatever another state did with it since.
        objects.push(o);
        (now === 'removed' ? removed : forgotten).push(id);
        continue;
      }
      const others = [
        ...owners.filter((n) => n.state.dir !== journal.stateName).map((n) => n.state),
        ...records.filter((rec) => madeBy(rec, entry, lookup, o, id, unique)).map((rec) => rec.state),
      ];
      if (others.length > 0) {
        // Another state's: made on purpose beside this one, unless the platform keeps the key unique.
        const word = this.ctx.terms.workspaceWord;
        const labels = [...new Set(others.map((state) => (mine ? stateLabel(state, mine, word) : state.workspace)))];
        if (unique) diags.error(...heldElsewhere(this.ctx, lookup, what, o, labels));
      } else if (!own) objects.push(o);
      // Else this state's own, at another address (a renamed key whose old object this apply destroys).
    }
    if (objects.length === 0 || diags.hasErrors) return undefined;
    const planUnread = this.holdings.unreadable;
    return { r, lookup, what, entry, objects, unique, removed, forgotten, ...(planUnread ? { planUnread } : {}) };
  }

  /** Whether records of a killed run of this state match `entry` (create-journal.ts killedRecords). */
  private async cutOff(entry: CreateEntry): Promise<boolean> {
    return (await this.ctx.journal.killedRecords(entry, { anySettings: true })).length > 0;
  }

  /**
   * The type's census: one listing per scope serves the plans and creates of the next 30 s
   * (create-evidence.ts), within its budget (`lookBudgetMs`). When it cannot be read, a warning says so, and the
   * process does not ask again.
   */
  private async listing(
    r: ResourceDef<Fields, C>,
    lookup: Lookup<C>,
    plan: ModelOf<Fields>,
    what: string,
    diags: Diagnostics,
  ): Promise<readonly Model[] | null> {
    if (this.ctx.unreachable === undefined) {
      const budget = AbortSignal.timeout(this.ledger.options.lookBudgetMs);
      const op = this.ctx.operation(diags, {}, r.typeName, undefined, budget);
      try {
        return await this.ledger.census(r.typeName, lookup, plan, op);
      } catch (err) {
        if (this.ctx.stopSignal.aborted) return null;
        this.ctx.unreachable ??= budget.aborted
          ? `the platform did not answer within ${this.ledger.options.lookBudgetMs / 1000} s`
          : messageOf(err);
        this.ctx.log.debug('listing for look-alikes of planned creates failed', {
          tf_resource_type: r.typeName,
          error: this.ctx.unreachable,
        });
      }
    }
    if (!this.ctx.terms.isPulumi)
      diags.warning(
        'Could not look for objects like planned creates',
        `Before a create, the plan looks for objects that already hold its key but that no state tracks (what a ` +
          `killed run leaves behind); it could not for ${what}: ${this.ctx.unreachable}. The plan goes on without ` +
          'that check; the apply looks again before it sends the create.',
      );
    return null;
  }
}

function isUnique<C>(lookup: Lookup<C>, plan: ModelOf<Fields>): boolean {
  return typeof lookup.uniqueKey === 'function' ? lookup.uniqueKey(plan) : lookup.uniqueKey;
}

/** Whether a listed object holds every setting the plan sets that the platform reports. */
function matchesPlan<C>(r: ResourceDef<Fields, C>, lookup: Lookup<C>, planned: ObjectValue, o: Model): boolean {
  const fields = r.schema.fields;
  const later = new Set<string>(lookup.setAfterCreate ?? []);
  return differencesFromPlan(fields, planned, fromModel(fields, o, planned), later).length === 0;
}

/** Whether every required top-level argument is known: a key is made of them. */
function requiredKnown<C>(r: ResourceDef<Fields, C>, planned: ObjectValue): boolean {
  for (const [name, def] of Object.entries(r.schema.fields))
    if (def.kind === 'attr' && def.options.required && planned[name] instanceof Unknown) return false;
  return true;
}

/**
 * Whether another workspace's open record says its create made `id` (its answer), or may have (still
 * unanswered, for this key and, where the key is not unique, these settings: create-records.ts mayHaveMade).
 */
function madeBy<C>(
  record: OtherRecord,
  entry: CreateEntry,
  lookup: Lookup<C>,
  object: Model,
  id: string,
  unique: boolean,
): boolean {
  if (record.type !== entry.type) return false;
  if (record.idDigest !== null) return record.idDigest === digest(id);
  return (
    record.key === entry.key &&
    (unique || record.settings === entry.settings) &&
    mayHaveMade(record, lookup, object, id)
  );
}
