#!/usr/bin/env node
// The fast loop (`npm run test:quick`): builds, then runs the test files that can see what changed
// since the last commit (or since `--since <ref>`), in lanes (scripts/test-run.mjs), leaving out the
// long ones (real clients, the release, the soak: over QUICK_MAX_SECONDS in test/support/test-times.json)
// unless they changed themselves. `npm test` runs everything; CI runs that. A test that applies a page's diffs
// as written runs when the page or a file its diffs touch changed (runsGuide).
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
// A change to some resource types' own pieces (scripts/quick-scope.mjs finds which) narrows that: the
// lifecycle test runs those types alone (LIFECYCLE_TYPES), and a test that sees the change only through an
// executable or a module gathering every type runs when it names one of them and is short.
//
//   npm run test:quick [-- --since origin/main] [-- --list]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { reachedTypes } from './quick-scope.mjs';

const ROOT = join(import.meta.dirname, '..');
const QUICK_MAX_SECONDS = 30;
/**
 * The longest a test may take, by the record, when it sees a change to some types' pieces only because it
 * runs one of them through an executable: what a change to those types asks first is their own tests.
 */
const QUICK_MAX_SECONDS_BY_NAME = 10;
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
const documents = changed.filter((f) => f.endsWith('.md'));
if (sources.length === 0 && examples.length === 0 && documents.length === 0) {
  console.log(
    `test:quick: nothing under src/, packages/framework/src/, test/, scripts/, proto/ or examples/, and no page, changed since ${since}`,
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
/** The modules `file` imports, relative and by the framework's name, static or dynamic with a literal path. */
function importsOf(file) {
  if (imports.has(file)) return imports.get(file);
  const out = [];
  imports.set(file, out);
  const text = textOf(file);
  for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
    out.push(relative(ROOT, resolve(dirname(join(ROOT, file)), m[1])));
  for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*)['"](@keel\/provider-framework[^'"]*)['"]/g))
    if (FRAMEWORK_ENTRIES.has(m[1])) out.push(FRAMEWORK_ENTRIES.get(m[1]));
  return out;
}

/** The executables `file` starts, as the modules they bundle: a test that starts one sees all of it. */
function executablesOf(file) {
  const out = [];
  for (const m of textOf(file).matchAll(/terraform-provider-(sec|vdb)|\b(SEC|VDB)_BIN\b/g)) {
    const name = (m[1] ?? m[2]).toLowerCase();
    out.push(`dist/src/providers/${name}.js`, `dist/src/providers/${name}-service.js`);
  }
  return out;
}

const texts = new Map();
function textOf(file) {
  if (!texts.has(file)) {
    try {
      texts.set(file, readFileSync(join(ROOT, file), 'utf8'));
    } catch {
      texts.set(file, '');
    }
  }
  return texts.get(file);
}

/**
 * Modules that gather every type's pieces: the providers' definitions, their executables' entries, sec's
 * contract, which every derived check reads whole, the clients, which hold every area's API, and the
 * emulators, which serve every type's. A test that reaches a change only through one of them
 * sees a change to one type's pieces when it names that type (below).
 */
const GATHERING =
  /^dist\/src\/((resources|clients)\/(sec|vdb)\/(index|client)|providers\/\w+(-service)?|wire\/sec-contract\/index|emulators\/((sec|vdb)\/index|main|cli))\.js$/;

/**
 * Whether `file` imports a changed module, directly or through others; `everywhere`: through the executables
 * it starts and the gathering modules too.
 */
function reaches(file, everywhere, seen = new Set()) {
  if (changedModules.has(file)) return true;
  if (seen.has(file) || (!everywhere && GATHERING.test(file))) return false;
  seen.add(file);
  const next = everywhere ? [...importsOf(file), ...executablesOf(file)] : importsOf(file);
  return next.some((f) => reaches(f, everywhere, seen));
}

/**
 * The resource types the change reaches (scripts/quick-scope.mjs), when it reaches only some: a test that
 * sees the change only through an executable it starts or a gathering module then runs when it names one
 * of them, and the lifecycle test runs those types alone (LIFECYCLE_TYPES).
 */
