/**
 * cty values as JSON (docs/protocol.md, "Values as JSON"): DynamicValue.json and RawState.json.
 * Numbers keep their full precision (JSON.parse would round them to float64), so the decoder has
 * its own strict tokenizer that keeps number text; strings become NFC like cty.StringVal. Unknowns
 * cannot be written as JSON.
 */
import { type CtyType, DYNAMIC, typeFromJSON, typeToJSONString } from './cty-type.js';
import { formatPath, type PathStep } from './path.js';
import { Decimal, DynamicValue, Unknown, type ObjectValue, type Value } from './value.js';
import { numberText, parseNumber } from './number.js';
import { MAX_VALUE_DEPTH, ValueDecodeError } from './msgpack.js';
import {
  compareStringsBytewise,
  conformanceError,
  dedupeSetElements,
  isPlainObject,
  nfc,
  normalizeSet,
  sortedAttributeNames,
} from './value-ops.js';
import { setEntry } from './entries.js';
import { ownEntry } from '../wire/own-entry.js';

export interface DecodeJSONOptions {
  /** Object attributes absent from the JSON become null instead of an error (older-schema RawState). */
  missingAttributesAreNull?: boolean;
  /** Object attributes the type does not know are dropped instead of an error (older-schema RawState). */
  dropUnknownAttributes?: boolean;
}

// =============================================================================================
// A precision-preserving JSON tree.
// =============================================================================================

/** A JSON number exactly as written. */
export class JSONNumberText {
  constructor(readonly text: string) {}
}

/** A JSON object as its members in document order (duplicates kept; later ones win on lookup). */
export class JSONObjectNode {
  constructor(readonly members: ReadonlyArray<readonly [string, JSONNode]>) {}
}

export type JSONNode = null | boolean | string | JSONNumberText | JSONNode[] | JSONObjectNode;

/**
 * Parses strict RFC 8259 JSON (no BOM, no trailing data) into a tree whose numbers keep their text.
 * Nesting is bounded by MAX_VALUE_DEPTH; errors are ValueDecodeErrors with an empty path.
 */
export function parseJSONText(text: string): JSONNode {
  return treeOfJSONParse(text) ?? parseJSONTextExactly(text);
}

/** parseJSONText by the tokenizer alone, a character at a time, whatever the text. */
export function parseJSONTextExactly(text: string): JSONNode {
  return new JSONTokenizer(text).parseDocument();
}

/**
 * What JSON.parse would read differently from the tokenizer: a \u escape (it keeps a lone surrogate,
 * which cty reads as U+FFFD), an integer-like key (objects list those first, not in document order),
 * and, outside strings, a number it could round (a fraction, an exponent, 16 digits or more) or whose
 * sign it keeps (-0).
 */
const UNICODE_ESCAPE = '\\u';
const INTEGER_KEY = /"(?:0|[1-9]\d*)"\s*:/;
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;
const INEXACT_NUMBER = /\d[.eE]|\d{16}|-0(?![\d.eE])/;

/**
 * The tree of `text` by JSON.parse, which does in native code what the tokenizer does a character at
 * a time (UpgradeResourceState reads every stored state this way), for the texts it reads exactly as
 * the tokenizer would; otherwise undefined. Duplicate members leave the last alone, as cty keeps it,
 * so a member shadowed by a later one is not checked against the type.
 */
function treeOfJSONParse(text: string): JSONNode | undefined {
  const parsed = exactJSONParse(text);
  return parsed === undefined ? undefined : nodeOf(parsed);
}

/**
 * JSON.parse's value of `text` where it reads it as the tokenizer would (see treeOfJSONParse), else
 * undefined: texts, bools, nulls, arrays, plain objects, and numbers that are integers written with
 * 15 digits or fewer (exact in a float64, and written as String(number) writes them).
 */
