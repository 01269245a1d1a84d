/**
 * The create journal on disk (create-journal.ts keeps it; journal-place.ts says where): what its files
 * are named and hold, and how one is written so that a reader sees all of it or none.
 *
 * - `l~<pid>~<start ms>~<chance>`: the log of the process of that file (journal-log.ts): the records of
 *   the creates it sent, from request to end. A process lists the directory and reads the logs.
 * - `r~<type>~<key>~<settings>~<id digest, or sent>~<sent at, base 36>-<writer>.json`: a record in a
 *   file of its own, as written before the logs and by a plan that names an object the apply adopts.
 *   Its name says what finding it needs, so a process reads only what matches; a record in a log is
 *   known by the name it would have.
 * - `t~<type>~<id digest>`: an object a recovery took (created only if absent, which makes the taking
 *   exclusive between processes); earlier releases also marked objects a run showed tracked.
 * - `owned`: the objects this workspace's state held (journal-notes.ts), which every workspace reads.
 * - `p~<pid>~<start ms>~<chance>`: a process that wrote records; its mtime is when it last said that
 *   it and its host were alive, its contents `{"endedAt": …}` once its host shut it down.
 * - `unreadable~<name>`: a record that could not be read, set aside for a person to look at.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fdatasync, fstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LogReader } from './journal-log.js';

/** Records and marks older than this are dropped: a killed run is retried within days, not months. */
export const EXPIRY_MS = 30 * 24 * 3600_000;
/** A temporary file this old was left by a writer that was killed. */
const TEMPORARY_MAX_AGE_MS = 3600_000;

export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A create as the journal files it: its type and the digests of its key and settings. */
export interface CreateEntry {
  readonly type: string;
  readonly key: string;
  readonly settings: string;
}

/** What a record holds: never a value of the configuration. */
export interface RecordContent {
  readonly version: 1;
  readonly provider: string;
  readonly type: string;
  readonly workspace: string;
  /** The digest of the state's backend, and where it keeps the state (journal-place.ts), for messages. */
  readonly backend?: string;
  readonly where?: string;
  /** The client's run that sent it (engine/host/host-view.ts), when it could be known. */
  readonly run?: string;
  /** The API address the request went to (never a credential). */
  readonly api: string;
  readonly key: string;
  readonly settings: string;
  /** Import ids of the objects holding the key before the request was sent. */
  readonly census: readonly string[];
  /** The process file of the process that sent it. */
  readonly process: string;
  readonly sentAt: number;
  /**
   * How far the platform's clock was ahead of the writer's when the request left (wire/platform-clock.ts),
   * where an answer said; `sentAt` and the process's liveness are on the writer's clock.
   */
  readonly platformOffset?: number;
  readonly id: string | null;
  readonly answeredAt: number | null;
  /** When the create's result went back to its caller (null: never, or the process died first). */
  readonly returnedAt: number | null;
  /**
   * Written by a plan of an earlier release under `untracked_objects = "adopt"` (retired): the object the
   * plan said the apply would take over. Read, and never honoured.
   */
  readonly plannedAdoption?: true;
}

/** A record as its name shows it. */
export interface IndexEntry extends CreateEntry {
  readonly name: string;
  readonly rid: string;
  /** Digest of the answered id; null while unanswered. */
  readonly idDigest: string | null;
  /** The log holding it, if a log does, with what the log says of it. */
  readonly log?: string;
  readonly content?: RecordContent;
}

const RECORD = /^r~([a-z0-9_]+)~([0-9a-f]{16})~([0-9a-f]{16})~(sent|[0-9a-f]{16})~(([0-9a-z]+)-[0-9a-z]+)\.json$/;
const MARK = /^t~([a-z0-9_]+)~([0-9a-f]{16})$/;
const PROCESS = /^p~\d+~(\d+)~[0-9a-f]+$/;
const LOG = /^l~\d+~(\d+)~[0-9a-f]+$/;

export function recordName(entry: CreateEntry, idDigest: string | null, rid: string): string {
  return `r~${entry.type}~${entry.key}~${entry.settings}~${idDigest ?? 'sent'}~${rid}.json`;
}

/** A record's own part of its name: when it was sent (base 36), and the writer and chance. */
export function recordId(sentAt: number): string {
  return `${sentAt.toString(36)}-${process.pid.toString(36)}${randomBytes(4).toString('hex')}`;
}

