/**
 * The create journal: every create request is written down before it leaves, so that a run killed
 * outright (SIGKILL, the OOM killer, a CI job's timeout) leaves a record that the next run in the
 * same directory finds (docs/decisions.md, "Creates outlive their process"; engine/creates/create-records.ts
 * judges what a record proves).
 *
 * Where: `<TF_DATA_DIR, default .terraform>/<namespace>-creates/<provider>/<workspace>/<api>/`, relative to
 * the directory the provider process starts in, which is Terraform's working directory (and, under
 * Pulumi, the directory the bridge runs in). `<api>` is a digest of the API address the provider is
 * configured with, so two provider configurations never read each other's records.
 *
 * A record is lines of its process's log (journal-log.ts): its request's, on the disk before the
 * request leaves, one flush for the requests sent together; its answer's and return's after it; and
 * its end's, which a later run appends when it shows the record's object tracked (`seen`) or gone.
 * Several processes write at once (validate, plan and apply walks, workspaces side by side) and no
 * record is lost or torn. A process lists the directory and reads its logs once; records expire.
 * Whatever fails here (a directory that cannot be written, a file that cannot be read) costs the
 * protection, never the run: `takeProblem` says once what is missing and why.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import {
  digest,
  logName,
  parseRecordName,
  processNews,
  readRecord,
  recordId,
  recordName,
  rewriteRecord,
  setAside,
  type CreateEntry,
  type RecordContent,
} from './journal-files.js';
import { JournalDirectory } from './journal-directory.js';
import { appendLine, OwnLog, type LogLine } from './journal-log.js';
import type { JournalPlace } from './journal-place.js';
import { ProcessFile } from './journal-process.js';
import { platformOffsetMs } from '../../wire/platform-clock.js';

/** A record read back, with what its process's file says. */
export interface OpenRecord extends RecordContent {
  readonly name: string;
  /** The last time its process said it and its host were alive; null when its process file is gone. */
  readonly aliveAt: number | null;
  /** When its host shut its process down; null when it did not. */
  readonly endedAt: number | null;
  /** The log holding it, if a log does. */
  readonly log?: string;
}

/**
 * How a walk showed an object: taken from the state (`stored`: an upgrade), read or planned (`tracked`),
 * imported, or found gone.
 */
export type Seen = 'stored' | 'tracked' | 'imported' | 'gone';

/** A record this process wrote (or took over), for the steps that follow its request. */
export interface RecordHandle {
  name: string;
  content: RecordContent;
  /** The log holding it; undefined for a record in a file of its own. */
  log?: string;
}

type Matching = { anySettings?: boolean };

/** Whether the record's file name already carries its answer. */
const isNamed = (handle: RecordHandle) => parseRecordName(handle.name)?.idDigest !== null;

export class CreateJournal extends JournalDirectory {
  private readonly process: ProcessFile;
  private ownLog: OwnLog | null = null;
  /**
   * The host stores each result as it gets it (Pulumi's engine writes its checkpoint after every step),
   * so a returned create's object is in its state at once. Terraform's state reaches its backend at a
   * time the provider never learns (a remote backend's every 20 s, or the run's end, long after the
   * provider's shutdown): there a record stays open until a later walk shows its object (`seen`).
   */
  hostHoldsOnReturn = false;

  constructor(provider: string, place: JournalPlace | null, now: () => number = Date.now) {
    super(provider, place, now);
    this.process = new ProcessFile(now, (work) => this.track(work));
  }

  /**
   * The creates whose result went back to a client that stores it only when its walk is over
   * (Terraform, OpenTofu): at its orderly shutdown they are its state's (`ended`).
   */
  private readonly handedOver: RecordHandle[] = [];

  /**
   * Writes the record of a create about to be sent; null when it could not be written (the problem says
   * why), or for a test run, whose records no run reads.
   */
  async sent(entry: CreateEntry, census: readonly string[]): Promise<RecordHandle | null> {
    if (!this.dir || !this.place || !this.state || this.readOnly) return null;
    this.process.began(this.dir);
    try {
      const process = await this.process.ensure(this.dir);
      const sentAt = this.now();
      const rid = recordId(sentAt);
      const platformOffset = platformOffsetMs();
      const content: RecordContent = {
        version: 1,
        provider: this.provider,
        type: entry.type,
        workspace: this.state.workspace,
        backend: this.state.backend,
        where: this.state.where,
        ...(this.run !== undefined ? { run: this.run } : {}),
        api: this.api,
        key: entry.key,
        settings: entry.settings,
        census: [...census],
        process,
        sentAt,
        ...(platformOffset !== undefined ? { platformOffset } : {}),
        id: null,
        answeredAt: null,
        returnedAt: null,
      };
      const name = recordName(entry, null, rid);
      if (this.ownLog?.dir !== this.dir) this.ownLog = new OwnLog(this.dir, logName(process));
      // On the disk before the request leaves: it outlives the machine going down too.
      await this.ownLog.sent(rid, content);
      const log = this.ownLog.name;
      (await this.loadIndex()).set({ ...entry, name, rid, idDigest: null, log, content });
      return { name, content, log };
    } catch (err) {
      this.fail('record a create before sending it', err);
      this.process.finished();
      return null;
    }
  }

