/**
 * bin/start-bundle.cjs loads a bundle with V8's code cache. V8 checks a cache against its source's
 * length only, so a cache left from another build of the same length would run that build's code;
 * the loader uses a cache only when it opens with the bundle's build id (scripts/bundle.mjs).
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import vm from 'node:vm';

const ROOT = resolve(process.cwd());

/** A bundle of the loader's shape that prints `word`; two words of one length give bundles of one length. */
function bundle(buildId: string, word: string): string {
  return `/*keel-build:${buildId}*/(function (exports, require, module, __filename, __dirname) { process.stdout.write(${JSON.stringify(word)}); })`;
}

describe('the bundle loader and its code cache', () => {
  let dir: string;
  let run: (env?: NodeJS.ProcessEnv) => string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-code-cache-'));
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
    copyFileSync(join(ROOT, 'bin', 'start-bundle.cjs'), join(dir, 'bin', 'start-bundle.cjs'));
    run = (env = {}) =>
      execFileSync(process.execPath, [join(dir, 'bin', 'start-bundle.cjs'), 'probe'], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a new build of the same length as itself, not the code a cache of the old build holds', () => {
    const file = join(dir, 'dist', 'bundle', 'terraform-provider-probe.cjs');
    writeFileSync(file, bundle('aaaaaaaaaaaaaaaa', 'old build'));
    expect(run({ KEEL_WRITE_CODE_CACHE: '1' })).to.equal('old build');
    const cache = readFileSync(`${file}.cache`);
    expect(cache.toString('latin1', 0, 31)).to.equal('/*keel-build:aaaaaaaaaaaaaaaa*/');

    const next = bundle('bbbbbbbbbbbbbbbb', 'new build');
    writeFileSync(file, next);
    // What the loader guards against: V8 itself takes the old cache for the new source and runs the old code.
    const taken = new vm.Script(next, { filename: file, cachedData: cache.subarray(31) });
    expect(taken.cachedDataRejected, 'V8 checks the length only').to.equal(false);
    expect(run()).to.equal('new build');
  });

  // A cache V8 rejects (made by another node, or under other V8 flags, which change V8's flag hash)
  // costs every start the compilation of the whole bundle, silently.
  it('loads a second bundle that the first requires as keel-bundle:<file>, once, each with its own cache', () => {
    const bundleDir = join(dir, 'dist', 'bundle');
    const main = join(bundleDir, 'terraform-provider-probe.cjs');
    const part = join(bundleDir, 'terraform-provider-probe-part.cjs');
    const load = "require('keel-bundle:terraform-provider-probe-part.cjs')";
    writeFileSync(
      main,
      `/*keel-build:cccccccccccccccc*/(function (exports, require, module, __filename, __dirname) { process.stdout.write(${load}.word + (${load} === ${load} ? ' once' : ' twice')); })`,
    );
    writeFileSync(
      part,
      "/*keel-build:dddddddddddddddd*/(function (exports, require, module, __filename, __dirname) { exports.word = 'part'; })",
    );
    expect(run({ KEEL_WRITE_CODE_CACHE: '1' })).to.equal('part once');
    for (const [file, id] of [
      [main, '/*keel-build:cccccccccccccccc*/'],
      [part, '/*keel-build:dddddddddddddddd*/'],
    ] as const) {
      const cache = readFileSync(`${file}.cache`);
      expect(cache.toString('latin1', 0, id.length), file).to.equal(id);
      const script = new vm.Script(readFileSync(file, 'latin1'), {
        filename: file,
        cachedData: cache.subarray(id.length),
      });
      expect(script.cachedDataRejected, file).to.equal(false);
    }
    expect(run()).to.equal('part once');
  });

  it("the build's own bundles open with their build id, and their caches were made for it and are accepted", () => {
    const files = ['sec', 'vdb'].flatMap((name) => [
      `terraform-provider-${name}.cjs`,
      `terraform-provider-${name}-service.cjs`,
      `terraform-provider-${name}-client.cjs`,
    ]);
    for (const name of files) {
      const file = join(ROOT, 'dist', 'bundle', name);
      const source = readFileSync(file, 'latin1');
      const id = /^\/\*keel-build:[0-9a-f]{16}\*\//.exec(source)?.[0];
      expect(id, name).to.be.a('string');
      const cache = readFileSync(`${file}.cache`);
      expect(cache.toString('latin1', 0, id!.length), name).to.equal(id);
      const script = new vm.Script(source, { filename: file, cachedData: cache.subarray(id!.length) });
      expect(script.cachedDataRejected, name).to.equal(false);
    }
  });
});
