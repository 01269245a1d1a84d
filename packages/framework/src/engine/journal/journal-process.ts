/**
 * A journal-writing process's own file (journal-files.ts names it): the records it writes name it,
 * and its mtime says when the process and its host were last alive, so that a later run can tell a
 * record whose writer was killed from one whose writer is still at work.
 */
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { processFileName, writeAtomically } from './journal-files.js';

/** While a process has creates in flight, it says it is alive this often. */
export const HEARTBEAT_MS = 2_000;

/**
 * This process's file in a journal directory, written with its first record: its mtime says when the
 * process and its host were last alive, renewed every HEARTBEAT_MS while a create is in flight, and
 * never once the host is gone.
 */
export class ProcessFile {
  readonly name = processFileName();
  hostAlive = true;
  private written: Promise<string> | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private idle: Array<() => void> = [];

  constructor(
    private readonly now: () => number,
    /** Queues background work (the journal waits for it in `flush`). */
    private readonly track: (work: Promise<unknown>) => void,
  ) {}

  /** Written once, with its mtime at the journal's clock. */
  ensure(dir: string): Promise<string> {
    const at = new Date(this.now());
    this.written ??= Promise.resolve()
      .then(() => writeAtomically(dir, this.name, {}, true))
      .then(() => utimes(join(dir, this.name), at, at))
      .then(() => this.name);
    this.written.catch(() => {
      this.written = null;
    });
    return this.written;
  }

  /** A create began: the process vouches for itself until it finishes. */
  began(dir: string): void {
    this.inFlight++;
    if (this.heartbeat !== undefined || !this.hostAlive) return;
    this.heartbeat = setInterval(() => this.beat(dir), HEARTBEAT_MS).unref();
  }

  finished(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  whenIdle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  /** The host went away (or shut the process down): its liveness is no longer vouched for. */
  stop(hostGone: boolean): void {
    if (hostGone) this.hostAlive = false;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** The host shut the process down: what it was given is its to keep. */
  async end(dir: string): Promise<void> {
    this.stop(false);
    const name = this.written && (await this.written.catch(() => null));
    if (name && this.hostAlive) await writeAtomically(dir, name, { endedAt: this.now() });
  }

  private beat(dir: string): void {
    if (!this.hostAlive || this.inFlight === 0) {
      this.stop(false);
      return;
    }
    const written = this.written;
    if (!written) return;
    const at = new Date(this.now());
    this.track(written.then((name) => utimes(join(dir, name), at, at)).catch(() => undefined));
  }
}
