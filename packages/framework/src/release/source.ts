/**
 * The source a release is built from, for its manifest: the commit, and whether the tree differs
 * from it. A release built from a tree with changes is still built (one tries a release of one's
 * work before committing it), but its manifest says so, lists the changed files, and the build warns:
 * a release to publish comes from a commit, so that anyone can build the same bytes from it.
 */
import { spawnSync } from 'node:child_process';

export interface SourceState {
  /** HEAD's commit, or null outside a git checkout. */
  readonly commit: string | null;
  /** Whether tracked files differ from it or files git does not ignore were added; null when unknown. */
  readonly dirty: boolean | null;
  /** What `git status` reports, one entry a file (`M src/x.ts`, `?? notes.txt`). */
  readonly changes: readonly string[];
  /** Why there is no commit, when there is none. */
  readonly noCommit?: string;
}

export function sourceState(dir: string): SourceState {
  const git = (args: string[]) => spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
  const head = git(['rev-parse', '--verify', 'HEAD']);
  if (head.error || head.status !== 0) {
    const noCommit = head.error
      ? 'git could not be run here, so no commit can be named'
      : `${dir} is not in a git checkout with a commit, so the release names no source anyone can build again`;
    return { commit: null, dirty: null, changes: [], noCommit };
  }
  const status = git(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (status.status !== 0) return { commit: head.stdout.trim(), dirty: null, changes: [] };
  const changes: string[] = [];
  const fields = status.stdout.split('\0').filter(Boolean);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    changes.push(`${field.slice(0, 2).trim()} ${field.slice(3)}`);
    // A rename or copy is followed by its old path.
    if (field[0] === 'R' || field[0] === 'C') i++;
  }
  changes.sort();
  return { commit: head.stdout.trim(), dirty: changes.length > 0, changes };
}