function exactJSONParse(text: string): PlainJSON | undefined {
  if (
    text.includes(UNICODE_ESCAPE) ||
    INTEGER_KEY.test(text) ||
    INEXACT_NUMBER.test(text.replace(STRING_LITERAL, '""')) ||
    containersIn(text) > MAX_VALUE_DEPTH
  )
    return undefined;
  try {
    return JSON.parse(text) as PlainJSON;
  } catch {
    return undefined; // The tokenizer says where and why.
  }
}

/** JSON.parse's value (exactJSONParse). */
type PlainJSON = null | boolean | string | number | PlainJSON[] | { [key: string]: PlainJSON };

/** How many '{' and '[' the text holds (within strings too): a bound on its nesting. */
function containersIn(text: string): number {
  let count = 0;
  for (const opener of ['{', '[']) {
    for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at + 1)) count++;
  }
  return count;
}

/** JSON.parse's value as the tokenizer's tree; its numbers are integers written with 15 digits or fewer. */
function nodeOf(value: unknown): JSONNode {
  if (typeof value === 'number') return new JSONNumberText(String(value));
  if (Array.isArray(value)) return value.map(nodeOf);
  if (value !== null && typeof value === 'object') {
    const members: [string, JSONNode][] = [];
    for (const key of Object.keys(value)) members.push([key, nodeOf((value as Record<string, unknown>)[key])]);
    return new JSONObjectNode(members);
  }
  return value as JSONNode;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER_GRAMMAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class JSONTokenizer {
  private pos = 0;

  constructor(private readonly text: string) {}

  parseDocument(): JSONNode {
    const v = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail('unexpected data after the JSON value');
    return v;
  }

  private fail(message: string): never {
    throw new ValueDecodeError([], `invalid JSON at offset ${this.pos}: ${message}`);
  }

  private skipWhitespace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos++;
    }
  }

  private parseValue(depth: number): JSONNode {
    this.skipWhitespace();
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.parseObject(depth);
      case '[':
        return this.parseArray(depth);
      case '"':
        return this.parseString();
      case 't':
        return this.parseLiteral('true', true);
      case 'f':
        return this.parseLiteral('false', false);
      case 'n':
        return this.parseLiteral('null', null);
      case undefined:
        return this.fail('unexpected end of input');
      default:
        if (c === '-' || (c >= '0' && c <= '9')) return this.parseNumber();
        return this.fail(`unexpected character ${JSON.stringify(c)}`);
    }
  }

  private parseLiteral<T extends JSONNode>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`invalid literal`);
    this.pos += word.length;
    return value;
  }

  private parseNumber(): JSONNumberText {
    NUMBER_GRAMMAR.lastIndex = this.pos;
    const m = NUMBER_GRAMMAR.exec(this.text);
    if (!m) this.fail('invalid number');
    this.pos += m[0].length;
    return new JSONNumberText(m[0]);
  }

  private parseString(): string {
    const t = this.text;
    const start = ++this.pos;
    // Fast path: no escapes.
    for (let i = start; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return t.slice(start, i);
      }
      if (c === 0x5c || c < 0x20) break;
    }
    return this.parseEscapedString(start);
  }

  private parseEscapedString(start: number): string {
    const t = this.text;
    let out = '';
    let i = start;
    for (;;) {
      if (i >= t.length) {
        this.pos = i;
        this.fail('unterminated string');
      }
      const c = t.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) {
        this.pos = i;
        this.fail('control character in string');
      }
      if (c !== 0x5c) {
        out += t[i];
        i++;
        continue;
      }
      const e = t[i + 1];
      const escaped = e === undefined ? undefined : ownEntry(ESCAPES, e);
      if (e === 'u') {
        const { text, next } = this.readUnicodeEscape(i);
        out += text;
        i = next;
      } else if (escaped !== undefined) {
        out += escaped;
        i += 2;
      } else {
        this.pos = i;
        this.fail('invalid escape in string');
      }
    }
    this.pos = i + 1;
    return out;
  }

  /** \uXXXX, combining surrogate pairs; a lone surrogate becomes U+FFFD as in Go's decoder. */
  private readUnicodeEscape(at: number): { text: string; next: number } {
    const unit = this.hex4(at + 2);
    if (unit >= 0xd800 && unit <= 0xdbff && this.text.startsWith('\\u', at + 6)) {
      const low = this.hex4(at + 8);
      if (low >= 0xdc00 && low <= 0xdfff) return { text: String.fromCharCode(unit, low), next: at + 12 };
    }
    const lone = unit >= 0xd800 && unit <= 0xdfff;
    return { text: lone ? '\ufffd' : String.fromCharCode(unit), next: at + 6 };
  }

  private hex4(at: number): number {
    const digits = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) {
      this.pos = at;
      this.fail('invalid \\u escape');
    }
    return parseInt(digits, 16);
  }

  private enterContainer(depth: number): void {
    if (depth >= MAX_VALUE_DEPTH + 1) this.fail(`nesting exceeds the maximum depth of ${MAX_VALUE_DEPTH}`);
    this.pos++;
  }

  private parseArray(depth: number): JSONNode[] {
    this.enterContainer(depth);
    const out: JSONNode[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const c = this.text[this.pos++];
      if (c === ']') return out;
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  private parseObject(depth: number): JSONObjectNode {
    this.enterContainer(depth);
    const members: [string, JSONNode][] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return new JSONObjectNode(members);
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') this.fail('expected an object key');
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      members.push([key, this.parseValue(depth + 1)]);
      this.skipWhitespace();
      const c = this.text[this.pos++];
      if (c === '}') return new JSONObjectNode(members);
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
    }
  }
}

