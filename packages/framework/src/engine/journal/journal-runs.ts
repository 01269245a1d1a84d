/**
 * The files a client's run keeps beside the records (its state, journal-place.ts; the objects its walks
 * showed, journal-notes.ts): each read by that run alone, and removed once long over, as a new run begins.
 */
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A run's files (its state, the objects its walks showed) are kept this long after their last line: far
 * longer than any run (a plan waiting for approval).
 */
export const RUN_FILE_DAYS = 30;
/**
 * Removes the files of `dir` untouched for `days` but `keep` (a run's own): the lists and files of runs
 * long over, which no run reads but its own. Whatever fails leaves the file for the next run to remove.
 */
export async function removeOlderThan(dir: string, days: number, keep: string): Promise<void> {
  const before = Date.now() - days * 24 * 3600_000;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name === keep) continue;
    const at = await stat(join(dir, name)).then(
      (s) => s.mtimeMs,
      () => Number.POSITIVE_INFINITY,
    );
    if (at < before) await unlink(join(dir, name)).catch(() => undefined);
  }
}