  /**
   * The platform answered: the record names its object (and its name, its id's digest). `now`
   * false leaves the writing to `finish`, for a create whose result goes back to its caller at once:
   * one write instead of two (a process killed in between leaves the record unanswered, which the next
   * run judges by its census).
   */
  async answered(handle: RecordHandle | null, id: string, now = true): Promise<void> {
    if (!handle || !this.dir) return;
    handle.content = { ...handle.content, id, answeredAt: this.now() };
    if (now) await this.write(handle);
  }

  /**
   * The create is over, one way or another, and said so once: its result went back to its caller
   * (`returned`, noted only while the host is there to take it), its request made nothing and the
   * record goes (`dropped`), its outcome is known and nothing is left to remember (`settled`: a type
   * that cannot find its objects), or the record stays as it is for the next run (`kept`: the outcome
   * is unknown, or the result never reached the caller).
   */
  async finish(handle: RecordHandle | null, how: 'returned' | 'dropped' | 'settled' | 'kept'): Promise<void> {
    if (!handle || !this.dir) return;
    try {
      if (how === 'dropped' || how === 'settled') return await this.end(handle);
      if (how === 'returned' && this.process.hostAlive) handle.content = { ...handle.content, returnedAt: this.now() };
      // Written when it says more than what is written: an answer, or its return.
      if (handle.content.id !== null && (handle.content.returnedAt !== null || !isNamed(handle)))
        await this.write(handle);
      const id = handle.content.id;
      if (how === 'returned' && handle.content.returnedAt !== null && id !== null) {
        // A host that stores each result as it gets it (Pulumi) holds the object now; Terraform, once
        // its walk ends in order.
        if (!this.hostHoldsOnReturn) this.handedOver.push(handle);
        else {
          this.notes?.note(handle.content.type, id, true);
          await this.end(handle);
        }
      }
    } catch (err) {
      this.fail('note what became of a create', err);
    } finally {
      this.process.finished();
    }
  }

  /** Whether any record of `type` is open, from this process's listing (most runs have none: nothing more to ask). */
  async hasRecordsOf(type: string): Promise<boolean> {
    if (!this.dir || this.readOnly) return false;
    return (await this.loadIndex()).hasType(type);
  }

  /** Whether any record matches `entry` (its type, key and settings, or type and key), from this process's listing. */
  async hasRecords(entry: CreateEntry, options: Matching = {}): Promise<boolean> {
    if (!this.dir) return false;
    return (await this.loadIndex()).matching(entry, options).length > 0;
  }

  /**
   * The records matching `entry` with their processes' news, read afresh from the directory unless
   * `afresh` is false (this process's listing then: a killed run's records were there when it began).
   */
  async openRecords(entry: CreateEntry, options: Matching & { afresh?: boolean } = {}): Promise<OpenRecord[]> {
    if (!this.dir) return [];
    if (options.afresh !== false) this.index = null;
    const out: OpenRecord[] = [];
    for (const e of (await this.loadIndex()).matching(entry, options)) {
      const content =
        e.content ??
        (await readRecord(this.dir, e.name).catch((err) => {
          this.fail(`read the record ${e.name}`, err);
          this.track(setAside(this.dir!, e.name));
          return null;
        }));
      if (!content) continue;
      const news = await processNews(this.dir, content.process);
      out.push({ ...content, name: e.name, ...news, ...(e.log ? { log: e.log } : {}) });
    }
    return out.sort((a, b) => a.sentAt - b.sentAt);
  }

  /**
   * The records matching `entry` that prove a killed run of this state: their process never got its
   * client's orderly shutdown (a run that ended in order handed its results over: `ended`), and they
   * are of no process of this very run of the client.
   */
  async killedRecords(entry: CreateEntry, options: Matching & { afresh?: boolean } = {}): Promise<OpenRecord[]> {
    if (!this.dir || this.readOnly || !(await this.hasRecords(entry, options))) return [];
    return (await this.openRecords(entry, options)).filter(
      (record) =>
        !record.plannedAdoption &&
        record.endedAt === null &&
        record.process !== this.process.name &&
        (record.run === undefined || record.run !== this.run),
    );
  }

