/**
 * The create records a provider left on disk, read from the format
 * packages/framework/src/engine/journal/journal-files.ts and
 * journal-log.ts document, not through the provider's own reader: the records of the processes' logs
 * (a `sent` line, its last `answer` line if any, and no `over` line for it), named as the provider
 * names them (`r~<type>~<key>~<settings>~<id digest, or sent>~<id>.json`), and records in files of
 * their own.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface RecordOnDisk {
  readonly name: string;
  /** The record's contents, its answer merged in. */
  readonly content: Record<string, unknown>;
  /** The file's text, or the log's lines of it. */
  readonly text: string;
  /** The log holding it, if a log does. */
  readonly log?: string;
}

/** The records of one journal directory (one API's), sorted by name. */
export function recordsIn(dir: string): RecordOnDisk[] {
  const out: RecordOnDisk[] = [];
  for (const name of namesIn(dir)) {
    if (name.startsWith('r~') && name.endsWith('.json')) {
      const text = readFileSync(join(dir, name), 'utf8');
      out.push({ name, text, content: JSON.parse(text) });
    }
    if (name.startsWith('l~')) out.push(...recordsOfLog(dir, name));
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The records of every journal directory under `root` (a `keel-creates` or a provider's directory in it). */
export function recordsUnder(root: string): RecordOnDisk[] {
  return namesIn(root)
    .flatMap((name) => (statSync(join(root, name)).isDirectory() ? recordsUnder(join(root, name)) : []))
    .concat(recordsIn(root));
}

/** The names in a directory; none when there is no directory (no journal was written). */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

type Line = { rid?: string; sent?: Record<string, unknown>; answer?: Record<string, unknown>; over?: string };

function recordsOfLog(dir: string, log: string): RecordOnDisk[] {
  const texts = readFileSync(join(dir, log), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const lines = texts.map((text) => JSON.parse(text) as Line);
  const over = new Set(lines.flatMap((l) => l.over ?? []));
  return lines.flatMap((line) => {
    if (!line.rid || !line.sent || over.has(line.rid)) return [];
    const mine = texts.filter((_, i) => lines[i]!.rid === line.rid);
    const answers = lines.filter((l) => l.rid === line.rid && l.answer).map((l) => l.answer!);
    const content = { ...line.sent, ...answers.at(-1) };
    const { type, key, settings, id } = content as { type: string; key: string; settings: string; id: string | null };
    const answer = id === null ? 'sent' : createHash('sha256').update(id).digest('hex').slice(0, 16);
    return [{ name: `r~${type}~${key}~${settings}~${answer}~${line.rid}.json`, content, text: mine.join('\n'), log }];
  });
}
