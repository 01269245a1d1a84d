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
 *   - it matches the plan in every setting the platform reports (reconcile.ts differencesFromPlan);
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
import { isApiError, type ApiError } from '../wire/api-error.js';
import type { Fields, ModelOf } from '../schema/define.js';
import type { ObjectValue } from '../schema/value.js';
import type { OpContext, ResourceDef } from './contracts.js';
import {
  judge,
  missingOneTimeValues,
  type CreateLedger,
  type CreateRecoveryOptions,
  type Holder,
  type Lookup,
  type Model,
} from './create-evidence.js';
import { DiagnosticError } from './diagnostics.js';

export { CreateLedger, DEFAULT_CREATE_RECOVERY, type CreateRecoveryOptions } from './create-evidence.js';

/** At most this many objects are named in a message; the rest are counted. */
const NAMED_CANDIDATES = 10;

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
  ledger: CreateLedger,
): Promise<Model> {
  const lookup = r.findCreated;
  const created = lookup
    ? await ledger.oneAtATime(`${r.typeName}\0${describe(r, plan)}`, () =>
        createWithEvidence(r, lookup, plan, planned, ctx, ledger),
      )
    : await createOnce(r, plan, ctx);
  // From here on the object exists: whatever happens next, it stays in the state.
  ctx.partial(created);
  // After a stop, settle sends nothing and waits for nothing: a step it still has to take fails
  // at once, and the object stays in the state, tainted.
  return r.settle ? r.settle(created, plan, ctx) : created;
}

/**
 * The object a create of this plan makes, as a person would look for it. It names messages and
 * keys the ledger's turns, so it never throws: a plan Terraform would not send (a required value
 * missing) gets the generic description and fails where the create judges it.
 */
export function describe<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>): string {
  try {
    return r.findCreated?.describe(plan) ?? `the new ${r.typeName}`;
  } catch {
    return `the new ${r.typeName}`;
  }
}

/** A type without a natural key: a lost answer can only be reported. */
async function createOnce<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>, ctx: OpContext<C>): Promise<Model> {
  try {
    return await r.create(plan, ctx);
  } catch (err) {
    if (!isApiError(err, 'outcome_unknown')) throw err;
    throw unknownOutcome(
      r,
      plan,
      err,
      `${r.typeName} has no natural key to look the object up by, so the provider does not send the request again ` +
        `(that could make a duplicate).`,
    );
  }
}

async function createWithEvidence<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  ctx: OpContext<C>,
  ledger: CreateLedger,
): Promise<Model> {
  const before = new Set((await takeCensus(r, lookup, plan, ctx, ledger)).map((o) => lookup.importId(o)));
  const { attempts } = ledger.options;
  let lost: ApiError | undefined;
  for (let attempt = 1; ; attempt++) {
    let created: Model;
    let adopted = false;
    try {
      created = await r.create(plan, ctx);
    } catch (err) {
      const conflict = isApiError(err, 'conflict');
      if (!isApiError(err, 'outcome_unknown') && !conflict) throw err;
      // Refused with no answer lost before: the key is held by an object this create did not make.
      if (conflict && lost === undefined)
        throw alreadyExists(r, plan, err as ApiError, await holdersForAdvice(lookup, plan, ctx));
      lost ??= err as ApiError;
      const listed = await lookUp(r, lookup, plan, ctx, lost, ledger.options);
      const verdict = judge(r, lookup, plan, planned, listed, before, ledger);
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
            'No object this create made was found, and Terraform asked the provider to stop, so it did not send the ' +
              'request again.',
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
    // As the state will hold it: the plan's values where the answer leaves them out.
    ledger.claim(r.typeName, lookup.importId({ ...plan, ...created }));

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
          lost!,
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
    return created;
  }
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

/** "terraform import" advice for one object, or for a choice among several (or none known). */
function importAdvice<C>(r: ResourceDef<Fields, C>, ids: readonly string[]): string {
  if (!r.importState) return 'This type cannot be imported: remove the object on the platform if it is unwanted.';
  const id = ids.length === 1 ? ids[0]! : `<${r.importIdDescription ?? 'its id'}>`;
  const which = ids.length > 1 ? 'the right one' : 'it';
  return (
    `To manage ${which} with this resource, import ${which}: \`terraform import <address> '${id}'\`, or an ` +
    `\`import\` block with \`id = "${id}"\`.`
  );
}

function namedHolders(holders: readonly Holder[]): string {
  const named = holders.slice(0, NAMED_CANDIDATES).map((h) => `${h.id} (${h.note})`);
  const more = holders.length - named.length;
  return `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

function unknownOutcome<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  lost: ApiError,
  why: string,
  holders: readonly Holder[] = [],
): DiagnosticError {
  // The client's message names the create call and says that its answer was lost.
  const head = `${lost.message}. ${why}`;
  if (holders.length === 0) {
    const importIt = r.importState
      ? `import it (\`terraform import <address> <id>\`, where the id is ${r.importIdDescription ?? 'its id'})`
      : 'remove it';
    return new DiagnosticError(
      'Create outcome unknown',
      `${head} Look on the platform for ${describe(r, plan)}. If it exists, ${importIt}; otherwise apply again.`,
    );
  }
  return new DiagnosticError(
    'Create outcome unknown',
    `${head} It adopted no object and deleted nothing. Objects holding the key of ${describe(r, plan)}: ` +
      `${namedHolders(holders)}. ${importAdvice(
        r,
        holders.map((h) => h.id),
      )} Otherwise apply again once the platform shows what the request made.`,
  );
}

function alreadyExists<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  refused: ApiError,
  holders: readonly Holder[],
  why?: string,
): DiagnosticError {
  const ids = holders.map((h) => h.id);
  const named =
    ids.length === 0
      ? ''
      : ` (${ids.slice(0, NAMED_CANDIDATES).join(', ')}${ids.length > NAMED_CANDIDATES ? ', …' : ''})`;
  return new DiagnosticError(
    `Cannot create ${r.typeName}`,
    [
      `${refused.message}.`,
      ...(why ? [`${why}.`] : []),
      `${capitalized(describe(r, plan))} already exists${named} and was not made by this configuration, so the ` +
        `provider does not take it over.`,
      importAdvice(r, ids),
      `Otherwise change the configuration so that the new object differs in ${r.findCreated!.key}.`,
    ].join(' '),
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The object's import id for the log (ids are never secrets here). */
function idField<C>(lookup: Lookup<C>, model: Model): { id: string } {
  return { id: lookup.importId(model) };
}
