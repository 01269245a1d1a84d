import { SEC_LIMITS } from './limits.js';
import { checkedBy, secRules } from './rules.js';
import { wireFields } from './wired-fields.js';
import { createHash, randomInt } from 'node:crypto';
import {
  attr,
  DiagnosticError,
  isApiError,
  listResource,
  type ModelOf,
  type OpContext,
  resource,
  resourceSchema,
  validators,
} from '@keel/provider-framework';
import type { SecClient, AgentAccessToken } from '../../clients/sec/index.js';
import { madeAtFrom } from '../shared/made-at.js';

// An update sends the same os attribute as a create.
checkedBy('AgentAccessTokens:update.props.os', 'oneOf', { sameAs: 'AgentAccessTokens.props.os' });

/**
 * Attributes that are one field of the body as it is, by the field's path (wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped below.
 */
const wired = wireFields(
  'AgentAccessTokens',
  {
    id: attr.sdkId('The token alias (the same as `name`).', ['name']),
    name: attr.string({
      required: true,
      validate: secRules('AgentAccessTokens.tokenAlias', { name: true }),
      description: 'Agent access token name (its alias). Unique within the account.',
    }),
    description: attr.string({ optional: true, description: 'What the token is for.' }),
    os: attr.string({
      optional: true,
      default: 'linux',
      replace: true,
      validate: secRules('AgentAccessTokens.props.os'),
      description:
        'Operating system of the agents that use the token. The platform cannot change it afterwards, so ' +
        'a change creates a new token.',
    }),
    enabled: attr.bool({ optional: true, default: true, description: 'Whether agents may use the token.' }),
    token: attr.string({ computed: true, sensitive: true, description: 'The agent access token itself.' }),
    version: attr.string({ computed: true, volatile: true, description: 'Version of the token object.' }),
    created_time: attr.string({ computed: true, description: 'When the token was created (RFC 3339).' }),
    last_updated_time: attr.string({
      computed: true,
      volatile: true,
      description: 'When the token was last changed (RFC 3339).',
    }),
  },
  {},
  { update: 'AgentAccessTokens:update' },
);

const schema = resourceSchema(wired.fields, {
  description:
    'An access token that agents use to report to the platform. Tokens cannot be deleted: destroying ' +
    'one disables it and renames it out of the way.',
});
type Model = ModelOf<typeof schema.fields>;

const fromApi = (t: AgentAccessToken): Partial<Model> => ({
  id: t.tokenAlias,
  name: t.tokenAlias,
  token: t.accessToken,
  description: t.props?.description ?? null,
  os: t.props?.os ?? null,
  enabled: t.tokenEnabled,
  version: t.version,
  // The platform's top-level createdTime is the time of the last change
  // (docs/api/sec.md, "Agent access tokens").
  created_time: t.props?.createdTime ?? t.createdTime,
  last_updated_time: t.createdTime,
  ...(wired.read(t) as Partial<Model>),
});

/** What a create does once the token exists: the platform always creates tokens enabled, a second call disables it. */
async function settle(created: Partial<Model>, plan: Model, ctx: OpContext<SecClient>): Promise<Partial<Model>> {
  if (plan.enabled !== false || created.enabled === false) return created;
  return fromApi(
    await ctx.client.agentAccessTokens.update(created.token ?? '', { tokenEnabled: false }, { signal: ctx.signal }),
  );
}

/** The tokens whose alias is exactly `name` (the search filters on it; the check keeps that promise). */
async function tokensNamed(name: string, ctx: OpContext<SecClient>): Promise<AgentAccessToken[]> {
  return (await ctx.client.agentAccessTokens.search(name, { signal: ctx.signal })).filter((t) => t.tokenAlias === name);
}

/**
 * Import by the token's name (its id, what docs and examples use, so the secret never has to be
 * typed) or by the token value (the upstream form). A name is looked up first; only an id that names
 * no token is tried as a token value. The id is never quoted in a message: it may be a secret.
 */
/** A token by name, else by value; null (the engine says it does not exist) when neither matches. */
async function importToken(id: string, ctx: OpContext<SecClient>): Promise<Partial<Model> | null> {
  const [named] = await tokensNamed(id, ctx);
  if (named) return importStart(named);
  try {
    return importStart(await ctx.client.agentAccessTokens.get(id, { signal: ctx.signal }));
  } catch (err) {
    if (isApiError(err, 'not_found')) return null;
    throw err;
  }
}

/** What the read after an import needs (the read fills in the rest, unset arguments as unset). */
const importStart = (t: AgentAccessToken): Partial<Model> => ({ name: t.tokenAlias, token: t.accessToken });

/**
 * Frees the unique alias of a token that is "deleted" (tokens cannot be deleted,
 * docs/api/sec.md, "Agent access tokens"). The new alias keeps within the platform's limit for a text,
 * cutting the name short where it must: a destroy is never refused for a name the plan accepted.
 */
