/**
 * A create that may have reached the API is never forgotten (README, "Reliability").
 *
 * - When a create's answer is lost (ApiError 'outcome_unknown') the object may or may not exist, so
 *   the request is never simply repeated: the resource's `findCreated` looks for it by its natural
 *   key first. Found → adopted; none → sent again, a few times at most; several candidates, no
 *   lookup or a failed lookup → a diagnostic that names the object to look for.
 * - Once Terraform asked the provider to stop, the clients send nothing new but let a create already
 *   on the wire finish (src/clients/stop.ts). If its answer still does not come, the lookup runs
 *   anyway, at once and with a budget of its own, and nothing is sent again.
 * - From the moment the object exists it is reported to the engine (`ctx.partial`), so whatever
 *   fails or is stopped after that (the resource's `settle` steps, which send nothing and wait for
 *   nothing after a stop) leaves it in the state, where Terraform marks it tainted.
 * - An object found without the one-time secret its create returns (attributes declared `oneTime`)
 *   cannot be adopted as is: it is deleted and created anew, or, after a stop, kept tainted so that
 *   the next apply replaces it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { isApiError, type ApiError } from '../clients/errors.js';
import type { Fields, ModelOf } from '../schema/define.js';
import { SeveralCandidatesError, type OpContext, type Partial2, type ResourceDef } from './contracts.js';
import { DiagnosticError } from './diagnostics.js';

export interface CreateRecoveryOptions {
  /** Create requests at most, the first included. */
  readonly attempts: number;
  /** Pause before each lookup, so that an object made a moment ago shows in the platform's lists. */
  readonly lookupDelayMs: number;
  /** How long a lookup may take once Terraform asked the provider to stop. */
  readonly lookupAfterStopMs: number;
}

export const DEFAULT_CREATE_RECOVERY: CreateRecoveryOptions = { attempts: 5, lookupDelayMs: 1_000, lookupAfterStopMs: 30_000 };

type Model = Partial2<ModelOf<Fields>>;

