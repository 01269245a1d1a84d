/**
 * The emulator's checker of the platform's query language: enough of it to refuse what the platform
 * refuses and to describe what a query returns. A query is
 *
 *     [<query id>] {
 *       source { <data source> [<alias>] [, <data source> [<alias>]]* }
 *       [filter { <condition> }]
 *       return [distinct] { <column> [, <column>]* }
 *     }
 *
 * where a column is a field (`FIELD`, `alias.FIELD` or `FIELD:path.into.json`, optionally
 * `as <name>`) or an expression named with `as <name>` (`'text' as REASON`,
 * `case when … then … end as REASON`). A query needs its source and return sections; the filter
 * is optional (the platform takes `{ source { … } return { … } }`). Data sources come from a small
 * catalogue (neutral names); the sources of one query must share an evaluator (trail events are
 * evaluated by the `CloudATrail` evaluator, configuration and host data by none). Errors name the
 * line and column, as the platform's compiler does.
 */
import type { QUERY_EVALUATORS } from '../../wire/sec-contract/queries.js';

export interface DataSourceField {
  readonly name: string;
  readonly dataType: 'String' | 'Number' | 'Timestamp' | 'JSON';
}

export interface DataSourceDef {
  readonly name: string;
  /** The evaluator the platform runs queries of this source with; "" for none. */
  readonly evaluator: string;
  readonly fields: readonly DataSourceField[];
}

const f = (name: string, dataType: DataSourceField['dataType']): DataSourceField => ({ name, dataType });

/** Configuration data of every cloud: the same columns, one source per kind of resource. */
const CONFIG_FIELDS: readonly DataSourceField[] = [
  f('ACCOUNT_ID', 'String'),
  f('ACCOUNT_ALIAS', 'String'),
  f('URN', 'String'),
  f('RESOURCE_ID', 'String'),
  f('RESOURCE_KEY', 'String'),
  f('RESOURCE_REGION', 'String'),
  f('RESOURCE_TYPE', 'String'),
  f('SERVICE', 'String'),
  f('RESOURCE_CONFIG', 'JSON'),
  f('RESOURCE_TAGS', 'JSON'),
];

const TRAIL_FIELDS: readonly DataSourceField[] = [
  f('INSERT_ID', 'Number'),
  f('INSERT_TIME', 'Timestamp'),
  f('EVENT_TIME', 'Timestamp'),
  f('EVENT', 'JSON'),
  f('EVENT_NAME', 'String'),
  f('EVENT_SOURCE', 'String'),
  f('ERROR_CODE', 'String'),
];

/** Audit events of the Kubernetes clusters the agents watch (the platform's activity data, no evaluator). */
const CLUSTER_AUDIT_FIELDS: readonly DataSourceField[] = [
  f('EVENT_TIME', 'Timestamp'),
  f('EVENT_NAME', 'String'),
  f('EVENT_OBJECT', 'String'),
  f('EVENT_SOURCE', 'String'),
  f('CLUSTER_TYPE', 'String'),
  f('CLUSTER_ID', 'String'),
  f('EVENT_JSON', 'JSON'),
];

/** The evaluator of trail-event sources: one of the contract's (a rename there fails the build here). */
export const TRAIL_EVALUATOR: (typeof QUERY_EVALUATORS)[number] = 'CloudATrail';

/** Cloud A configuration data also names each resource by its Cloud A resource name (`ARN`). */
const CLOUD_A_CONFIG_FIELDS: readonly DataSourceField[] = [...CONFIG_FIELDS, f('ARN', 'String')];

