/**
 * The tests' fixtures are in the repository (test/fixtures, named in test/support/fixtures.ts), so
 * `npm test` is complete in a clone with nothing beside it; where the specification is beside the
 * checkout (../shared), the committed copies must still equal it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import {
  FIXTURE,
  FIXTURES_DIR,
  REPO_ROOT,
  SHARED_DIR,
  fixturePath,
  loadAtDeclaration,
  readFixture,
  type FixtureName,
} from '../support/fixtures.js';

const NAMES = Object.keys(FIXTURE) as FixtureName[];

/** Every file under `dir`, as paths relative to it ('/'-separated). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

describe('test fixtures: committed in the repository', () => {
  it('has every fixture the tests name, non-empty', () => {
    const missing = NAMES.filter((n) => !existsSync(fixturePath(n)) || readFixture(n).length === 0);
    expect(missing.map((n) => FIXTURE[n])).to.deep.equal([]);
  });

  it('has them tracked by git, not only present in this working tree', function () {
    if (!existsSync(join(REPO_ROOT, '.git'))) {
      console.warn(`    (${REPO_ROOT} is not a git checkout: whether the fixtures are committed is not checked)`);
      this.skip();
    }
    const tracked = execFileSync('git', ['ls-files', '-z', '--', 'test/fixtures'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    const onDisk = filesUnder(FIXTURES_DIR).map((f) => `test/fixtures/${f}`);
    expect(onDisk.filter((f) => !tracked.includes(f))).to.deep.equal([]);
  });

  it('no test reads the specification beside the checkout except the drift check below', () => {
    const testDir = join(REPO_ROOT, 'test');
    const allowed = ['support/fixtures.ts', 'invariants/fixtures.test.ts'];
    const outside = /\.\.\/shared\b|['"`]\.\.['"`]\s*,\s*['"`]shared['"`]/;
    const offenders = filesUnder(testDir)
      .filter((f) => f.endsWith('.ts') && !allowed.includes(f))
      .flatMap((f) =>
        readFileSync(join(testDir, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (outside.test(line) ? [`test/${f}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders, offenders.join('\n')).to.deep.equal([]);
  });

  it('fails a test, naming the file, when a fixture is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'keel-no-fixtures-'));
    expect(() => readFixture('secSeed', empty)).to.throw(
      `test fixture secSeed is missing: ${join(empty, FIXTURE.secSeed)} is not in this checkout`,
    );
    const loaded = loadAtDeclaration('ctyVectors', JSON.parse, empty);
    expect(loaded.value).to.equal(undefined);
    expect(loaded.error?.message).to.contain(join(empty, FIXTURE.ctyVectors));
  });
});

describe('test fixtures: the same as the specification beside the checkout (../shared)', () => {
  it('holds an exact copy of every file of the folders it copies, and nothing else', function () {
    if (!existsSync(SHARED_DIR)) {
      console.warn(
        `    (the specification is not at ${SHARED_DIR}: the committed fixtures cannot be compared with it ` +
          'here; the tests that read them still run)',
      );
      this.skip();
    }
    // The folders copied are those the fixtures live in (conformance/, seeds/); README.md at the top is ours.
    const folders = [...new Set(Object.values(FIXTURE).map((p) => p.split('/')[0]!))].sort();
    const copies = filesUnder(FIXTURES_DIR).filter((f) => f !== 'README.md');
    const sources = folders.flatMap((folder) =>
      existsSync(join(SHARED_DIR, folder)) ? filesUnder(join(SHARED_DIR, folder)).map((f) => `${folder}/${f}`) : [],
    );
    const problems = [
      ...sources.filter((f) => !copies.includes(f)).map((f) => `../shared/${f} has no copy in test/fixtures/`),
      ...copies.filter((f) => !sources.includes(f)).map((f) => `test/fixtures/${f} has no source in ../shared/`),
      ...copies
        .filter((f) => sources.includes(f))
        .filter((f) => !readFileSync(join(FIXTURES_DIR, f)).equals(readFileSync(join(SHARED_DIR, f))))
        .map((f) => `test/fixtures/${f} differs from ../shared/${f}`),
    ];
    expect(problems, `${problems.join('\n')}\n(test/fixtures/README.md says how to copy them again)`).to.deep.equal([]);
    expect(copies).to.include.members(Object.values(FIXTURE));
  });
});
