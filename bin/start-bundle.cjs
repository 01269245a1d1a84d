'use strict';
// Runs a bundled provider (dist/bundle/terraform-provider-<name>.cjs, made by scripts/bundle.mjs)
// with V8's code cache beside it, so start-up skips compiling the bundle. Usage, from the bin/
// wrappers: node start-bundle.cjs <name> [provider arguments]. A missing or stale cache only
// costs time: a cache of another build is not used, V8 rejects one from another Node version or
// other flags, and the bundle is compiled as usual.
//
// A bundle loads another bundle of its folder through this loader, with that one's own code cache,
// by requiring `keel-bundle:<file>`: the provider's start-up bundle loads its service bundle so on the
// first call that needs it (src/providers/serve.ts).
//
// With KEEL_WRITE_CODE_CACHE=1 (the build's warm-up run) the caches of all the provider's bundles are
// written as the process exits, when each covers every function the run compiled. V8 keeps the
// script's name in the cache, and stack traces show that name wherever the cache is used, so the
// release's warm-up names the scripts by their folder in the package (KEEL_CODE_CACHE_SCRIPT_DIR)
// rather than by where they were built: the caches are then the same bytes in every build
// (scripts/release).
const { readFileSync, readdirSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const name = process.argv.splice(2, 1)[0];
const bundleDir = join(__dirname, '..', 'dist', 'bundle');
const BUILD_ID = /^\/\*keel-build:[0-9a-f]{16}\*\//;
const BUNDLE_PREFIX = 'keel-bundle:';
const writing = process.env.KEEL_WRITE_CODE_CACHE === '1';
// With KEEL_CODE_CACHE_REPORT=1 each bundle's cache is reported on stderr as it loads (the release's
// tests check that the runtime each archive carries takes the caches made for it).
const reporting = process.env.KEEL_CODE_CACHE_REPORT === '1';
/** Loaded bundles by file name: their exports, and what writing their caches needs. */
const loaded = new Map();

if (writing) {
  process.once('exit', () => {
    // Every bundle of the provider gets its cache: one the run did not need is loaded now, so its
    // cache covers at least what loading it runs (a release warms up without calling a platform).
    for (const file of readdirSync(bundleDir).sort()) {
      if (file.startsWith(`terraform-provider-${name}-`) && file.endsWith('.cjs') && !loaded.has(file))
        loadBundle(file);
    }
    for (const { file, script, buildId } of loaded.values()) {
      writeFileSync(`${file}.cache.tmp`, Buffer.concat([Buffer.from(buildId, 'latin1'), script.createCachedData()]));
      renameSync(`${file}.cache.tmp`, `${file}.cache`);
    }
  });
}
try {
  loadBundle(`terraform-provider-${name}.cjs`);
} catch (error) {
  if (error.code !== 'KEEL_NO_BUNDLE') throw error;
  process.stderr.write(`terraform-provider-${name}: ${error.message}\n`);
  process.exit(1);
}

/** Runs a bundle of dist/bundle once and returns its exports. */
function loadBundle(fileName) {
  const known = loaded.get(fileName);
  if (known) return known.module.exports;
  const file = join(bundleDir, fileName);
  const { script, buildId } = compileBundle(file, fileName);
  const bundle = new Module(file, module);
  bundle.filename = file;
  bundle.paths = Module._nodeModulePaths(dirname(file));
  loaded.set(fileName, { file, script, buildId, module: bundle });
  const nodeRequire = Module.createRequire(file);
  const require = Object.assign(
    (id) => (id.startsWith(BUNDLE_PREFIX) ? loadBundle(id.slice(BUNDLE_PREFIX.length)) : nodeRequire(id)),
    nodeRequire,
  );
  script.runInThisContext()(bundle.exports, require, bundle, file, dirname(file));
  return bundle.exports;
}

/**
 * Compiles a bundle (a function expression, scripts/bundle.mjs) with its code cache. The cache
 * opens with the build id of the bundle it was made for (the bundle's first comment): V8 checks only
 * the source's length, so a cache of another build is not handed to it at all.
 */
function compileBundle(file, fileName) {
  let cache;
  try {
    cache = readFileSync(`${file}.cache`);
  } catch {
    cache = undefined;
  }
  let source;
  try {
    // The bundle is ASCII (esbuild's charset: 'ascii'): Latin-1 reads it without UTF-8 decoding.
    source = readFileSync(file, 'latin1');
  } catch (error) {
    const missing = new Error(`cannot read ${file} (${error.code}); run \`npm run build\` first`);
    throw Object.assign(missing, { code: 'KEEL_NO_BUNDLE' });
  }
  const buildId = BUILD_ID.exec(source.slice(0, 64))?.[0] ?? '';
  const cachedData =
    buildId && cache && cache.toString('latin1', 0, buildId.length) === buildId
      ? cache.subarray(buildId.length)
      : undefined;
  // Made of the file's name alone: a name sliced from `file` would take the build's path into the cache.
  const scriptDir = writing && process.env.KEEL_CODE_CACHE_SCRIPT_DIR;
  const filename = scriptDir ? `${scriptDir}/${fileName}` : file;
  const script = new vm.Script(source, { filename, cachedData });
  if (reporting) {
    const verdict = cachedData
      ? script.cachedDataRejected
        ? 'rejected by V8'
        : 'accepted'
      : cache
        ? 'made for another build'
        : 'absent';
    process.stderr.write(`keel code cache: ${fileName}: ${verdict}\n`);
  }
  return { script, buildId };
}