/** Files on the agents' hosts (the platform's host-entity data, no evaluator). */
const HOST_FILE_FIELDS: readonly DataSourceField[] = [
  f('MID', 'Number'),
  f('PATH', 'String'),
  f('FILE_NAME', 'String'),
  f('FILE_TYPE', 'String'),
  f('SIZE', 'Number'),
  f('INODE', 'Number'),
  f('IS_LINK', 'Number'),
  f('LINK_DEST_PATH', 'String'),
  f('LINK_ABS_DEST_PATH', 'String'),
  f('HARD_LINK_COUNT', 'Number'),
  f('BLOCK_SIZE', 'Number'),
  f('BLOCK_COUNT', 'Number'),
  f('OWNER_UID', 'Number'),
  f('OWNER_GID', 'Number'),
  f('OWNER_USERNAME', 'String'),
  f('FILE_PERMISSIONS', 'String'),
  f('METADATA_HASH', 'String'),
  f('FILEDATA_HASH', 'String'),
  f('FILE_CREATED_TIME', 'Timestamp'),
  f('FILE_MODIFIED_TIME', 'Timestamp'),
  f('FILE_ACCESSED_TIME', 'Timestamp'),
  f('RECORD_CREATED_TIME', 'Timestamp'),
];

/**
 * The data sources, in neutral names (`LW_` → `SEC_`, AWS → CLOUD_A, CloudTrail → TRAIL). Besides
 * those the built-in queries read, each one upstream's docs, examples or tests (2.2.0, and the
 * SDK's at v2.10.0) query: the trail configuration (`SEC_CFG_CLOUD_A_TRAIL`, upstream's
 * compliance-policy docs), security groups (the SDK's query example) and host files (`SEC_HE_FILES`,
 * the SDK's host-policy test).
 */
export const DATA_SOURCES: readonly DataSourceDef[] = [
  { name: 'CloudATrailRawEvents', evaluator: TRAIL_EVALUATOR, fields: TRAIL_FIELDS },
  { name: 'SEC_ACT_K8S_AUDIT', evaluator: '', fields: CLUSTER_AUDIT_FIELDS },
  { name: 'SEC_HE_FILES', evaluator: '', fields: HOST_FILE_FIELDS },
  ...[
    'SEC_CFG_CLOUD_A_BUCKETS',
    'SEC_CFG_CLOUD_A_INSTANCES',
    'SEC_CFG_CLOUD_A_IAM_USERS',
    'SEC_CFG_CLOUD_A_SECURITY_GROUPS',
    'SEC_CFG_CLOUD_A_TRAIL',
  ].map((name) => ({ name, evaluator: '', fields: CLOUD_A_CONFIG_FIELDS })),
  ...['SEC_CFG_CLOUD_B_BUCKETS', 'SEC_CFG_CLOUD_C_STORAGE_ACCOUNTS', 'SEC_CFG_CLOUD_D_BUCKETS'].map((name) => ({
    name,
    evaluator: '',
    fields: CONFIG_FIELDS,
  })),
];

export interface CompiledQuery {
  readonly sources: readonly string[];
  /** "" when the sources need none. */
  readonly evaluator: string;
  /** What each row holds: output names and types, in order. */
  readonly resultSchema: readonly DataSourceField[];
}

export class QueryCompileError extends Error {}

interface Token {
  readonly kind: 'ident' | 'string' | 'number' | 'punct' | 'op' | 'end';
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

const MAX_QUERY_CHARACTERS = 64 * 1024;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let column = 1;
  let i = 0;
  const advance = (n: number) => {
    for (let k = 0; k < n; k++) {
      if (text[i] === '\n') {
        line++;
        column = 1;
      } else column++;
      i++;
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      advance(1);
      continue;
    }
    // Comments: `--` and `//` to the end of the line, `/* ... */`.
    if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') advance(1);
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw compileError(line, column, 'unterminated comment');
      advance(end + 2 - i);
      continue;
    }
    const start = { line, column };
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length || text[j] !== c) throw compileError(line, column, `unterminated string literal`);
      tokens.push({ kind: 'string', text: text.slice(i, j + 1), ...start });
      advance(j + 1 - i);
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(text.slice(i, i + 256));
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0], ...start });
      advance(ident[0].length);
      continue;
    }
    const number = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i, i + 64));
    if (number) {
      tokens.push({ kind: 'number', text: number[0], ...start });
      advance(number[0].length);
      continue;
    }
    if ('{}(),.:'.includes(c)) {
      tokens.push({ kind: 'punct', text: c, ...start });
      advance(1);
      continue;
    }
    const op = /^(<>|!=|<=|>=|=|<|>|\+|-|\*|\/|%|\|\|)/.exec(text.slice(i, i + 2));
    if (op) {
      tokens.push({ kind: 'op', text: op[0], ...start });
      advance(op[0].length);
      continue;
    }
    throw compileError(line, column, `unexpected character ${JSON.stringify(c)}`);
  }
  tokens.push({ kind: 'end', text: '', line, column });
  return tokens;
}

