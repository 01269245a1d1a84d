'use strict';
// Runs a bundled provider (dist/bundle/terraform-provider-<name>.cjs, made by scripts/bundle.mjs)
// with V8's code cache beside it, so start-up skips compiling the bundle. Usage, from the bin/
// wrappers: node start-bundle.cjs <name> [provider arguments]. A missing or stale cache only
// costs time: V8 rejects a cache from another Node version and compiles as usual.
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

const script = compileBundle();
if (process.env.KEEL_WRITE_CODE_CACHE === '1') {
  process.once('exit', () => {
    writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
    renameSync(`${cacheFile}.tmp`, cacheFile);
  });
}
const bundle = new Module(file, module);
bundle.filename = file;
bundle.paths = Module._nodeModulePaths(dirname(file));
script.runInThisContext()(bundle.exports, Module.createRequire(file), bundle, file, dirname(file));

/** Compiles the bundle (a function expression, scripts/bundle.mjs) with its code cache. */
function compileBundle() {
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  let source;
  try {
    // The bundle is ASCII (esbuild's charset: 'ascii'): Latin-1 reads it without UTF-8 decoding.
    source = readFileSync(file, 'latin1');
  } catch (error) {
    process.stderr.write(`terraform-provider-${name}: cannot read ${file} (${error.code}); run \`npm run build\` first\n`);
    process.exit(1);
  }
  const writing = process.env.KEEL_WRITE_CODE_CACHE === '1';
  const filename = (writing && process.env.KEEL_CODE_CACHE_SCRIPT_NAME) || file;
  return new vm.Script(source, { filename, cachedData });
}
