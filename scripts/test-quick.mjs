#!/usr/bin/env node
// The fast loop (`npm run test:quick`): builds, then runs the test files that can see what changed
// since the last commit (or since `--since <ref>`), in lanes (scripts/test-run.mjs), leaving out the
// long ones (real clients, the release, the soak: over QUICK_MAX_SECONDS in test/support/test-times.json)
// unless they changed themselves. `npm test` runs everything; CI runs that.
//
// What "can see" means: a test file that imports a changed module, directly or through others (the
// compiled ESM imports of dist/, relative and static or dynamic with a literal path), and a test that
// starts a provider executable sees everything that executable bundles (src/providers/<name>.ts and
// what it imports). A change to a test helper selects the tests that import it. A change under
// examples/ or test/acceptance/cases/ selects the tests that read those folders (their text names
// them, or a module they import does); of the long ones, only the examples' own tests
// (test/acceptance/*example*.test.ts): the test that runs a new example is the one its author needs.
//
// The tests that hold the plan and the emulator to the contracts (test/props/lifecycle.test.ts, and every
// test named for api rules, a contract or the published document: test/resources/<p>/api-rules.test.ts,
// test/emulators/sec-openapi.test.ts, …) always run, long or not, when a
// contract (proto/, src/wire/), an emulator (src/emulators/) or a resource (src/resources/) changed:
// the plan and the emulator meet only through the wire, so no import leads from one to the other.
//
//   npm run test:quick [-- --since origin/main] [-- --list]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const QUICK_MAX_SECONDS = 30;
const args = process.argv.slice(2);
const since = args.includes('--since') ? args[args.indexOf('--since') + 1] : 'HEAD';
const listOnly = args.includes('--list');

const git = (...a) => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = [
  ...new Set([...git('diff', '--name-only', since), ...git('ls-files', '--others', '--exclude-standard')]),
];
const sources = changed.filter(
  (f) => /^(src|test|scripts|packages\/framework\/src)\/.*\.ts$/.test(f) || f.startsWith('proto/'),
);
const examples = changed.filter((f) => f.startsWith('examples/') || f.startsWith('test/acceptance/cases/'));
if (sources.length === 0 && examples.length === 0) {
  console.log(
    `test:quick: nothing under src/, packages/framework/src/, test/, scripts/, proto/ or examples/ changed since ${since}`,
  );
  process.exit(0);
}

if (!listOnly) {
  const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** dist/<file>.js for a changed source (proto/ changes reach everything through the built descriptors). */
const compiled = (f) => (f.startsWith('proto/') ? 'dist/src/wire/vdb-proto.js' : `dist/${f.replace(/\.ts$/, '.js')}`);
const changedModules = new Set(sources.map(compiled));

/** The framework's entry points by name (as sec and vdb import it), each the module it is compiled to. */
const FRAMEWORK = JSON.parse(readFileSync(join(ROOT, 'packages/framework/package.json'), 'utf8'));
const FRAMEWORK_ENTRIES = new Map(
  Object.entries(FRAMEWORK.exports)
    .filter(([, target]) => typeof target !== 'string')
    .map(([entry, target]) => [
      `${FRAMEWORK.name}${entry.slice(1)}`,
      target.default.replace(/^\.\/dist\//, 'dist/packages/framework/src/'),
    ]),
);

const imports = new Map();
function importsOf(file) {
  if (imports.has(file)) return imports.get(file);
  const out = [];
  imports.set(file, out);
  let text;
  try {
    text = readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return out;
  }
  for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
    out.push(relative(ROOT, resolve(dirname(join(ROOT, file)), m[1])));
  for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*)['"](@keel\/provider-framework[^'"]*)['"]/g))
    if (FRAMEWORK_ENTRIES.has(m[1])) out.push(FRAMEWORK_ENTRIES.get(m[1]));
  // A test that starts an executable sees all of what it bundles.
  for (const m of text.matchAll(/terraform-provider-(sec|vdb)|\b(SEC|VDB)_BIN\b/g)) {
    const name = (m[1] ?? m[2]).toLowerCase();
    out.push(`dist/src/providers/${name}.js`, `dist/src/providers/${name}-service.js`);
  }
  return out;
}

function reaches(file, seen = new Set()) {
  if (changedModules.has(file)) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  return importsOf(file).some((f) => reaches(f, seen));
}

/** Whether a module, or one it imports, names the examples' or the acceptance cases' folder. */
const EXAMPLE_FOLDERS = /['"`/](examples|cases)['"`/]/;
const readsExamplesMemo = new Map();
function readsExamples(file, seen = new Set()) {
  if (readsExamplesMemo.has(file)) return readsExamplesMemo.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  let text = '';
  try {
    text = readFileSync(join(ROOT, file), 'utf8');
  } catch {}
  const reads = EXAMPLE_FOLDERS.test(text) || importsOf(file).some((f) => readsExamples(f, seen));
  readsExamplesMemo.set(file, reads);
  return reads;
}
const seesExamples = (f) => examples.length > 0 && readsExamples(f);
/** The examples' own tests (their file is named for them), which run every example: kept even when long. */
const runsExamples = (f) => examples.length > 0 && /example/.test(f.split('/').pop()) && readsExamples(f);

const CONTRACT_SIDES = /^(proto|src\/wire|src\/emulators|src\/resources)\//;
const CONTRACT_TESTS = /^dist\/test\/(props\/lifecycle|.*(api-rules?|contract|openapi)[^/]*)\.test\.js$/;
const contractChanged = sources.some((f) => CONTRACT_SIDES.test(f));
const holdsContracts = (f) => contractChanged && CONTRACT_TESTS.test(f);

const times = JSON.parse(readFileSync(join(ROOT, 'test/support/test-times.json'), 'utf8'));
const tests = readdirSync(join(ROOT, 'dist/test'), { recursive: true })
  .filter((f) => f.endsWith('.test.js'))
  .map((f) => join('dist/test', f))
  .filter((f) => existsSync(join(ROOT, f)) && (reaches(f) || seesExamples(f) || holdsContracts(f)));
const isLong = (f) =>
  (times[f]?.seconds ?? 0) > QUICK_MAX_SECONDS && !changedModules.has(f) && !runsExamples(f) && !holdsContracts(f);
const chosen = tests.filter((f) => !isLong(f));
const left = tests.filter(isLong);

console.log(
  `test:quick: ${sources.length + examples.length} changed file(s) since ${since}; ` +
    `${chosen.length} test files can see them`,
);
if (left.length > 0)
  console.log(
    `  left out, over ${QUICK_MAX_SECONDS} s each (npm test runs them): ${left.map((f) => f.slice(10)).join(', ')}`,
  );
if (listOnly) {
  for (const f of chosen) console.log(`  ${f}`);
  process.exit(0);
}
if (chosen.length === 0) process.exit(0);
const run = spawnSync(process.execPath, [join(ROOT, 'scripts/test-run.mjs'), ...chosen], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
