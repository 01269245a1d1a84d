/**
 * Whose objects the states of a directory hold (docs/decisions.md, "Whose object is it"). Beside each
 * workspace's records (a Terraform workspace, a Pulumi stack; per API), the file `owned` notes the
 * objects that workspace's state held, in lines appended as it learns of them:
 *
 *   s <state, as JSON>       the first line: whose notes these are (its workspace, and where its
 *                            backend keeps it: journal-place.ts)
 *   h <type> <id digest>     its state held the object: a plan or a read showed it, an import took it,
 *                            or a create's result was handed over (its walk ended; Pulumi at once)
 *   g <type> <id digest>     the object is gone: destroyed, or a read found it gone
 *
 * The last line of an object wins. A line is one write to a file opened for appending, so the
 * processes of one workspace (walks, runs side by side) lose and tear nothing. Every workspace of the
 * directory reads every other's notes: an object one of them holds is that workspace's, never another's
 * look-alike to refuse or take over (engine/creates/create-lookalikes.ts).
 *
 * Beside them, `runs/<run>` lists the objects the walks of one run of the client showed (every provider
 * process of one `terraform apply` serves the same run: its plan walk and its apply walk), a line each:
 *
 *   <type> <id digest>     a walk read it from the platform, planned it, or its create was handed over
 *   s <type> <id digest>   a walk took it from the state (an upgrade)
 *
 * An object the notes name but this run's plan walk did not show is no longer in the state: `terraform
 * state rm`, or a workspace deleted and made again. One it only took from the state is one the plan
 * forgets (a `removed` block), where the client reads every other (engine/creates/state-holdings.ts).
 * A run's list is read only by that run; lists untouched for RUN_FILE_DAYS (journal-runs.ts) are removed
 * when a new run begins its own.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { digest } from './journal-files.js';
import { removeOlderThan, RUN_FILE_DAYS } from './journal-runs.js';
import { isStateDirName, type StateIdentity } from './journal-place.js';

export const NOTES_FILE = 'owned';
const RUNS_DIR = 'runs';

type Key = string;
const keyOf = (type: string, idDigest: string): Key => `${type} ${idDigest}`;

/**
 * What the walks of this run did with an object of its state: read, planned or made it (`shown`), only
 * took it from the state (`stored`), or nothing (`unseen`); undefined when the run is not known.
 */
export type ThisRun = 'shown' | 'stored' | 'unseen' | undefined;

/** A state of the records' directory, as its directory and its notes name it. */
export interface StateName {
  /** Its directory's name (journal-place.ts stateDirName): which state, exactly. */
  readonly dir: string;
  readonly workspace: string;
  /** Its backend's digest. */
  readonly backend: string;
  /** Where its backend keeps it, for messages. */
  readonly where: string;
}

/**
 * A state as a message names it to a run of `mine`: its workspace (`word`, as the client calls one: a
 * Pulumi stack), and its backend where that is another.
 */
export function stateLabel(state: StateName, mine: StateIdentity, word = 'workspace'): string {
  const workspace = `${word} "${state.workspace}"`;
  return state.backend === mine.backend ? workspace : `${workspace} of ${state.where}`;
}

/** The state a directory of the records is for, by its name (and its notes' first line, when read). */
export function stateNameOf(
  dir: string,
  header?: { workspace?: unknown; backend?: unknown; where?: unknown },
): StateName {
  const text = (v: unknown, otherwise: string) => (typeof v === 'string' && v !== '' ? v : otherwise);
  return {
    dir,
    workspace: text(header?.workspace, dir.slice(0, dir.lastIndexOf('~'))),
    backend: text(header?.backend, ''),
    where: text(header?.where, 'another backend configuration'),
  };
}

/** What one state's notes say: the objects it holds, by type and id digest. */
export interface WorkspaceNotes {
  readonly state: StateName;
  readonly held: ReadonlySet<Key>;
  /** Every object its notes name, held or gone since: objects its state held at some time. */
  readonly named: ReadonlySet<Key>;
}

