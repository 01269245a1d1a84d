/**
 * A create that may have reached the API is never forgotten, and an object this create did not make
 * is never taken over (README, "Interrupted applies and lost answers").
 *
 * - When a create's answer is lost (ApiError 'outcome_unknown': a dropped connection, a gateway's
 *   502/504, a deadline, gRPC UNAVAILABLE) the request may have made the object or may never have
 *   arrived, and then an object with the same key is someone else's. So the request is never simply
 *   repeated, and an object is adopted only with evidence that this create made it:
 *   - it holds the plan's natural key (`findCreated.holdsKey`);
 *   - it was not there before the request was sent: the census, a listing of the type's objects
 *     taken before the first create request, does not hold it. One listing serves the creates of its
 *     scope for `censusMaxAgeMs`, so an apply lists each type about once, not once per object;
 *   - no other create of this process made or adopted it (the ledger's claims); creates with the same
 *     key run one at a time, so two resources of one run never take each other's object;
 *   - it matches the plan in every setting the platform reports (engine/plan/reconcile.ts differencesFromPlan);
 *   - it is the only object holding the key that is new.
 *   No new object: the request made nothing, and it is sent again (a few times at most, never after
 *   Ctrl-C). Anything else: "Create outcome unknown", naming every object that holds the key and why
 *   it was not adopted, with the command to import the right one. Nothing is deleted on that path.
 * - A create refused as "already exists" (a platform that keeps the key unique) names the object
 *   that holds the key and how to import it; after a lost answer the holder is adopted only with the
 *   evidence above.
 * - Once Terraform asked the provider to stop, the clients send nothing new but let a create already
 *   on the wire finish (src/clients/stop.ts). If its answer still does not come, the lookup runs
 *   anyway, at once and with a budget of its own, and nothing is sent again.
 * - From the moment the object exists it is reported to the engine (`ctx.partial`), so whatever
 *   fails or is stopped after that (the resource's `settle` steps, which send nothing and wait for
 *   nothing after a stop) leaves it in the state, where Terraform marks it tainted.
 * - An object adopted without the one-time secret its create returns (attributes declared `oneTime`)
 *   cannot be kept as is: it is deleted and created anew (it is provably this create's), or, after a
 *   stop, kept tainted so that the next apply replaces it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { isApiError, type ApiError } from '../../wire/api-error.js';
import type { Fields, ModelOf } from '../../schema/define.js';
import type { ObjectValue } from '../../schema/value.js';
import type { OpContext, ResourceDef } from '../contracts/index.js';
import {
  judge,
  missingOneTimeValues,
  requestEvidence,
  type CreateLedger,
  type CreateRecoveryOptions,
  type Holder,
  type Lookup,
  type Model,
} from './create-evidence.js';
import { type CreateJournal, notesHold, type RecordHandle } from '../journal/index.js';
import { alreadyExists, capitalized, describe, heldByThisState, messageOf, unknownOutcome } from './create-messages.js';
import { adoptedWarning, createEntry, recoverRecorded } from './create-records.js';
import type { Verdict as LookalikeVerdict } from './lookalike-verdicts.js';
import type { StateNow } from './state-holdings.js';
import { cannotFindCreated, createUnfindable, lostAnswer } from './unfound-creates.js';
import { DiagnosticError } from '../diagnostics/index.js';

/** What one create goes through: this process's ledger, the journal, and the record it writes there. */
export interface CreateBooks {
  readonly ledger: CreateLedger;
  readonly journal: CreateJournal;
  /** The create's record, once written (or taken over from a killed run); the caller finishes it. */
  record: RecordHandle | null;
  /**
   * The verdict on the objects of the census that hold the create's key, before the request is sent
   * (create-lookalikes.ts): an error refuses the create, a warning is said and the create goes on.
   */
  readonly judgeCensus?: (census: readonly Model[]) => Promise<LookalikeVerdict | undefined>;
  /** Whether this workspace's state holds `id` as the apply begins, on facts of the run (state-holdings.ts). */
  readonly stateNow?: (id: string) => Promise<StateNow>;
}

/**
 * `r.create` (and `r.settle`), keeping track of the object whatever happens to the answer or the
 * apply, and never taking over one it did not make. `planned` is the plan as Terraform holds it,
 * for comparing what a lookup finds.
 */
export async function createTracked<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  ctx: OpContext<C>,
  books: CreateBooks,
): Promise<Model> {
  const lookup = r.findCreated;
  const created = lookup
    ? await books.ledger.oneAtATime(`${r.typeName}\0${describe(r, plan)}`, () =>
        createWithEvidence(r, lookup, plan, planned, ctx, books),
      )
    : cannotFindCreated(r)
      ? await createUnfindable(r, plan, planned, ctx, books)
      : await createOnce(r, plan, ctx);
  // From here on the object exists: whatever happens next, it stays in the state.
  ctx.partial(created);
  // After a stop, settle sends nothing and waits for nothing: a step it still has to take fails
  // at once, and the object stays in the state, tainted.
  return r.settle ? r.settle(created, plan, ctx) : created;
}

