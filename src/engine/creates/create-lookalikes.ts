/**
 * What a plan says about a create before anything is made (docs/decisions.md and README, "Whose
 * object is it"):
 *
 * - when a record of a killed run matches it (engine/journal/create-journal.ts), that the apply will look for what
 *   that run made first (create-records.ts). Only a record another process left counts: the creates
 *   of this very run write records too;
 * - otherwise, the objects that already hold its key (and every setting the platform reports, where
 *   the platform lets two objects share a key), judged on evidence of whose each is:
 *   - shown by this walk, or made or taken by this process: this state's, nothing to say;
 *   - noted by a workspace of this directory as its state's (engine/journal/journal-notes.ts: this one's, removed from
 *     its state or left out of a `-target` plan; another's, made on purpose beside this one): a state's,
 *     never this create's to refuse or take over. Where the platform keeps the key unique, the create
 *     cannot succeed, and the plan says whose object holds it;
 *   - named in this state as one its user chose to create beside (`untracked_beside`, below);
 *   - nothing known: what a run of this configuration killed before its state was saved leaves (a CI
 *     job's timeout, on a fresh runner), or another workspace's, configuration's or person's. Done with
 *     them is the provider's `untracked_objects`: `refuse` (the default: an error naming every likely
 *     cause and a way out for each), `create` or `warn` (named, and the apply creates; the ids are kept
 *     in this resource's private state, so that later plans of this state do not ask again), `adopt`
 *     (the apply takes one over for each create of the key).
 *
 * The walk shows what its state holds as it goes, so an unknown object is judged once the walk is quiet
 * (engine/host/walk.ts). Terraform and OpenTofu plan every resource before applying any, and their walk gives each
 * call one of a few slots: the create waits only while it is the latest to wait, and the latest says
 * the verdicts of all (its diagnostics name each object), so that waiting creates never hold the slots
 * the rest of the walk needs. Pulumi applies each create right after planning it: there each waits
 * for its own verdict.
 *
 * Never in an apply walk (which shows only what it changes), nor in the plan Terraform makes before a
 * destroy (nothing is created). A listing that fails, or the platform not answering within its
 * budget, costs the check, never the plan: a warning says so, and under Pulumi, which shows no
 * warnings, the create's own listing judges instead (lookalikeRefusal).
 */
import type { Fields, ModelOf } from '../../schema/define.js';
import { fromModel, toModel } from '../../schema/model.js';
import { Unknown, type ObjectValue } from '../../schema/value.js';
import { type ResourceDef, UNTRACKED_BESIDE } from '../contracts/index.js';
import type { CreateLedger, Lookup, Model } from './create-evidence.js';
import { describe, messageOf } from './create-messages.js';
import { createEntry } from './create-records.js';
import { Diagnostics } from '../diagnostics/index.js';
import { MODEL_OPTIONS, type EngineContext, type PrivateState } from '../context/index.js';
import { type CreateEntry, digest, notesHold, type OtherRecord } from '../journal/index.js';
import { heldElsewhere, verdictOn, type Pending, type Verdict } from './lookalike-verdicts.js';
import { differencesFromPlan } from '../plan/index.js';

export class CreateLookalikes<C> {
  private pending: Pending<C>[] = [];
  /** The latest create waiting for the walk to be quiet, which says every pending verdict. */
  private holder = 0;

  constructor(
    private readonly ctx: EngineContext<C>,
    /** The census of this process's creates: the listing a plan makes serves the create that follows it. */
    private readonly ledger: CreateLedger,
  ) {}

