/**
 * Creates of a type that cannot find what a create made (it declares no `findCreated`, and repeating its
 * create is not harmless: no `repeatableCreate`). Nothing such a create made can be taken back, so it
 * is never sent twice unasked, and what is not known is said where the user decides: its request is
 * written down before it leaves (engine/journal/create-journal.ts), and while no run of this state learned
 * its outcome (its run was cut off, or its answer was lost or came after its `timeouts`), the plan of a
 * create with the very same settings says that applying may make a second object. Applying anyway is the
 * user's answer: those records then end.
 */
import { type ApiError, isApiError } from '../../wire/api-error.js';
import type { Fields, ModelOf } from '../../schema/define.js';
import type { ObjectValue } from '../../schema/value.js';
import type { OpContext, ResourceDef } from '../contracts/index.js';
import type { DiagnosticError, Diagnostics } from '../diagnostics/index.js';
import type { CreateJournal, OpenRecord, RecordHandle } from '../journal/index.js';
import type { Model } from './create-evidence.js';
import { unknownOutcome } from './create-messages.js';
import { createEntry } from './create-records.js';

/** Whether `r` is such a type. */
export const cannotFindCreated = <C>(r: ResourceDef<Fields, C>): boolean => !r.findCreated && !r.repeatableCreate;

/**
 * `r.create`, written down first; a lost answer is reported, never repeated. The record ends once the outcome
 * is known; it stays (the caller keeps it) when the answer is lost or the create outlives its limit.
 */
export async function createUnfindable<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  ctx: OpContext<C>,
  books: { readonly journal: CreateJournal; record: RecordHandle | null },
): Promise<Model> {
  const entry = createEntry(r, plan, planned);
  // The plan said what earlier requests of these settings may have made; applying is the user's answer.
  for (const earlier of await books.journal.unsettledRecords(entry))
    await books.journal.finish(books.journal.resume(earlier), 'settled');
  books.record = await books.journal.sent(entry, []);
  if (ctx.signal?.aborted) {
    // Stopped (or out of time) while it was written down: nothing was sent.
    await settle(books);
    ctx.signal.throwIfAborted();
  }
  // Past its limit (the signal aborted), the caller has reported the create and kept its record: an
  // object made now never reaches the state.
  const late = () => ctx.signal?.aborted === true;
  try {
    const created = await r.create(plan, ctx);
    if (!late()) await settle(books);
    return created;
  } catch (err) {
    // Refused, or never sent (`cancelled`): nothing more can come of it.
    if (isApiError(err, 'cancelled') || (!isApiError(err, 'outcome_unknown') && !late())) await settle(books);
    throw isApiError(err, 'outcome_unknown') ? lostAnswer(r, plan, err) : err;
  }
}

/** A create's lost answer where nothing can look the object up: reported, never sent again. */
export function lostAnswer<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>, err: ApiError): DiagnosticError {
  return unknownOutcome(
    r,
    plan,
    err,
    `${r.typeName} has no natural key to look the object up by, so the provider does not send the request again ` +
      `(that could make a duplicate).`,
  );
}

async function settle(books: { readonly journal: CreateJournal; record: RecordHandle | null }): Promise<void> {
  await books.journal.finish(books.record, 'settled');
  books.record = null;
}

/** What the plan of a create of such a type says when earlier requests of the same settings are unsettled. */
export async function unsettledWarning<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  journal: CreateJournal,
  diags: Diagnostics,
): Promise<void> {
  const earlier = await journal.unsettledRecords(createEntry(r, plan, planned));
  if (earlier.length === 0) return;
  const requests = earlier.length === 1 ? 'a request' : `${earlier.length} requests`;
  diags.warning(
    `An earlier create of ${r.typeName} may have made this object`,
    `A run of this state sent ${requests} to create ${r.typeName} with these very settings and never learned ` +
      `what came of ${earlier.length === 1 ? 'it' : 'them'}: ${causes(earlier)}. ${r.typeName} cannot find what ` +
      'a create made (it declares no findCreated), so applying sends another request: if the earlier one made ' +
      'the object, there will be two. Look on the platform first; if it is there, import it into this resource ' +
      '(an `import` block) instead of applying.',
  );
}

/** Why each record's outcome is unknown, each cause said once. */
function causes(records: readonly OpenRecord[]): string {
  const said = new Set(
    records.map((record) =>
      record.endedAt === null
        ? 'its run was cut off with the request out'
        : 'its answer was lost, or came after the create’s time limit (`timeouts`)',
    ),
  );
  return [...said].join('; ');
}
