/**
 * What a record of an earlier create proves (docs/decisions.md, "Creates outlive their process";
 * engine/journal/create-journal.ts keeps the records). A create whose type, key and settings match records that no
 * later run retired stands for the requests they wrote down, and looks for what those made before it
 * sends anything:
 *
 * - A record whose answer came back names its object. The object is adopted when it still exists,
 *   holds what the plan asks for and no other resource of this run took it. The record is open, so no
 *   walk has shown that object in a state since (a walk that shows it ends the record: `seen`); when
 *   Terraform shut the provider down or how long it held the answer says nothing of that, as a remote
 *   backend gets the state at a time the provider never learns.
 * - Records whose process died with the request out (no answer) are judged by the rule of a lost
 *   answer (create-evidence.ts) with their census, their window (from a little before the request to
 *   a little after the process was last seen alive) and as many requests as there are records:
 *   objects new since the census, not taken (answered by another record, shown tracked by a later
 *   run, claimed by another resource), made inside the window where the platform says when, matching
 *   the plan. No more of them than records: one is adopted; none: the requests made nothing and
 *   their records go; anything else: "Create outcome unknown", naming each object and its import.
 *
 * An adopted object is claimed in the journal with an exclusive file, so that two processes (two
 * provider configurations of one account) never take the same one.
 */
import type { Fields, ModelOf } from '../../schema/define.js';
import { fieldList, fieldType } from '../../schema/fields.js';
import { fromModel } from '../../schema/model.js';
import { Unknown, type ObjectValue, type Value } from '../../schema/value.js';
import { equalityKey } from '../../schema/value-ops.js';
import type { AttrDef, BlockDef } from '../../schema/define.js';
import type { OpContext, ResourceDef } from '../contracts/index.js';
import { judge, type CreateLedger, type Holder, type Lookup, type Model } from './create-evidence.js';
import {
  digest,
  HEARTBEAT_MS,
  notesHold,
  type CreateEntry,
  type CreateJournal,
  type OpenRecord,
  type OtherRecord,
  type RecordHandle,
} from '../journal/index.js';
import { describe, messageOf, unknownOutcome } from './create-messages.js';
import { DiagnosticError } from '../diagnostics/index.js';
import { inCurrentForm, isPlatformSetting, differencesFromPlan } from '../plan/index.js';

/**
 * Where no answer said the platform's time (wire/platform-clock.ts): how far the platform's clock and
 * ours may differ, and how long after its request left a platform may still make the object. The
 * window of a killed request reaches this far either side.
 */
export const WINDOW_SLACK_MS = 30_000;
/** Where the platform's clock is known: a dated answer's second, and the network between us. */
export const DATED_SLACK_MS = 2_000;
/** How long after its process was last seen alive a request it had on the wire may still be carried out. */
export const CARRIED_OUT_MS = 10_000;

/**
 * When the killed requests of `waiting` could have made their object, on the platform's clock where each
 * record kept how far it was from the writer's, else on the writer's with WINDOW_SLACK_MS either side.
 */
export function requestWindow(
  waiting: readonly RequestTimes[],
  now: number,
  /** Some record's process file is gone: when it was last alive is not known. */
  unknown: boolean,
): { from: number; to: number } {
  const dated = waiting.every((record) => record.platformOffset !== undefined);
  const offset = (record: RequestTimes) => (dated ? record.platformOffset! : 0);
  const before = dated ? DATED_SLACK_MS : WINDOW_SLACK_MS;
  const after = dated ? DATED_SLACK_MS + CARRIED_OUT_MS : WINDOW_SLACK_MS;
  return {
    from: Math.min(...waiting.map((record) => record.sentAt + offset(record))) - before,
    to: unknown
      ? now + Math.max(...waiting.map(offset))
      : Math.max(...waiting.map((record) => record.aliveAt! + offset(record))) + HEARTBEAT_MS + after,
  };
}

/** What a record says of when its request was out (an open record of this state's, or another state's). */
type RequestTimes = Pick<OpenRecord, 'sentAt' | 'aliveAt' | 'platformOffset'>;

/**
 * Whether another state's request still unanswered, for the same key, may have made `object` (`id`): the
 * object was not among those holding the key when it left, and, where the platform says when its objects
 * are made, it was made while that request was out, on the window a state's own killed request is judged
 * by. An object made long after is not that state's by that record: nothing says whose it is.
 */
export function mayHaveMade<C>(
  record: OtherRecord,
  lookup: Lookup<C>,
  object: Model,
  id: string,
  now = Date.now(),
): boolean {
  if (record.idDigest !== null || record.census.includes(id)) return false;
  const at = lookup.madeAt?.(object);
  if (at === undefined) return true;
  const { from, to } = requestWindow([record], now, record.aliveAt === null);
  return at >= from && at <= to;
}

