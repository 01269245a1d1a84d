/**
 * A process's log of the creates it sent (journal-files.ts names it `l~…` after the process's file):
 * the record of a request is a line appended to it and put on the disk before the request leaves, one
 * flush for every line waiting for it (an apply sends ten creates at a time, and a flush costs as much
 * for ten lines as for one). A line `over` says the record left the log: its answer went to a file of
 * its own (create-journal.ts), or its request was shown to have made nothing. Other processes append
 * that line too, when they take over a killed run's request; a line is one `write` to a file opened
 * for appending, so lines never interleave.
 */
import { appendFileSync, closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A line of a log: a request sent, with its record's own id and contents (a `RecordContent`, which
 * the listing checks: journal-files.ts), or a record gone from the log.
 */
export type LogLine = { readonly rid: string; readonly sent: object } | { readonly over: string };

/** What a log says: the requests still waiting there, by their records' ids. */
export interface LogReading {
  readonly waiting: Map<string, object>;
  /** Lines that are not lines of a log (a machine that went down mid-write leaves one). */
  readonly unreadable: number;
}

const flushToDisk = promisify(fdatasync);

export async function readLog(dir: string, name: string): Promise<LogReading> {
  const text = await readFile(join(dir, name), 'utf8');
  const waiting = new Map<string, object>();
  const over = new Set<string>();
  let unreadable = 0;
  const lines = text.split('\n');
  // The last line is whole only when a newline ends it: its writer may be writing it now.
  lines.pop();
  for (const line of lines) {
    const parsed = parseLine(line);
    if (!parsed) unreadable++;
    else if ('over' in parsed) over.add(parsed.over);
    else waiting.set(parsed.rid, parsed.sent);
  }
  for (const rid of over) waiting.delete(rid);
  return { waiting, unreadable };
}

function parseLine(line: string): LogLine | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.over === 'string') return { over: o.over };
  return typeof o.rid === 'string' && typeof o.sent === 'object' && o.sent !== null
    ? { rid: o.rid, sent: o.sent }
    : undefined;
}

/** Says in another process's log that one of its records left it. */
export function appendOver(dir: string, log: string, rid: string): void {
  appendFileSync(join(dir, log), `${JSON.stringify({ over: rid })}\n`);
}

/** This process's own log, written through one descriptor kept open. */
export class OwnLog {
  private fd: number | null = null;
  private flushing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** The records this process sent that are still in the log, as far as it knows. */
  private readonly waiting = new Set<string>();

  constructor(
    readonly dir: string,
    readonly name: string,
    /** Puts what was written to the descriptor on the disk (a test watches it). */
    private readonly toDisk: (fd: number) => Promise<void> = flushToDisk,
  ) {}

  /** Appends a request's record; resolves once it is on the disk. */
  async sent(rid: string, content: object): Promise<void> {
    this.append({ rid, sent: content });
    this.waiting.add(rid);
    await this.flushed();
  }

  /** A record left the log. Not flushed, as the answer's own file is not: the disk holds the request until then. */
  over(rid: string): void {
    this.append({ over: rid });
    this.waiting.delete(rid);
  }

  /**
   * The process is done with it: removed when no request of it waits there (other processes only ever
   * take requests out of it), else left for the next run.
   */
  async close(): Promise<void> {
    if (this.fd === null) return;
    await this.flushing?.catch(() => undefined);
    closeSync(this.fd);
    this.fd = null;
    const left = this.waiting.size === 0 ? 0 : (await readLog(this.dir, this.name)).waiting.size;
    if (left === 0) await unlink(join(this.dir, this.name));
  }

  private append(line: LogLine): void {
    this.fd ??= openSync(join(this.dir, this.name), 'a');
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  /** A flush under way may have begun before the last line was written: the one after it covers it. */
  private flushed(): Promise<void> {
    if (this.flushing === null) return this.flush();
    this.queued ??= this.flushing
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.flush();
      });
    return this.queued;
  }

  private flush(): Promise<void> {
    const flushing = this.toDisk(this.fd!).finally(() => {
      if (this.flushing === flushing) this.flushing = null;
    });
    this.flushing = flushing;
    return flushing;
  }
}
