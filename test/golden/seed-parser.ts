/**
 * Parses a seed document (test/fixtures/seeds/*.txt: markdown prose and tables describing a provider as
 * its Pulumi wrapper sees it) into resources, nested types, functions and provider configuration, so
 * tests can compare a generated Pulumi schema with it (seed-compare.ts).
 *
 * The seeds are prose-ish; the parser knows their conventions:
 * - `### <n> <Name>[ and <Name>] (<note>)` sections with `| Field | Type | Rule |` tables describe
 *   resources; a note containing "nested" or starting with "output" makes it a nested type;
 *   "common to every <x> resource" sections hold fields shared by every `<X>…` resource.
 * - `*` after a field name marks a required input or required output; "secret" in the type marks a
 *   secret; "Default <value>" a default; "Output(s)" / "Input and output" / "(Required) input" the role;
 *   "always present in (the) output" a required output of an optional input.
 * - Compact field lists (`a*, b (boolean, default true), c (array of {x*, y number})`) in the nested
 *   type tables, in `<Word> fields: …` paragraphs and after `Fields:`; an annotation starting with
 *   "all"/"both" or with a plural type ("strings", "arrays of string") applies to the run of
 *   unannotated fields before it.
 * - Fields without a stated type are strings (both seeds say so); such types are marked `implied`.
 */

export type SeedType =
  | { kind: 'string' | 'boolean' | 'number' }
  | { kind: 'array'; items: SeedType }
  | { kind: 'map'; values: SeedType }
  | { kind: 'ref'; name: string }
  /** An object; `fields` undefined when the seed does not describe it. */
  | { kind: 'object'; fields?: SeedField[] }
  | { kind: 'unknown'; text?: string };

export type SeedRole = 'input' | 'output' | 'inout' | 'unspecified';

export interface SeedField {
  name: string;
  type: SeedType;
  /** No type stated: the document-wide "strings unless stated" applies. */
  typeImplied: boolean;
  /** `*`: a required input, or a required output for outputs (and for output-only types). */
  required: boolean;
  secret: boolean;
  /** The seed says explicitly that it is not flagged secret. */
  notSecret: boolean;
  default?: string | number | boolean;
  deprecated: boolean;
  role: SeedRole;
  /** "always present in (the) output": a required output although not a required input. */
  alwaysInOutput: boolean;
  /** The raw rule/annotation text. */
  rule: string;
}

export interface SeedResource {
  /** PascalCase name, e.g. AgentAccessToken. */
  name: string;
  token: string;
  /** The token is written in the seed (otherwise derived from the name). */
  tokenStated: boolean;
  section: string;
  fields: SeedField[];
  /** The seed says some fields are not shown. */
  partial: boolean;
  deprecated: boolean;
  importText?: string;
}

export interface SeedTypeDef {
  name: string;
  section: string;
  fields: SeedField[];
  /** Output-only type (the seed's `*` then means a required output). */
  output: boolean;
  /** A data source result type. */
  resultType: boolean;
}

export interface SeedFunction {
  name: string;
  token: string;
  resultTypes: string[];
}

export interface SeedConfig {
  variables: SeedField[];
  /** "Configuration variables (all optional in the schema)". */
  allOptional: boolean;
  /** Names the provider instance outputs, when the seed lists them. */
  providerOutputs?: string[];
  /** Names the provider instance accepts only as inputs, when the seed lists them. */
  providerInputOnly?: string[];
}