function compileError(line: number, column: number, detail: string): QueryCompileError {
  return new QueryCompileError(`Query compilation failed at line ${line}, column ${column}: ${detail}`);
}

const describe = (t: Token) => (t.kind === 'end' ? 'end of query' : JSON.stringify(t.text));

type Failure = (t: Token, detail: string) => never;

interface SourceInQuery {
  readonly def: DataSourceDef;
  readonly alias: string;
}

const isWord = (t: Token | undefined, word: string) =>
  t !== undefined && t.kind === 'ident' && t.text.toLowerCase() === word;
const isPunct = (t: Token | undefined, text: string) => t !== undefined && t.kind === 'punct' && t.text === text;

/** Words of the expression language, which are not fields. */
const EXPRESSION_WORDS = new Set([
  ...['case', 'when', 'then', 'else', 'end'],
  ...['and', 'or', 'not', 'in', 'is', 'null', 'like', 'between', 'true', 'false'],
]);

/**
 * Whether a column has the shape of a field: `[alias.]FIELD[:path.into.json] [as NAME]`. Anything
 * else is an expression.
 */
function isFieldShaped(tokens: readonly Token[]): boolean {
  const isName = (t: Token | undefined) =>
    t !== undefined && t.kind === 'ident' && !EXPRESSION_WORDS.has(t.text.toLowerCase());
  const isPathStep = (t: Token | undefined) =>
    t !== undefined && (t.kind === 'ident' || t.kind === 'string' || t.kind === 'number');
  if (!isName(tokens[0])) return false;
  let i = 1;
  if (isPunct(tokens[i], '.')) {
    if (!isName(tokens[i + 1])) return false;
    i += 2;
  }
  if (isPunct(tokens[i], ':')) {
    do {
      if (!isPathStep(tokens[i + 1])) return false;
      i += 2;
    } while (isPunct(tokens[i], '.'));
  }
  if (isWord(tokens[i], 'as') && tokens[i + 1]?.kind === 'ident') i += 2;
  return i === tokens.length;
}

/** The source that has `field`: the one `alias` names, or the only one of the query's that has it. */
function ownerOf(
  field: Token,
  alias: Token | undefined,
  sources: readonly SourceInQuery[],
  fail: Failure,
): SourceInQuery {
  let candidates = sources;
  if (alias !== undefined) {
    const named = sources.find((s) => s.alias === alias.text);
    if (!named) fail(alias, `unknown data source alias ${JSON.stringify(alias.text)}`);
    candidates = [named!];
  }
  const owners = candidates.filter((s) => s.def.fields.some((x) => x.name === field.text));
  if (owners.length === 0) {
    const fields = [...new Set(candidates.flatMap((s) => s.def.fields.map((x) => x.name)))].join(', ');
    const names = candidates.map((s) => s.def.name).join(' or ');
    fail(field, `${JSON.stringify(field.text)} is not a field of ${names}; its fields: ${fields}`);
  }
  if (owners.length > 1) {
    fail(field, `${JSON.stringify(field.text)} is ambiguous; name its data source (<alias>.${field.text})`);
  }
  return owners[0]!;
}

