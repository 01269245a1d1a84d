/**
 * The create records a provider left on disk, read from the format src/engine/journal-files.ts and
 * journal-log.ts document, not through the provider's own reader: answered records, a file each, and
 * requests still waiting in the processes' logs (a `sent` line no `over` line followed), named as the
 * provider names them (`r~<type>~<key>~<settings>~sent~<id>.json`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface RecordOnDisk {
  readonly name: string;
  /** The file's contents, or the log's line. */
  readonly text: string;
  /** The log holding it, while it waits in one. */
  readonly log?: string;
}

/** The records of one journal directory (one API's), sorted by name. */
export function recordsIn(dir: string): RecordOnDisk[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: RecordOnDisk[] = [];
  for (const name of names) {
    if (name.startsWith('r~') && name.endsWith('.json'))
      out.push({ name, text: readFileSync(join(dir, name), 'utf8') });
    if (name.startsWith('l~')) out.push(...waitingIn(dir, name));
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The records of every journal directory under `root` (a `keel-creates` or a provider's directory in it). */
export function recordsUnder(root: string): RecordOnDisk[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .flatMap((name) => (statSync(join(root, name)).isDirectory() ? recordsUnder(join(root, name)) : []))
    .concat(recordsIn(root));
}

function waitingIn(dir: string, log: string): RecordOnDisk[] {
  const lines = readFileSync(join(dir, log), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const over = new Set(lines.map((line) => JSON.parse(line) as { over?: string }).flatMap((l) => l.over ?? []));
  return lines.flatMap((text) => {
    const line = JSON.parse(text) as { rid?: string; sent?: { type: string; key: string; settings: string } };
    if (!line.rid || !line.sent || over.has(line.rid)) return [];
    const { type, key, settings } = line.sent;
    return [{ name: `r~${type}~${key}~${settings}~sent~${line.rid}.json`, text, log }];
  });
}