/** The digest of the key of an object of `r` as `model` describes it: what the journal files a create by. */
export function keyOf<C>(r: ResourceDef<Fields, C>, model: ModelOf<Fields>): string {
  return digest(`${r.typeName}\0${describe(r, model)}`);
}

/** The journal's view of a create: its type and the digests of its key and of its settings. */
export function createEntry<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>, planned: ObjectValue): CreateEntry {
  return {
    type: r.typeName,
    key: keyOf(r, plan),
    settings: digest(settingsText(r.schema.fields, inCurrentForm(r.schema.fields, planned))),
  };
}

/**
 * The settings a create sends, as text that is the same exactly when they are: every setting the
 * platform holds, at every depth, but no secret (sensitive, write-only, masked or one-time values and
 * their twins are left out, so a record's digest never stands for one), sets in any order.
 */
export function settingsText(fields: Fields, value: ObjectValue): string {
  const parts: string[] = [];
  for (const { name, def } of [...fieldList(fields)].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!isPlatformSetting(def) || (def.kind === 'attr' && isSecret(def))) continue;
    const v = value[name] ?? null;
    parts.push(`${JSON.stringify(name)}:${def.kind === 'attr' ? equalityKey(fieldType(def), v) : blockText(def, v)}`);
  }
  return `{${parts.join(',')}}`;
}

function isSecret(def: AttrDef<unknown>): boolean {
  const o = def.options;
  return o.sensitive === true || o.writeOnly === true || o.masked === true || o.oneTime === true || !!o.twinOf;
}

function blockText(def: BlockDef<Fields>, v: Value): string {
  if (v instanceof Unknown) return '?';
  if (v === null) return '~';
  if (!Array.isArray(v)) return settingsText(def.fields, v as ObjectValue);
  const elements = (v as ObjectValue[]).map((e) => settingsText(def.fields, e));
  return `[${(def.nesting === 'set' ? elements.sort() : elements).join(',')}]`;
}

/** An object a killed run's request made, taken over by this create, with the record it now continues. */
export interface Recovered {
  readonly object: Model;
  readonly record: RecordHandle;
  /** How the outcome was left unknown, for a message should it have to say so. */
  readonly lead: string;
  /** Why the record proves the object is that request's, for the warning that says it was taken over. */
  readonly proof: string;
}

/** The warning an apply gives for an object it took over instead of creating (createTracked). */
export function adoptedWarning<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  recovered: Recovered,
  id: string,
): [string, string] {
  const { content, name } = recovered.record;
  const run = content.run === undefined ? '' : `, client run ${content.run}`;
  return [
    `Took over ${id}, which a cut-off run made`,
    `${recovered.lead}. The record of that request (${name}, provider process ${content.process}${run}) proves ` +
      `that it made ${id}: ${recovered.proof}. So this apply took ${id} over as ${describe(r, plan)} instead of ` +
      'creating another; nothing was created.',
  ];
}

/**
 * The object that earlier, killed requests of this create made, when the records prove it; null when
 * there is nothing to recover (no record, or their requests made nothing that is not someone's). Throws
 * "Create outcome unknown" when the records cannot tell. Sends nothing.
 */