/** A column of the return list: its output name and type. */
function returnedColumn(tokens: readonly Token[], sources: readonly SourceInQuery[], fail: Failure): DataSourceField {
  if (isFieldShaped(tokens)) {
    const aliased = isPunct(tokens[1], '.');
    const fieldToken = aliased ? tokens[2]! : tokens[0]!;
    const owner = ownerOf(fieldToken, aliased ? tokens[0] : undefined, sources, fail);
    let dataType = owner.def.fields.find((x) => x.name === fieldToken.text)!.dataType;
    let name = fieldToken.text;
    let i = aliased ? 3 : 1;
    if (isPunct(tokens[i], ':')) {
      if (dataType !== 'JSON') fail(tokens[i]!, `${fieldToken.text} is not a JSON field; a path cannot follow it`);
      // The column is named after the last step of the path (e.g. EVENT:requestParameters.bucketName).
      while (isPunct(tokens[i], ':') || isPunct(tokens[i], '.')) i += 2;
      const last = tokens[i - 1]!;
      name = last.kind === 'string' ? last.text.slice(1, -1) : last.text;
      dataType = 'JSON';
    }
    if (isWord(tokens[i], 'as')) name = tokens[i + 1]!.text;
    return { name, dataType };
  }
  // An expression, which must be named: `<expression> as <NAME>`.
  const nameToken = tokens[tokens.length - 1]!;
  if (tokens.length < 3 || !isWord(tokens[tokens.length - 2], 'as') || nameToken.kind !== 'ident') {
    fail(tokens[0]!, 'an expression in the return list needs a name: <expression> as <NAME>');
  }
  const expression = tokens.slice(0, -2);
  // Its fields must exist; functions, words of the language and steps of JSON paths are not fields.
  for (let k = 0; k < expression.length; k++) {
    const t = expression[k]!;
    if (t.kind !== 'ident' || EXPRESSION_WORDS.has(t.text.toLowerCase()) || isPunct(expression[k + 1], '(')) continue;
    if (isPunct(expression[k - 1], ':') || isPunct(expression[k - 1], '.')) continue;
    // `alias.FIELD`: the alias must name a source of the query, which must have the field.
    if (isPunct(expression[k + 1], '.') && expression[k + 2]?.kind === 'ident') {
      ownerOf(expression[k + 2]!, t, sources, fail);
      k += 2;
      continue;
    }
    ownerOf(t, undefined, sources, fail);
  }
  const dataType = expression.length === 1 && expression[0]!.kind === 'number' ? 'Number' : 'String';
  return { name: nameToken.text, dataType };
}

/**
 * Checks `text` as the platform's compiler would; `queryId` is the id it is stored under (a query
 * may start with it; a query validated without one may name itself anything). Throws QueryCompileError
 * with the platform's style of message.
 */
