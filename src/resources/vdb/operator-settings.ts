/**
 * The hybrid environment's `advanced_operator_settings`
 * (docs/api/vdb.md, "Hybrid environment fields"): YAML text that the API takes as a protobuf
 * Struct. The `yaml` package parses and prints it; this module chooses its options and turns its
 * document into Struct data, refusing what a Struct cannot hold or the text does not say plainly,
 * each with the line and column:
 * - YAML 1.2 and its core schema, nothing else: no custom or YAML 1.1 tags (`!!binary`,
 *   `!!timestamp`, `!foo`), no `%YAML 1.1` document (whose `yes` would mean true); one document.
 * - Keys are strings, as in a Struct: a scalar key is the text written (`1: a` is the key "1"); a
 *   collection or alias as a key, a duplicate key and a merge key (`<<`, which YAML 1.2 does not
 *   merge but YAML 1.1 tools do) are refused. Any string is a key: `__proto__`, `constructor`, "".
 * - Anchors and aliases are expanded, as copies, up to ALIAS_EXPANSION_LIMIT values in all (an
 *   "alias bomb" of nested aliases otherwise grows exponentially); an alias inside its own anchor is
 *   refused. Nesting is bounded (MAX_DEPTH) by what the vdb client can decode back, and measured
 *   before the library's recursive composition sees it.
 * - Numbers are float64, finite; an integer a float64 cannot hold exactly (2^53 + 1) is refused
 *   rather than rounded silently. Strings are well-formed Unicode (a lone surrogate is not).
 * Two texts are the same setting when their data are equal (key order, layout, comments and quoting
 * are not a change), so a configuration keeps the text as written; the platform's value is printed
 * (after an import or a change made elsewhere) with sorted keys, quoting whatever a YAML 1.1 reader
 * would take for something else.
 */
import type { JsonValue } from '../../clients/vdb/api.js';
import { setEntry } from '@keel/provider-framework';
import { yamlLibrary } from './yaml-library.js';
import type {
  Alias,
  CST,
  Document,
  DocumentOptions,
  Node as YamlNode,
  ParseOptions,
  Scalar,
  SchemaOptions,
} from 'yaml';

/** A YAML text that cannot be operator settings; the message names the line and column. */
export class SettingsYamlError extends Error {
  override readonly name = 'SettingsYamlError';
}

export type SettingsObject = { [key: string]: JsonValue };

/** Values that aliases may add in all, however they nest. */
export const ALIAS_EXPANSION_LIMIT = 10_000;
/**
 * Mappings and lists inside one another, at most. The vdb client encodes and decodes with
 * protobufjs, which stops at 100 nested messages: each level here is two (Struct, Value) below the
 * environment's own, so 49 levels reach the platform and 50 do not; 32 leaves room.
 */
export const MAX_DEPTH = 32;

const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.2',
  schema: 'core',
  customTags: [],
  // !!binary, !!timestamp, !!set and the like would become Uint8Array, Date, Set: not Struct data.
  resolveKnownTags: false,
  merge: false,
  stringKeys: true,
  uniqueKeys: true,
  strict: true,
  intAsBigInt: false,
  prettyErrors: false,
  // Warnings become errors here and are not written to stderr ('silent' would also drop MULTIPLE_DOCS).
  logLevel: 'error',
};

