/**
 * The YAML the hybrid environment's `advanced_operator_settings` is written in (vdb.md §2.6): parsed
 * into JSON data (the API takes a protobuf Struct), compared by meaning, and printed back for state
 * after an import or a change made elsewhere. It covers what configuration files use: block mappings
 * and sequences, flow `{}`/`[]` collections, plain/single/double-quoted scalars, `|`/`>` block
 * scalars and comments. Anchors, aliases, tags and multi-document streams are refused with a clear
 * message. Mapping keys are always strings (as in a Struct).
 */
import type { JsonValue } from '../../clients/vdb/api.js';

export class YamlError extends Error {
  override readonly name = 'YamlError';
}

interface Line {
  /** 1-based line number, for messages. */
  no: number;
  indent: number;
  /** The content after the indentation, comments removed. */
  text: string;
  /** The raw line (for block scalars, which keep `#`). */
  raw: string;
}

/** Parses a YAML document into JSON data; an empty document is null. */
export function parseYaml(source: string): JsonValue {
  const lines: Line[] = [];
  source.split(/\r?\n/).forEach((raw, i) => {
    if (/\t/.test(raw.match(/^\s*/)![0])) throw new YamlError(`line ${i + 1}: tabs cannot indent YAML; use spaces`);
    const indent = raw.length - raw.trimStart().length;
    lines.push({ no: i + 1, indent, text: stripComment(raw.trim()), raw });
  });
  const docStart = lines.findIndex((l) => l.text !== '');
  if (docStart >= 0 && lines[docStart]!.text === '---') lines[docStart]!.text = '';
  if (lines.some((l, i) => i > docStart && (l.text === '---' || l.text === '...') && l.indent === 0)) {
    throw new YamlError('only one YAML document is allowed');
  }
  const p = new BlockParser(lines);
  const first = p.next();
  if (first === undefined) return null;
  const value = p.parseNode(first.indent);
  const rest = p.next();
  if (rest !== undefined) throw new YamlError(`line ${rest.no}: unexpected content (check the indentation)`);
  return value;
}

function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s:,[{-]/.test(text[i - 1]!)) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      return text.slice(0, i).trimEnd();
    }
  }
  return text;
}

class BlockParser {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  /** The next non-empty line, without consuming it. */
  next(): Line | undefined {
    while (this.i < this.lines.length && this.lines[this.i]!.text === '') this.i++;
    return this.lines[this.i];
  }

  parseNode(indent: number): JsonValue {
    const line = this.next()!;
    if (line.text.startsWith('- ') || line.text === '-') return this.parseSequence(line.indent);
    if (findMappingColon(line.text) >= 0) return this.parseMapping(line.indent);
    this.i++;
    const value = parseInlineValue(line.text, line.no);
    const after = this.next();
    if (after !== undefined && after.indent > indent) throw new YamlError(`line ${after.no}: unexpected indentation`);
    return value;
  }

  private parseSequence(indent: number): JsonValue[] {
    const out: JsonValue[] = [];
    for (
      let line = this.next();
      line !== undefined && line.indent === indent && (line.text.startsWith('- ') || line.text === '-');
      line = this.next()
    ) {
      const rest = line.text === '-' ? '' : line.text.slice(2).trimStart();
      if (rest === '') {
        this.i++;
        const child = this.next();
        out.push(child !== undefined && child.indent > indent ? this.parseNode(child.indent) : null);
        continue;
      }
      // `- key: value` starts a mapping whose further keys are indented like `key`.
      const itemIndent = indent + (line.text.length - rest.length);
      this.lines[this.i] = { ...line, indent: itemIndent, text: rest };
      out.push(this.parseNode(itemIndent));
    }
    const stray = this.next();
    if (stray !== undefined && stray.indent > indent)
      throw new YamlError(`line ${stray.no}: unexpected indentation in a list`);
    return out;
  }

