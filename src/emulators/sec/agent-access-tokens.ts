import {
  DEFAULT_BODY_LIMITS,
  HttpError,
  checkItemCount,
  checkLength,
  field,
  invalid,
  json,
  quote,
  secretValue,
  validate,
  type Router,
} from '../core/index.js';
import { API_PREFIX, SEC_COLLECTIONS, type SecContext } from './context.js';

/** Stored and returned as is: the secret token is the object's key and is always readable. */
export interface AgentAccessTokenRecord {
  accessToken: string;
  tokenAlias: string;
  tokenEnabled: 0 | 1;
  version: string;
  /** Time of the last change (the platform calls it createdTime). */
  createdTime: string;
  props: { createdTime: string; description?: string; os?: string };
}

const COLLECTION = SEC_COLLECTIONS.agentAccessTokens;
const BASE = `${API_PREFIX}/${COLLECTION}`;
const TOKEN_VERSION = '0.1';

const propsSpec = field.object(
  { description: field.string({ optional: true, allowEmpty: true }), os: field.string({ optional: true }) },
  { optional: true },
);
const createSpec = field.object({ tokenAlias: field.string(), tokenEnabled: field.flag(), props: propsSpec });
const updateSpec = field.object({
  tokenAlias: field.string({ optional: true }),
  tokenEnabled: field.flag({ optional: true }),
  props: propsSpec,
});

type TokenBody = { tokenAlias?: string; tokenEnabled?: 0 | 1; props?: { description?: string; os?: string } };

export function registerAgentAccessTokenRoutes(router: Router, ctx: SecContext): void {
  router.add('POST', BASE, (request) => {
    validate(createSpec, request.body, 'body');
    const body = request.body as Required<Pick<TokenBody, 'tokenAlias' | 'tokenEnabled'>> & TokenBody;
    assertAliasFree(ctx, body.tokenAlias, undefined);
    const now = ctx.clock.nowIso();
    const record: AgentAccessTokenRecord = {
      accessToken: secretValue(24),
      tokenAlias: body.tokenAlias,
      tokenEnabled: body.tokenEnabled,
      version: TOKEN_VERSION,
      createdTime: now,
      props: { ...definedProps(body.props), createdTime: now },
    };
    ctx.store.put(COLLECTION, record.accessToken, record);
    return json(201, { data: record });
  });

  router.add('GET', BASE, () => json(200, { data: ctx.store.list<AgentAccessTokenRecord>(COLLECTION) }));

  router.add('GET', `${BASE}/:token`, (request) => json(200, { data: findToken(ctx, request.params.token!) }));

  router.add('PATCH', `${BASE}/:token`, (request) => {
    const existing = findToken(ctx, request.params.token!);
    validate(updateSpec, request.body, 'body');
    const body = request.body as TokenBody;
    if (body.tokenAlias !== undefined) assertAliasFree(ctx, body.tokenAlias, existing.accessToken);
    const updated: AgentAccessTokenRecord = {
      ...existing,
      tokenAlias: body.tokenAlias ?? existing.tokenAlias,
      tokenEnabled: body.tokenEnabled ?? existing.tokenEnabled,
      createdTime: ctx.clock.nowIso(),
      props: { ...existing.props, ...definedProps(body.props) },
    };
    ctx.store.put(COLLECTION, updated.accessToken, updated);
    return json(200, { data: updated });
  });

  // Tokens cannot be deleted: clients disable and rename them instead.
  router.add('DELETE', `${BASE}/:token`, () => {
    throw new HttpError(405, 'agent access tokens cannot be deleted; disable the token instead', undefined, {
      Allow: 'GET, PATCH',
    });
  });

  router.add('POST', `${BASE}/search`, (request) => {
    const filters = parseFilters(request.body);
    const rows = ctx.store
      .list<AgentAccessTokenRecord>(COLLECTION)
      .filter((record) => filters.every((filter) => filter(record)));
    return ctx.searchPages.first(request, BASE, rows);
  });
  ctx.searchPages.register(router, BASE);
}

function findToken(ctx: SecContext, token: string): AgentAccessTokenRecord {
  const record = ctx.store.get<AgentAccessTokenRecord>(COLLECTION, token);
  // The token is a secret: never echo it.
  if (!record) throw new HttpError(404, 'agent access token not found');
  return record;
}

function assertAliasFree(ctx: SecContext, alias: string, ownToken: string | undefined): void {
  const taken = ctx.store
    .list<AgentAccessTokenRecord>(COLLECTION)
    .some((record) => record.tokenAlias === alias && record.accessToken !== ownToken);
  if (taken) throw new HttpError(409, `an agent access token with alias ${quote(alias)} already exists`);
}

function definedProps(props: TokenBody['props']): { description?: string; os?: string } {
  const result: { description?: string; os?: string } = {};
  if (props?.description !== undefined && props.description !== null) result.description = props.description;
  if (props?.os !== undefined && props.os !== null) result.os = props.os;
  return result;
}

const SEARCHABLE_FIELDS = ['tokenAlias', 'tokenEnabled', 'accessToken', 'version'] as const;
type Filter = (record: AgentAccessTokenRecord) => boolean;

/** `{"filters": [{"field", "expression", "value" | "values"}]}`, all filters must hold. */
function parseFilters(body: unknown): Filter[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('request body must be a JSON object');
  const filters = (body as { filters?: unknown }).filters ?? [];
  if (!Array.isArray(filters)) throw invalid('filters must be an array');
  checkItemCount(filters, DEFAULT_BODY_LIMITS.items, 'filters');
  return filters.map((raw, index) => {
    const path = `filters[${index}]`;
    if (typeof raw !== 'object' || raw === null) throw invalid(`${path} must be an object`);
    const { field: name, expression, value, values } = raw as Record<string, unknown>;
    if (!SEARCHABLE_FIELDS.includes(name as (typeof SEARCHABLE_FIELDS)[number])) {
      throw invalid(`${path}.field must be one of ${SEARCHABLE_FIELDS.join(', ')}`);
    }
    const read = (record: AgentAccessTokenRecord): string => String(record[name as keyof AgentAccessTokenRecord]);
    switch (expression) {
      case 'eq':
      case 'ne': {
        const wanted = scalar(value, `${path}.value`);
        return expression === 'eq' ? (record) => read(record) === wanted : (record) => read(record) !== wanted;
      }
      case 'in':
      case 'not_in': {
        if (!Array.isArray(values))
          throw invalid(`${path}.values must be an array for expression ${String(expression)}`);
        checkItemCount(values, DEFAULT_BODY_LIMITS.items, `${path}.values`);
        const set = new Set(values.map((item, i) => scalar(item, `${path}.values[${i}]`)));
        return expression === 'in' ? (record) => set.has(read(record)) : (record) => !set.has(read(record));
      }
      default:
        throw invalid(`${path}.expression must be one of eq, ne, in, not_in`);
    }
  });
}

/** A value a filter compares with, as text: a string, number or boolean of bounded length. */
function scalar(value: unknown, path: string): string {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    throw invalid(`${path} must be a string, number or boolean`);
  const text = String(value);
  checkLength(text, DEFAULT_BODY_LIMITS.characters, path);
  return text;
}