// =============================================================================================
// Decoding at a type.
// =============================================================================================

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a value's JSON form at a type, as go-cty's json.Unmarshal does: numbers at full precision
 * (a string holding a number is accepted too), strings NFC (a number or bool is accepted as a
 * string), "true"/"false"/"1"/"0" accepted as bools, dynamic values as {"value":…,"type":…}.
 * Unlike go-cty, missing and unknown object attributes are errors unless `opts` relax them.
 */
export function decodeJSON(type: CtyType, text: string | Uint8Array, opts: DecodeJSONOptions = {}): Value {
  let source: string;
  if (typeof text === 'string') source = text;
  else {
    try {
      source = UTF8.decode(text);
    } catch {
      throw new ValueDecodeError([], 'JSON text is not valid UTF-8');
    }
  }
  return new JSONValueReader(opts).read(type, exactJSONParse(source) ?? parseJSONTextExactly(source), 0);
}

/** decodeJSON through the tokenizer's tree alone, whatever the text: what the tests hold decodeJSON to. */
export function decodeJSONExactly(type: CtyType, text: string, opts: DecodeJSONOptions = {}): Value {
  return new JSONValueReader(opts).read(type, parseJSONTextExactly(text), 0);
}

/**
 * What the reader reads: JSON.parse's value where it reads the text exactly (most states), without
 * first making the tokenizer's tree of it, or the tokenizer's tree. A number is a JSONNumberText or
 * (from JSON.parse) an integer of 15 digits at most, the same number; an object a JSONObjectNode or a
 * plain object, whose keys come in document order (exactJSONParse refuses integer-like keys).
 */
type ReadNode = JSONNode | PlainJSON;
type ObjectNode = JSONObjectNode | { [key: string]: PlainJSON };

/** A decode error from inside a container, on its way out: its path now starts with the step into it. */
function under(step: PathStep | null, e: unknown): unknown {
  if (!(e instanceof ValueDecodeError)) return e;
  return new ValueDecodeError(step === null ? [] : [step, ...e.path], e.message);
}

/**
 * Reads a value at a type. A failure is reported at the value that fails; the containers around it
 * add their steps to its path on the way out (`under`), rather than keeping a path for every value.
 */
class JSONValueReader {
  constructor(private readonly opts: DecodeJSONOptions) {}

