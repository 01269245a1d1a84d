import {
  declaredFields,
  HttpError,
  invalid,
  json,
  noContent,
  quote,
  validate,
  withSentFields,
  type Router,
} from '../core/index.js';
import { QUERY_BODIES } from '../../wire/sec-contract/queries.js';
import { API_PREFIX, POLICIES, QUERIES, type SecContext } from './context.js';
import { BUILT_IN_POLICY_CATALOGUE } from './catalogue/policies.js';
import { BUILT_IN_QUERIES_WITHOUT_POLICY } from './catalogue/queries.js';
import { QueryCompileError, compileQuery, type CompiledQuery } from './query-language.js';

/** The owner of the platform's own queries (their ids start `SEC_Global_`). */
export const PLATFORM_OWNER = 'Platform';

export interface QueryRecord {
  queryId: string;
  queryText: string;
  /** "" when the query's sources need no evaluator. */
  evaluatorId: string;
  owner: string;
  lastUpdateTime: string;
  lastUpdateUser: string;
  /** JSON text: the columns of a result row, `[{"name", "dataType"}]`. */
  resultSchema: string;
}

const BASE = `${API_PREFIX}/${QUERIES}`;

const createSpec = QUERY_BODIES.Queries!;
const updateSpec = QUERY_BODIES['Queries:update']!;
const validateSpec = QUERY_BODIES['Queries:validate']!;

/** A query compiled, and the evaluator asked for (when one is) the one its sources need. */
function compileWithEvaluator(text: string, queryId: string | undefined, asked: string): CompiledQuery {
  const compiled = compile(text, queryId);
  if (asked !== '' && asked !== compiled.evaluator) {
    throw invalid(
      compiled.evaluator === ''
        ? `body.evaluatorId: the data sources ${compiled.sources.join(', ')} are evaluated without an evaluator ` +
            `(got ${quote(asked)})`
        : `body.evaluatorId: the data sources ${compiled.sources.join(', ')} are evaluated ` +
            `by ${quote(compiled.evaluator)} (got ${quote(asked)})`,
    );
  }
  return compiled;
}

/** The platform compiles every query it is sent; a malformed one is a 400 naming line and column. */
function compile(text: string, queryId: string | undefined): CompiledQuery {
  try {
    return compileQuery(text, queryId);
  } catch (err) {
    if (err instanceof QueryCompileError) throw invalid(err.message);
    throw err;
  }
}

export function registerQueryRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: createSpec });
  router.document('POST', `${BASE}/validate`, { body: validateSpec });
  router.document('PATCH', `${BASE}/:id`, { body: updateSpec });
  for (const query of builtInQueries(ctx)) ctx.store.put(QUERIES, query.queryId, query);

  router.add('POST', BASE, (request) => {
    validate(createSpec, request.body, 'body');
    const body = request.body as { queryId: string; queryText: string; evaluatorId?: string | null };
    const compiled = compileWithEvaluator(body.queryText, body.queryId, body.evaluatorId ?? '');
    if (ctx.store.has(QUERIES, body.queryId))
      throw new HttpError(409, `a query with id ${quote(body.queryId)} already exists`);
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const record: QueryRecord = {
      ...declaredFields(createSpec, body),
      queryId: body.queryId,
      queryText: body.queryText,
      evaluatorId: compiled.evaluator,
      owner: ctx.username,
      lastUpdateTime: ctx.clock.nowIso(),
      lastUpdateUser: ctx.username,
      resultSchema: JSON.stringify(compiled.resultSchema),
    };
    ctx.store.put(QUERIES, record.queryId, record);
    return json(201, { data: record, message: 'SUCCESS' });
  });

  // Compiles a query without keeping it: what a create of it would say of its text and evaluator.
  router.add('POST', `${BASE}/validate`, (request) => {
    validate(validateSpec, request.body, 'body');
    const body = request.body as { queryId?: string | null; queryText: string; evaluatorId?: string | null };
    const compiled = compileWithEvaluator(body.queryText, body.queryId ?? undefined, body.evaluatorId ?? '');
    const data = {
      queryText: body.queryText,
      evaluatorId: compiled.evaluator,
      resultSchema: JSON.stringify(compiled.resultSchema),
    };
    return json(200, { data, message: 'SUCCESS' });
  });

  router.add('GET', BASE, () => json(200, { data: ctx.store.list<QueryRecord>(QUERIES) }));

  router.add('GET', `${BASE}/:id`, (request) => json(200, { data: findQuery(ctx, request.params.id!) }));

  router.add('PATCH', `${BASE}/:id`, (request) => {
    const existing = findQuery(ctx, request.params.id!);
    if (isBuiltIn(existing))
      throw invalid(`${existing.queryId} is a built-in query and cannot be changed; create a query of your own`);
    validate(updateSpec, request.body, 'body');
    const { queryText } = request.body as { queryText: string };
    const compiled = compile(queryText, existing.queryId);
    if (compiled.evaluator !== existing.evaluatorId) {
      throw invalid(
        `body.queryText: the evaluator of a query cannot change (${quote(existing.evaluatorId || 'none')} ` +
          `→ ${quote(compiled.evaluator || 'none')}); create a new query for data ` +
          `sources ${compiled.sources.join(', ')}`,
      );
    }
    const updated: QueryRecord = {
      ...withSentFields(existing, updateSpec, request.body),
      queryText,
      resultSchema: JSON.stringify(compiled.resultSchema),
      lastUpdateTime: ctx.clock.nowIso(),
      lastUpdateUser: ctx.username,
    };
    ctx.store.put(QUERIES, updated.queryId, updated);
    return json(200, { data: updated, message: 'SUCCESS' });
  });

  router.add('DELETE', `${BASE}/:id`, (request) => {
    const existing = findQuery(ctx, request.params.id!);
    if (isBuiltIn(existing)) throw invalid(`${existing.queryId} is a built-in query and cannot be deleted`);
    const users = ctx.store
      .list<{ policyId: string; queryId: string }>(POLICIES)
      .filter((p) => p.queryId === existing.queryId);
    if (users.length > 0) {
      throw invalid(
        `query ${quote(existing.queryId)} is used ` +
          `by ${users.length === 1 ? 'policy' : 'policies'} ${users.map((p) => p.policyId).join(', ')}; delete or ` +
          `change ${users.length === 1 ? 'it' : 'them'} first`,
      );
    }
    ctx.store.remove(QUERIES, existing.queryId);
    return noContent();
  });
}

