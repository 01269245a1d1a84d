/**
 * A process's log of the creates it sent (journal-files.ts names it `l~…` after the process's file):
 * a record is lines of it, from its request to its end. The request's line is put on the disk before
 * the request leaves, one flush for every line waiting for it (an apply sends ten creates at a time,
 * and a flush costs as much for ten lines as for one); its answer and its return are lines after it,
 * the last one read winning; a line `over` ends it (a later run showed its object, or its request made
 * nothing). Other processes append too, when they retire a record or take over a killed run's request:
 * a line is one `write` to a file opened for appending, so lines never interleave, and a log only grows.
 */
import { appendFileSync, closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** What an answer adds to a request's record. */
export interface Answer {
  readonly id: string;
  readonly answeredAt: number | null;
  readonly returnedAt: number | null;
}

/**
 * A line of a log: a request sent, with its record's own id and contents (a `RecordContent`, which
 * the listing checks: journal-files.ts), its answer, or the record's end.
 */
export type LogLine =
  | { readonly rid: string; readonly sent: object }
  | { readonly rid: string; readonly answer: Answer }
  | { readonly over: string };

/** What a log says: its records not ended, by their own ids, each with its last answer. */
export interface LogReading {
  readonly records: ReadonlyMap<string, object>;
  /** Lines that are not lines of a log (a machine that went down mid-write leaves one). */
  readonly unreadable: number;
}

const flushToDisk = promisify(fdatasync);

/** How far one log has been read, and what it said. */
interface Progress {
  /** Its first line, read whole: a log made again under the name begins with another (ids are random). */
  readonly head: Buffer;
  offset: number;
  readonly records: Map<string, object>;
  readonly over: Set<string>;
  unreadable: number;
}

/**
 * What this process has read of each log. A log only grows, so reading it again reads what was
 * appended since: a create that recovers a killed run's request lists the directory afresh, and an
 * apply that recovers a thousand would otherwise read a thousand records a thousand times. A record
 * that no line changed keeps its object, so what is made of it can be kept too.
 */
export class LogReader {
  private readonly logs = new Map<string, Progress>();

  async read(dir: string, name: string): Promise<LogReading> {
    const path = join(dir, name);
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      let progress = this.logs.get(path);
      // Removed and made again (a line for a log that had gone): read from its start.
      if (progress && (size < progress.offset || !(await begins(file, progress.head)))) {
        this.logs.delete(path);
        progress = undefined;
      }
      if (size > (progress?.offset ?? 0)) {
        const from = progress?.offset ?? 0;
        const bytes = Buffer.alloc(size - from);
        const { bytesRead } = await file.read(bytes, 0, bytes.length, from);
        // Whole lines only: the last one may be being written now.
        const end = bytes.subarray(0, bytesRead).lastIndexOf(0x0a) + 1;
        if (end > 0) {
          progress ??= {
            head: Buffer.from(bytes.subarray(0, bytes.indexOf(0x0a) + 1)),
            offset: 0,
            records: new Map(),
            over: new Set(),
            unreadable: 0,
          };
          for (const line of bytes.toString('utf8', 0, end - 1).split('\n')) take(progress, line);
          progress.offset += end;
        }
      }
      if (!progress) return { records: new Map(), unreadable: 0 };
      this.logs.set(path, progress);
      return { records: progress.records, unreadable: progress.unreadable };
    } finally {
      await file.close();
    }
  }
}

async function begins(file: FileHandle, head: Buffer): Promise<boolean> {
  const bytes = Buffer.alloc(head.length);
  const { bytesRead } = await file.read(bytes, 0, bytes.length, 0);
  return bytesRead === head.length && bytes.equals(head);
}

function take(progress: Progress, line: string): void {
  const parsed = parseLine(line);
  if (!parsed) progress.unreadable++;
  else if ('over' in parsed) {
    progress.over.add(parsed.over);
    progress.records.delete(parsed.over);
  } else if ('sent' in parsed) {
    if (!progress.over.has(parsed.rid)) progress.records.set(parsed.rid, parsed.sent);
  } else {
    const sent = progress.records.get(parsed.rid);
    if (sent) progress.records.set(parsed.rid, { ...sent, ...parsed.answer });
    else if (!progress.over.has(parsed.rid)) progress.unreadable++;
  }
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
  if (typeof o.rid !== 'string') return undefined;
  if (typeof o.sent === 'object' && o.sent !== null) return { rid: o.rid, sent: o.sent };
  const answer = o.answer as Partial<Answer> | null | undefined;
  if (typeof answer !== 'object' || answer === null || typeof answer.id !== 'string') return undefined;
  const time = (t: unknown) => (typeof t === 'number' ? t : null);
  return {
    rid: o.rid,
    answer: { id: answer.id, answeredAt: time(answer.answeredAt), returnedAt: time(answer.returnedAt) },
  };
}

/** A line for another process's log (a record of it answered, or ended, by this one). */
export function appendLine(dir: string, log: string, line: LogLine): void {
  appendFileSync(join(dir, log), `${JSON.stringify(line)}\n`);
}

/** This process's own log, written through one descriptor kept open. */
export class OwnLog {
  private fd: number | null = null;
  private flushing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** The records this process sent that have not ended, as far as it knows. */
  private readonly open = new Set<string>();

  constructor(
    readonly dir: string,
    readonly name: string,
    /** Puts what was written to the descriptor on the disk (a test watches it). */
    private readonly toDisk: (fd: number) => Promise<void> = flushToDisk,
  ) {}

  /** Appends a request's record; resolves once it is on the disk. */
  async sent(rid: string, content: object): Promise<void> {
    this.append({ rid, sent: content });
    this.open.add(rid);
    await this.flushed();
  }

  /**
   * A line after a request's: its answer, or its end. Not flushed: the machine going down may lose
   * it, and the record is then read as a request still out, judged by its census.
   */
  append(line: LogLine): void {
    this.fd ??= openSync(join(this.dir, this.name), 'a');
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    if ('over' in line) this.open.delete(line.over);
  }

  /**
   * The process is done with it: removed when every record of it ended, else left for the runs that
   * retire them (the listing removes a log whose records all ended once its process did).
   */
  async close(): Promise<void> {
    if (this.fd === null) return;
    await this.flushing?.catch(() => undefined);
    closeSync(this.fd);
    this.fd = null;
    if (this.open.size === 0) await unlink(join(this.dir, this.name));
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
