/**
 * The directory of a provider's create journal, as one process holds it (create-journal.ts keeps the
 * records in it): where it is once the provider is configured, the index of its records, the claims of
 * objects some recovery took, the notes of what each workspace's state holds (journal-notes.ts), and
 * what went wrong with it, said once.
 * Whatever fails here costs the protection, never the run.
 */
import { unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { digest, listJournal, markName, processNews, readRecord } from './journal-files.js';
import {
  heldOfType,
  OwnershipNotes,
  readAllNotes,
  stateDirs,
  stateNameOf,
  type StateName,
  type ThisRun,
  type WorkspaceNotes,
} from './journal-notes.js';
import { LogReader } from './journal-log.js';
import {
  recordsRoot,
  stateDirName,
  stateOfRun,
  atStatePath,
  testState,
  type JournalPlace,
  type StateIdentity,
} from './journal-place.js';
import { RecordIndex } from './journal-index.js';

/**
 * An open record of another state kept in this directory: what its create made (`idDigest`), or, still
 * unanswered, may have made (an object holding its key that its census did not hold).
 */
export interface OtherRecord {
  readonly state: StateName;
  readonly type: string;
  readonly key: string;
  readonly settings: string;
  readonly idDigest: string | null;
  readonly census: readonly string[];
  /** When its request left, on its writer's clock, and how far the platform's was ahead (journal-files.ts). */
  readonly sentAt: number;
  readonly platformOffset?: number;
  /** Unanswered: when its process was last alive (null when its process file is gone). */
  readonly aliveAt: number | null;
}

export class JournalDirectory {
  protected dir: string | null = null;
  protected api = '';
  /** The state whose records these are: Terraform's backend and workspace, or the Pulumi stack the host named. */
  protected state: StateIdentity | null = null;
  /** Its directory's name. */
  protected stateDir = '';
  /** The client's run this process serves, when it can be known (engine/host/host-view.ts). */
  protected run: string | undefined;
  /** What this workspace's state held (journal-notes.ts). */
  protected notes: OwnershipNotes | null = null;
  /** The other workspaces' notes, read once when a plan first asks. */
  private others: Promise<WorkspaceNotes[]> | null = null;
  protected index: Promise<RecordIndex> | null = null;
  protected readonly marks = new Map<string, Set<string>>();
  private readonly pending = new Set<Promise<unknown>>();
  /** What this process has read of the logs: a listing afresh reads what was appended since. */
  private readonly logs = new LogReader();
  /** The same, for each other workspace's directory. */
  private readonly otherLogs = new Map<string, LogReader>();
  private trouble: string | undefined;
  private troubleTold = false;

  constructor(
    protected readonly provider: string,
    protected readonly place: JournalPlace | null,
    protected readonly now: () => number = Date.now,
  ) {}

  /**
   * Once the provider is configured: the API its records are kept for, the directory the user chose
   * for them (`create_records_dir`) instead of Terraform's data directory, and the state: the one the
   * client's run began with (`stateOfRun`: every process of one run keeps the same, whatever was
   * selected since), the Pulumi stack the host named, or, for a test run, none that any run reads.
   */
  useApi(
    address: string,
    how: {
      recordsDir?: string;
      stack?: string;
      run?: () => string | undefined;
      testing?: boolean;
      statePath?: string;
    } = {},
  ): void {
    if (!this.place) return;
    const run = how.run?.();
    let state = this.place.state;
    if (how.stack !== undefined) state = { ...state, workspace: how.stack };
    else if (run !== undefined) state = stateOfRun(this.place.base, run, state);
    if (how.statePath !== undefined) state = atStatePath(state, how.statePath);
    if (how.testing) state = testState(state);
    const dir = join(recordsRoot(how.recordsDir ?? this.place.base, this.provider, state), digest(address));
    if (dir === this.dir) return;
    this.api = address;
    this.dir = dir;
    this.state = state;
    this.stateDir = stateDirName(state);
    this.run = run;
    this.index = null;
    this.others = null;
    this.marks.clear();
    const name = stateNameOf(this.stateDir, state);
    this.notes = new OwnershipNotes(
      dir,
      name,
      (what, err) => this.fail(what, err),
      () => run,
    );
  }

  /** A test run's: it reads what the states hold, and writes nothing that another run would read. */
  get readOnly(): boolean {
    return this.state?.test === true;
  }

  /**
   * Whether the walks of the client's run this process serves showed `id` of `type` (journal-notes.ts);
   * undefined when the run cannot be known or there are no records.
   */
  async thisRun(type: string, id: string): Promise<ThisRun> {
    return this.notes?.thisRun(type, id);
  }

  /** How many objects of `type` this state's notes say it holds (0 with no records). */
  async heldCount(type: string): Promise<number> {
    return (await this.notes?.heldDigests(type))?.length ?? 0;
  }

  /** The state whose records these are (its directory's name). */
  get stateName(): string {
    return this.stateDir;
  }

  /** The state whose records these are, as this run found it. */
  get stateIdentity(): StateIdentity | null {
    return this.state;
  }

  /**
   * What every workspace of this directory noted its state held: the others' read once per process,
   * this one's as this process knows it now (a client may serve its plan and apply walks from one
   * process: what the plan walk noted counts for the apply).
   */
  async allNotes(): Promise<WorkspaceNotes[]> {
    if (!this.dir || !this.notes) return [];
    const dir = this.dir;
    this.others ??= this.notes.flush().then(() => readAllNotes(dirname(dirname(dir)), basename(dir)));
    const others = (await this.others).filter((n) => n.state.dir !== this.stateDir);
    return [...others, await this.notes.current()];
  }

  /**
   * The open records of every other state kept here for this API, read afresh: another state's apply
   * may be creating right now. Nothing here is removed or changed; unreadable ones say nothing.
   */
  async otherRecords(): Promise<OtherRecord[]> {
    if (!this.dir) return [];
    const out: OtherRecord[] = [];
    for (const { entry, dir } of await stateDirs(dirname(dirname(this.dir)), basename(this.dir))) {
      if (dir === this.dir) continue;
      let logs = this.otherLogs.get(dir);
      if (!logs) this.otherLogs.set(dir, (logs = new LogReader()));
      const listing = await listJournal(dir, this.now(), logs).catch(() => null);
      for (const e of listing?.records.values() ?? []) {
        const content = e.content ?? (await readRecord(dir, e.name).catch(() => null));
        if (!content || content.plannedAdoption) continue;
        // Only a request still unanswered is judged by when it was out (engine/creates/create-records.ts mayHaveMade).
        const { aliveAt } = e.idDigest === null ? await processNews(dir, content.process) : { aliveAt: null };
        out.push({
          state: stateNameOf(entry, content),
          type: e.type,
          key: e.key,
          settings: e.settings,
          idDigest: e.idDigest,
          census: content.census,
          sentAt: content.sentAt,
          ...(content.platformOffset === undefined ? {} : { platformOffset: content.platformOffset }),
          aliveAt,
        });
      }
    }
    return out;
  }

  /**
   * The same, with this workspace's notes as they were before this process wrote any: a plan walk
   * notes what it shows in no fixed order, so what it noted so far says nothing a create's plan may
   * go by (its apply, a later process, reads them whole).
   */
  async notesBeforeThisProcess(): Promise<WorkspaceNotes[]> {
    if (!this.dir || !this.notes) return [];
    const mine = await this.notes.atStart();
    return [...(await this.allNotes()).filter((n) => n.state.dir !== this.stateDir), mine];
  }

  /** Where the records are, once configured. */
  get directory(): string | null {
    return this.dir;
  }

  get usable(): boolean {
    return this.dir !== null;
  }

  /** What protection is missing and why, once per process; undefined when nothing went wrong or it was told. */
  takeProblem(): string | undefined {
    if (this.trouble === undefined || this.troubleTold) return undefined;
    this.troubleTold = true;
    return this.trouble;
  }

  /**
   * Digests of the ids of `type` some record answered (of this workspace or another), some recovery took,
   * or the state of a workspace of this directory held (this one's, or another's: never a killed run's to adopt).
   */
  async claimedDigests(type: string): Promise<Set<string>> {
    if (!this.dir) return new Set();
    const index = await this.loadIndex();
    const out = new Set([...(this.marks.get(type) ?? []), ...((await this.notes?.heldDigests(type)) ?? [])]);
    for (const notes of await this.allNotes()) for (const d of heldOfType(notes, type)) out.add(d);
    for (const e of index.ofType(type)) if (e.idDigest) out.add(e.idDigest);
    for (const e of await this.otherRecords()) if (e.type === type && e.idDigest) out.add(e.idDigest);
    return out;
  }

  /** Takes `id` for this process's resource; false when another process took it first. */
  async claim(type: string, id: string): Promise<boolean> {
    if (!this.dir || this.readOnly) return true;
    try {
      await writeFile(join(this.dir, markName(type, digest(id))), '', { flag: 'wx' });
      this.markHeld(type, digest(id));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      this.fail('claim an adopted object', err);
      return true;
    }
  }

  /** Waits for queued writes. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.notes?.flush();
  }

  protected loadIndex(): Promise<RecordIndex> {
    this.index ??= listJournal(this.dir!, this.now(), this.logs).then(
      (listing) => {
        for (const [type, idDigest] of listing.marks) this.markHeld(type, idDigest);
        for (const name of listing.stale) this.track(this.remove(name));
        for (const log of listing.unreadable)
          this.fail(`read every line of the log ${log}`, new Error('a line is no record'));
        return new RecordIndex(listing.records.values());
      },
      (err) => {
        this.fail('read the records of earlier creates', err);
        return new RecordIndex();
      },
    );
    return this.index;
  }

  protected markHeld(type: string, idDigest: string): void {
    let held = this.marks.get(type);
    if (!held) this.marks.set(type, (held = new Set()));
    held.add(idDigest);
  }

  protected async remove(name: string): Promise<void> {
    await unlink(join(this.dir!, name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') this.fail('remove a record', err);
    });
  }

  protected track(work: Promise<unknown>): void {
    const p = work.catch((err) => this.fail('keep its records', err)).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  protected fail(what: string, err: unknown): void {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    const message = err instanceof Error ? err.message : String(err);
    // Node's file errors begin with their code already ("EACCES: permission denied, open '…'").
    const why = code && !message.startsWith(`${code}:`) ? `${code}: ${message}` : message;
    this.trouble ??=
      `The provider could not ${what} in ${this.dir ?? this.place?.root ?? 'its data directory'} (${why}). ` +
      'Until it can, a run killed outright (SIGKILL, a CI timeout, the OOM killer) may leave objects that the ' +
      'next apply cannot recognise as its own; the next plan then names each look-alike it finds, as on a fresh ' +
      'runner.';
  }
}