export function findQuery(ctx: SecContext, id: string): QueryRecord {
  const record = ctx.store.get<QueryRecord>(QUERIES, id);
  if (!record) throw new HttpError(404, `query ${quote(id)} not found`);
  return record;
}

/**
 * The platform's own queries are those it owns: an account may give its own queries ids of the same
 * form (upstream's compliance-policy docs create `…_Global_…_Config_…`), and change and delete them.
 */
const isBuiltIn = (query: QueryRecord) => query.owner === PLATFORM_OWNER;

/** The data source a built-in configuration query of each cloud reads. */
const CONFIG_SOURCES: Record<string, string> = {
  CloudA: 'SEC_CFG_CLOUD_A_BUCKETS',
  CloudB: 'SEC_CFG_CLOUD_B_BUCKETS',
  CloudC: 'SEC_CFG_CLOUD_C_STORAGE_ACCOUNTS',
};

/** The queries the built-in policies evaluate, and the platform's other built-in queries, present in every account. */
function builtInQueries(ctx: SecContext): QueryRecord[] {
  const now = ctx.clock.nowIso();
  const ids = [
    ...new Set([
      ...BUILT_IN_POLICY_CATALOGUE.map((p) => p.queryId).filter((id) => id !== ''),
      ...BUILT_IN_QUERIES_WITHOUT_POLICY,
    ]),
  ];
  return ids.map((queryId) => {
    const trail = /^SEC_Global_CloudA_Trail_(\w+)$/.exec(queryId);
    const config = /^SEC_Global_(Cloud[ABC])_Config_(\w+)$/.exec(queryId);
    const queryText = trail
      ? '{\n  source { CloudATrailRawEvents }\n' +
        `  filter { EVENT_NAME = '${trail[1]}' and ERROR_CODE is null }\n` +
        '  return distinct { INSERT_ID, INSERT_TIME, EVENT_TIME, EVENT }\n}\n'
      : `{\n  source { ${CONFIG_SOURCES[config?.[1] ?? 'CloudA']} }\n` +
        `  filter { RESOURCE_CONFIG:check = '${config?.[2] ?? queryId}' }\n` +
        '  return distinct { ACCOUNT_ID, RESOURCE_KEY, RESOURCE_REGION, RESOURCE_TYPE, SERVICE }\n}\n';
    const compiled = compileQuery(queryText, queryId);
    return {
      queryId,
      queryText,
      evaluatorId: compiled.evaluator,
      owner: PLATFORM_OWNER,
      lastUpdateTime: now,
      lastUpdateUser: PLATFORM_OWNER,
      resultSchema: JSON.stringify(compiled.resultSchema),
    };
  });
}