  private parseMapping(indent: number): { [key: string]: JsonValue } {
    const out: { [key: string]: JsonValue } = {};
    for (let line = this.next(); line !== undefined && line.indent === indent; line = this.next()) {
      const colon = findMappingColon(line.text);
      if (colon < 0) throw new YamlError(`line ${line.no}: expected "key: value"`);
      const key = String(parseScalar(line.text.slice(0, colon).trim(), line.no) ?? 'null');
      if (Object.hasOwn(out, key)) throw new YamlError(`line ${line.no}: duplicate key ${JSON.stringify(key)}`);
      const rest = line.text.slice(colon + 1).trim();
      this.i++;
      if (rest === '|' || rest === '>' || /^[|>][+-]?$/.test(rest)) {
        out[key] = this.parseBlockScalar(rest, indent);
      } else if (rest !== '') {
        out[key] = parseInlineValue(rest, line.no);
      } else {
        const child = this.next();
        // A sequence may sit at the same indentation as its key.
        if (
          child !== undefined &&
          (child.indent > indent || (child.indent === indent && (child.text.startsWith('- ') || child.text === '-')))
        ) {
          out[key] = this.parseNode(child.indent);
        } else out[key] = null;
      }
    }
    const stray = this.next();
    if (stray !== undefined && stray.indent > indent) throw new YamlError(`line ${stray.no}: unexpected indentation`);
    return out;
  }

  private parseBlockScalar(header: string, parentIndent: number): string {
    const folded = header.startsWith('>');
    const chomp = header.slice(1);
    const body: string[] = [];
    let blockIndent = -1;
    while (this.i < this.lines.length) {
      const l = this.lines[this.i]!;
      const blank = l.raw.trim() === '';
      if (!blank && l.indent <= parentIndent) break;
      if (!blank && blockIndent < 0) blockIndent = l.indent;
      body.push(blank ? '' : l.raw.slice(blockIndent));
      this.i++;
    }
    while (body.length > 0 && body[body.length - 1] === '' && chomp !== '+') body.pop();
    let text = folded
      ? body.reduce((acc, l, k) => (k === 0 ? l : l === '' || body[k - 1] === '' ? `${acc}\n${l}` : `${acc} ${l}`), '')
      : body.join('\n');
    if (chomp !== '-' && body.length > 0) text += '\n';
    return text;
  }
}

/** The index of the `:` that separates a mapping key from its value, or -1. */
function findMappingColon(text: string): number {
  if (text.startsWith('[') || text.startsWith('{')) return -1;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if ((c === '"' || c === "'") && i === 0) quote = c;
    else if (c === ':' && (i === text.length - 1 || text[i + 1] === ' ')) return i;
  }
  return -1;
}

function parseInlineValue(text: string, lineNo: number): JsonValue {
  if (text.startsWith('[') || text.startsWith('{')) {
    const flow = new FlowParser(text, lineNo);
    const v = flow.value();
    flow.end();
    return v;
  }
  if (/^[&*!]/.test(text)) throw new YamlError(`line ${lineNo}: anchors, aliases and tags are not supported`);
  return parseScalar(text, lineNo);
}

function parseScalar(text: string, lineNo: number): JsonValue {
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2)
      throw new YamlError(`line ${lineNo}: unterminated double-quoted string`);
    try {
      return JSON.parse(text.replace(/\\'/g, "'")) as string;
    } catch {
      throw new YamlError(`line ${lineNo}: invalid escape in ${text}`);
    }
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2)
      throw new YamlError(`line ${lineNo}: unterminated single-quoted string`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (text === '' || text === '~' || /^(null|Null|NULL)$/.test(text)) return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?\d+$/.test(text)) return Number(text);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text) || /^\.(nan|NaN|NAN)$/.test(text)) {
    throw new YamlError(`line ${lineNo}: infinity and NaN cannot be sent to the platform`);
  }
  return text;
}

class FlowParser {
  private pos = 0;
  constructor(
    private readonly s: string,
    private readonly lineNo: number,
  ) {}