  /**
   * What the plan of a create of `r` says (nothing when its key is not known yet, in an apply walk, or
   * before a destroy). `plannedPrivate` takes the objects its user chose to create it beside.
   */
  async check(
    r: ResourceDef<Fields, C>,
    planned: ObjectValue,
    diags: Diagnostics,
    plannedPrivate: PrivateState,
  ): Promise<void> {
    const lookup = r.findCreated;
    if (!lookup || this.ctx.client === undefined || this.ctx.walk.isApply || !requiredKnown(r, planned)) return;
    if (this.ctx.host.command.destroying || this.ctx.host.command.appliesSavedPlan) return;
    const plan = toModel(r.schema.fields, planned, MODEL_OPTIONS);
    const what = describe(r, plan);
    const entry = createEntry(r, plan, planned);
    if (await this.cutOff(entry)) {
      // Each summary names its object: Terraform folds warnings of one summary into the first.
      diags.warning(
        `An earlier run was cut off while creating ${what}`,
        `A run in this directory ended while its request to create ${what} was out, and no run since showed ` +
          'what it made. The apply looks for that object before sending anything: it adopts it when the record ' +
          "proves it is that run's, or stops and names it with the command that adopts it.",
      );
      return;
    }
    const listed = await this.listing(r, lookup, plan, what, diags);
    if (!listed) return;
    const p = await this.pendingOf(r, lookup, plan, planned, listed, diags);
    if (!p) return;
    const mode = this.ctx.createSettings.untrackedObjects;
    if (!p.unique && (mode === 'create' || mode === 'warn'))
      plannedPrivate[UNTRACKED_BESIDE] = [...besides(plannedPrivate), ...p.objects.map((o) => lookup.importId(o))];
    await this.judgeWhenQuiet(p, diags);
  }

  /**
   * Under Pulumi, whose plan of a create could not look (its warning is never shown): the create's own
   * census judges, before anything is sent. The error that refuses it, or undefined.
   */
  async lookalikeRefusal(
    r: ResourceDef<Fields, C>,
    planned: ObjectValue,
    census: readonly Model[],
  ): Promise<string | undefined> {
    const lookup = r.findCreated;
    if (!lookup || !this.ctx.terms.isPulumi || this.ctx.unreachable === undefined) return undefined;
    const plan = toModel(r.schema.fields, planned, MODEL_OPTIONS);
    const diags = new Diagnostics();
    const p = await this.pendingOf(r, lookup, plan, planned, census, diags);
    const verdict = p ? this.verdictOf(p) : diags.items.find((d) => d.severity === 'error');
    return verdict?.severity === 'error' ? `${verdict.summary}: ${verdict.detail}` : undefined;
  }

  /**
   * The create's look-alikes that nothing known says whose they are, to judge once the walk is quiet
   * (undefined: none). A key the platform keeps unique that another workspace's object holds is an
   * error now: the create cannot succeed.
   */
  private async pendingOf(
    r: ResourceDef<Fields, C>,
    lookup: Lookup<C>,
    plan: ModelOf<Fields>,
    planned: ObjectValue,
    listed: readonly Model[],
    diags: Diagnostics,
  ): Promise<Pending<C> | undefined> {
    const what = describe(r, plan);
    const unique = isUnique(lookup, plan);
    const holders = listed.filter((o) => lookup.holdsKey(plan, o));
    const alike = unique ? holders : holders.filter((o) => matchesPlan(r, lookup, planned, o));
    const unjudged = alike.filter((o) => !this.tracked(r.typeName, lookup.importId(o)));
    if (unjudged.length === 0) return undefined;
    const entry = createEntry(r, plan, planned);
    const notes = await this.ctx.journal.allNotes();
    const records = await this.ctx.journal.otherRecords();
    const objects: Model[] = [];
    for (const o of unjudged) {
      const id = lookup.importId(o);
      const owners = notes.filter((n) => notesHold(n, r.typeName, id));
      const others = [
        ...owners.filter((n) => n.workspace !== this.ctx.journal.workspaceName).map((n) => n.workspace),
        ...records.filter((rec) => madeBy(rec, entry, id, unique)).map((rec) => rec.workspace),
      ];
      // A state of this directory holds it: that state's, made on purpose, or removed from this one's.
      if (others.length === 0 && (owners.length === 0 || unique)) objects.push(o);
      else if (unique) diags.error(...heldElsewhere(this.ctx, lookup, what, o, [...new Set(others)]));
    }
    if (objects.length === 0 || diags.hasErrors) return undefined;
    return { r, lookup, what, entry, objects, unique };
  }