/** `r.create` (and `r.settle`), keeping track of the object whatever happens to the answer or the apply. */
export async function createTracked<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>, ctx: OpContext<C>, options: CreateRecoveryOptions): Promise<Model> {
  let lost: ApiError | undefined;
  const since = new Date();
  for (let attempt = 1; ; attempt++) {
    let created: Model | null;
    let adopted = false;
    try {
      created = await r.create(plan, ctx);
    } catch (err) {
      // After a lost answer, "already exists" may mean the earlier request did take effect.
      const conflictAfterLoss = lost !== undefined && isApiError(err, 'conflict');
      if (!isApiError(err, 'outcome_unknown') && !conflictAfterLoss) throw err;
      if (!conflictAfterLoss) lost = err as ApiError;
      created = await lookUp(r, plan, ctx, lost!, since, options);
      if (created === null) {
        if (conflictAfterLoss) {
          throw unknownOutcome(r, plan, lost!, `Sent again, the request was refused as a conflict (${(err as ApiError).message}), yet no matching object was found.`);
        }
        if (ctx.signal.aborted) throw unknownOutcome(r, plan, lost!, 'No matching object was found, and Terraform asked the provider to stop, so it did not send the request again.');
        if (attempt >= options.attempts) throw unknownOutcome(r, plan, lost!, `No matching object was found after ${attempt} attempts, so the provider gave up.`);
        ctx.log.info('no object from the unanswered create request was found; sending it again', { attempt });
        continue;
      }
      adopted = true;
      ctx.log.info('adopted the object an unanswered create request had made', { ...idField(created), attempt });
    }

    const missing = adopted ? missingOneTimeValues(r, created) : [];
    if (missing.length > 0 && !ctx.signal.aborted) {
      // Its secret was in the lost answer and the platform never shows it again.
      await r.delete({ ...plan, ...created } as ModelOf<Fields>, ctx);
      ctx.log.info('deleted the object whose one-time secret was lost with the create answer; creating it again', { ...idField(created), attempt });
      if (attempt >= options.attempts) throw unknownOutcome(r, plan, lost!, `The object's one-time secret was lost with the answer ${attempt} times, so the provider gave up.`);
      continue;
    }
    // From here on the object exists: whatever happens next, it stays in the state.
    ctx.partial(created);
    if (missing.length > 0) {
      throw new DiagnosticError(
        'Create interrupted',
        `${capitalized(describe(r, plan))} was created, but its ${missing.map((m) => `\`${m}\``).join(', ')} came only in the answer that was lost, and Terraform asked the provider to stop before it could be replaced.`,
      );
    }
    // After a stop, settle sends nothing and waits for nothing: a step it still has to take fails
    // at once, and the object stays in the state, tainted.
    return r.settle ? r.settle(created, plan, ctx) : created;
  }
}

/** The object a create of this plan makes, as a person would look for it. */
export function describe<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>): string {
  return r.findCreated?.describe(plan) ?? `the new ${r.typeName}`;
}

async function lookUp<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  ctx: OpContext<C>,
  lost: ApiError,
  since: Date,
  options: CreateRecoveryOptions,
): Promise<Model | null> {
  if (!r.findCreated) {
    throw unknownOutcome(r, plan, lost, `${r.typeName} has no natural key to look the object up by, so the provider does not send the request again (that could make a duplicate).`);
  }
  if (!ctx.signal.aborted && options.lookupDelayMs > 0) await delay(options.lookupDelayMs, undefined, { signal: ctx.signal }).catch(() => undefined);
  // A stop ends waits, not the lookup: it is what keeps the object from being forgotten.
  let afterStop: AbortSignal | undefined;
  for (;;) {
    const stopped = ctx.signal.aborted;
    const signal = stopped ? (afterStop ??= AbortSignal.timeout(options.lookupAfterStopMs)) : ctx.signal;
    try {
      return await r.findCreated.find(plan, { ...ctx, signal }, since);
    } catch (err) {
      // The stop cut this lookup short: look once more, under the budget for after a stop.
      if (!stopped && ctx.signal.aborted) continue;
      if (err instanceof SeveralCandidatesError) {
        throw unknownOutcome(
          r,
          plan,
          lost,
          `${err.ids.length} existing objects match (${err.ids.join(', ')}), and the provider cannot tell which one the request made, so it adopted none and created nothing more.`,
          (importIt) => `Pick the one to manage and ${importIt}; remove the others if they are unwanted.`,
        );
      }
      if (err instanceof DiagnosticError) throw err;
      throw unknownOutcome(r, plan, lost, `Looking for the object failed: ${err instanceof Error ? err.message : String(err)}.`);
    }
  }
}

/** Attributes declared `oneTime` that an adopted object lacks. */
function missingOneTimeValues<C>(r: ResourceDef<Fields, C>, found: Model): string[] {
  return Object.entries(r.schema.fields)
    .filter(([name, def]) => def.kind === 'attr' && def.options.oneTime && !(found as Record<string, unknown>)[name])
    .map(([name]) => name);
}

type Advice = (importIt: string) => string;

const CHECK_AND_IMPORT: Advice = (importIt) => `If it exists, ${importIt}; otherwise apply again.`;

function unknownOutcome<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>, lost: ApiError, why: string, advice: Advice = CHECK_AND_IMPORT): DiagnosticError {
  const importIt = r.importState ? `import it (\`terraform import <address> <id>\`, where the id is ${r.importIdDescription ?? 'its id'})` : 'remove it';
  return new DiagnosticError(
    'Create outcome unknown',
    // The client's message names the create call and says that its answer was lost.
    `${lost.message}. ${why} Look on the platform for ${describe(r, plan)}. ${advice(importIt)}`,
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The adopted object's id for the log (ids are never secrets here). */
function idField(model: object): { id?: string } {
  const id = (model as { id?: unknown }).id;
  return typeof id === 'string' ? { id } : {};
}