export interface ParsedSeed {
  packageName: string;
  version: string;
  resources: Record<string, SeedResource>;
  types: Record<string, SeedTypeDef>;
  functions: Record<string, SeedFunction>;
  config: SeedConfig;
  /** Provider method name → function token, e.g. terraformConfig → pulumi:providers:sec/terraformConfig. */
  providerMethods: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------------
// Text helpers

/** Splits at any of `seps` outside (), {}, [] and backticks. */
export function splitTopLevel(text: string, seps: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let tick = false;
  let cur = '';
  for (const c of text) {
    if (c === '`') tick = !tick;
    else if (!tick && (c === '(' || c === '{' || c === '[')) depth++;
    else if (!tick && (c === ')' || c === '}' || c === ']')) depth = Math.max(0, depth - 1);
    if (!tick && depth === 0 && seps.includes(c)) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

/** The text up to the first top-level sentence end (". " followed by an upper-case letter, or a final "."). */
function firstSentence(text: string): string {
  let depth = 0;
  let tick = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') tick = !tick;
    else if (!tick && (c === '(' || c === '{' || c === '[')) depth++;
    else if (!tick && (c === ')' || c === '}' || c === ']')) depth = Math.max(0, depth - 1);
    else if (!tick && depth === 0 && c === '.') {
      const rest = text.slice(i + 1);
      if (rest.trim() === '' || /^\s+[A-Z`]/.test(rest)) return text.slice(0, i);
    }
  }
  return text;
}

/** Index just after the bracket matching the one at `open`. */
function matchBracket(text: string, open: number): number {
  const o = text[open]!;
  const c = o === '(' ? ')' : o === '{' ? '}' : ']';
  let depth = 0;
  let tick = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '`') tick = !tick;
    if (tick) continue;
    if (ch === o) depth++;
    else if (ch === c) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

const lowerFirst = (s: string) => (s === '' ? s : s[0]!.toLowerCase() + s.slice(1));
const upperFirst = (s: string) => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));

function parseDefaultValue(raw: string): string | number | boolean {
  const t = raw.trim();
  if (t.startsWith('`')) return t.slice(1, t.lastIndexOf('`'));
  if (t === 'true') return true;
  if (t === 'false') return false;
  return Number(t);
}

const DEFAULT_RE = /\bdefault\s+(`[^`]*`|true|false|-?\d+(?:\.\d+)?)(?![\w`])/i;

// ---------------------------------------------------------------------------------------------------
// Types and field lists

interface TypeParse {
  type: SeedType;
  rest: string;
  /** A plural form ("strings", "arrays of …"): a group annotation. */
  plural: boolean;
}

const PRIMITIVES: Record<string, SeedType['kind']> = {
  string: 'string',
  strings: 'string',
  boolean: 'boolean',
  booleans: 'boolean',
  bool: 'boolean',
  number: 'number',
  numbers: 'number',
  integer: 'number',
  int: 'number',
};

/** Parses a type expression at the start of `text`. */
export function parseTypeExpr(text: string, ctx: ListContext = DEFAULT_LIST_CONTEXT): TypeParse | undefined {
  const s = text.trimStart();
  if (s.startsWith('{')) {
    const end = matchBracket(s, 0);
    const inner = s.slice(1, end - 1);
    return {
      type: { kind: 'object', fields: parseFieldList(inner, { ...ctx, inline: true }) },
      rest: s.slice(end),
      plural: false,
    };
  }
  let m = /^(arrays?|lists?|sets?)\s+of\s+/i.exec(s);
  if (m) {
    const inner = parseTypeExpr(s.slice(m[0].length), ctx);
    const plural = m[1]!.toLowerCase().endsWith('s');
    if (inner) return { type: { kind: 'array', items: inner.type }, rest: inner.rest, plural: plural || inner.plural };
    return { type: { kind: 'array', items: { kind: 'unknown' } }, rest: s.slice(m[0].length), plural };
  }
  m = /^(arrays?|lists?)(?![\w])/i.exec(s);
  if (m)
    return {
      type: { kind: 'array', items: { kind: 'unknown' } },
      rest: s.slice(m[0].length),
      plural: m[1]!.toLowerCase().endsWith('s'),
    };
  m = /^maps?\s+of\s+(\w+)\s+to\s+/i.exec(s);
  if (m) {
    const inner = parseTypeExpr(s.slice(m[0].length), ctx);
    if (inner) return { type: { kind: 'map', values: inner.type }, rest: inner.rest, plural: false };
  }
  m = /^(?:[A-Z]{2,}\s+)?(strings?|booleans?|bool|numbers?|integer|int)(?![\w])/.exec(s);
  if (m) {
    const word = m[1]!;
    return {
      type: { kind: PRIMITIVES[word] as 'string' },
      rest: s.slice(m[0].length),
      plural: word.endsWith('s') && word !== 'bool',
    };
  }
  m = /^objects?(?![\w])/.exec(s);
  if (m) return { type: { kind: 'object' }, rest: s.slice(m[0].length), plural: false };
  m = /^(get[A-Z][A-Za-z0-9]*|[A-Z][A-Za-z0-9]*)(?![\w])/.exec(s);
  if (m) return { type: { kind: 'ref', name: m[1]! }, rest: s.slice(m[0].length), plural: false };
  return undefined;
}

interface ListContext {
  /** Inside `{…}`: names may be followed directly by a type without parentheses. */
  inline: boolean;
  /** Every field is required (an "all fields required" section). */
  allRequired: boolean;
}
const DEFAULT_LIST_CONTEXT: ListContext = { inline: false, allRequired: false };

export function newField(name: string, required: boolean): SeedField {
  return {
    name,
    type: { kind: 'string' },
    typeImplied: true,
    required,
    secret: false,
    notSecret: false,
    deprecated: false,
    role: 'unspecified',
    alwaysInOutput: false,
    rule: '',
  };
}

interface Annotation {
  type?: SeedType;
  group: boolean;
  secret: boolean;
  notSecret: boolean;
  deprecated: boolean;
  default?: string | number | boolean;
  alwaysInOutput: boolean;
  required: boolean;
  /** "each an array of {…}": the type of every field of the preceding inline object. */
  each?: SeedType;
}

function parseAnnotation(text: string, ctx: ListContext): Annotation {
  const a: Annotation = {
    group: false,
    secret: false,
    notSecret: false,
    deprecated: false,
    alwaysInOutput: false,
    required: false,
  };
  for (let piece of splitTopLevel(text, ',;')) {
    if (/^(all|both)\s+/i.test(piece)) {
      a.group = true;
      piece = piece.replace(/^(all|both)\s+/i, '');
    }
    const each = /^each\s+(?:is\s+)?an?\s+(.*)$/i.exec(piece);
    if (each) {
      const t = parseTypeExpr(each[1]!, ctx);
      if (t) a.each = t.type;
      continue;
    }
    if (/\bnot\s+(flagged\s+)?secret\b/i.test(piece)) a.notSecret = true;
    else if (/^secret\b/i.test(piece)) a.secret = true;
    if (/^deprecated\b/i.test(piece)) a.deprecated = true;
    const d = DEFAULT_RE.exec(piece);
    if (d && /^default\b/i.test(piece)) a.default = parseDefaultValue(d[1]!);
    if (/always present in (the )?output/i.test(piece)) a.alwaysInOutput = true;
    if (/^required( outputs?)?$/i.test(piece)) a.required = true;
    // "(read-only copy of the cluster configuration, with each nested object returned as a list)".
    if (/\breturned as (a )?lists?\b/i.test(piece) && !a.type) a.type = { kind: 'array', items: { kind: 'object' } };
    const t = parseTypeExpr(piece, ctx);
    // A type must be the whole piece; "array of <prose>" ("array of the mapping type below") is an array.
    if (t && (t.rest.trim() === '' || (t.type.kind === 'array' && t.type.items.kind === 'unknown'))) {
      a.type = t.type;
      if (t.plural) a.group = true;
    }
  }
  return a;
}

function applyAnnotation(f: SeedField, a: Annotation, text: string): void {
  if (a.type) {
    f.type = a.type;
    f.typeImplied = false;
  }
  if (a.secret) f.secret = true;
  if (a.notSecret) f.notSecret = true;
  if (a.deprecated) f.deprecated = true;
  if (a.default !== undefined) f.default = a.default;
  if (a.alwaysInOutput) f.alwaysInOutput = true;
  if (a.required) f.required = true;
  if (a.each && f.type.kind === 'object' && f.type.fields) for (const g of f.type.fields) setType(g, a.each);
  if (a.each && f.type.kind === 'array' && f.type.items.kind === 'object' && f.type.items.fields) {
    for (const g of f.type.items.fields) setType(g, a.each);
  }
  f.rule = f.rule ? `${f.rule}; ${text}` : text;
}

function setType(f: SeedField, t: SeedType): void {
  f.type = t;
  f.typeImplied = false;
}

/** Parses a compact field list (`a*, b (boolean), c {x*, y}`). Prose pieces are dropped. */
export function parseFieldList(text: string, ctx: ListContext = DEFAULT_LIST_CONTEXT): SeedField[] {
  const fields: SeedField[] = [];
  const body = ctx.inline ? text : firstSentence(text);
  for (const segment of splitTopLevel(body, ';')) {
    let run: SeedField[] = []; // unannotated fields since the last annotated one
    for (const piece of splitTopLevel(segment, ',')) {
      const m = /^`?([A-Za-z_<>][\w<>]*)`?(\*)?/.exec(piece);
      if (!m) continue;
      const f = newField(m[1]!, m[2] === '*' || ctx.allRequired);
      let rest = piece.slice(m[0].length).trim();
      let annotation: string | undefined;
      if (rest !== '' && !rest.startsWith('(') && !rest.startsWith('.')) {
        const t = parseTypeExpr(rest, ctx);
        if (!t) continue; // prose ("has no nested groups", "all optional")
        setType(f, t.type);
        rest = t.rest.trim();
      }
      if (rest.startsWith('(')) {
        const end = matchBracket(rest, 0);
        annotation = rest.slice(1, end - 1);
        rest = rest.slice(end).trim();
      }
      if (rest !== '' && !rest.startsWith('.')) continue; // prose
      fields.push(f);
      if (annotation === undefined) {
        if (f.typeImplied) run.push(f);
        else run = [];
        continue;
      }
      const a = parseAnnotation(annotation, ctx);
      const targets = a.group ? [...run, f] : [f];
      for (const t of targets) applyAnnotation(t, a, annotation);
      run = [];
    }
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------
// Document structure

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'table'; header: string[]; rows: string[][] }
  | { kind: 'paragraph'; text: string };

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let cur = '';
  let tick = false;
  for (const c of inner) {
    if (c === '`') tick = !tick;
    if (c === '|' && !tick) {
      cells.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  cells.push(cur.trim());
  return cells;
}

function blocksOf(text: string): Block[] {
  const lines = text.split(/\r?\n/);
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) blocks.push({ kind: 'paragraph', text: para.join(' ') });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      flush();
      blocks.push({ kind: 'heading', level: h[1]!.length, text: h[2]!.trim() });
      continue;
    }
    if (line.trim().startsWith('|')) {
      flush();
      const rows: string[][] = [];
      let j = i;
      while (j < lines.length && lines[j]!.trim().startsWith('|')) {
        const cells = splitRow(lines[j]!);
        if (!cells.every((c) => /^:?-{2,}:?$/.test(c))) rows.push(cells);
        j++;
      }
      const [header = [], ...body] = rows;
      blocks.push({ kind: 'table', header: header.map((c) => c.toLowerCase()), rows: body });
      i = j - 1;
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // A list item starts a new paragraph.
    if (/^\s*(\d+\.|[-*])\s+/.test(line)) flush();
    para.push(line.trim());
  }
  flush();
  return blocks;
}

const TYPE_NAME_RE = /\b(?:get[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)\b/g;

interface Section {
  kind: 'resource' | 'type' | 'common' | 'nestedTable' | 'ignore';
  names: string[];
  token?: string;
  note: string;
  number: string;
  allRequired: boolean;
  output: boolean;
  deprecated: boolean;
  commonScope?: string;
  resultTypes: boolean;
}

function parseHeading(text: string): Section {
  const num = /^(\d+(?:\.\d+)*)\s+/.exec(text);
  const number = num ? num[1]! : '';
  const title = num ? text.slice(num[0].length) : text;
  const base: Section = {
    kind: 'ignore',
    names: [],
    note: '',
    number,
    allRequired: false,
    output: false,
    deprecated: false,
    resultTypes: false,
  };
  const common = /common to every ([\w-]+) resource/i.exec(title);
  if (common) {
    const scope = common[1]!.split('-').map(upperFirst).join('');
    return { ...base, kind: 'common', commonScope: scope };
  }
  const paren = /\(([\s\S]*)\)\s*$/.exec(title);
  const note = paren ? paren[1]!.trim() : '';
  const allRequired = /all fields required/i.test(note) || /all fields required/i.test(title);
  if (/^nested types/i.test(title)) return { ...base, kind: 'nestedTable', note, allRequired };
  if (/result types/i.test(title))
    return { ...base, kind: 'nestedTable', note, allRequired, resultTypes: true, output: true };
  const head = paren ? title.slice(0, paren.index).trim() : title.trim();
  const names = head.split(/\s*,\s*|\s+and\s+/).filter((n) => /^[A-Z][A-Za-z0-9]*$/.test(n));
  if (names.length === 0) return { ...base, note };
  const token = /`([\w-]+:[\w/]+:\w+)`/.exec(title)?.[1];
  const isType = /\bnested\b/i.test(note) || /^output\b/i.test(note);
  return {
    ...base,
    kind: isType ? 'type' : 'resource',
    names,
    ...(token ? { token } : {}),
    note,
    allRequired,
    output: /^output\b/i.test(note),
    deprecated: /^deprecated\b/i.test(note),
  };
}

function roleOf(rule: string): SeedRole {
  const r = rule.trim();
  if (/^input and output\b/i.test(r)) return 'inout';
  if (/^(required input|input|required)\b/i.test(r)) return 'input';
  if (/^outputs?\b/i.test(r)) return 'output';
  return 'unspecified';
}

/** Reads a `| Field | Type | Rule |`-like table into fields (plus per-column membership for extra columns). */
function readFieldTable(
  table: Extract<Block, { kind: 'table' }>,
  ctx: ListContext,
): Array<{ field: SeedField; columns: Record<string, string> }> {
  const h = table.header;
  const fieldCol = h.findIndex((c) => c === 'field' || c === 'name' || c === 'fields');
  const typeCol = h.indexOf('type');
  const ruleCol = h.findIndex((c) => c === 'rule' || c === 'meaning' || c === 'notes' || c === 'description');
  const out: Array<{ field: SeedField; columns: Record<string, string> }> = [];
  for (const row of table.rows) {
    const nameCell = row[fieldCol] ?? '';
    const typeCell = typeCol >= 0 ? (row[typeCol] ?? '') : '';
    const rule = ruleCol >= 0 ? (row[ruleCol] ?? '') : '';
    const columns: Record<string, string> = {};
    h.forEach((c, i) => {
      if (i !== fieldCol && i !== typeCol && i !== ruleCol) columns[c] = (row[i] ?? '').toLowerCase();
    });
    for (const namePiece of splitTopLevel(nameCell, ',')) {
      const m = /^`?([A-Za-z_<>][\w<>]*)`?(\*)?/.exec(namePiece.trim());
      if (!m) continue;
      const f = newField(m[1]!, m[2] === '*' || ctx.allRequired);
      f.rule = [typeCell, rule].filter((x) => x !== '').join(' | ');
      // Type cell: a type expression, then flags (", secret") and prose.
      const t = parseTypeExpr(typeCell, ctx);
      let typeRest = typeCell;
      if (t) {
        setType(f, t.type);
        typeRest = t.rest;
      }
      for (const piece of splitTopLevel(typeRest, ',')) {
        if (/^secret\b/i.test(piece)) f.secret = true;
      }
      const paren = /^\s*\(([^)]*)\)/.exec(typeRest);
      if (paren) applyAnnotation(f, parseAnnotation(paren[1]!, ctx), paren[1]!);
      const text = `${typeRest} ${rule}`;
      f.role = roleOf(rule);
      const d = DEFAULT_RE.exec(rule);
      if (d) f.default = parseDefaultValue(d[1]!);
      if (/always present in (the )?output/i.test(rule)) f.alwaysInOutput = true;
      if (/(^|\.\s+)deprecated\b/i.test(rule.trim())) f.deprecated = true;
      if (/not\s+flagged\s+secret/i.test(rule)) f.notSecret = true;
      // "Fields: a*, b (…)" describes an object-typed field.
      const fieldsText = /\bFields:\s*(.*)$/.exec(rule);
      if (fieldsText && f.type.kind === 'object')
        f.type = { kind: 'object', fields: parseFieldList(fieldsText[1]!, ctx) };
      applyProseToInline(f, text, ctx);
      out.push({ field: f, columns });
    }
  }
  return out;
}

/** Inline-object prose: "`a` and `b` are always present in output", "Each of the three is an array of {…}, all numbers". */
function applyProseToInline(f: SeedField, text: string, ctx: ListContext): void {
  const obj =
    f.type.kind === 'object'
      ? f.type
      : f.type.kind === 'array' && f.type.items.kind === 'object'
        ? f.type.items
        : undefined;
  if (!obj?.fields) return;
  const always = /((?:`\w+`(?:,\s*|\s+and\s+)?)+)\s+(?:is|are) always present in (?:the )?output/i.exec(text);
  if (always) {
    const names = [...always[1]!.matchAll(/`(\w+)`/g)].map((x) => x[1]!);
    for (const g of obj.fields) if (names.includes(g.name)) g.alwaysInOutput = true;
  }
  const each = /each of the \w+ is an array of (\{[^}]*\})(?:,\s*all (\w+))?/i.exec(text);
  if (each) {
    const inner = parseTypeExpr(each[1]!, { ...ctx, inline: true });
    if (inner?.type.kind === 'object' && inner.type.fields) {
      const all = each[2] ? parseTypeExpr(each[2], ctx) : undefined;
      if (all) for (const g of inner.type.fields) if (g.typeImplied) setType(g, all.type);
      for (const g of obj.fields) setType(g, { kind: 'array', items: inner.type });
    }
  }
}

function humps(name: string): string[] {
  return name.match(/^[a-z]+|[A-Z][a-z0-9]*/g) ?? [name];
}

export function parseSeed(text: string): ParsedSeed {
  const packageName = /package name is `([^`]+)`/i.exec(text)?.[1] ?? '';
  const version = /version (?:is )?(\d+\.\d+\.\d+)/i.exec(text)?.[1] ?? '';
  const providerMethods: Record<string, string> = {};
  for (const m of text.matchAll(/`(pulumi:providers:[\w-]+\/(\w+))`/g)) providerMethods[m[2]!] = m[1]!;
  const tokenOf = (name: string) => `${packageName}:index/${lowerFirst(name)}:${name}`;

  const resources: Record<string, SeedResource> = {};
  const types: Record<string, SeedTypeDef> = {};
  const config: SeedConfig = { variables: [], allOptional: false };
  const common: Array<{ scope: string; fields: SeedField[] }> = [];
  const deeperLevelTypes: string[] = [];
  /** Result types whose fields have "the same nested shapes as the <word> resource". */
  const sameShapesAs: Array<{ type: string; resourceWord: string }> = [];

  let h2 = '';
  let section: Section | undefined;
  let pendingSubtable: string | undefined; // "DatabaseConfiguration:" before a table

  const sectionFields = (): SeedField[] => {
    if (!section) return [];
    const n = section.names[0];
    if (!n) return [];
    return section.kind === 'resource' ? (resources[n]?.fields ?? []) : (types[n]?.fields ?? []);
  };

  const defineType = (
    name: string,
    fields: SeedField[],
    opts: { output?: boolean; resultType?: boolean; section?: string },
  ) => {
    types[name] = {
      name,
      section: opts.section ?? section?.number ?? '',
      fields,
      output: opts.output ?? false,
      resultType: opts.resultType ?? false,
    };
  };

  for (const block of blocksOf(text)) {
    if (block.kind === 'heading') {
      pendingSubtable = undefined;
      if (block.level <= 2) {
        h2 = block.level === 2 ? block.text : '';
        section = undefined;
        continue;
      }
      if (!/resources/i.test(h2)) {
        section = undefined;
        continue;
      }
      section = parseHeading(block.text);
      if (section.kind === 'resource') {
        for (const n of section.names) {
          resources[n] = {
            name: n,
            token: section.names.length === 1 && section.token ? section.token : tokenOf(n),
            tokenStated: section.names.length === 1 && section.token !== undefined,
            section: section.number,
            fields: [],
            partial: false,
            deprecated: section.deprecated,
          };
        }
      } else if (section.kind === 'type') {
        for (const n of section.names) defineType(n, [], { output: section.output });
      }
      continue;
    }

    // Configuration (the "Authentication" chapter).
    if (/authentication|configuration/i.test(h2) && !/resources/i.test(h2)) {
      if (block.kind === 'table' && (block.header.includes('name') || block.header.includes('field'))) {
        config.variables.push(...readFieldTable(block, DEFAULT_LIST_CONTEXT).map((r) => r.field));
      } else if (block.kind === 'paragraph') {
        if (/configuration variables \(all optional/i.test(block.text)) config.allOptional = true;
        const outs = /provider instance outputs ([^.]*)\./i.exec(block.text);
        if (outs)
          config.providerOutputs = outs[1]!
            .split(/\s*,\s*|\s+and\s+/)
            .map((s) => s.trim())
            .filter(Boolean);
        const inOnly = /input form additionally accepts ([^.]*)\./i.exec(block.text);
        if (inOnly)
          config.providerInputOnly = inOnly[1]!
            .split(/\s*,\s*|\s+and\s+/)
            .map((s) => s.trim())
            .filter(Boolean);
      }
      continue;
    }

    if (!section || section.kind === 'ignore') continue;
    const listCtx: ListContext = { inline: false, allRequired: section.allRequired };

    if (block.kind === 'table') {
      if (section.kind === 'nestedTable') {
        const typeCol = block.header.indexOf('type');
        const fieldsCol = block.header.indexOf('fields');
        for (const row of block.rows) {
          const typeCell = row[typeCol] ?? '';
          const names = [...typeCell.matchAll(TYPE_NAME_RE)].map((m) => m[0]);
          const resultType = section.resultTypes || /result type/i.test(typeCell);
          const sameShapes = /same nested shapes as the (\w+) resource/i.exec(row[fieldsCol] ?? '');
          for (const n of names) {
            defineType(n, parseFieldList(row[fieldsCol] ?? '', listCtx), {
              output: section.output || resultType,
              resultType,
            });
            if (/each deeper level/i.test(typeCell)) deeperLevelTypes.push(n);
            if (sameShapes) sameShapesAs.push({ type: n, resourceWord: sameShapes[1]! });
          }
        }
        continue;
      }
      const rows = readFieldTable(block, listCtx);
      if (pendingSubtable) {
        // A sub-table describing an object-typed field of this section.
        const target = sectionFields().find((f) => f.name === lowerFirst(pendingSubtable!));
        if (target) target.type = { kind: 'object', fields: rows.map((r) => r.field) };
        pendingSubtable = undefined;
        continue;
      }
      if (section.kind === 'common') {
        common.push({ scope: section.commonScope!, fields: rows.map((r) => r.field) });
        continue;
      }
      for (const name of section.names) {
        const target = section.kind === 'resource' ? resources[name]!.fields : types[name]!.fields;
        for (const { field, columns } of rows) {
          // Extra columns ("Cloud", "Server") say which of the section's resources have the field.
          const member = Object.entries(columns).find(([col]) => col !== '' && name.toLowerCase().endsWith(col));
          if (member && member[1] !== 'yes') continue;
          target.push(structuredClone(field));
        }
      }
      continue;
    }

    // Paragraphs.
    const p = block.text;
    const sub = /^(\w+):$/.exec(p);
    if (sub) {
      pendingSubtable = sub[1]!;
      continue;
    }
    pendingSubtable = undefined;
    const first = section.names[0];
    if (section.kind === 'resource' && first) {
      if (/^import:/i.test(p)) for (const n of section.names) resources[n]!.importText = p.replace(/^import:\s*/i, '');
      if (/not shown/i.test(p)) for (const n of section.names) resources[n]!.partial = true;
    }
    // "<Word> fields[ (note)]: list." describes the type of one of the section's fields.
    const described = /^(\w+) fields(?:\s*\(([^)]*)\))?:\s*(.*)$/.exec(p);
    if (described && first) {
      const word = described[1]!;
      const note = described[2] ?? '';
      const allRequired = /\ball\b[^)]*\brequired\b/i.test(note);
      const fields = parseFieldList(described[3]!, { inline: false, allRequired });
      const owner = section.kind === 'resource' ? resources[first]!.fields : (types[first]?.fields ?? []);
      const refName = `${first}${word}`;
      const target = owner.find((f) => refOf(f.type) === refName) ?? owner.find((f) => f.name === lowerFirst(word));
      const ref = target ? refOf(target.type) : undefined;
      if (ref) defineType(ref, fields, { output: /output/i.test(note) });
      else if (target) target.type = { kind: 'object', fields };
      continue;
    }
    // "A <field> output type exists: list." (a type whose field is not shown).
    const exists = /\bA (\w+) output type exists:\s*(.*)$/.exec(p);
    if (exists && first) {
      defineType(`${first}${upperFirst(exists[1]!)}`, parseFieldList(exists[2]!, listCtx), { output: true });
    }
  }

  // Common fields go to every resource of their scope.
  for (const { scope, fields } of common) {
    for (const res of Object.values(resources)) {
      if (!res.name.startsWith(scope)) continue;
      const own = new Set(res.fields.map((f) => f.name));
      const added = fields
        .map((f) => ({ ...structuredClone(f), name: f.name.replace('<resourceName>', lowerFirst(res.name)) }))
        .filter((f) => !own.has(f.name));
      res.fields = [...added, ...res.fields];
    }
  }

  // "X and the same type at each deeper level": X = <P><S> where P is a type; deeper levels are the
  // types P<last hump of P>… (ResourceGroupGroup → ResourceGroupGroupGroup, …).
  for (const n of deeperLevelTypes) {
    const parent = Object.keys(types)
      .filter((t) => t !== n && n.startsWith(t))
      .sort((a, b) => b.length - a.length)[0];
    if (!parent) continue;
    const suffix = n.slice(parent.length);
    const step = humps(parent).at(-1)!;
    for (const t of Object.keys(types)) {
      const extra = t.slice(parent.length);
      if (
        t !== parent &&
        t.startsWith(parent) &&
        extra.length > 0 &&
        extra === step.repeat(extra.length / step.length)
      ) {
        if (!types[t + suffix])
          defineType(t + suffix, structuredClone(types[n]!.fields), {
            output: types[n]!.output,
            section: types[n]!.section,
          });
      }
    }
  }

  // "It has the same nested shapes as the cluster resource, with nested objects returned as lists":
  // fields listed without a type take the type of the resource's field of the same (or singular)
  // name, nested objects as lists of objects.
  for (const { type, resourceWord } of sameShapesAs) {
    const word = resourceWord.toLowerCase();
    const res = Object.values(resources).find((r) => humps(r.name).at(-1)!.toLowerCase() === word);
    if (!res) continue;
    for (const f of types[type]!.fields) {
      if (!f.typeImplied) continue;
      const twin = res.fields.find((g) => g.name === f.name || `${g.name}s` === f.name || `${g.name}es` === f.name);
      if (twin) setType(f, asListShape(twin.type));
    }
  }

  // Data source functions, from their result types: getUserProfileAccount → getUserProfile.
  const functions: Record<string, SeedFunction> = {};
  for (const t of Object.values(types)) {
    if (!t.resultType || !t.name.startsWith('get')) continue;
    const h = humps(t.name);
    const fn = h.slice(0, -1).join('');
    const entry = (functions[fn] ??= { name: fn, token: `${packageName}:index/${fn}:${fn}`, resultTypes: [] });
    entry.resultTypes.push(t.name);
  }

  return { packageName, version, resources, types, functions, config, providerMethods };
}

/** A resource field's type as a data source returns it: every nested object becomes a list of objects. */
function asListShape(t: SeedType): SeedType {
  switch (t.kind) {
    case 'ref':
    case 'object':
      return { kind: 'array', items: { kind: 'object' } };
    case 'array':
      return t.items.kind === 'ref' || t.items.kind === 'object'
        ? { kind: 'array', items: { kind: 'object' } }
        : { kind: 'array', items: asListShape(t.items) };
    default:
      return t;
  }
}

export function refOf(t: SeedType): string | undefined {
  if (t.kind === 'ref') return t.name;
  if (t.kind === 'array') return refOf(t.items);
  if (t.kind === 'map') return refOf(t.values);
  return undefined;
}

/** A readable form of a seed type (`array of string`, `{a*, b}`). */
export function formatSeedType(t: SeedType): string {
  switch (t.kind) {
    case 'array':
      return `array of ${formatSeedType(t.items)}`;
    case 'map':
      return `map of ${formatSeedType(t.values)}`;
    case 'ref':
      return t.name;
    case 'object':
      return t.fields ? `{${t.fields.map((f) => `${f.name}${f.required ? '*' : ''}`).join(', ')}}` : 'object';
    case 'unknown':
      return 'unknown';
    default:
      return t.kind;
  }
}