/** A type whose create may be repeated harmlessly (`repeatableCreate`): a lost answer can only be reported. */
async function createOnce<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>, ctx: OpContext<C>): Promise<Model> {
  try {
    return await r.create(plan, ctx);
  } catch (err) {
    if (!isApiError(err, 'outcome_unknown')) throw err;
    throw lostAnswer(r, plan, err);
  }
}

async function createWithEvidence<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  ctx: OpContext<C>,
  books: CreateBooks,
): Promise<Model> {
  const { ledger, journal } = books;
  const entry = createEntry(r, plan, planned);
  // A run killed while creating this left a record: its object is looked for before anything is sent.
  const recovered = await recoverRecorded(r, lookup, plan, planned, ctx, ledger, journal, entry);
  if (recovered) books.record = recovered.record;
  let before: ReadonlySet<string> | undefined;
  const { attempts } = ledger.options;
  let lost: ApiError | undefined;
  for (let attempt = 1; ; attempt++) {
    let created: Model;
    let adopted = false;
    if (attempt === 1 && recovered) {
      created = recovered.object;
      adopted = true;
    } else {
      if (before === undefined) {
        const census = await takeCensus(r, lookup, plan, ctx, ledger);
        const verdict = attempt === 1 ? await books.judgeCensus?.(census) : undefined;
        if (verdict?.severity === 'error') throw new DiagnosticError(verdict.summary, verdict.detail);
        if (verdict) ctx.diags.warning(verdict.summary, verdict.detail);
        before = new Set(census.map((o) => lookup.importId(o)));
        // Written down before the request leaves: a killed run's next apply finds it.
        const holders = census.filter((o) => lookup.holdsKey(plan, o)).map((o) => lookup.importId(o));
        books.record ??= await journal.sent(entry, holders);
      }
      try {
        created = await r.create(plan, ctx);
      } catch (err) {
        const conflict = isApiError(err, 'conflict');
        if (!isApiError(err, 'outcome_unknown') && !conflict) {
          if (lost === undefined && refusedOutright(err)) await dropRecord(books);
          throw err;
        }
        // Refused with no answer lost before: the key is held by an object this create did not make.
        if (conflict && lost === undefined) {
          await dropRecord(books);
          const holders = await holdersForAdvice(lookup, plan, ctx);
          // This workspace's notes say its state holds the holder: a renamed key's old object, or the
          // one this resource replaces with create_before_destroy. Its own, not another's.
          const mine = (await journal.allNotes()).find((n) => n.state.dir === journal.stateName);
          for (const h of holders) {
            const now = await books.stateNow?.(h.id);
            const own =
              now === 'held' || (now === undefined && mine !== undefined && notesHold(mine, r.typeName, h.id));
            if (own) throw heldByThisState(r, plan, err as ApiError, h.id);
          }
          throw alreadyExists(r, plan, err as ApiError, holders);
        }
        lost ??= err as ApiError;
        const listed = await lookUp(r, lookup, plan, ctx, lost, ledger.options);
        const verdict = judge(r, lookup, plan, planned, listed, requestEvidence(r.typeName, before, ledger));
        if (verdict.kind === 'unclear') throw unknownOutcome(r, plan, lost, verdict.why, verdict.holders);
        if (verdict.kind === 'none') {
          if (conflict) {
            const why =
              `The answer to an earlier request was lost, and no object that request made was found: the ` +
              `key is held by an object this configuration did not make`;
            throw alreadyExists(r, plan, err as ApiError, verdict.holders, why);
          }
          if (ctx.signal.aborted)
            throw unknownOutcome(
              r,
              plan,
              lost,
              'No object this create made was found, and Terraform asked the provider to stop, so it did not send ' +
                'the request again.',
              verdict.holders,
            );
          if (attempt >= attempts)
            throw unknownOutcome(
              r,
              plan,
              lost,
              `No object this create made was found after ${attempt} attempts, so the provider gave up.`,
              verdict.holders,
            );
          ctx.log.info('no object from the unanswered create request was found; sending it again', { attempt });
          continue;
        }
        created = verdict.object;
        adopted = true;
        ctx.log.info('adopted the object an unanswered create request had made', {
          ...idField(lookup, created),
          attempt,
        });
      }
    }
    // As the state will hold it: the plan's values where the answer leaves them out.
    const id = lookup.importId({ ...plan, ...created });
    ledger.claim(r.typeName, id);
    // A create with a step after it (waiting until a cluster is healthy) writes its answer now: a kill
    // in that step must find the id. Others write it with their result.
    await journal.answered(books.record, id, r.settle !== undefined);

    const missing = adopted ? missingOneTimeValues(r, created) : [];
    if (missing.length > 0 && !ctx.signal.aborted) {
      // Its secret was in the lost answer and the platform never shows it again. The evidence says
      // this create made it, so it is this create's to delete.
      await r.delete({ ...plan, ...created } as ModelOf<Fields>, ctx);
      ctx.log.info('deleted the object whose one-time secret was lost with the create answer; creating it again', {
        ...idField(lookup, created),
        attempt,
      });
      if (attempt >= attempts)
        throw unknownOutcome(
          r,
          plan,
          lost ?? recovered!.lead,
          `The object's one-time secret was lost with the answer ${attempt} times, so the provider gave up.`,
        );
      continue;
    }
    if (missing.length > 0) {
      ctx.partial(created);
      throw new DiagnosticError(
        'Create interrupted',
        `${capitalized(describe(r, plan))} was created, but its ${missing.map((m) => `\`${m}\``).join(', ')} came ` +
          `only in the answer that was lost, and Terraform asked the provider to stop before it could be replaced.`,
      );
    }
    // Said in the apply's own output, beside the id Terraform prints: not a new object.
    if (recovered && created === recovered.object) ctx.diags.warning(...adoptedWarning(r, plan, recovered, id));
    return created;
  }
}

/**
 * A refusal that says the request made nothing (its record can go): not a lost or unreadable answer,
 * after which the object may exist.
 */
function refusedOutright(err: unknown): boolean {
  return REFUSALS.some((code) => isApiError(err, code));
}

const REFUSALS = [
  'invalid',
  'conflict',
  'unauthenticated',
  'forbidden',
  'not_found',
  'rate_limited',
  'cancelled',
] as const;

async function dropRecord(books: CreateBooks): Promise<void> {
  const record = books.record;
  books.record = null;
  await books.journal.finish(record, 'dropped');
}

/** The census before the first request; a failed listing fails the create before anything is sent. */
async function takeCensus<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  plan: ModelOf<Fields>,
  ctx: OpContext<C>,
  ledger: CreateLedger,
): Promise<readonly Model[]> {
  try {
    return await ledger.census(r.typeName, lookup, plan, ctx);
  } catch (err) {
    // A stop before the request was sent: the engine says that nothing was created.
    if (isApiError(err, 'cancelled') || err instanceof DiagnosticError) throw err;
    throw new DiagnosticError(
      `Cannot create ${r.typeName}`,
      `Before a create, the provider lists the objects that exist already, so that it can tell what a lost answer ` +
        `made from what was there; that listing failed: ${messageOf(err)}. The create request was not sent: ` +
        `${describe(r, plan)} was not created.`,
    );
  }
}

/** A fresh listing after a lost answer (never the census), waiting a moment first unless stopped. */
async function lookUp<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  plan: ModelOf<Fields>,
  ctx: OpContext<C>,
  lost: ApiError,
  options: CreateRecoveryOptions,
): Promise<readonly Model[]> {
  if (!ctx.signal.aborted && options.lookupDelayMs > 0)
    await delay(options.lookupDelayMs, undefined, { signal: ctx.signal }).catch(() => undefined);
  // A stop ends waits, not the lookup: it is what keeps the object from being forgotten.
  let afterStop: AbortSignal | undefined;
  for (;;) {
    const stopped = ctx.signal.aborted;
    const signal = stopped ? (afterStop ??= AbortSignal.timeout(options.lookupAfterStopMs)) : ctx.signal;
    try {
      return await lookup.list(plan, { ...ctx, signal });
    } catch (err) {
      // The stop cut this lookup short: look once more, under the budget for after a stop.
      if (!stopped && ctx.signal.aborted) continue;
      if (err instanceof DiagnosticError) throw err;
      throw unknownOutcome(r, plan, lost, `Looking for the object failed: ${messageOf(err)}.`);
    }
  }
}

/** The objects holding the key, for the advice of an "already exists" error (none if listing fails). */
async function holdersForAdvice<C>(lookup: Lookup<C>, plan: ModelOf<Fields>, ctx: OpContext<C>): Promise<Holder[]> {
  try {
    const listed = await lookup.list(plan, ctx);
    return listed
      .filter((o) => lookup.holdsKey(plan, o))
      .map((o) => ({ id: lookup.importId(o), note: 'it existed before this create was sent' }));
  } catch {
    return [];
  }
}

/** The object's import id for the log (ids are never secrets here). */
function idField<C>(lookup: Lookup<C>, model: Model): { id: string } {
  return { id: lookup.importId(model) };
}