export async function recoverRecorded<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  ctx: OpContext<C>,
  ledger: CreateLedger,
  journal: CreateJournal,
  entry: CreateEntry,
): Promise<Recovered | null> {
  // Only a killed run of this very state proves anything (create-journal.ts killedRecords).
  const records = await journal.killedRecords(entry);
  if (records.length === 0) return null;
  const lead =
    `An earlier run of this state was cut off (its provider never got the client's orderly shutdown) while its ` +
    `request to create ${describe(r, plan)} was out (sent ${new Date(records[0]!.sentAt).toISOString()})`;
  let listed: readonly Model[];
  try {
    listed = await lookup.list(plan, ctx);
  } catch (err) {
    if (err instanceof DiagnosticError) throw err;
    throw new DiagnosticError(
      `Cannot create ${r.typeName}`,
      `${lead}. Before sending anything, the provider looks for the object that request may have made; the ` +
        `listing failed: ${messageOf(err)}. Nothing was sent.`,
    );
  }
  const now = Date.now();
  const holding = listed.filter((o) => lookup.holdsKey(plan, o));
  const byId = new Map(holding.map((o) => [lookup.importId(o), o]));
  const taken = await journal.claimedDigests(r.typeName);
  const notes = await journal.allNotes();

  // An answer that came back names its object.
  for (const record of records) {
    if (record.id === null) continue;
    const object = byId.get(record.id);
    if (!object) {
      journal.seen(r.typeName, record.id, 'gone');
      continue;
    }
    if (ledger.isClaimed(r.typeName, record.id)) continue;
    // A state of another workspace holds it (imported there since): that state's, never this one's.
    if (notes.some((n) => notesHold(n, r.typeName, record.id!))) continue;
    const fields = r.schema.fields;
    const differs = differencesFromPlan(fields, planned, fromModel(fields, object, planned), setAfter(lookup));
    if (differs.length > 0) {
      const note = `an earlier run made it for this configuration, but its ${differs.join(', ')} differ from the plan`;
      throw unknownOutcome(r, plan, lead, 'The object it made was changed since.', [{ id: record.id, note }]);
    }
    if (!(await journal.claim(r.typeName, record.id))) continue;
    ctx.log.info('adopted the object a killed run had made, named by its answer', { id: record.id });
    return { object, record: journal.resume(record), lead, proof: 'its answer, which the record holds, names it' };
  }

  // Requests without an answer: the rule of a lost answer, with what the records kept.
  const waiting = records.filter((record) => record.id === null);
  if (waiting.length === 0) return null;
  const unknownWindow = waiting.some((record) => record.aliveAt === null);
  // Another state's request still out, for this key and not holding the object when it was sent, may have made it.
  const others = (await journal.otherRecords()).filter(
    (o) => o.type === r.typeName && o.idDigest === null && o.key === entry.key,
  );
  const maybeOthers = (id: string) => {
    const object = byId.get(id);
    return object !== undefined && others.some((o) => mayHaveMade(o, lookup, object, id, now));
  };
  const evidence = (excludeOthers: boolean) => ({
    before: new Set(waiting.map((record) => record.census).reduce((a, b) => a.filter((id) => b.includes(id)))),
    taken: (id: string) =>
      ledger.isClaimed(r.typeName, id)
        ? 'another resource of this run made it'
        : taken.has(digest(id))
          ? 'a state tracks it, or another create made it'
          : excludeOthers && maybeOthers(id)
            ? "another state's request, cut off too, may have made it"
            : undefined,
    window: requestWindow(waiting, now, unknownWindow),
    requests: waiting.length,
  });
  let verdict = judge(r, lookup, plan, planned, holding, evidence(true));
  if (verdict.kind === 'none' && others.length > 0) {
    // Every candidate another state's request may have made too: made by one of the two, which cannot be told.
    const all = judge(r, lookup, plan, planned, holding, evidence(false));
    if (all.kind !== 'none')
      verdict = {
        kind: 'unclear',
        why:
          "Another state's request to create an object of the same key was out at the same time, and either " +
          'may have made it.',
        holders:
          all.kind === 'unclear'
            ? all.holders
            : [{ id: lookup.importId(all.object), note: "made while this request and another state's were out" }],
      };
  }
  if (verdict.kind === 'none') {
    for (const record of waiting) await journal.finish(journal.resume(record), 'dropped');
    return null;
  }
  if (verdict.kind === 'unclear') throw unknownOutcome(r, plan, lead, verdict.why, verdict.holders);
  const id = lookup.importId(verdict.object);
  if (unknownWindow) throw unclearWithoutProcess(r, plan, lead, id);
  // A request never answered may never have reached the platform: where it does not say when its objects
  // are made, an object holding the key may be another's, made since by anyone.
  if (!lookup.madeAt) {
    // Every object that request could have made, each with why: none is taken.
    const named = judge(r, lookup, plan, planned, holding, { ...evidence(true), requests: 0 });
    throw unknownOutcome(
      r,
      plan,
      lead,
      'That request was never answered, so it may never have reached the platform, and the platform does not say ' +
        'when its objects are made: whether that request made such an object, or another configuration or a ' +
        'person made it since, cannot be told.',
      named.kind === 'unclear' ? named.holders : [{ id, note: 'new since the earlier request' }],
    );
  }
  if (!(await journal.claim(r.typeName, id)))
    throw unknownOutcome(r, plan, lead, 'Another provider process took the object it made first.', [
      { id, note: 'another resource took it a moment ago' },
    ]);
  ctx.log.info('adopted the object a killed run had made, on the evidence of its record', { id });
  const proof =
    'it is the only object holding its key and settings made while that request was out that no state holds';
  return { object: verdict.object, record: journal.resume(waiting[0]!), lead, proof };
}

function setAfter<C>(lookup: Lookup<C>): ReadonlySet<string> {
  return new Set<string>(lookup.setAfterCreate ?? []);
}

function unclearWithoutProcess<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  lead: string,
  id: string,
): DiagnosticError {
  const holder: Holder = { id, note: 'new since the earlier request, but when its process ended is not recorded' };
  return unknownOutcome(
    r,
    plan,
    lead,
    'The record of the process that sent it is gone, so whether that request made this object cannot be told.',
    [holder],
  );
}