  private fail(what: string): never {
    throw new YamlError(`line ${this.lineNo}: ${what} at column ${this.pos + 1}`);
  }
  private ws(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos]!)) this.pos++;
  }
  end(): void {
    this.ws();
    if (this.pos < this.s.length) this.fail('unexpected text after the value');
  }

  value(): JsonValue {
    this.ws();
    const c = this.s[this.pos];
    if (c === '[') {
      this.pos++;
      const out: JsonValue[] = [];
      for (;;) {
        this.ws();
        if (this.s[this.pos] === ']') {
          this.pos++;
          return out;
        }
        out.push(this.value());
        this.ws();
        if (this.s[this.pos] === ',') this.pos++;
        else if (this.s[this.pos] !== ']') this.fail('expected "," or "]"');
      }
    }
    if (c === '{') {
      this.pos++;
      const out: { [key: string]: JsonValue } = {};
      for (;;) {
        this.ws();
        if (this.s[this.pos] === '}') {
          this.pos++;
          return out;
        }
        const key = String(this.scalar(true) ?? 'null');
        this.ws();
        if (this.s[this.pos] !== ':') this.fail('expected ":"');
        this.pos++;
        out[key] = this.value();
        this.ws();
        if (this.s[this.pos] === ',') this.pos++;
        else if (this.s[this.pos] !== '}') this.fail('expected "," or "}"');
      }
    }
    return this.scalar(false);
  }

  private scalar(isKey: boolean): JsonValue {
    this.ws();
    const c = this.s[this.pos];
    if (c === '"' || c === "'") {
      let j = this.pos + 1;
      while (j < this.s.length) {
        if (c === '"' && this.s[j] === '\\') j += 2;
        else if (c === "'" && this.s[j] === "'" && this.s[j + 1] === "'") j += 2;
        else if (this.s[j] === c) break;
        else j++;
      }
      if (j >= this.s.length) this.fail('unterminated string');
      const text = this.s.slice(this.pos, j + 1);
      this.pos = j + 1;
      return parseScalar(text, this.lineNo);
    }
    const stop = isKey ? /[,:{}[\]]/ : /[,{}[\]]/;
    let j = this.pos;
    while (j < this.s.length && !stop.test(this.s[j]!) && !(this.s[j] === ':' && /\s/.test(this.s[j + 1] ?? ' '))) j++;
    const text = this.s.slice(this.pos, j).trim();
    this.pos = j;
    return parseScalar(text, this.lineNo);
  }
}

/** Deep equality of JSON data (mapping key order does not matter). */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]!));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k]!, b[k]!));
}

/** Two YAML texts with the same data (either failing to parse: only equal if identical). */
export function sameYaml(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return sameJson(parseYaml(a), parseYaml(b));
  } catch {
    return false;
  }
}

/** Prints JSON data as block-style YAML with sorted keys (a stable, normalised form). */
export function printYaml(value: JsonValue): string {
  return `${printNode(value, 0).replace(/^\n/, '')}\n`;
}

function printNode(v: JsonValue, indent: number): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v
      .map(
        (e) => `\n${pad}-${isCollection(e) ? printNode(e, indent + 2).replace(/^\n\s*/, ' ') : ` ${printScalar(e)}`}`,
      )
      .join('');
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    if (keys.length === 0) return ' {}';
    return keys
      .map(
        (k) =>
          `\n${pad}${printKey(k)}:${isCollection(v[k]!) ? printNode(v[k]!, indent + 2) : ` ${printScalar(v[k]!)}`}`,
      )
      .join('');
  }
  return ` ${printScalar(v)}`;
}

const isCollection = (v: JsonValue): boolean =>
  v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);

function printKey(k: string): string {
  return /^[A-Za-z_][\w.-]*$/.test(k) && typeof parseScalar(k, 0) === 'string' ? k : JSON.stringify(k);
}

function printScalar(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  if (typeof v === 'string') {
    const plain = /^[A-Za-z0-9_./][\w ./-]*$/.test(v) && !v.endsWith(' ') && typeof parseScalar(v, 0) === 'string';
    return plain ? v : JSON.stringify(v);
  }
  return String(v);
}
