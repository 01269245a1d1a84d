/**
 * A `create_before_destroy` replacement cut off after its create: the run made the new object (its answer
 * names it; or, never answered, the platform made an object of its key in the request's window that no
 * state holds), and was killed before the client stored its state, which still holds the object being replaced. A plain
 * re-apply plans no change (a `-replace` is not repeated), so nothing else would name the new object;
 * and an import to an address that still holds the object being replaced is ignored. So the read of
 * the object it replaces names it, with the steps that work (docs/decisions.md, "Creates outlive their
 * process").
 */
import type { Fields } from '../../schema/define.js';
import type { ObjectValue } from '../../schema/value.js';
import type { OpContext, ResourceDef } from '../contracts/index.js';
import { idOf, MODEL_OPTIONS, type EngineContext } from '../context/index.js';
import { toModel } from '../../schema/model.js';
import { digest } from '../journal/index.js';
import { describe } from './create-messages.js';
import { keyOf, requestWindow } from './create-records.js';

/** The warning for `current`, which this state holds, when a killed run of this state made another of its key. */
export async function cutOffReplacement<C>(
  ctx: EngineContext<C>,
  r: ResourceDef<Fields, C>,
  current: ObjectValue,
  op: OpContext<C>,
): Promise<[summary: string, detail: string] | undefined> {
  const { journal, terms } = ctx;
  // Every read asks: most have no record of their type, and nothing more is worked out for them.
  const lookup = r.findCreated;
  if (!lookup || !(await journal.hasRecordsOf(r.typeName))) return undefined;
  const model = toModel(r.schema.fields, current, MODEL_OPTIONS);
  const held = idOf(r, current);
  const key = { type: r.typeName, key: keyOf(r, model), settings: '' };
  // From this process's listing: a read of each object of the key would otherwise list the directory again.
  const records = (await journal.killedRecords(key, { anySettings: true, afresh: false })).filter(
    (record) => record.id !== held,
  );
  if (records.length === 0) return undefined;
  const made = records.map((record) => record.id).filter((id): id is string => id !== null);
  // A request never answered: what the platform made of that key since, in its window, that nothing holds.
  const waiting = records.filter((record) => record.id === null);
  const mayHave: string[] = [];
  if (waiting.length > 0) {
    const before = waiting.map((record) => record.census).reduce((a, b) => a.filter((id) => b.includes(id)));
    const unknownAlive = waiting.some((record) => record.aliveAt === null);
    const window = requestWindow(waiting, Date.now(), unknownAlive);
    const claimed = await journal.claimedDigests(r.typeName);
    try {
      for (const o of await lookup.list(model, op)) {
        const id = lookup.importId(o);
        const at = lookup.madeAt?.(o);
        if (!lookup.holdsKey(model, o) || id === held || before.includes(id) || claimed.has(digest(id))) continue;
        if (at === undefined || (at >= window.from && at <= window.to)) mayHave.push(id);
      }
    } catch (err) {
      ctx.log.debug('the listing for a cut-off replacement failed', { tf_resource_type: r.typeName, error: err });
    }
  }
  const ids = [...new Set([...made, ...mayHave])];
  if (ids.length === 0) return undefined;
  const one = ids.length === 1;
  const what = describe(r, model);
  const { program, stateWord } = terms;
  const lead =
    made.length > 0
      ? `after it made ${ids.join(', ')} for ${what}`
      : `while its request to create ${what} was out; the platform made ${ids.join(', ')} since, which that ` +
        `request may have made`;
  return [
    `A cut-off run made another ${what}`,
    `A run of this ${stateWord} was cut off (its provider never got the client's orderly shutdown) ${lead}, ` +
      `which this ${stateWord} does not hold: it still holds ${held}. If that run ` +
      'was replacing this resource with `create_before_destroy` (`-replace`, `replace_triggered_by`), apply the ' +
      `replacement again (\`${program} apply -replace=<address>\`): it takes ${one ? 'that object' : 'one of them'} ` +
      `over instead of making another (or stops, naming each, where its record cannot tell), then destroys ${held}. ` +
      `To keep ${one ? 'it' : 'one of them'} without ` +
      `replacing: \`${program} state rm <address>\`, then ` +
      `${terms.importAdvice(r.typeName, r.importState !== undefined, ids, r.importIdDescription)} Then delete ` +
      `${held} on the platform. If ${one ? 'it is' : 'they are'} unwanted, delete ${one ? 'it' : 'them'} on the ` +
      'platform.',
  ];
}
