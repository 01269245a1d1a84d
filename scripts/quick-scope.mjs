// The resource types a change reaches, for the quick loop (scripts/test-quick.mjs): the tests that run every
// type through real executables (the lifecycle property test, the acceptance tests) then run those types
// only. A change reaches a type when it is one of that type's own pieces:
//
// - a module under src/resources/<p>/: the types it declares (`typeName: '…'`) and those of every module of
//   the provider that imports it, directly or through others;
// - an area of sec's contract (src/wire/sec-contract/<area>.ts): the types whose modules name one of the
//   bodies whose lines changed (`secRules('Policies.limit')`, `apiType: 'EmailUser'`), or any of its bodies
//   when a change is outside them;
// - a .proto file of vdb's API (proto/vdb/**): the types whose modules name one of the messages whose lines
//   changed (`apiRules('cluster.v1.Cluster.name')`), or any of its messages when a change is outside them;
// - an API module of a client (src/clients/<p>/<area>.ts): the types whose modules import it.
//
// Anything else (the framework, a provider's index, rules or shared modules every type uses, the
// emulators, the tests' helpers) reaches what every type runs on: `undefined`, and the quick loop runs
// as if every type changed. So does a piece no type claims.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Modules of a provider every type's module uses: a change to one reaches every type. */
const PROVIDER_WIDE = /^src\/resources\/(sec|vdb)\/(index|rules|rules-unchecked|limits|version)\.ts$/;

/**
 * `undefined`, or the resource types `changed` (paths in the repository) reach; `changedLines(file)` gives
 * the numbers of a file's changed lines as it is now, or undefined for all of them.
 */
export function reachedTypes(root, changed, changedLines = () => undefined) {
  const modules = resourceModules(root);
  const types = new Set();
  for (const file of changed) {
    const reached = typesOf(root, file, modules, changedLines);
    if (reached === undefined || reached.size === 0) return undefined;
    for (const type of reached) types.add(type);
  }
  return types.size > 0 ? types : undefined;
}

function typesOf(root, file, modules, changedLines) {
  const resource = /^src\/resources\/(sec|vdb)\//.exec(file);
  if (resource && !file.startsWith(`src/resources/${resource[1]}/shared`) && !PROVIDER_WIDE.test(file))
    return typesOfModules(modules, [file]);
  const area = /^src\/wire\/sec-contract\/([\w-]+)\.ts$/.exec(file);
  if (area && !['index', 'language', 'json-schema'].includes(area[1])) {
    const bodies = changedBodies(read(root, file), changedLines(file));
    return typesOfModules(modules, namingModules(modules, quotedNames(bodies)));
  }
  const proto = /^proto\/vdb\/.*\/([\w]+)\/(v\d+)\/[\w-]+\.proto$/.exec(file);
  if (proto) {
    const messages = changedMessages(read(root, file), changedLines(file)).map((m) => `${proto[1]}.${proto[2]}.${m}`);
    return typesOfModules(modules, namingModules(modules, quotedNames(messages)));
  }
  const client = /^src\/clients\/(sec|vdb)\/([\w-]+)\.ts$/.exec(file);
  if (client && !['index', 'client', 'http', 'transport', 'api', 'calls'].includes(client[2]))
    return typesOfModules(modules, [file]);
  return undefined;
}

/**
 * The bodies of an area of sec's contract holding the lines `lines` (every body when one is outside them):
 * a body is an entry of a table at two spaces (`  EmailUser: field.object({`, `  Tracker: tracker,`),
 * from its line to the next line at that indentation or less.
 */
function changedBodies(text, lines) {
  const spans = [];
  text.split('\n').forEach((line, i) => {
    const opened = /^ {2}'?([A-Z]\w*(?::[\w[\]]+)?)'?: /.exec(line);
    if (/^ {0,2}\S/.test(line) && spans.length > 0 && spans.at(-1).to === Number.POSITIVE_INFINITY) spans.at(-1).to = i;
    if (opened) spans.push({ name: opened[1], from: i + 1, to: Number.POSITIVE_INFINITY });
  });
  return namesHolding(spans, lines);
}

/** The top-level messages of a .proto file holding the lines `lines` (every message when one is outside them). */
function changedMessages(text, lines) {
  const spans = [];
  text.split('\n').forEach((line, i) => {
    const opened = /^message (\w+) \{(\s*\})?/.exec(line);
    if (opened) spans.push({ name: opened[1], from: i + 1, to: opened[2] ? i + 1 : Number.POSITIVE_INFINITY });
    else if (line === '}' && spans.length > 0) spans.at(-1).to = i + 1;
  });
  return namesHolding(spans, lines);
}

/** The names of the spans holding the lines `lines`; every span's when a line is outside them, or lines is undefined. */
function namesHolding(spans, lines) {
  const holding = (n) => spans.find((span) => span.from <= n && n <= span.to)?.name;
  const names = lines?.map(holding);
  return names === undefined || names.includes(undefined) ? spans.map((span) => span.name) : [...new Set(names)];
}

/** Every module of both providers' resources: its text and the repository paths it imports. */
function resourceModules(root) {
  const modules = new Map();
  for (const provider of ['sec', 'vdb']) {
    const dir = join(root, 'src', 'resources', provider);
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts')) continue;
      const file = relative(root, join(dir, name)).split('\\').join('/');
      const text = read(root, file);
      const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) =>
        relative(root, resolve(dirname(join(root, file)), m[1]))
          .split('\\')
          .join('/')
          .replace(/\.js$/, '.ts'),
      );
      modules.set(file, { text, imports });
    }
  }
  return modules;
}

/** The modules whose text holds one of `needles` (a provider-wide module names them only as examples). */
const namingModules = (modules, needles) =>
  [...modules]
    .filter(([file, m]) => !PROVIDER_WIDE.test(file) && needles.some((needle) => m.text.includes(needle)))
    .map(([file]) => file);

/** How a module names a body or a message: quoted, alone or before a field (`'Policies.limit'`). */
const quotedNames = (names) => names.flatMap((name) => [`'${name}'`, `'${name}.`, `'${name}[`]);

/** The types the modules `files` declare, and those of every module importing one of them, transitively. */
function typesOfModules(modules, files) {
  const reached = new Set(files);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, m] of modules)
      if (!reached.has(file) && !PROVIDER_WIDE.test(file) && m.imports.some((i) => reached.has(i))) {
        reached.add(file);
        grew = true;
      }
  }
  const types = new Set();
  for (const file of reached)
    for (const m of (modules.get(file)?.text ?? read('.', file)).matchAll(/typeName: '((?:sec|vdb)_\w+)'/g))
      types.add(m[1]);
  return types;
}

function read(root, file) {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return '';
  }
}