/** Parses settings: a mapping, or null for a document with no content (empty, only comments). */
export function parseSettings(text: string): JsonValue {
  const yaml = yamlLibrary();
  const lines = new yaml.LineCounter();
  const at = (offset: number): string => {
    const { line, col } = lines.linePos(offset);
    return `line ${line}, column ${col}`;
  };
  // The library composes nested collections by recursion: thousands of levels exhaust the stack,
  // and V8 may then abort the process outright (compiling a regular expression there). Its parser is
  // iterative, so the nesting is measured on what it gives, and refused, before composing.
  const tooDeep = deeperThan(MAX_DEPTH, new yaml.Parser(lines.addNewLine).parse(text));
  if (tooDeep !== undefined) throw new SettingsYamlError(`${at(tooDeep)}: ${TOO_DEEP}`);
  let doc: Document.Parsed;
  try {
    doc = yaml.parseDocument(text, PARSE_OPTIONS);
  } catch (error) {
    // It reports problems in the document; this is for anything else it might throw.
    throw new SettingsYamlError(`cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw new SettingsYamlError(`${at(problem.pos[0])}: ${libraryMessage(problem.code, problem.message)}`);
  if (doc.directives.yaml.explicit && doc.directives.yaml.version !== '1.2') {
    throw new SettingsYamlError(
      `${at(0)}: only YAML 1.2 is read here (the document says %YAML ${doc.directives.yaml.version})`,
    );
  }
  return new StructReader(doc, at).read(doc.contents, 0);
}

const TOO_DEEP = `mappings and lists nest deeper than ${MAX_DEPTH} levels`;

/** The offset of a collection nested deeper than `limit` in the parser's tokens, found without recursion. */
function deeperThan(limit: number, tokens: Iterable<CST.Token>): number | undefined {
  const pending: [CST.Token, number][] = [];
  for (const token of tokens) if (token.type === 'document' && token.value) pending.push([token.value, 0]);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [token, depth] = next;
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth >= limit) return token.offset;
    for (const item of token.items) {
      if (item.key) pending.push([item.key, depth + 1]);
      if (item.value) pending.push([item.value, depth + 1]);
    }
  }
  return undefined;
}

function libraryMessage(code: string, message: string): string {
  switch (code) {
    case 'MULTIPLE_DOCS':
      return 'only one YAML document is allowed';
    case 'TAG_RESOLVE_FAILED':
      return `${message} (only the YAML 1.2 core schema's tags are read here)`;
    case 'NON_STRING_KEY':
      return 'a key must be a scalar (a text, or a number or word taken as its text), not a list, mapping or alias';
    default:
      return message;
  }
}

/** The document's content as Struct data. */
class StructReader {
  /** Values made while expanding aliases. */
  private aliasValues = 0;
  /** Collections being read (an alias to one of them would never end). */
  private readonly open = new Set<YamlNode>();
  /** How many aliases are being expanded at the current point. */
  private inAlias = 0;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly at: (offset: number) => string,
  ) {}

  private fail(node: YamlNode | null | undefined, what: string): never {
    throw new SettingsYamlError(`${this.at(node?.range?.[0] ?? 0)}: ${what}`);
  }

  read(node: YamlNode | null, depth: number): JsonValue {
    const yaml = yamlLibrary();
    if (node === null) return null;
    if (this.inAlias > 0 && ++this.aliasValues > ALIAS_EXPANSION_LIMIT) {
      this.fail(node, `aliases expand to more than ${ALIAS_EXPANSION_LIMIT} values`);
    }
    if (yaml.isAlias(node)) return this.readAlias(node, depth);
    if (yaml.isScalar(node)) return this.readScalar(node);
    if (depth >= MAX_DEPTH) this.fail(node, TOO_DEEP);
    if (yaml.isMap(node)) {
      this.open.add(node);
      const out: SettingsObject = {};
      for (const pair of node.items) {
        // stringKeys: the library has refused every key that is not a string scalar.
        const key = pair.key as Scalar<string> | null;
        const name = key === null ? '' : key.value;
        if (key !== null && name === '<<' && key.type === 'PLAIN') {
          this.fail(key, 'merge keys (<<) are not supported: write the keys out, or quote "<<" for a key of that name');
        }
        if (Object.hasOwn(out, name)) this.fail(key, `duplicate key ${JSON.stringify(name)}`);
        setEntry(out, name, this.read(pair.value as YamlNode | null, depth + 1));
      }
      this.open.delete(node);
      return out;
    }
    if (yaml.isSeq(node)) {
      this.open.add(node);
      const out = node.items.map((item) => this.read(item as YamlNode | null, depth + 1));
      this.open.delete(node);
      return out;
    }
    return this.fail(node, 'is not a mapping, list or scalar');
  }

  private readAlias(alias: Alias, depth: number): JsonValue {
    const target = alias.resolve(this.doc);
    if (target === undefined) this.fail(alias, `no anchor &${alias.source} before this alias`);
    if (this.open.has(target)) this.fail(alias, `the alias *${alias.source} is inside its own anchor`);
    this.inAlias++;
    try {
      return this.read(target, depth);
    } finally {
      this.inAlias--;
    }
  }

  private readScalar(node: Scalar): JsonValue {
    const value: unknown = node.value;
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value))
        this.fail(node, 'a text holds a lone surrogate (\\uD800–\\uDFFF), which is not Unicode');
      return value;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) this.fail(node, `${node.source} is not a finite number, which the platform needs`);
      if (!Number.isSafeInteger(value) && Number.isInteger(value) && INTEGER.test(node.source ?? '')) {
        if (BigInt(node.source!) !== BigInt(value)) {
          this.fail(
            node,
            `${node.source} cannot be held exactly: the platform keeps numbers as 64-bit floats (nearest: ` +
              `${value.toExponential()}); quote it to keep it as a text`,
          );
        }
      }
      return value;
    }
    return this.fail(node, `a ${typeof value} is not Struct data`);
  }
}

/** With the `u` flag a surrogate pair is one code point, so this matches only a lone surrogate. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The YAML 1.2 core schema's integers: decimal, 0o octal, 0x hexadecimal. */
const INTEGER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;

/** Why a text cannot be the settings, or undefined when it can (a mapping, or empty). */
export function settingsProblem(text: string): string | undefined {
  let data: JsonValue;
  try {
    data = parseSettings(text);
  } catch (error) {
    if (error instanceof SettingsYamlError) return `must be valid YAML (${error.message})`;
    throw error;
  }
  if (data !== null && (typeof data !== 'object' || Array.isArray(data)))
    return 'must be a YAML mapping (key: value pairs)';
  return undefined;
}

/** Equality of Struct data: mapping key order does not matter; numbers by value. */
export function sameData(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]!));
  }
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameData(a[k]!, b[k]!));
}

/** Two settings texts that hold the same data; a text that cannot be read is only the same as itself. */
export function sameSettings(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return sameData(parseSettings(a), parseSettings(b));
  } catch (error) {
    if (error instanceof SettingsYamlError) return false;
    throw error;
  }
}

/** The platform's settings as YAML: block style, keys sorted, each value read back as itself. */
export function printSettings(value: SettingsObject): string {
  const yaml = yamlLibrary();
  const doc = new yaml.Document(value, {
    version: '1.2',
    schema: 'core',
    // Quote what a YAML 1.1 reader would take otherwise (`yes`, `on`, `<<`, `0o7`, `12:30`).
    compat: 'yaml-1.1',
    sortMapEntries: true,
    // Equal objects stay copies, not anchors and aliases.
    aliasDuplicateObjects: false,
  });
  yaml.visit(doc, {
    Scalar(_key, node) {
      // Printed whole (1152921504606846976) such a number would be an integer this module refuses
      // unless it is exact; in exponent form it is a float, read back as the same float64.
      if (typeof node.value === 'number' && Number.isInteger(node.value) && !Number.isSafeInteger(node.value))
        node.format = 'EXP';
    },
  });
  // No folding of long lines: a long text stays on one line.
  return doc.toString({ lineWidth: 0 });
}