  /** Waits for the walk to show what it holds, then says what is still unknown (this file's header). */
  private async judgeWhenQuiet(p: Pending<C>, diags: Diagnostics): Promise<void> {
    const { settleQuietMs, settleMaxMs } = this.ledger.options;
    if (this.ctx.host.appliesRightAfterPlan) {
      await this.ctx.walk.quiet(settleQuietMs, settleMaxMs, () => this.unknownOf(p).length === 0);
      await this.say([p], diags);
      return;
    }
    this.pending.push(p);
    const turn = ++this.holder;
    await this.ctx.walk.quiet(settleQuietMs, settleMaxMs, () => this.holder !== turn);
    // A later create took over the wait: it says this verdict with its own.
    if (this.holder !== turn) return;
    await this.say(this.pending.splice(0), diags);
  }

  private async say(all: readonly Pending<C>[], diags: Diagnostics): Promise<void> {
    for (const p of all) {
      const verdict = this.verdictOf(p);
      if (!verdict) continue;
      if (verdict.adopt) for (const o of verdict.adopt) await this.ctx.journal.planAdoption(p.entry, o);
      diags.append([{ severity: verdict.severity, summary: verdict.summary, detail: verdict.detail }]);
    }
  }

  /** What the plan says of a pending create now; undefined when all is known. */
  private verdictOf(p: Pending<C>): Verdict | undefined {
    const unknown = this.unknownOf(p);
    return unknown.length === 0 ? undefined : verdictOn(this.ctx, p, unknown);
  }

  /** The objects of `p` that nothing known yet says whose they are. */
  private unknownOf(p: Pending<C>): Model[] {
    const type = p.r.typeName;
    return p.objects.filter((o) => {
      const id = p.lookup.importId(o);
      return !this.tracked(type, id) && !this.ctx.acknowledged(type, id);
    });
  }

  /** Whether records of another process match `entry` whose objects its host may never have stored. */
  private async cutOff(entry: ReturnType<typeof createEntry>): Promise<boolean> {
    const journal = this.ctx.journal;
    if (!journal.usable || !(await journal.hasRecords(entry, { anySettings: true }))) return false;
    const records = await journal.openRecords(entry, { anySettings: true });
    return records.some((record) => !record.plannedAdoption && !journal.wroteItself(record));
  }

  /** Shown tracked by this walk, or made or adopted by this process. */
  private tracked(type: string, id: string): boolean {
    return this.ctx.shown.get(type)?.has(id) === true || this.ledger.isClaimed(type, id);
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
        `Could not look for objects like ${what}`,
        `Before a create, the plan looks for objects that already hold its key but that no state tracks (what a ` +
          `killed run leaves behind); it could not: ${this.ctx.unreachable}. The plan goes on without that check, ` +
          'and the apply creates as configured.',
      );
    return null;
  }
}

/**
 * Whether another workspace's open record says its create made `id` (its answer), or may have (still
 * unanswered, for this key and, where the key is not unique, these settings, and `id` not in its census).
 */
function madeBy(record: OtherRecord, entry: CreateEntry, id: string, unique: boolean): boolean {
  if (record.type !== entry.type) return false;
  if (record.idDigest !== null) return record.idDigest === digest(id);
  return record.key === entry.key && (unique || record.settings === entry.settings) && !record.census.includes(id);
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

/** The ids a plan already put in the private state (a replacement keeps its prior's). */
function besides(priv: PrivateState): string[] {
  const held = priv[UNTRACKED_BESIDE];
  return Array.isArray(held) ? held.filter((v): v is string => typeof v === 'string') : [];
}

/** Whether every required top-level argument is known: a key is made of them. */
function requiredKnown<C>(r: ResourceDef<Fields, C>, planned: ObjectValue): boolean {
  for (const [name, def] of Object.entries(r.schema.fields))
    if (def.kind === 'attr' && def.options.required && planned[name] instanceof Unknown) return false;
  return true;
}