export function markName(type: string, idDigest: string): string {
  return `t~${type}~${idDigest}`;
}

export function processFileName(): string {
  return `p~${process.pid}~${Date.now()}~${randomBytes(3).toString('hex')}`;
}

/** The log of the process whose file is `processFile`, and back. */
export const logName = (processFile: string) => `l${processFile.slice(1)}`;
const ownerOf = (log: string) => `p${log.slice(1)}`;

export function parseRecordName(name: string): IndexEntry | undefined {
  const match = RECORD.exec(name);
  if (!match) return undefined;
  const [, type, key, settings, id, rid] = match as unknown as string[];
  return { type: type!, key: key!, settings: settings!, name, rid: rid!, idDigest: id === 'sent' ? null : id! };
}

/** What a journal directory holds now: records by their own id, marks, and files past their age. */
export interface Listing {
  readonly records: Map<string, IndexEntry>;
  readonly marks: ReadonlyArray<readonly [type: string, idDigest: string]>;
  /** Files to remove: expired, left by a killed writer, a record's older name, or a log done with. */
  readonly stale: readonly string[];
  /** Logs with a line that is no record (a machine that went down mid-write leaves one). */
  readonly unreadable: readonly string[];
}

export async function listJournal(dir: string, now: number, logs: LogReader): Promise<Listing> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { records: new Map(), marks: [], stale: [], unreadable: [] };
    throw err;
  }
  const records = new Map<string, IndexEntry>();
  const marks: Array<[string, string]> = [];
  const stale: string[] = [];
  const logNames: string[] = [];
  for (const name of names) {
    const record = RECORD.exec(name);
    if (!record) {
      const log = LOG.exec(name);
      if (log) {
        if (now - Number(log[1]) > EXPIRY_MS) stale.push(name);
        else logNames.push(name);
        continue;
      }
      // Marks, process files and a killed writer's temporary files are few: their age is their mtime.
      const mark = MARK.exec(name);
      const processFile = PROCESS.exec(name);
      if (processFile && now - Number(processFile[1]) > EXPIRY_MS) stale.push(name);
      else if (mark || name.endsWith('.tmp')) {
        const age = await ageOf(join(dir, name), now);
        if (age !== null && age > (mark ? EXPIRY_MS : TEMPORARY_MAX_AGE_MS)) stale.push(name);
        else if (mark) marks.push([mark[1]!, mark[2]!]);
      }
      continue;
    }
    if (now - Number.parseInt(record[6]!, 36) > EXPIRY_MS) {
      stale.push(name);
      continue;
    }
    const entry = parseRecordName(name)!;
    // A process killed between the rename of an answered record and the removal of its old name
    // leaves both: the answered one wins.
    const held = records.get(entry.rid);
    if (held && held.idDigest !== null && entry.idDigest === null) {
      stale.push(name);
      continue;
    }
    if (held) stale.push(held.name);
    records.set(entry.rid, entry);
  }
  const unreadable: string[] = [];
  for (const log of logNames) await listLog(dir, log, now, logs, { records, stale, unreadable });
  return { records, marks, stale, unreadable };
}

/** A log's records not ended, into the listing; the log itself as stale once they all ended and so did its process. */
async function listLog(
  dir: string,
  log: string,
  now: number,
  logs: LogReader,
  into: { records: Map<string, IndexEntry>; stale: string[]; unreadable: string[] },
): Promise<void> {
  const reading = await logs.read(dir, log).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (!reading) return;
  let unreadable = reading.unreadable;
  let left = 0;
  for (const [rid, record] of reading.records) {
    let entry = listed.get(record);
    if (entry === undefined) listed.set(record, (entry = logEntry(log, rid, record)));
    if (entry === null) unreadable++;
    else if (now - entry.content!.sentAt <= EXPIRY_MS) {
      into.records.set(rid, entry);
      left++;
    }
  }
  if (unreadable > 0) into.unreadable.push(log);
  // Every record ended and its process did: no line will come that is not another record's end.
  if (left === 0 && (await processNews(dir, ownerOf(log))).endedAt !== null) into.stale.push(log);
}

/** A log's record as the index holds it (null: it is no record), made once for each of its contents. */
const listed = new WeakMap<object, IndexEntry | null>();