const deletedAlias = (name: string) => {
  const random = Array.from({ length: 5 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[randomInt(36)]).join('');
  const suffix = `-${random}-deleted`;
  return [...name].slice(0, SEC_LIMITS.characters - suffix.length).join('') + suffix;
};

/**
 * What names a token for its whole life: its value, which is the API's key for it, but a secret. The
 * name can change in place, so it cannot be the identity; a fingerprint of the value names the
 * token without revealing it.
 */
export const tokenFingerprint = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A token the provider "deleted" (disabled and renamed out of the way): for Terraform it is gone. */
const isTombstone = (t: AgentAccessToken): boolean => !t.tokenEnabled && t.tokenAlias.endsWith('-deleted');

const filters = resourceSchema(
  {
    name: attr.string({
      optional: true,
      validate: [validators.nonEmpty()],
      description: 'Only the token with this name (the API searches by it).',
    }),
  },
  {
    description:
      'Lists the agent access tokens, or the one with a given name. Tokens destroyed by Terraform ' +
      '(disabled and renamed `<name>-…-deleted`) are left out.',
  },
);

export default resource<typeof schema.fields, SecClient>({
  typeName: 'sec_agent_access_token',
  schema,
  importIdDescription: 'the token `name`, or the token value itself',
  importState: importToken,
  identity: {
    attributes: {
      token_sha256: {
        description:
          'The SHA-256 of the token value, in lower-case hex: it names the token without revealing it ' +
          '(the name can change; the value cannot).',
        from: 'token',
        derive: tokenFingerprint,
        forImport: 'required',
      },
    },
    async importState(identity, ctx) {
      const given = (identity.token_sha256 ?? '').trim();
      // What is not a SHA-256 may be the token itself, pasted by mistake: it is never repeated.
      if (!/^[0-9a-fA-F]{64}$/.test(given)) {
        throw new DiagnosticError(
          'Invalid agent access token fingerprint',
          '`token_sha256` must be the SHA-256 of the token value, 64 hexadecimal digits; the value given ' +
            'is not (it is not shown: if it is the token itself, it is the secret the fingerprint keeps ' +
            'out of the configuration). ' +
            'Compute it with `printf %s "$TOKEN" | sha256sum`, or import the token by its name.',
        );
      }
      const wanted = given.toLowerCase();
      const found = (await ctx.client.agentAccessTokens.list({ signal: ctx.signal })).find(
        (t) => tokenFingerprint(t.accessToken) === wanted,
      );
      if (!found)
        throw new DiagnosticError(
          'Agent access token not found',
          `No agent access token has the fingerprint ${wanted}.`,
        );
      return importStart(found);
    },
  },
  list: listResource<typeof schema.fields, typeof filters.fields, SecClient>({
    schema: filters,
    async list(f, ctx) {
      const tokens =
        f.name !== null
          ? await tokensNamed(f.name, ctx)
          : await ctx.client.agentAccessTokens.list({ signal: ctx.signal });
      return tokens.filter((t) => !isTombstone(t)).map(fromApi);
    },
    displayName: (m) => m.name,
  }),
  async create(plan, ctx) {
    const created = await ctx.client.agentAccessTokens.create(
      {
        tokenAlias: plan.name,
        tokenEnabled: true,
        props: { description: plan.description ?? '', os: plan.os ?? 'linux' },
        declared: wired.declared(plan),
      },
      { signal: ctx.signal },
    );
    return fromApi(created);
  },
  settle,
  // The alias is unique within the account; the platform makes tokens enabled, `settle` disables.
  findCreated: {
    key: 'its name',
    uniqueKey: true,
    describe: (plan) => `the agent access token named ${JSON.stringify(plan.name)}`,
    // One listing of the account's tokens serves every create.
    list: async (_plan, ctx) => (await ctx.client.agentAccessTokens.list({ signal: ctx.signal })).map(fromApi),
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.name ?? '',
    madeAt: madeAtFrom('created_time'),
    setAfterCreate: ['enabled'],
  },
  async read(prior, ctx) {
    const t = await ctx.client.agentAccessTokens.get(prior.token ?? '', { signal: ctx.signal });
    // A token "deleted" by another configuration is disabled and renamed: for us it is gone.
    if (!t.tokenEnabled && t.tokenAlias.endsWith('-deleted') && t.tokenAlias !== prior.name) return null;
    return fromApi(t);
  },
  async update(plan, prior, ctx) {
    const body = {
      tokenAlias: plan.name,
      tokenEnabled: plan.enabled !== false,
      props: { description: plan.description ?? '' },
      declared: wired.declared(plan),
    };
    return fromApi(await ctx.client.agentAccessTokens.update(prior.token ?? '', body, { signal: ctx.signal }));
  },
  async delete(prior, ctx) {
    await ctx.client.agentAccessTokens.update(
      prior.token ?? '',
      { tokenAlias: deletedAlias(prior.name), tokenEnabled: false },
      { signal: ctx.signal },
    );
  },
});