/** This workspace's notes, as this process adds to them. */
export class OwnershipNotes {
  private known: Map<Key, boolean> | null = null;
  /** What the notes held before this process wrote any (the order of a walk's calls never shows in it). */
  private initial: WorkspaceNotes | null = null;
  /** Whether the file names its workspace already (its first line). */
  private named = false;
  private queue: Array<{ key: Key; held: boolean }> = [];
  private writing: Promise<void> | null = null;
  /** What this process noted its run's walks showed (run list lines), written or queued. */
  private readonly shown = new Set<string>();
  private shownQueue: string[] = [];
  private runListBegun = false;

  constructor(
    private readonly dir: string,
    private readonly state: StateName,
    private readonly fail: (what: string, err: unknown) => void,
    /** The client's run this process serves (engine/host/host-view.ts), if it can be known; asked once, when needed. */
    private readonly runOf: () => string | undefined = () => undefined,
  ) {}

  private runAsked = false;
  private runId: string | undefined;

  private get run(): string | undefined {
    if (!this.runAsked) {
      this.runAsked = true;
      this.runId = this.runOf();
    }
    return this.runId;
  }

  /**
   * The state of this workspace holds the object `id` of `type` (or, `held` false, it is gone); `stored`:
   * the walk only took it from the state, without reading it from the platform or planning it.
   */
  note(type: string, id: string, held: boolean, stored = false): void {
    const key = keyOf(type, digest(id));
    this.queue.push({ key, held });
    const line = stored ? `s ${key}` : key;
    if (held && this.run !== undefined && !this.shown.has(line)) {
      this.shown.add(line);
      this.shownQueue.push(line);
    }
    this.writing ??= Promise.resolve().then(() => this.write());
  }

  /** What the walks of this run (any process of it: its list, or this process's queue) did with `id` of `type`. */
  async thisRun(type: string, id: string): Promise<ThisRun> {
    if (this.run === undefined) return undefined;
    const key = keyOf(type, digest(id));
    if (this.shown.has(key)) return 'shown';
    await this.flush();
    const text = await readFile(join(this.dir, RUNS_DIR, this.run), 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') this.fail("read which objects this run's walks showed", err);
      return '';
    });
    const lines = text.split('\n');
    if (lines.includes(key)) return 'shown';
    return lines.includes(`s ${key}`) ? 'stored' : 'unseen';
  }

  /** Resolves once every note so far is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** The digests of the ids of `type` this workspace's state held, written and queued alike. */
  async heldDigests(type: string): Promise<string[]> {
    await this.flush();
    return heldOfType(notesOf(this.state, await this.load()), type);
  }

  private async load(): Promise<Map<Key, boolean>> {
    if (this.known) return this.known;
    const known = new Map<Key, boolean>();
    const notes = await readNotes(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') this.fail('read which objects its state held', err);
      return null;
    });
    for (const [key, held] of notes?.lines ?? []) known.set(key, held);
    this.named ||= notes?.header !== undefined;
    this.initial ??= notesOf(this.state, known);
    this.known ??= known;
    return this.known;
  }

  /** This workspace's notes as this process knows them now: the file when first read, and what it noted since. */
  async current(): Promise<WorkspaceNotes> {
    const known = new Map(await this.load());
    // What is queued counts too: a walk's last notes may still be on their way to the file.
    for (const { key, held } of this.queue) known.set(key, held);
    return notesOf(this.state, known);
  }

  /** This workspace's notes as they were before this process wrote any. */
  async atStart(): Promise<WorkspaceNotes> {
    await this.load();
    return this.initial!;
  }

  private async write(): Promise<void> {
    try {
      const known = await this.load();
      const lines: string[] = [];
      for (const { key, held } of this.queue.splice(0)) {
        if ((known.get(key) ?? false) === held) continue;
        known.set(key, held);
        lines.push(`${held ? 'h' : 'g'} ${key}\n`);
      }
      if (lines.length > 0) {
        const { workspace, backend, where } = this.state;
        const head = this.named ? '' : `s ${JSON.stringify({ workspace, backend, where })}\n`;
        appendTo(this.dir, NOTES_FILE, head + lines.join(''));
        this.named = true;
      }
    } catch (err) {
      this.fail('note which objects its state holds', err);
    }
    const shown = this.shownQueue.splice(0);
    try {
      if (shown.length > 0 && this.run !== undefined) {
        // The lists of runs long over (none is read but by its own run) go as a new run's list begins.
        if (!this.runListBegun) await removeOlderThan(join(this.dir, RUNS_DIR), RUN_FILE_DAYS, this.run);
        this.runListBegun = true;
        appendTo(join(this.dir, RUNS_DIR), this.run, shown.map((key) => `${key}\n`).join(''));
      }
    } catch (err) {
      this.fail("note which objects this run's walks showed", err);
    } finally {
      const more = this.queue.length > 0 || this.shownQueue.length > 0;
      this.writing = more ? Promise.resolve().then(() => this.write()) : null;
    }
  }
}