  private fail(message: string): never {
    throw new ValueDecodeError([], message);
  }

  read(type: CtyType, node: ReadNode, depth: number): Value {
    if (depth > MAX_VALUE_DEPTH) this.fail(`value nesting exceeds the maximum depth of ${MAX_VALUE_DEPTH}`);
    if (node === null) return null;
    switch (type.kind) {
      case 'dynamic':
        return this.readDynamic(node, depth);
      case 'string':
        return this.readString(node);
      case 'number':
        return this.readNumber(node);
      case 'bool':
        return this.readBool(node);
      case 'list':
        return this.readElements(type.element, this.requireArray(node, 'a list is required'), depth, true);
      case 'set': {
        const elems = this.readElements(type.element, this.requireArray(node, 'a set is required'), depth, false);
        return dedupeSetElements(type.element, elems);
      }
      case 'tuple':
        return this.readTuple(type.elements, this.requireArray(node, 'a tuple is required'), depth);
      case 'map':
        return this.readMap(type.element, this.requireObject(node, 'a map is required'), depth);
      case 'object':
        return this.readObject(type, this.requireObject(node, 'an object is required'), depth);
    }
  }

  private readString(node: ReadNode): string {
    if (typeof node === 'string') return nfc(node);
    if (node instanceof JSONNumberText) return node.text;
    if (typeof node === 'number') return String(node);
    if (typeof node === 'boolean') return String(node);
    return this.fail('string is required');
  }

