/**
 * The records of a journal directory as one process knows them, found by what each step asks: a
 * create by its type and key, a retirement by its object's id, a recovery by its type. An apply or a
 * refresh of N objects asks N times, so no question walks every record (it grew with the square of N).
 */
import type { CreateEntry, IndexEntry } from './journal-files.js';

export class RecordIndex {
  private readonly byRid = new Map<string, IndexEntry>();
  /** By `type~key`. */
  private readonly byKey = new Groups();
  /** By `type~idDigest`, `type~sent` while unanswered. */
  private readonly byAnswer = new Groups();
  /** By type. */
  private readonly byType = new Groups();

  constructor(entries: Iterable<IndexEntry> = []) {
    for (const entry of entries) this.set(entry);
  }

  /** Adds a record, or replaces the one of the same id (its name changes once it is answered). */
  set(entry: IndexEntry): void {
    this.delete(entry.rid);
    this.byRid.set(entry.rid, entry);
    this.byKey.add(keyOf(entry), entry);
    this.byAnswer.add(answerOf(entry.type, entry.idDigest), entry);
    this.byType.add(entry.type, entry);
  }

  delete(rid: string): void {
    const entry = this.byRid.get(rid);
    if (!entry) return;
    this.byRid.delete(rid);
    this.byKey.remove(keyOf(entry), rid);
    this.byAnswer.remove(answerOf(entry.type, entry.idDigest), rid);
    this.byType.remove(entry.type, rid);
  }

  /** The records of `entry`'s type and key, and of its settings too unless `anySettings`. */
  matching(entry: CreateEntry, options: { anySettings?: boolean } = {}): IndexEntry[] {
    const all = this.byKey.get(keyOf(entry));
    return options.anySettings === true ? all : all.filter((e) => e.settings === entry.settings);
  }

  /** The records of `type` answered with the id whose digest is `idDigest`; unanswered ones for null. */
  answeredWith(type: string, idDigest: string | null): IndexEntry[] {
    return this.byAnswer.get(answerOf(type, idDigest));
  }

  ofType(type: string): IndexEntry[] {
    return this.byType.get(type);
  }

  hasType(type: string): boolean {
    return this.byType.has(type);
  }
}

const keyOf = (entry: CreateEntry) => `${entry.type}~${entry.key}`;
const answerOf = (type: string, idDigest: string | null) => `${type}~${idDigest ?? 'sent'}`;

/** Records in groups by a name, each group by the records' own ids. */
class Groups {
  private readonly groups = new Map<string, Map<string, IndexEntry>>();

  add(group: string, entry: IndexEntry): void {
    let held = this.groups.get(group);
    if (!held) this.groups.set(group, (held = new Map()));
    held.set(entry.rid, entry);
  }

  remove(group: string, rid: string): void {
    const held = this.groups.get(group);
    if (!held) return;
    held.delete(rid);
    if (held.size === 0) this.groups.delete(group);
  }

  get(group: string): IndexEntry[] {
    const held = this.groups.get(group);
    return held ? [...held.values()] : [];
  }

  has(group: string): boolean {
    return this.groups.has(group);
  }
}
