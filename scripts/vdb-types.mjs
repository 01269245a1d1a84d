#!/usr/bin/env node
// The vdb management API's messages and enums as TypeScript, from proto/vdb/** alone: the first step of
// `npm run build` (before tsc), into src/wire/vdb-messages.ts, which git ignores. So a field added to a
// .proto is in the client's types with no second declaration (CONTRIBUTING, "Add a field").
//
// Each message twice, as the client's codec (src/clients/vdb/codec.ts) hands it over and takes it:
// - VdbAnswers: what a decoded answer holds. A scalar or enum field is always there (proto3 gives its
//   zero when unset), a repeated field always an array; a message field, a proto3 `optional` field and
//   a oneof member only when set.
// - VdbSends: what a caller may send. Every field may be left out (the encoder sends nothing for it).
// Field names are the codec's (src/wire/vdb-json-name.ts; test/clients/vdb-types.test.ts holds the two
// to the same names), Timestamp is an RFC 3339 text, Duration `{ seconds, nanos }`, Struct a JSON object.
// Enums: each one's value names in proto order (VDB_ENUMS), a value the type of its names.
//
// Usage: node scripts/vdb-types.mjs [--out <file>] [--proto <dir>]
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import protobuf from 'protobufjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : resolve(process.argv[at + 1]);
};

/** The codec's name for a field (src/wire/vdb-json-name.ts says the same). */
export const jsonName = (field) => field.replace(/_([a-z0-9])/g, (_, letter) => letter.toUpperCase());

/** A message's or enum's name without the API's common prefix: `cluster.v1.Cluster`. */
const shortName = (type) => type.fullName.replace(/^\.vdb\.cloud\./, '');

const JSON_VALUE = 'VdbJson';
const DURATION = 'VdbDuration';
/** The longest line the generated module holds, as for every module of src/ (test/invariants/line-length.test.ts). */
const MAX_LINE = 120;
const WELL_KNOWN = {
  '.google.protobuf.Timestamp': () => 'string',
  '.google.protobuf.Duration': () => DURATION,
  '.google.protobuf.Struct': () => `{ readonly [key: string]: ${JSON_VALUE} }`,
  '.google.protobuf.Empty': () => 'Record<string, never>',
};
const SCALARS = {
  string: 'string',
  bool: 'boolean',
  bytes: 'Uint8Array',
  double: 'number',
  float: 'number',
};

/**
 * proto/vdb/** parsed, imports `vdb/...` resolved against `protoDir`, as src/wire/vdb-proto.ts's
 * loadFromProtoDir does: this runs before the compiler, so it cannot load that module.
 */
export function loadRoot(protoDir) {
  const validateImport = 'buf/validate/validate.proto';
  const root = new protobuf.Root();
  const resolveDefault = protobuf.Root.prototype.resolvePath;
  root.resolvePath = (origin, target) => {
    if (target === validateImport) return validateImport;
    return target.startsWith('vdb/') ? join(protoDir, target) : resolveDefault.call(root, origin, target);
  };
  root.files.push(validateImport);
  root.loadSync(protoFiles(join(protoDir, 'vdb')), { keepCase: true });
  root.resolveAll();
  return root;
}

function protoFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return protoFiles(path);
      return entry.name.endsWith('.proto') ? [path] : [];
    })
    .sort();
}

/** Every message and enum of the API (not google's). */
export function collect(namespace, messages = [], enums = []) {
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) {
      if (nested.fullName.startsWith('.vdb.')) messages.push(nested);
    } else if (nested instanceof protobuf.Enum) {
      if (nested.fullName.startsWith('.vdb.')) enums.push(nested);
      continue;
    }
    if (nested instanceof protobuf.Namespace) collect(nested, messages, enums);
  }
  return { messages, enums };
}

/** The TypeScript type of one value of `field` in `table` (VdbAnswers or VdbSends). */
function valueType(field, table) {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) return `VdbEnum<'${shortName(resolved)}'>`;
  if (resolved instanceof protobuf.Type) {
    const wellKnown = WELL_KNOWN[resolved.fullName];
    if (wellKnown) return wellKnown();
    if (!resolved.fullName.startsWith('.vdb.'))
      throw new Error(`vdb-types: ${field.fullName} is a ${resolved.fullName}`);
    return `${table}['${shortName(resolved)}']`;
  }
  if (field.map) throw new Error(`vdb-types: ${field.fullName} is a map, which the codec does not read`);
  return SCALARS[field.type] ?? 'number';
}

/** Whether a decoded answer always holds `field`: a scalar, an enum or a list, outside any oneof. */
export function alwaysAnswered(field) {
  return field.partOf === null && (field.repeated || !(field.resolvedType instanceof protobuf.Type));
}

