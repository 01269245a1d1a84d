'use strict';
// Runs a bundled provider (dist/bundle/terraform-provider-<name>.cjs, made by scripts/bundle.mjs)
// with V8's code cache beside it, so start-up skips compiling the bundle. Usage, from the bin/
// wrappers: node start-bundle.cjs <name> [provider arguments]. A missing or stale cache only
// costs time: a cache of another build is not used, V8 rejects one from another Node version or
// other flags, and the bundle is compiled as usual.
//
// With KEEL_WRITE_CODE_CACHE=1 (the build's warm-up run) the cache is written as the process
// exits, when it covers every function the start-up path compiled. V8 keeps the script's name in the
// cache, and stack traces show that name wherever the cache is used, so the release's warm-up names
// the script by its place in the package (KEEL_CODE_CACHE_SCRIPT_NAME) rather than by where it was
// built: the cache is then the same bytes in every build (scripts/release).
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const name = process.argv.splice(2, 1)[0];
const file = join(__dirname, '..', 'dist', 'bundle', `terraform-provider-${name}.cjs`);
const cacheFile = `${file}.cache`;
const BUILD_ID = /^\/\*keel-build:[0-9a-f]{16}\*\//;

const { script, buildId } = compileBundle();
if (process.env.KEEL_WRITE_CODE_CACHE === '1') {
  process.once('exit', () => {
    writeFileSync(`${cacheFile}.tmp`, Buffer.concat([Buffer.from(buildId, 'latin1'), script.createCachedData()]));
    renameSync(`${cacheFile}.tmp`, cacheFile);
  });
}
const bundle = new Module(file, module);
bundle.filename = file;
bundle.paths = Module._nodeModulePaths(dirname(file));
script.runInThisContext()(bundle.exports, Module.createRequire(file), bundle, file, dirname(file));

/**
 * Compiles the bundle (a function expression, scripts/bundle.mjs) with its code cache. The cache
 * opens with the build id of the bundle it was made for (the bundle's first comment): V8 checks only
 * the source's length, so a cache of another build is not handed to it at all.
 */
function compileBundle() {
  let cache;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    cache = undefined;
  }
  let source;
  try {
    // The bundle is ASCII (esbuild's charset: 'ascii'): Latin-1 reads it without UTF-8 decoding.
    source = readFileSync(file, 'latin1');
  } catch (error) {
    process.stderr.write(
      `terraform-provider-${name}: cannot read ${file} (${error.code}); run \`npm run build\` first\n`,
    );
    process.exit(1);
  }
  const buildId = BUILD_ID.exec(source.slice(0, 64))?.[0] ?? '';
  const cachedData =
    buildId && cache && cache.toString('latin1', 0, buildId.length) === buildId
      ? cache.subarray(buildId.length)
      : undefined;
  const writing = process.env.KEEL_WRITE_CODE_CACHE === '1';
  const filename = (writing && process.env.KEEL_CODE_CACHE_SCRIPT_NAME) || file;
  return { script: new vm.Script(source, { filename, cachedData }), buildId };
}