  private readNumber(node: ReadNode): Value {
    // An integer JSON.parse read (exactJSONParse): the number its text names.
    if (typeof node === 'number') return node;
    const text = node instanceof JSONNumberText ? node.text : typeof node === 'string' ? node : undefined;
    if (text === undefined) return this.fail('number is required');
    try {
      return parseNumber(text);
    } catch (e) {
      return this.fail(`number is required (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  /** cty's string→bool conversion accepts exactly "true", "1", "false", "0". */
  private readBool(node: ReadNode): boolean {
    if (typeof node === 'boolean') return node;
    if (node === 'true' || node === '1') return true;
    if (node === 'false' || node === '0') return false;
    return this.fail('bool is required');
  }

  private requireArray(node: ReadNode, message: string): ReadNode[] {
    return Array.isArray(node) ? node : this.fail(message);
  }

  private requireObject(node: ReadNode, message: string): ObjectNode {
    if (node instanceof JSONObjectNode) return node;
    const plain =
      typeof node === 'object' && node !== null && !Array.isArray(node) && !(node instanceof JSONNumberText);
    return plain ? (node as ObjectNode) : this.fail(message);
  }

  private readElements(elementType: CtyType, nodes: ReadNode[], depth: number, addressable: boolean): Value[] {
    const out: Value[] = [];
    let i = 0;
    try {
      for (; i < nodes.length; i++) out.push(this.read(elementType, nodes[i]!, depth + 1));
    } catch (e) {
      // Set elements cannot be addressed: the path stops at the set.
      throw under(addressable ? { index: i } : null, e);
    }
    return out;
  }

  private readTuple(types: readonly CtyType[], nodes: ReadNode[], depth: number): Value[] {
    if (nodes.length > types.length) this.fail(`too many tuple elements (need ${types.length})`);
    if (nodes.length < types.length) this.fail(`not enough tuple elements (need ${types.length})`);
    const out: Value[] = [];
    let i = 0;
    try {
      for (; i < types.length; i++) out.push(this.read(types[i]!, nodes[i]!, depth + 1));
    } catch (e) {
      throw under({ index: i }, e);
    }
    return out;
  }

  private readMap(elementType: CtyType, node: ObjectNode, depth: number): ObjectValue {
    const out: ObjectValue = {};
    const members = membersOf(node);
    for (let i = 0; i < members.length; i++) {
      const key = members[i]![0];
      try {
        setEntry(out, key, this.read(elementType, members[i]![1], depth + 1));
      } catch (e) {
        throw under({ key }, e);
      }
    }
    return out;
  }

  private readObject(type: Extract<CtyType, { kind: 'object' }>, node: ObjectNode, depth: number): ObjectValue {
    const out: ObjectValue = {};
    if (node instanceof JSONObjectNode) {
      const members = node.members;
      for (let i = 0; i < members.length; i++) this.readAttribute(type, out, members[i]![0], members[i]![1], depth);
    } else {
      for (const key of Object.keys(node)) this.readAttribute(type, out, key, node[key]!, depth);
    }
    const names = sortedAttributeNames(type);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (Object.hasOwn(out, name)) continue;
      if (!this.opts.missingAttributesAreNull) this.fail(`attribute ${JSON.stringify(name)} is required`);
      setEntry(out, name, null);
    }
    return out;
  }

  private readAttribute(
    type: Extract<CtyType, { kind: 'object' }>,
    out: ObjectValue,
    key: string,
    member: ReadNode,
    depth: number,
  ): void {
    if (!Object.hasOwn(type.attributes, key)) {
      if (this.opts.dropUnknownAttributes) return;
      this.fail(`unsupported attribute ${JSON.stringify(key)}`);
    }
    try {
      setEntry(out, key, this.read(type.attributes[key]!, member, depth + 1));
    } catch (e) {
      throw under({ attr: key }, e);
    }
  }

  /** docs/protocol.md, "Dynamic values in JSON": {"value": V, "type": T} in either order; nothing else. */
  private readDynamic(node: ReadNode, depth: number): Value {
    const obj = this.requireObject(node, 'a dynamic value must be a {"value": …, "type": …} object');
    let typeNode: ReadNode | undefined;
    let valueNode: ReadNode | undefined;
    for (const [key, member] of membersOf(obj)) {
      if (key === 'type') typeNode = member;
      else if (key === 'value') valueNode = member;
      else this.fail(`invalid key ${JSON.stringify(key)} in dynamically-typed value`);
    }
    if (typeNode === undefined) this.fail('missing type in dynamically-typed value');
    if (valueNode === undefined) this.fail('missing value in dynamically-typed value');
    let type: CtyType;
    try {
      type = typeFromJSON(plainJSON(typeNode));
    } catch (e) {
      return this.fail(`failed to decode type for dynamic value: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (type.kind === 'dynamic') return this.read(DYNAMIC, valueNode, depth + 1);
    return new DynamicValue(type, this.read(type, valueNode, depth + 1));
  }
}

/** An object node's members in document order. */
function membersOf(node: ObjectNode): ReadonlyArray<readonly [string, ReadNode]> {
  return node instanceof JSONObjectNode ? node.members : Object.entries(node);
}

/** The tree as ordinary JS data (for type JSON, which holds no numbers that matter). */
function plainJSON(node: ReadNode): unknown {
  if (node instanceof JSONNumberText) return Number(node.text);
  if (Array.isArray(node)) return node.map(plainJSON);
  if (node instanceof JSONObjectNode) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of node.members) setEntry(out, k, plainJSON(v));
    return out;
  }
  return node; // JSON.parse's value already is
}

// =============================================================================================
// Encoding.
// =============================================================================================

class NotEncodable extends Error {}

/**
 * The JSON form of a wholly known value (go-cty json.Marshal layout): numbers as plain decimal text,
 * object attributes and map keys sorted, sets in canonical order, dynamic values as
 * {"value":…,"type":…}. Throws TypeError for unknowns and for values that do not conform.
 */
export function encodeJSON(type: CtyType, v: Value): string {
  const parts: string[] = [];
  try {
    writeJSON(parts, type, v, 0);
  } catch (e) {
    if (!(e instanceof NotEncodable)) throw e;
    const problem = conformanceError(type, v);
    const detail = problem
      ? `${problem.message}${problem.path.length > 0 ? ` at ${formatPath(problem.path)}` : ''}`
      : e.message;
    throw new TypeError(`cannot encode value as JSON: ${detail}`);
  }
  return parts.join('');
}

