import {
  declaredFields,
  HttpError,
  json,
  quote,
  secretValue,
  validate,
  withSentFields,
  type Router,
} from '../core/index.js';
import { AGENT_ACCESS_TOKEN_BODIES } from '../../wire/sec-contract/agent-access-tokens.js';
import { API_PREFIX, SEC_COLLECTIONS, type SecContext } from './context.js';
import { searchFilter, type SearchableField } from './search-filters.js';

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

const createSpec = AGENT_ACCESS_TOKEN_BODIES.AgentAccessTokens!;
const updateSpec = AGENT_ACCESS_TOKEN_BODIES['AgentAccessTokens:update']!;

type TokenBody = { tokenAlias?: string; tokenEnabled?: 0 | 1; props?: { description?: string; os?: string } };

export function registerAgentAccessTokenRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: createSpec });
  router.document('PATCH', `${BASE}/:token`, { body: updateSpec });
  router.add('POST', BASE, (request) => {
    validate(createSpec, request.body, 'body');
    const body = request.body as Required<Pick<TokenBody, 'tokenAlias' | 'tokenEnabled'>> & TokenBody;
    assertAliasFree(ctx, body.tokenAlias, undefined);
    const now = ctx.clock.nowIso();
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const sent = declaredFields(createSpec, body) as Partial<AgentAccessTokenRecord>;
    const record: AgentAccessTokenRecord = {
      ...sent,
      accessToken: secretValue(24),
      tokenAlias: body.tokenAlias,
      tokenEnabled: body.tokenEnabled,
      version: TOKEN_VERSION,
      createdTime: now,
      props: { ...sent.props, ...definedProps(body.props), createdTime: now },
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
    const sent = withSentFields(existing, updateSpec, body);
    const updated: AgentAccessTokenRecord = {
      ...sent,
      tokenAlias: body.tokenAlias ?? existing.tokenAlias,
      tokenEnabled: body.tokenEnabled ?? existing.tokenEnabled,
      createdTime: ctx.clock.nowIso(),
      props: { ...sent.props, ...definedProps(body.props) },
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
    const matches = searchFilter(request.body, SEARCHABLE);
    const rows = ctx.store.list<AgentAccessTokenRecord>(COLLECTION).filter(matches);
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

/** What a search may filter tokens on (search-filters.ts). */
const SEARCHABLE: Readonly<Record<string, SearchableField<AgentAccessTokenRecord>>> = Object.fromEntries(
  (['tokenAlias', 'tokenEnabled', 'accessToken', 'version'] as const).map((name) => [
    name,
    { read: (record: AgentAccessTokenRecord) => record[name] },
  ]),
);