function logEntry(log: string, rid: string, record: object): IndexEntry | null {
  const content = record as Partial<RecordContent>;
  if (!isRecordContent(content)) return null;
  const entry: CreateEntry = { type: content.type, key: content.key, settings: content.settings };
  const idDigest = content.id === null ? null : digest(content.id);
  return { ...entry, name: recordName(entry, idDigest, rid), rid, idDigest, log, content };
}

async function ageOf(path: string, now: number): Promise<number | null> {
  try {
    return now - (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

/** A record's contents; null when it is gone; throws when it cannot be read as one. */
export async function readRecord(dir: string, name: string, again = true): Promise<RecordContent | null> {
  let text: string;
  try {
    text = await readFile(join(dir, name), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let parsed: Partial<RecordContent> | null;
  try {
    parsed = JSON.parse(text) as Partial<RecordContent> | null;
  } catch (err) {
    // Its writer may be rewriting it in place (rewriteRecord): a moment later it is whole.
    if (!again) throw err;
    await new Promise((resolve) => setTimeout(resolve, REREAD_AFTER_MS));
    return readRecord(dir, name, false);
  }
  if (!isRecordContent(parsed)) throw new Error('it is not a record of this provider');
  return parsed;
}

const REREAD_AFTER_MS = 50;

/** Sets an unreadable record aside: ignored from now on, kept for a person to look at. */
export function setAside(dir: string, name: string): Promise<void> {
  return rename(join(dir, name), join(dir, `unreadable~${name}`)).catch(() => undefined);
}

/** When a process was last seen alive (its file's mtime) and when its host shut it down. */
export async function processNews(
  dir: string,
  file: string,
): Promise<{ aliveAt: number | null; endedAt: number | null }> {
  if (!PROCESS.test(file)) return { aliveAt: null, endedAt: null };
  try {
    const path = join(dir, file);
    const [info, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    const endedAt = (JSON.parse(text || '{}') as { endedAt?: unknown }).endedAt;
    return { aliveAt: info.mtimeMs, endedAt: typeof endedAt === 'number' ? endedAt : null };
  } catch {
    return { aliveAt: null, endedAt: null };
  }
}

/**
 * Written under a temporary name, then renamed into place: readers see all of it or none. `flush`
 * puts it on the disk first, for a record that must outlive the machine going down, not only the
 * process. The file's few system calls are made at once (cheaper than as many trips through the
 * thread pool); the wait for the disk is the thread pool's, so the provider's other calls go on
 * meanwhile (an apply's creates, ten at a time, each waited about a millisecond for it).
 */
export async function writeAtomically(dir: string, name: string, content: unknown, flush = false): Promise<void> {
  const temporary = join(dir, `${name}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(temporary, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    fd = openSync(temporary, 'wx');
  }
  try {
    try {
      writeSync(fd, `${JSON.stringify(content)}\n`);
      if (flush) await flushToDisk(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, join(dir, name));
  } catch (err) {
    // A full disk, or a directory taken away meanwhile: no temporary file is left behind for good.
    try {
      unlinkSync(temporary);
    } catch {}
    throw err;
  }
}

const flushToDisk = promisify(fdatasync);

/**
 * A record's answer and return, written over its contents in place: no new file. A file made costs
 * an inode, and ext4 without a journal (as on this project's CI machines) reads past every inode freed
 * in the last minutes to allocate one: with a file per step and the old name removed, an apply of
 * 1,000 spent about a millisecond of CPU per create in `open`. The contents only grow (an id and times
 * where nulls were); what is shorter is padded with spaces, which JSON ignores, and a reader that
 * catches the write half done reads again (readRecord).
 */
export function rewriteRecord(dir: string, name: string, content: RecordContent): void {
  const fd = openSync(join(dir, name), 'r+');
  try {
    writeSync(fd, `${JSON.stringify(content)}\n`.padEnd(fstatSync(fd).size, ' '), 0);
  } finally {
    closeSync(fd);
  }
}

function isRecordContent(v: Partial<RecordContent> | null): v is RecordContent {
  return (
    v !== null &&
    typeof v === 'object' &&
    v.version === 1 &&
    typeof v.type === 'string' &&
    typeof v.key === 'string' &&
    typeof v.settings === 'string' &&
    Array.isArray(v.census) &&
    v.census.every((id) => typeof id === 'string') &&
    typeof v.sentAt === 'number' &&
    (v.id === null || typeof v.id === 'string') &&
    (v.returnedAt === null || typeof v.returnedAt === 'number') &&
    typeof v.process === 'string'
  );
}