function writeJSON(out: string[], type: CtyType, v: Value, depth: number): void {
  if (depth > MAX_VALUE_DEPTH) throw new NotEncodable(`value nesting exceeds ${MAX_VALUE_DEPTH} levels`);
  if (v instanceof Unknown) throw new NotEncodable('an unknown value cannot be written as JSON');
  if (type.kind === 'dynamic') return writeDynamic(out, v, depth);
  if (v === null) {
    out.push('null');
    return;
  }
  switch (type.kind) {
    case 'string':
      if (typeof v !== 'string') throw new NotEncodable('string is required');
      out.push(JSON.stringify(v));
      return;
    case 'number':
      out.push(jsonNumber(v));
      return;
    case 'bool':
      if (typeof v !== 'boolean') throw new NotEncodable('bool is required');
      out.push(v ? 'true' : 'false');
      return;
    case 'list':
      return writeArray(
        out,
        requireArray(v).map((e) => [type.element, e] as const),
        depth,
      );
    case 'set':
      return writeArray(
        out,
        normalizeSet(type.element, requireArray(v)).map((e) => [type.element, e] as const),
        depth,
      );
    case 'tuple': {
      const elems = requireArray(v);
      if (elems.length !== type.elements.length) throw new NotEncodable('tuple length');
      return writeArray(
        out,
        type.elements.map((t, i) => [t, elems[i]!] as const),
        depth,
      );
    }
    case 'map': {
      const m = requireObject(v);
      return writeMembers(
        out,
        Object.keys(m)
          .sort(compareStringsBytewise)
          .map((k) => [k, type.element, m[k]!] as const),
        depth,
      );
    }
    case 'object': {
      const o = requireObject(v);
      const names = sortedAttributeNames(type);
      if (Object.keys(o).length !== names.length || !names.every((n) => Object.hasOwn(o, n))) {
        throw new NotEncodable('object attributes do not match the type');
      }
      return writeMembers(
        out,
        names.map((n) => [n, type.attributes[n]!, o[n]!] as const),
        depth,
      );
    }
  }
}

/** Plain decimal text; JSON has no infinities and a Decimal must hold canonical text. */
function jsonNumber(v: Value): string {
  if (typeof v === 'number' && Number.isFinite(v)) return numberText(v);
  if (v instanceof Decimal && /^-?(0|[1-9]\d*)(\.\d+)?$/.test(v.text)) return v.text;
  throw new NotEncodable('a finite number is required');
}

function writeDynamic(out: string[], v: Value, depth: number): void {
  if (v === null) {
    out.push('null');
    return;
  }
  if (!(v instanceof DynamicValue) || v.type.kind === 'dynamic') throw new NotEncodable('a DynamicValue is required');
  out.push('{"value":');
  writeJSON(out, v.type, v.value, depth + 1);
  out.push(`,"type":${typeToJSONString(v.type)}}`);
}

function writeArray(out: string[], items: ReadonlyArray<readonly [CtyType, Value]>, depth: number): void {
  out.push('[');
  items.forEach(([t, e], i) => {
    if (i > 0) out.push(',');
    writeJSON(out, t, e, depth + 1);
  });
  out.push(']');
}

function writeMembers(out: string[], items: ReadonlyArray<readonly [string, CtyType, Value]>, depth: number): void {
  out.push('{');
  items.forEach(([k, t, e], i) => {
    out.push(i > 0 ? ',' : '', JSON.stringify(k), ':');
    writeJSON(out, t, e, depth + 1);
  });
  out.push('}');
}

function requireArray(v: Value): Value[] {
  if (!Array.isArray(v)) throw new NotEncodable('an array is required');
  return v;
}

function requireObject(v: Value): ObjectValue {
  if (!isPlainObject(v)) throw new NotEncodable('an object is required');
  return v;
}