function fieldLine(field, table) {
  const type = valueType(field, table);
  const value = field.repeated ? `readonly ${type.includes(' ') ? `(${type})` : type}[]` : type;
  const sometimes = table === 'VdbSends' || !alwaysAnswered(field);
  const line = sometimes
    ? `    readonly ${jsonName(field.name)}?: ${value} | undefined;`
    : `    readonly ${jsonName(field.name)}: ${value};`;
  if (line.length <= MAX_LINE) return line;
  const alternatives = sometimes ? [value, 'undefined'] : [value];
  const name = `${jsonName(field.name)}${sometimes ? '?' : ''}`;
  return `    readonly ${name}:${alternatives.map((a) => `\n      | ${a}`).join('')};`;
}

/** A oneof (not proto3's `optional`): one member set, or none; every other member then undefined. */
function oneofUnion(oneof, table) {
  const members = oneof.fieldsArray;
  const variant = (chosen) =>
    `{\n${members
      .map((m) =>
        m === chosen
          ? `        readonly ${jsonName(m.name)}: ${valueType(m, table)};`
          : `        readonly ${jsonName(m.name)}?: undefined;`,
      )
      .join('\n')}\n      }`;
  return `(\n    | ${[...members.map(variant), variant(undefined)].join('\n    | ')}\n  )`;
}

function messageEntry(message, table) {
  const oneofs = message.oneofsArray.filter(
    (o) => !(o.fieldsArray.length === 1 && o.fieldsArray[0].options?.proto3_optional),
  );
  const inOneof = new Set(oneofs.flatMap((o) => o.fieldsArray));
  const lines = message.fieldsArray.filter((field) => !inOneof.has(field)).map((field) => fieldLine(field, table));
  const body = `{\n${lines.join('\n')}${lines.length ? '\n' : ''}  }`;
  return [body, ...oneofs.map((o) => oneofUnion(o, table))].join(' & ');
}

function messageTable(name, messages, what) {
  const entries = messages.map((message) => `  '${shortName(message)}': ${messageEntry(message, name)};`);
  return `/** ${what} */\nexport interface ${name} {\n${entries.join('\n')}\n}\n`;
}

/** The module's text, from the API's messages and enums. */
export function generate(root) {
  const { messages, enums } = collect(root);
  const byName = (a, b) => shortName(a).localeCompare(shortName(b));
  messages.sort(byName);
  enums.sort(byName);
  const enumEntries = enums.map((e) => {
    const names = Object.entries(e.values)
      .sort((a, b) => a[1] - b[1])
      .map(([name]) => `'${name}'`);
    const line = `  '${shortName(e)}': [${names.join(', ')}],`;
    if (line.length <= MAX_LINE) return line;
    return `  '${shortName(e)}': [\n${names.map((n) => `    ${n},`).join('\n')}\n  ],`;
  });
  return [
    '// Generated by scripts/vdb-types.mjs from proto/vdb/** as the project builds.',
    '// Do not edit; git ignores it.',
    '',
    `/** A JSON value, as a google.protobuf.Struct holds one. */`,
    `export type ${JSON_VALUE} = string | number | boolean | null | ${JSON_VALUE}[] | { [key: string]: ${JSON_VALUE} };`,
    '',
    '/** google.protobuf.Duration, exact: nanos 0–999 999 999, of the same sign as seconds. */',
    `export interface ${DURATION} {\n  readonly seconds: number;\n  readonly nanos: number;\n}`,
    '',
    "/** Each enum's value names, in proto order (UNSPECIFIED first). */",
    `export const VDB_ENUMS = {\n${enumEntries.join('\n')}\n} as const;`,
    '',
    '/** A value of the enum `name`: one of its names. */',
    'export type VdbEnum<Name extends keyof typeof VDB_ENUMS> = (typeof VDB_ENUMS)[Name][number];',
    '',
    messageTable(
      'VdbAnswers',
      messages,
      'Each message as a decoded answer holds it: scalars, enums and lists always; messages,\n' +
        ' * `optional` fields and oneof members when set.',
    ),
    messageTable('VdbSends', messages, 'Each message as a caller may send it: any field may be left out.'),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = option('--out', join(repoRoot, 'src', 'wire', 'vdb-messages.ts'));
  const text = generate(loadRoot(option('--proto', join(repoRoot, 'proto'))));
  let current;
  try {
    current = readFileSync(out, 'utf8');
  } catch {}
  if (current !== text) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
    process.stderr.write(`vdb-types: wrote ${out}\n`);
  }
}
