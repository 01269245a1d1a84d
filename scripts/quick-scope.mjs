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
// - an API module of a client (src/clients/<p>/<area>.ts): the types whose modules import it;
// - a module of an emulator (src/emulators/<p>/<module>.ts): the types of the area it serves and of every
//   emulator module importing it (typesOfEmulatorModule); vdb's records (src/emulators/vdb/records.ts):
//   the types naming the messages whose interfaces' lines changed, or every one's when a change is outside them.
//
// Anything else (the framework, a provider's index, rules or shared modules every type uses, an
// emulator's entry, server or shared core, the tests' helpers) reaches what every type runs on: `undefined`, and the quick loop runs
// as if every type changed. So does a piece no type claims.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
  if (/^proto\/vdb\/.*\.proto$/.test(file)) {
    const text = read(root, file);
    const messages = changedMessages(text, changedLines(file)).map((m) => `${protoPackage(text)}.${m}`);
    return typesOfModules(modules, namingModules(modules, quotedNames(messages)));
  }
  // vdb's emulator records, one interface per message: the types naming the messages whose lines changed.
  if (file === 'src/emulators/vdb/records.ts') {
    const names = changedRecords(read(root, file), changedLines(file));
    const messages = protoMessages(root);
    const named = names.map((name) => messages.get(name));
    if (named.includes(undefined)) return undefined;
    return typesOfModules(modules, namingModules(modules, quotedNames(named.flat())));
  }
  const emulator = /^src\/emulators\/(sec|vdb)\/[\w-]+\.ts$/.exec(file);
  if (emulator) return typesOfEmulatorModule(root, file, emulator[1], modules);
  const client = /^src\/clients\/(sec|vdb)\/([\w-]+)\.ts$/.exec(file);
  if (client && !['index', 'client', 'http', 'transport', 'api', 'calls'].includes(client[2]))
    return typesOfModules(modules, [file]);
  return undefined;
}

/** A .proto file's package as the resources name its messages: `cluster.backup.v1` (without `vdb.cloud.`). */
const protoPackage = (text) => /^package vdb\.cloud\.([\w.]+);/m.exec(text)?.[1] ?? '';

/** Modules of an emulator that gather every area (its entry, its server, its context): no one type's. */
const EMULATOR_WIDE = /^src\/emulators\/(sec|vdb)\/(index|emulator|server|context|services|openapi)\.ts$/;

/**
 * The types an emulator module reaches: those of the area it serves and of every module of the emulator
 * importing it (transitively, its entry and server aside). A sec area is the client's module of the same
 * name (src/clients/sec/<area>.ts): the types whose modules import it. A vdb module serves RPCs
 * (`ListBackupSchedules: (request) =>`): the types naming the message each is about (`BackupSchedule`),
 * where each RPC's name says one. A module of neither kind reaches every type.
 */
function typesOfEmulatorModule(root, file, provider, modules) {
  if (EMULATOR_WIDE.test(file)) return undefined;
  const dir = `src/emulators/${provider}`;
  const importers = new Set([file]);
  const emulatorModules = readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${dir}/${name}`)
    .filter((module) => !EMULATOR_WIDE.test(module));
  for (let grew = true; grew; ) {
    grew = false;
    for (const module of emulatorModules) {
      if (importers.has(module)) continue;
      const imports = [...read(root, module).matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => `${dir}/${m[1]}.ts`);
      if (imports.some((i) => importers.has(i))) {
        importers.add(module);
        grew = true;
      }
    }
  }
  const types = new Set();
  for (const module of importers) {
    const reached = provider === 'sec' ? secAreaTypes(root, module, modules) : vdbRpcTypes(root, module, modules);
    if (reached === undefined) return undefined;
    for (const type of reached) types.add(type);
  }
  // A helper that serves no area itself reaches what its importers serve; one that nothing serving imports, all.
  return types.size > 0 ? types : undefined;
}

/** The types of a sec emulator module's area; none for a helper that serves no area of its own. */
function secAreaTypes(root, module, modules) {
  const client = `src/clients/sec/${module.split('/').pop()}`;
  if (!existsSync(join(root, client))) return new Set();
  const types = typesOfModules(modules, [client]);
  return types.size > 0 ? types : undefined;
}

/** The types naming the messages a vdb emulator module's RPCs are about; none for a helper without RPCs. */
function vdbRpcTypes(root, module, modules) {
  const rpcs = [...read(root, module).matchAll(/^\s+([A-Z]\w+): (?:async )?\(request/gm)].map((m) => m[1]);
  if (rpcs.length === 0) return new Set(); // a helper: what its importers serve
  const messages = protoMessages(root);
  const named = rpcs.map((rpc) => {
    const subject = rpc.replace(/^(List|Get|Create|Update|Delete)/, '');
    return messages.get(subject) ?? messages.get(subject.replace(/s$/, ''));
  });
  // An RPC about no message of its own name (`EnableClusterJwtRbac`) could be about any type.
  if (named.includes(undefined)) return undefined;
  const types = typesOfModules(modules, namingModules(modules, quotedNames(named.flat())));
  return types.size > 0 ? types : undefined;
}

/** Every message of vdb's .proto files: its name → its names with their package (`cluster.backup.v1.Backup`). */
function protoMessages(root) {
  const messages = new Map();
  const dir = join(root, 'proto', 'vdb');
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.proto')) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    const pkg = protoPackage(text);
    for (const m of text.matchAll(/^message (\w+) \{/gm))
      messages.set(m[1], [...(messages.get(m[1]) ?? []), `${pkg}.${m[1]}`]);
  }
  return messages;
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

/** The interfaces of a module holding the lines `lines` (every one when one is outside them). */
function changedRecords(text, lines) {
  const spans = [];
  text.split('\n').forEach((line, i) => {
    const opened = /^export interface (\w+) \{/.exec(line);
    if (opened) spans.push({ name: opened[1], from: i + 1, to: Number.POSITIVE_INFINITY });
    else if (line === '}' && spans.length > 0 && spans.at(-1).to === Number.POSITIVE_INFINITY) spans.at(-1).to = i + 1;
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
