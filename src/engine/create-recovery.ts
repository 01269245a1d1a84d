/**
 * Creates whose outcome is unknown. When a create's answer is lost (ApiError 'outcome_unknown') the
 * object may or may not exist, so the create is never simply repeated: the resource's `findCreated`
 * looks for it by its natural key first. Found → adopted; none → created again, a few times at
 * most; several, no lookup, or a failed lookup → a diagnostic that says how to check and import.
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
}

export const DEFAULT_CREATE_RECOVERY: CreateRecoveryOptions = { attempts: 5, lookupDelayMs: 1_000 };

const SUMMARY = 'Create outcome unknown';

/** `r.create`, recovering from lost answers by adopting the object it made or creating it again. */
export async function createRecovering<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  ctx: OpContext<C>,
  options: CreateRecoveryOptions,
): Promise<Partial2<ModelOf<Fields>>> {
  let lost: ApiError | undefined;
  const since = new Date();
  for (let attempt = 1; ; attempt++) {
    try {
      return await r.create(plan, ctx);
    } catch (err) {
      // After a lost answer, "already exists" may mean the earlier request did take effect.
      const conflictAfterLoss = lost !== undefined && isApiError(err, 'conflict');
      if (!isApiError(err, 'outcome_unknown') && !conflictAfterLoss) throw err;
      if (!conflictAfterLoss) lost = err as ApiError;
      const found = await lookUp(r, plan, ctx, lost!, since, options);
      if (found) {
        ctx.log.info('adopted the object an unanswered create request had made', { ...idField(found), attempt });
        return found;
      }
      if (conflictAfterLoss) {
        throw unknownOutcome(
          r,
          lost!,
          `Sent again, the request was refused as a conflict (${(err as ApiError).message}), yet no object matching this configuration was found.`,
        );
      }
      if (attempt >= options.attempts) {
        throw unknownOutcome(r, lost!, `No object matching this configuration was found after ${attempt} attempts, so the provider gave up.`);
      }
      ctx.log.info('no object from the unanswered create request was found; sending it again', { attempt });
    }
  }
}

async function lookUp<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  ctx: OpContext<C>,
  lost: ApiError,
  since: Date,
  options: CreateRecoveryOptions,
): Promise<Partial2<ModelOf<Fields>> | null> {
  if (!r.findCreated) {
    throw unknownOutcome(r, lost, `${r.typeName} has no natural key to look the object up by, so the provider does not send the request again (that could make a duplicate).`);
  }
  const stopped = () => unknownOutcome(r, lost, 'Terraform asked the provider to stop before it could look for the object.');
  try {
    if (options.lookupDelayMs > 0) await delay(options.lookupDelayMs, undefined, { signal: ctx.signal });
    return await r.findCreated(plan, ctx, since);
  } catch (err) {
    if (ctx.signal.aborted) throw stopped();
    if (err instanceof SeveralCandidatesError) {
      throw unknownOutcome(
        r,
        lost,
        `${err.ids.length} existing objects match this configuration (${err.ids.join(', ')}), and the provider cannot tell which one the request made, so it adopted none and created nothing more.`,
        (importIt) => `Pick the one to manage and ${importIt}; remove the others if they are unwanted.`,
      );
    }
    // The resource's own explanation (e.g. an object adopted without its one-time secret).
    if (err instanceof DiagnosticError) throw err;
    throw unknownOutcome(r, lost, `Looking for the object failed: ${err instanceof Error ? err.message : String(err)}.`);
  }
}

type Advice = (importIt: string) => string;

const CHECK_AND_IMPORT: Advice = (importIt) => `If it exists, ${importIt} or remove it; otherwise apply again.`;

function unknownOutcome<C>(r: ResourceDef<Fields, C>, lost: ApiError, why: string, advice: Advice = CHECK_AND_IMPORT): DiagnosticError {
  const importIt = r.importState ? `import it (\`terraform import <address> <id>\`, where the id is ${r.importIdDescription ?? 'its id'})` : 'import it';
  return new DiagnosticError(
    SUMMARY,
    // The client's message names the create call and says that its answer was lost.
    `${lost.message}. ${why} Check the platform for the object. ${advice(importIt)}`,
  );
}

/** The adopted object's id for the log (ids are never secrets here). */
function idField(model: object): { id?: string } {
  const id = (model as { id?: unknown }).id;
  return typeof id === 'string' ? { id } : {};
}