const productChanges = sources.filter((f) => !/^(test|scripts)\//.test(f));
/** The numbers of a file's changed lines since `since`, as it is now; undefined for a file git does not know. */
function changedLines(file) {
  if (!git('ls-files', file).length) return undefined;
  const hunks = git('diff', '-U0', since, '--', file).filter((line) => line.startsWith('@@'));
  return hunks.flatMap((hunk) => {
    const [, start, count] = /\+(\d+)(?:,(\d+))? @@/.exec(hunk);
    const n = count === undefined ? 1 : Number(count);
    // A deletion alone names the line after which it happened.
    return n === 0 ? [Number(start)] : Array.from({ length: n }, (_, i) => Number(start) + i);
  });
}
/** The type of an example or an acceptance case (`data_` before a data source's), or undefined for another file. */
const exampleType = (f) =>
  (/^examples\/(?:sec|vdb)\/((?:data_)?(?:sec|vdb)_\w+)\//.exec(f) ??
    /^test\/acceptance\/cases\/(?:sec|vdb)\/((?:data_)?(?:sec|vdb)_\w+)\.json$/.exec(f))?.[1];
/**
 * The types in scope: those the product's change reaches and those whose examples changed; undefined (every
 * type) when either reaches everything, or when tests or scripts changed and the product did not.
 */
function scopeOfChange() {
  if (productChanges.length === 0 && (examples.length === 0 || sources.length > 0)) return undefined;
  const reached = productChanges.length > 0 ? reachedTypes(ROOT, productChanges, changedLines) : new Set();
  const ofExamples = examples.map(exampleType);
  if (reached === undefined || ofExamples.includes(undefined)) return undefined;
  return new Set([...reached, ...ofExamples]);
}
const scope = scopeOfChange();
/**
 * Tests that take the types to run from LIFECYCLE_TYPES, with what each takes whatever the types (an
 * emulator, Terraform's first rounds): the lifecycle properties about 40 s (measured on an idle 2-core
 * machine on 2026-11-28: 37 s for sec's three policy types, 59 s for vdb's cluster and the types beside
 * it), the examples' table about 15 s (16 s for sec's e-mail channel under Terraform and OpenTofu), every
 * argument of the types about 3 s (the emulators and the providers in process), each provider's identity and
 * list table about 5 s (its prerequisites).
 */
const SCOPED_TESTS = new Map([
  ['dist/test/props/lifecycle.test.js', 40],
  ['dist/test/acceptance/examples.test.js', 15],
  ['dist/test/resources/every-argument.test.js', 3],
  ['dist/test/resources/sec/identity-and-lists.test.js', 5],
  ['dist/test/resources/vdb/identity-and-lists.test.js', 5],
]);
/** Whether a test, or a test module it imports, names one of the types in scope. */
function namesScopedType(file, seen = new Set()) {
  if (seen.has(file) || !file.startsWith('dist/test/')) return false;
  seen.add(file);
  const text = textOf(file);
  return [...scope].some((type) => text.includes(type)) || importsOf(file).some((f) => namesScopedType(f, seen));
}
const seesChange = (f) =>
  scope === undefined
    ? reaches(f, true)
    : reaches(f, false) || (reaches(f, true) && (SCOPED_TESTS.has(f) || namesScopedType(f)));

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
/**
 * The changed examples a test may run: a test of one kind of example (`ephemeral-examples.test`) runs those
 * under `examples/<provider>/<kind>/` alone; any other, every example and acceptance case.
 */
function examplesSeenBy(f) {
  const kind = /^([a-z]+)-examples\.test\.js$/.exec(f.split('/').pop())?.[1];
  return kind === undefined
    ? examples
    : examples.filter((e) => e.split('/')[0] === 'examples' && e.split('/')[2] === kind);
}
const seesExamples = (f) => examplesSeenBy(f).length > 0 && readsExamples(f);
/** The examples' own tests (their file is named for them), which run every example: kept even when long. */
const runsExamples = (f) => examplesSeenBy(f).length > 0 && /example/.test(f.split('/').pop()) && readsExamples(f);

/**
 * A test that applies a page's diffs as written (test/docs/add-a-field.test.ts: its text holds a fenced diff
 * and names the page) sees the page, and a change to the lines a hunk of them rests on: a change there can
 * stop the diff applying, where one elsewhere in the file only moves it (git apply finds it moved).
 */
function runsGuide(f) {
  const text = textOf(f);
  if (!text.includes('```diff')) return false;
  const pages = [...text.matchAll(/['"]([\w./-]+\.md)['"]/g)].map((m) => m[1]);
  return pages.some((page) => changed.includes(page) || hunksOf(textOf(page)).some(touchesHunk));
}

/** The hunks of a page's diffs: each file and the lines of it the hunk rests on, as numbered before. */
function hunksOf(page) {
  const hunks = [];
  let file;
  for (const line of page.split('\n')) {
    const target = /^\+\+\+ b\/(\S+)$/.exec(line);
    if (target) file = target[1];
    const hunk = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
    if (hunk && file) hunks.push({ file, from: Number(hunk[1]), to: Number(hunk[1]) + Number(hunk[2] ?? 1) - 1 });
  }
  return hunks;
}

/** Whether a changed line of the hunk's file falls within it (a file git does not know: any change). */
function touchesHunk({ file, from, to }) {
  if (!changed.includes(file)) return false;
  const lines = changedLines(file);
  return lines === undefined || lines.some((n) => n >= from && n <= to);
}

const CONTRACT_SIDES = /^(proto|src\/wire|src\/emulators|src\/resources)\//;
const CONTRACT_TESTS = /^dist\/test\/(props\/lifecycle|.*(api-rules?|contract|openapi)[^/]*)\.test\.js$/;
const contractChanged = sources.some((f) => CONTRACT_SIDES.test(f));
const holdsContracts = (f) => contractChanged && CONTRACT_TESTS.test(f);

const times = JSON.parse(readFileSync(join(ROOT, 'test/support/test-times.json'), 'utf8'));
const tests = readdirSync(join(ROOT, 'dist/test'), { recursive: true })
  .filter((f) => f.endsWith('.test.js'))
  .map((f) => join('dist/test', f))
  .filter((f) => existsSync(join(ROOT, f)) && (seesChange(f) || seesExamples(f) || holdsContracts(f) || runsGuide(f)));
const byNameOnly = (f) => scope !== undefined && !reaches(f, false) && !SCOPED_TESTS.has(f);
const isLong = (f) =>
  (times[f]?.seconds ?? 0) > (byNameOnly(f) ? QUICK_MAX_SECONDS_BY_NAME : QUICK_MAX_SECONDS) &&
  !changedModules.has(f) &&
  !runsExamples(f) &&
  !holdsContracts(f) &&
  !runsGuide(f);
const chosen = tests.filter((f) => !isLong(f));
const left = tests.filter(isLong);

/** A scoped test's share of its recorded time for the types in scope, and what it takes whatever the types. */
const RESOURCE_TYPES = readdirSync(join(ROOT, 'test/acceptance/cases'), { recursive: true, encoding: 'utf8' }).filter(
  (f) => /^(sec|vdb)\/(sec|vdb)_\w+\.json$/.test(f.split('\\').join('/')),
).length;
const secondsOf = (f) =>
  scope && SCOPED_TESTS.has(f)
    ? Math.min(times[f]?.seconds ?? 0, SCOPED_TESTS.get(f) + ((times[f]?.seconds ?? 0) * scope.size) / RESOURCE_TYPES)
    : (times[f]?.seconds ?? 0);
console.log(
  `test:quick: ${sources.length + examples.length + documents.length} changed file(s) since ${since}; ` +
    `${chosen.length} test files can see them, about ${Math.round(chosen.reduce((s, f) => s + secondsOf(f), 0))} s ` +
    'by their recorded times' +
    (scope ? `; the change reaches ${scope.size} resource types: ${[...scope].sort().join(', ')}` : ''),
);
if (left.length > 0)
  console.log(
    `  left out, over ${QUICK_MAX_SECONDS} s each (${QUICK_MAX_SECONDS_BY_NAME} s for a test that only runs a type ` +
      `in scope; npm test runs them): ${left.map((f) => f.slice(10)).join(', ')}`,
  );
if (listOnly) {
  for (const f of chosen) console.log(`  ${f}`);
  process.exit(0);
}
if (chosen.length === 0) process.exit(0);
const run = spawnSync(process.execPath, [join(ROOT, 'scripts/test-run.mjs'), ...chosen], {
  cwd: ROOT,
  stdio: 'inherit',
  env: scope ? { ...process.env, LIFECYCLE_TYPES: [...scope].sort().join(',') } : process.env,
});
process.exit(run.status ?? 1);