/**
 * Appends to a file of the notes, making its directory on a fresh runner. At once, as the create
 * records' log is written (journal-log.ts): a few lines to a file cost less CPU than the promise API's
 * three trips to libuv's pool (open, write, close), which a walk of 200 objects made about 80 times.
 */
function appendTo(dir: string, file: string, text: string): void {
  try {
    appendFileSync(join(dir, file), text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, file), text);
  }
}

type Header = { workspace?: unknown; backend?: unknown; where?: unknown };

/** A notes file's lines in order (an object's last line wins), and whose they are. */
async function readNotes(dir: string): Promise<{ header: Header | undefined; lines: Array<[Key, boolean]> }> {
  const text = await readFile(join(dir, NOTES_FILE), 'utf8');
  let header: Header | undefined;
  const lines: Array<[Key, boolean]> = [];
  for (const line of text.split('\n')) {
    const match = /^([hg]) ([a-z0-9_]+) ([0-9a-f]{16})$/.exec(line);
    if (match) lines.push([keyOf(match[2]!, match[3]!), match[1] === 'h']);
    else if (line.startsWith('s ')) {
      try {
        const named = JSON.parse(line.slice(2)) as unknown;
        if (typeof named === 'object' && named !== null) header = named as Header;
      } catch {}
    }
    // Anything else (a line cut short by a machine going down) says nothing.
  }
  return { header, lines };
}

/**
 * The notes of every state under `providerDir` for the API whose digest is `api`: the states'
 * directories side by side (`<providerDir>/<state>/<api>/owned`). Unreadable ones say nothing.
 */
export async function readAllNotes(providerDir: string, api: string): Promise<WorkspaceNotes[]> {
  const out: WorkspaceNotes[] = [];
  for (const { entry, dir } of await stateDirs(providerDir, api)) {
    const notes = await readNotes(dir).catch(() => null);
    if (!notes) continue;
    out.push(notesOf(stateNameOf(entry, notes.header), new Map(notes.lines)));
  }
  return out;
}

/**
 * The directory of each state under `providerDir` for the API whose digest is `api`
 * (`<providerDir>/<state>/<api>`), by its entry's name; none when it cannot be listed. Directories of
 * earlier releases, kept per workspace whatever the backend, are not read: they cannot tell states apart.
 */
export async function stateDirs(providerDir: string, api: string): Promise<{ entry: string; dir: string }[]> {
  try {
    return (await readdir(providerDir))
      .filter(isStateDirName)
      .map((entry) => ({ entry, dir: join(providerDir, entry, api) }));
  } catch {
    return [];
  }
}

/** A state's notes from what each object's last line says (held or gone). */
function notesOf(state: StateName, known: ReadonlyMap<Key, boolean>): WorkspaceNotes {
  return {
    state,
    held: new Set([...known].filter(([, held]) => held).map(([key]) => key)),
    named: new Set(known.keys()),
  };
}

/** Whether `notes` name `id` of `type` at all: its state held it, now or before it was destroyed. */
export function notesName(notes: WorkspaceNotes, type: string, id: string): boolean {
  return notes.named.has(keyOf(type, digest(id)));
}

/** Whether `notes` say a state holds `id` of `type`. */
export function notesHold(notes: WorkspaceNotes, type: string, id: string): boolean {
  return notes.held.has(keyOf(type, digest(id)));
}

/** The digests of the ids of `type` that `notes` say a state holds. */
export function heldOfType(notes: WorkspaceNotes, type: string): string[] {
  const prefix = `${type} `;
  return [...notes.held].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
}
