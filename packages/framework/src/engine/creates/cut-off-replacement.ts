/**
 * A `create_before_destroy` replacement cut off after its create: the run made the new object, and was
 * killed before the client stored its state, which still holds the object being replaced. A plain
 * re-apply plans no change (a `-replace` is not repeated), so nothing else would name the new object;
 * and an import to an address that still holds the object being replaced is ignored. So the read of
 * the object it replaces names it, with the steps that work (docs/decisions.md, "Creates outlive their
 * process").
 */
import type { Fields } from '../../schema/define.js';
import type { ObjectValue } from '../../schema/value.js';
import type { ResourceDef } from '../contracts/index.js';
import { idOf, MODEL_OPTIONS, type EngineContext } from '../context/index.js';
import { toModel } from '../../schema/model.js';
import { describe } from './create-messages.js';
import { keyOf } from './create-records.js';

/** The warning for `current`, which this state holds, when a killed run of this state made another of its key. */
export async function cutOffReplacement<C>(
  ctx: EngineContext<C>,
  r: ResourceDef<Fields, C>,
  current: ObjectValue,
): Promise<[summary: string, detail: string] | undefined> {
  const { journal, terms } = ctx;
  // Every read asks: most have no record of their type, and nothing more is worked out for them.
  if (!r.findCreated || !(await journal.hasRecordsOf(r.typeName))) return undefined;
  const model = toModel(r.schema.fields, current, MODEL_OPTIONS);
  const held = idOf(r, current);
  const key = { type: r.typeName, key: keyOf(r, model), settings: '' };
  // From this process's listing: a read of each object of the key would otherwise list the directory again.
  const made = (await journal.killedRecords(key, { anySettings: true, afresh: false }))
    .map((record) => record.id)
    .filter((id): id is string => id !== null && id !== held);
  if (made.length === 0) return undefined;
  const ids = [...new Set(made)];
  const one = ids.length === 1;
  const what = describe(r, model);
  const { program, stateWord } = terms;
  return [
    `A cut-off run made another ${what}`,
    `A run of this ${stateWord} was cut off (its provider never got the client's orderly shutdown) after it made ` +
      `${ids.join(', ')} for ${what}, which this ${stateWord} does not hold: it still holds ${held}. If that run ` +
      'was replacing this resource with `create_before_destroy` (`-replace`, `replace_triggered_by`), apply the ' +
      `replacement again (\`${program} apply -replace=<address>\`): it takes ${one ? 'that object' : 'one of them'} ` +
      `over instead of making another, then destroys ${held}. To keep ${one ? 'it' : 'one of them'} without ` +
      `replacing: \`${program} state rm <address>\`, then ` +
      `${terms.importAdvice(r.typeName, r.importState !== undefined, ids, r.importIdDescription)} Then delete ` +
      `${held} on the platform. If ${one ? 'it is' : 'they are'} unwanted, delete ${one ? 'it' : 'them'} on the ` +
      'platform.',
  ];
}