export function compileQuery(text: string, queryId: string | undefined): CompiledQuery {
  if (text.length > MAX_QUERY_CHARACTERS)
    throw new QueryCompileError(
      `Query compilation failed: the query text is longer than ${MAX_QUERY_CHARACTERS} characters`,
    );
  if (text.trim() === '') throw new QueryCompileError('Query compilation failed: the query text is empty');
  const tokens = tokenize(text);
  let p = 0;
  const peek = () => tokens[p]!;
  const next = () => tokens[p++]!;
  const fail = (t: Token, detail: string): never => {
    throw compileError(t.line, t.column, detail);
  };
  const expect = (text: string, what = JSON.stringify(text)) => {
    const t = next();
    if (t.text !== text || t.kind === 'string') fail(t, `expected ${what}, found ${describe(t)}`);
    return t;
  };

  // Optional leading query id, which must be the query's own.
  if (peek().kind === 'ident') {
    const id = next();
    if (queryId !== undefined && id.text !== queryId)
      fail(id, `the query names itself ${JSON.stringify(id.text)} but its id is ${JSON.stringify(queryId)}`);
  }
  expect('{');

  // source { ... }
  const sourceWord = next();
  if (!isWord(sourceWord, 'source')) fail(sourceWord, `expected "source", found ${describe(sourceWord)}`);
  expect('{');
  const sources: SourceInQuery[] = [];
  for (;;) {
    const name = next();
    if (name.kind !== 'ident') fail(name, `expected a data source, found ${describe(name)}`);
    const def = DATA_SOURCES.find((d) => d.name === name.text);
    if (!def)
      fail(
        name,
        `unknown data source ${JSON.stringify(name.text)}; known data ` +
          `sources: ${DATA_SOURCES.map((d) => d.name).join(', ')}`,
      );
    let alias = def!.name;
    if (peek().kind === 'ident') alias = next().text;
    if (sources.some((s) => s.alias === alias)) fail(name, `data source alias ${JSON.stringify(alias)} is used twice`);
    sources.push({ def: def!, alias });
    const sep = next();
    if (sep.text === '}') break;
    if (sep.text !== ',') fail(sep, `expected "," or "}", found ${describe(sep)}`);
  }
  const evaluators = [...new Set(sources.map((s) => s.def.evaluator))];
  if (evaluators.length > 1)
    fail(
      sourceWord,
      `the data sources ${sources.map((s) => s.def.name).join(', ')} need different evaluators and cannot be queried ` +
        `together`,
    );

  // [filter { ... }]: a non-empty condition with balanced parentheses; a query may have none.
  const filtered = isWord(peek(), 'filter');
  if (filtered) {
    next();
    const open = expect('{');
    const stack: Token[] = [];
    let conditionTokens = 0;
    for (;;) {
      const t = next();
      if (t.kind === 'end') fail(t, `the filter opened at line ${open.line}, column ${open.column} is not closed`);
      if (t.kind === 'punct' && (t.text === '(' || t.text === '{')) stack.push(t);
      else if (t.kind === 'punct' && (t.text === ')' || t.text === '}')) {
        if (stack.length === 0) {
          if (t.text === ')') fail(t, 'unbalanced ")"');
          break;
        }
        const opened = stack.pop()!;
        if ((opened.text === '(') !== (t.text === ')')) {
          const where = `line ${opened.line}, column ${opened.column}`;
          fail(t, `${JSON.stringify(t.text)} does not close ${JSON.stringify(opened.text)} of ${where}`);
        }
      } else if (t.kind === 'ident' && (isWord(t, 'source') || isWord(t, 'return')) && stack.length === 0) {
        fail(t, `expected "}" to close the filter, found ${describe(t)}`);
      }
      conditionTokens++;
    }
    if (conditionTokens === 0) fail(open, 'the filter is empty');
  }

  // return [distinct] { <column>, ... }
  const returnWord = next();
  if (!isWord(returnWord, 'return')) {
    fail(returnWord, `expected ${filtered ? '"return"' : '"filter" or "return"'}, found ${describe(returnWord)}`);
  }
  if (isWord(peek(), 'distinct')) next();
  const openReturn = expect('{');
  const resultSchema: DataSourceField[] = [];
  for (;;) {
    // A column runs to the next "," or "}" outside parentheses.
    const column: Token[] = [];
    let depth = 0;
    for (;;) {
      const t = peek();
      if (t.kind === 'end') {
        fail(t, `the return list opened at line ${openReturn.line}, column ${openReturn.column} is not closed`);
      }
      if (depth === 0 && t.kind === 'punct' && (t.text === ',' || t.text === '}')) break;
      if (t.kind === 'punct' && t.text === '(') depth++;
      if (t.kind === 'punct' && t.text === ')' && --depth < 0) fail(t, 'unbalanced ")"');
      column.push(next());
    }
    if (column.length === 0) fail(peek(), `expected a field to return, found ${describe(peek())}`);
    const returned = returnedColumn(column, sources, fail);
    if (resultSchema.some((r) => r.name === returned.name)) {
      fail(column[0]!, `the result has two columns named ${JSON.stringify(returned.name)}; name one with "as"`);
    }
    resultSchema.push(returned);
    if (next().text === '}') break;
  }
  const close = next();
  if (close.text !== '}') fail(close, `expected "}" to close the query, found ${describe(close)}`);
  const end = next();
  if (end.kind !== 'end') fail(end, `unexpected ${describe(end)} after the end of the query`);
  return { sources: sources.map((s) => s.def.name), evaluator: evaluators[0]!, resultSchema };
}