  /**
   * The records matching `entry` exactly whose outcome no run of this state learned, of other runs: killed
   * with the request out, or kept when its answer was lost or came too late (engine/creates/unfound-creates.ts).
   */
  async unsettledRecords(entry: CreateEntry): Promise<OpenRecord[]> {
    if (!this.dir || this.readOnly || !(await this.hasRecords(entry))) return [];
    return (await this.openRecords(entry)).filter(
      (record) =>
        record.returnedAt === null &&
        record.process !== this.process.name &&
        (record.run === undefined || record.run !== this.run),
    );
  }

  /** An earlier run's record, taken over by the create that recovers its object: as if this process had sent it. */
  resume(record: OpenRecord): RecordHandle {
    this.process.began(this.dir!);
    const { name, log, aliveAt: _alive, endedAt: _ended, ...content } = record;
    return { name, content, ...(log ? { log } : {}) };
  }

  /**
   * Terraform showed the object `id` of `type` (a prior state, a read, a plan of it, an import) or found
   * it gone: the records that made it end, and this workspace's notes say whether its state holds it (an
   * import only ends records: a plan with an import block may never be applied). Queued; `flush` waits for it.
   */
  seen(type: string, id: string, how: Seen): void {
    if (!this.dir || id === '' || this.readOnly) return;
    if (how !== 'imported') this.notes?.note(type, id, how !== 'gone', how === 'stored');
    this.track(this.retire(type, digest(id)));
  }

  /** Resolves once no create of this process is in flight. */
  whenIdle(): Promise<void> {
    return this.process.whenIdle();
  }

  /** The host went away: results from now on never reach it, and its liveness stops being vouched for. */
  hostGone(): void {
    this.process.stop(true);
  }

  /**
   * The host's orderly Shutdown: its walk is over, and what it was handed is its state's (a client
   * stores its state after its walk). Those records end, and this state's notes say it holds their
   * objects: a run that ended in order is no killed run, and a later run that does not hold such an
   * object had it taken out (`terraform state rm`, a `removed` block, `state mv`), or was killed after
   * this shutdown, before its state was stored: either way not an object to take back unasked.
   */
  async ended(): Promise<void> {
    if (this.process.hostAlive)
      for (const handle of this.handedOver.splice(0)) {
        this.notes?.note(handle.content.type, handle.content.id!, true);
        await this.end(handle).catch((err) => this.fail('note what its run handed over', err));
      }
    await this.flush();
    await this.ownLog?.close().catch((err) => this.fail('close its log', err));
    if (this.dir) await this.process.end(this.dir).catch((err) => this.fail('note its end', err));
  }

  /** The record as the handle holds it, under the name its answer gives it. */
  private async write(handle: RecordHandle): Promise<void> {
    const entry = parseRecordName(handle.name);
    if (!entry || !this.dir) return;
    const idDigest = handle.content.id === null ? null : digest(handle.content.id);
    const name = recordName(entry, idDigest, entry.rid);
    try {
      const { id, answeredAt, returnedAt } = handle.content;
      if (handle.log) {
        if (id !== null) this.appendTo(handle.log, { rid: entry.rid, answer: { id, answeredAt, returnedAt } });
      } else {
        // Renamed first: killed before the rewrite, the name retires the record once its object is
        // tracked, and the contents, still unanswered, are judged by their census.
        if (name !== handle.name) renameSync(join(this.dir, handle.name), join(this.dir, name));
        rewriteRecord(this.dir, name, handle.content);
      }
      handle.name = name;
      const log = handle.log ? { log: handle.log, content: handle.content } : {};
      (await this.loadIndex()).set({ ...entry, name, idDigest, ...log });
    } catch (err) {
      this.fail('record what a create made', err);
    }
  }

  /** A record ends: a line in its log, or its file removed. */
  private async end(record: { name: string; log?: string }): Promise<void> {
    if (record.log) this.appendTo(record.log, { over: parseRecordName(record.name)!.rid });
    else await this.remove(record.name);
  }

  /** A line for a log: this process's own, or another's (a killed run's record taken over, or retired). */
  private appendTo(log: string, line: LogLine): void {
    const own = this.ownLog;
    if (own && log === own.name) own.append(line);
    else appendLine(this.dir!, log, line);
  }

  /** The records that made the object end: a run showed it (the notes say whose it is now) or found it gone. */
  private async retire(type: string, idDigest: string): Promise<void> {
    const index = await this.loadIndex();
    // Most runs have no record of the type.
    if (!index.hasType(type)) return;
    for (const e of index.answeredWith(type, idDigest)) {
      index.delete(e.rid);
      await this.end(e);
    }
  }
}
