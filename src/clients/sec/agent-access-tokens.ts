import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, partialUpdate, placeDeclared, readingDeclared } from './declared.js';
import { envelope, flag, toFlag } from './wire.js';
import { searchAll } from './search.js';

/** An agent access token. `accessToken` is the secret and also the object's key in the API. */
export interface AgentAccessToken {
  readonly accessToken: string;
  /** Unique per account; the Terraform id. */
  readonly tokenAlias: string;
  readonly tokenEnabled: boolean;
  readonly version: string;
  /** Time of the last change (wire: top-level createdTime). */
  readonly createdTime: string;
  readonly props: {
    /** Creation time. */
    readonly createdTime?: string | undefined;
    readonly description?: string | undefined;
    readonly os?: string | undefined;
  };
}

export interface AgentAccessTokenInput extends Declaring {
  readonly tokenAlias: string;
  readonly tokenEnabled: boolean;
  readonly props?: { readonly description?: string | undefined; readonly os?: string | undefined } | undefined;
}

/** Fields left out are not changed. */
export type AgentAccessTokenUpdate = Partial<AgentAccessTokenInput>;

export interface AgentAccessTokensApi {
  /** ApiError 'conflict' when the alias is taken. */
  create(input: AgentAccessTokenInput, options?: CallOptions): Promise<AgentAccessToken>;
  get(accessToken: string, options?: CallOptions): Promise<AgentAccessToken>;
  list(options?: CallOptions): Promise<AgentAccessToken[]>;
  update(accessToken: string, update: AgentAccessTokenUpdate, options?: CallOptions): Promise<AgentAccessToken>;
  /** Tokens whose alias equals `alias` (zero or one). */
  search(alias: string, options?: CallOptions): Promise<AgentAccessToken[]>;
}

const BASE = '/api/v2/AgentAccessTokens';

const tokenSchema = readingDeclared(
  z.object({
    accessToken: z.string().min(1),
    tokenAlias: z.string(),
    tokenEnabled: flag,
    version: z.union([z.string(), z.number()]).transform(String),
    createdTime: z.string(),
    props: z
      .object({ createdTime: z.string().optional(), description: z.string().optional(), os: z.string().optional() })
      .nullish()
      .transform((props) => props ?? {}),
  }),
  'AgentAccessTokens',
);

const one = envelope(tokenSchema);
const many = envelope(z.array(tokenSchema));

/** A create's body, or with `update` (its body's name) an update's, which changes only what it sends. */
function tokenBody(input: AgentAccessTokenUpdate, update?: string): Record<string, unknown> {
  const body = {
    ...(input.tokenAlias === undefined ? {} : { tokenAlias: input.tokenAlias }),
    ...(input.tokenEnabled === undefined ? {} : { tokenEnabled: toFlag(input.tokenEnabled) }),
    ...(input.props === undefined ? {} : { props: input.props }),
  };
  return placeDeclared(body, input.declared, update === undefined ? {} : partialUpdate(update));
}

export function agentAccessTokensApi(http: SecHttp): AgentAccessTokensApi {
  return {
    async create(input, options) {
      const call = { method: 'POST', path: BASE, operation: `POST ${BASE}`, body: tokenBody(input) } as const;
      return (await http.json(call, one, options)).data;
    },
    async get(accessToken, options) {
      // The operation names the path template only: the token is a secret.
      const call = {
        method: 'GET',
        path: `${BASE}/${segment(accessToken)}`,
        operation: `GET ${BASE}/{token}`,
      } as const;
      return (await http.json(call, one, options)).data;
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
    async update(accessToken, update, options) {
      const call = {
        method: 'PATCH',
        path: `${BASE}/${segment(accessToken)}`,
        operation: `PATCH ${BASE}/{token}`,
        body: tokenBody(update, 'AgentAccessTokens:update'),
      } as const;
      return (await http.json(call, one, options)).data;
    },
    async search(alias, options) {
      const call = {
        method: 'POST',
        path: `${BASE}/search`,
        operation: `POST ${BASE}/search`,
        body: { filters: [{ field: 'tokenAlias', expression: 'eq', value: alias }] },
        // A query: repeating it changes nothing.
        idempotent: true,
        changes: false,
      } as const;
      return searchAll(http, http.endpoint, call, tokenSchema, options);
    },
  };
}
