/**
 * What a release's manifest says of its source: the commit, and whether the tree it was built from
 * differs from it (the build goes on, and says so).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceState } from '../../packages/framework/src/release/source.js';

describe('release source: the commit and whether the tree differs from it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-source-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
    expect(result.status, result.stderr).to.equal(0);
    return result.stdout.trim();
  };

  it('outside a git checkout: no commit, cleanliness unknown, and why', () => {
    expect(sourceState(dir)).to.deep.equal({
      commit: null,
      dirty: null,
      changes: [],
      noCommit: `${dir} is not in a git checkout with a commit, so the release names no source anyone can build again`,
    });
  });

  it('a clean checkout: its commit; then every kind of change, listed by file', () => {
    git('init', '-q');
    writeFileSync(join(dir, '.gitignore'), 'dist/\n');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'one');
    const commit = git('rev-parse', 'HEAD');
    expect(sourceState(dir)).to.deep.equal({ commit, dirty: false, changes: [] });

    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'ignored.js'), 'built\n');
    expect(sourceState(dir).dirty, 'ignored build output is no change').to.equal(false);

    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    writeFileSync(join(dir, 'new.txt'), 'new\n');
    git('mv', 'b.txt', 'c.txt');
    expect(sourceState(dir)).to.deep.equal({ commit, dirty: true, changes: ['?? new.txt', 'M a.txt', 'R c.txt'] });
  });
});
