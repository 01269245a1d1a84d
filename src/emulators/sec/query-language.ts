/**
 * The emulator's checker of the platform's query language: enough of it to refuse what the platform
 * refuses and to describe what a query returns. A query is
 *
 *     [<query id>] {
 *       source { <data source> [<alias>] [, <data source> [<alias>]]* }
 *       filter { <condition> }
 *       return [distinct] { <field> [as <name>] [, <field> [as <name>]]* }
 *     }
 *
 * where a field is `FIELD`, `alias.FIELD` or `FIELD:path.into.json`. Every query needs the three
 * sections, in that order. Data sources come from a small catalogue (neutral names); the sources of
 * one query must share an evaluator (trail events are evaluated by the `CloudATrail` evaluator,
 * configuration data by none). Errors name the line and column, as the platform's compiler does.
 */

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

/** The evaluator of trail-event sources. */
export const TRAIL_EVALUATOR = 'CloudATrail';

export const DATA_SOURCES: readonly DataSourceDef[] = [
  { name: 'CloudATrailRawEvents', evaluator: TRAIL_EVALUATOR, fields: TRAIL_FIELDS },
  { name: 'SEC_ACT_K8S_AUDIT', evaluator: '', fields: CLUSTER_AUDIT_FIELDS },
  ...['SEC_CFG_CLOUD_A_BUCKETS', 'SEC_CFG_CLOUD_A_INSTANCES', 'SEC_CFG_CLOUD_A_IAM_USERS', 'SEC_CFG_CLOUD_B_BUCKETS', 'SEC_CFG_CLOUD_C_STORAGE_ACCOUNTS', 'SEC_CFG_CLOUD_D_BUCKETS'].map(
    (name) => ({ name, evaluator: '', fields: CONFIG_FIELDS }),
  ),
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

/**
 * Checks `text` as the platform's compiler would; `queryId` is the id it is stored under (a query
 * may start with it). Throws QueryCompileError with the platform's style of message.
 */
export function compileQuery(text: string, queryId: string): CompiledQuery {
  if (text.length > MAX_QUERY_CHARACTERS) throw new QueryCompileError(`Query compilation failed: the query text is longer than ${MAX_QUERY_CHARACTERS} characters`);
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
  const keyword = (t: Token, word: string) => t.kind === 'ident' && t.text.toLowerCase() === word;

  // Optional leading query id, which must be the query's own.
  if (peek().kind === 'ident') {
    const id = next();
    if (id.text !== queryId) fail(id, `the query names itself ${JSON.stringify(id.text)} but its id is ${JSON.stringify(queryId)}`);
  }
  expect('{');

  // source { ... }
  const sourceWord = next();
  if (!keyword(sourceWord, 'source')) fail(sourceWord, `expected "source", found ${describe(sourceWord)}`);
  expect('{');
  const sources: { def: DataSourceDef; alias: string }[] = [];
  for (;;) {
    const name = next();
    if (name.kind !== 'ident') fail(name, `expected a data source, found ${describe(name)}`);
    const def = DATA_SOURCES.find((d) => d.name === name.text);
    if (!def) fail(name, `unknown data source ${JSON.stringify(name.text)}; known data sources: ${DATA_SOURCES.map((d) => d.name).join(', ')}`);
    let alias = def!.name;
    if (peek().kind === 'ident') alias = next().text;
    if (sources.some((s) => s.alias === alias)) fail(name, `data source alias ${JSON.stringify(alias)} is used twice`);
    sources.push({ def: def!, alias });
    const sep = next();
    if (sep.text === '}') break;
    if (sep.text !== ',') fail(sep, `expected "," or "}", found ${describe(sep)}`);
  }
  const evaluators = [...new Set(sources.map((s) => s.def.evaluator))];
  if (evaluators.length > 1) fail(sourceWord, `the data sources ${sources.map((s) => s.def.name).join(', ')} need different evaluators and cannot be queried together`);

  // filter { ... }: a non-empty condition with balanced parentheses.
  const filterWord = next();
  if (!keyword(filterWord, 'filter')) fail(filterWord, `expected "filter", found ${describe(filterWord)}`);
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
      if ((opened.text === '(') !== (t.text === ')')) fail(t, `${JSON.stringify(t.text)} does not close ${JSON.stringify(opened.text)} of line ${opened.line}, column ${opened.column}`);
    } else if (t.kind === 'ident' && (keyword(t, 'source') || keyword(t, 'return')) && stack.length === 0) fail(t, `expected "}" to close the filter, found ${describe(t)}`);
    conditionTokens++;
  }
  if (conditionTokens === 0) fail(open, 'the filter is empty');

  // return [distinct] { ... }
  const returnWord = next();
  if (!keyword(returnWord, 'return')) fail(returnWord, `expected "return", found ${describe(returnWord)}`);
  if (keyword(peek(), 'distinct')) next();
  expect('{');
  const resultSchema: DataSourceField[] = [];
  for (;;) {
    const first = next();
    if (first.kind !== 'ident') fail(first, `expected a field to return, found ${describe(first)}`);
    let source = sources.length === 1 ? sources[0]! : undefined;
    let fieldToken = first;
    if (peek().text === '.' && peek().kind === 'punct') {
      next();
      source = sources.find((s) => s.alias === first.text);
      if (!source) fail(first, `unknown data source alias ${JSON.stringify(first.text)}`);
      fieldToken = next();
      if (fieldToken.kind !== 'ident') fail(fieldToken, `expected a field name, found ${describe(fieldToken)}`);
    }
    const candidates = source ? [source] : sources;
    const owners = candidates.filter((s) => s.def.fields.some((x) => x.name === fieldToken.text));
    if (owners.length === 0) {
      fail(fieldToken, `${JSON.stringify(fieldToken.text)} is not a field of ${candidates.map((s) => s.def.name).join(' or ')}; its fields: ${[...new Set(candidates.flatMap((s) => s.def.fields.map((x) => x.name)))].join(', ')}`);
    }
    if (owners.length > 1) fail(fieldToken, `${JSON.stringify(fieldToken.text)} is ambiguous; name its data source (<alias>.${fieldToken.text})`);
    let dataType = owners[0]!.def.fields.find((x) => x.name === fieldToken.text)!.dataType;
    let name = fieldToken.text;
    if (peek().text === ':' && peek().kind === 'punct') {
      if (dataType !== 'JSON') fail(peek(), `${fieldToken.text} is not a JSON field; a path cannot follow it`);
      next();
      // A path: identifiers, strings and numbers joined by "." (e.g. EVENT:requestParameters.bucketName).
      let last: Token;
      do {
        last = next();
        if (last.kind !== 'ident' && last.kind !== 'string' && last.kind !== 'number') fail(last, `expected a JSON path, found ${describe(last)}`);
      } while (peek().text === '.' && peek().kind === 'punct' && next());
      name = last.kind === 'string' ? last.text.slice(1, -1) : last.text;
      dataType = 'JSON';
    }
    if (keyword(peek(), 'as')) {
      next();
      const alias = next();
      if (alias.kind !== 'ident') fail(alias, `expected a name after "as", found ${describe(alias)}`);
      name = alias.text;
    }
    if (resultSchema.some((r) => r.name === name)) fail(fieldToken, `the result has two columns named ${JSON.stringify(name)}; name one with "as"`);
    resultSchema.push({ name, dataType });
    const sep = next();
    if (sep.text === '}') break;
    if (sep.text !== ',') fail(sep, `expected "," or "}", found ${describe(sep)}`);
  }
  const close = next();
  if (close.text !== '}') fail(close, `expected "}" to close the query, found ${describe(close)}`);
  const end = next();
  if (end.kind !== 'end') fail(end, `unexpected ${describe(end)} after the end of the query`);
  return { sources: sources.map((s) => s.def.name), evaluator: evaluators[0]!, resultSchema };
}
