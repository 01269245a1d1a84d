/**
 * The legacy (v1) database API key: `vdb_accounts_auth_key` and the `vdb_accounts_auth_keys` data
 * source (docs/api/vdb.md, "Legacy keys"). Deprecated in favour of the v2 keys but still working. It has no
 * `account_id` of its own: the provider's account is always used.
 */
import { attr, dataSource, listResource, type ModelOf, resource, resourceSchema, t } from '@keel/provider-framework';
import { idIdentity } from '../shared/identity.js';
import type { AuthKey } from '../../clients/vdb/api.js';
import {
  ACCOUNT_ID,
  accountIdOf,
  deleteIgnoringNotFound,
  providerAccountId,
  shownShape,
  type VdbContext,
} from './common.js';
import { formatTimestamp, uuid } from './formats.js';
import { wireMessage } from './wired-fields.js';
import { heldBySchema } from './rules-held.js';
import { madeAtFrom } from '../shared/made-at.js';

const DEPRECATION =
  'The vdb_accounts_auth_key resource is deprecated and will be removed in a future version; use ' +
  'vdb_accounts_database_api_key_v2 instead.';

const declared = {
  id: attr.computedId('The key id (a UUID).'),
  created_at: attr.string({ computed: true, description: 'When the key was created (RFC 3339).' }),
  prefix: attr.string({ computed: true, description: 'The first characters of the token, to recognise it.' }),
  cluster_ids: attr.stringList({
    required: true,
    distinct: true,
    unordered: true,
    replace: true,
    refersTo: 'clusters',
    description: 'The clusters the key grants access to.',
  }),
  token: attr.string({
    computed: true,
    sensitive: true,
    masked: true,
    oneTime: true,
    sensitiveUnlikeUpstream: true,
    description: 'The secret token. The platform returns it only when the key is created; it is empty after an import.',
  }),
};

const KEY = 'cluster.auth.v1.DatabaseApiKey';

/**
 * The key's fields that are the API's as they are (./wired-fields.ts): checked, sent and read back from their
 * wiring alone, so a field the `.proto` gains needs its attribute (`replace`: a key never changes) and its
 * entry here. The clusters are a distinct list, sent with each once, which keeps the field's `unique` rule.
 */
const wired = wireMessage(KEY, declared, { cluster_ids: { field: 'cluster_ids', sentOnce: true } });
const fields = wired.fields;

heldBySchema('cluster.auth.v1.DatabaseApiKey.cluster_ids#repeated.unique', {
  type: 'vdb_accounts_auth_key',
  attribute: 'cluster_ids',
  as: 'distinct',
});

const schema = resourceSchema(fields, {
  description: 'A legacy database API key (v1) for one or more clusters.',
  deprecated: DEPRECATION,
});
type Model = ModelOf<typeof fields>;

const fromApi = (k: AuthKey): Partial<Model> => ({
  ...wired.read(k, undefined),
  id: k.id,
  created_at: formatTimestamp(k.createdAt),
  prefix: k.prefix,
  token: k.key,
});

/** A key's clusters, in an order-free form. */
const clusterSet = (ids: readonly string[]) => [...new Set(ids)].sort().join(',');

/** The API lists the account's legacy keys, or those of one cluster. */
const authKeyFilters = resourceSchema(
  {
    cluster_id: attr.string({
      optional: true,
      validate: [uuid],
      description: 'Only the keys attached to this cluster.',
    }),
  },
  {
    description:
      "Lists the legacy database API keys (v1) of the provider's account, or those attached to one cluster. Tokens " +
      'are not listed: the platform returns one only when the key is created.',
  },
);

export const authKey = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_auth_key',
  schema,
  importIdDescription: 'the key id',
  importState: async (id) => ({ id }),
  // It has no account of its own (the provider's is always used): the key id names it.
  identity: idIdentity('The key id.'),
  list: listResource<typeof fields, typeof authKeyFilters.fields, VdbContext>({
    schema: authKeyFilters,
    async list(f, ctx) {
      const keys = await ctx.client.api.authKeys.list(
        { accountId: providerAccountId(ctx), ...(f.cluster_id ? { clusterId: f.cluster_id } : {}) },
        { signal: ctx.signal },
      );
      return keys.map(fromApi);
    },
    // A legacy key has no name: it is shown by the first characters of its token.
    displayName: (m) => `${m.prefix ?? ''}… (${m.id ?? ''})`,
  }),
  async create(plan, ctx) {
    const accountId = providerAccountId(ctx);
    return fromApi(
      await ctx.client.api.authKeys.create(
        { ...(wired.send(plan) as { clusterIds: string[] }), accountId },
        { signal: ctx.signal },
      ),
    );
  },
  /**
   * A legacy key has no name: it is known by its clusters. Its token was in the lost answer, which
   * the engine handles (`token` is one-time).
   */
  findCreated: {
    key: 'its clusters',
    uniqueKey: false,
    describe: (plan) =>
      `the legacy database API key for ` +
      `cluster${plan.cluster_ids.length === 1 ? '' : 's'} ${plan.cluster_ids.join(', ')}`,
    list: async (_plan, ctx) =>
      (await ctx.client.api.authKeys.list({ accountId: providerAccountId(ctx) }, { signal: ctx.signal })).map(fromApi),
    holdsKey: (plan, found) => clusterSet(found.cluster_ids ?? []) === clusterSet(plan.cluster_ids),
    importId: (found) => found.id ?? '',
    madeAt: madeAtFrom('created_at'),
  },
  async read(prior, ctx) {
    // The legacy service has no get: the key is found in a listing of the account's keys.
    const k = await ctx.client.api.authKeys.find(
      { accountId: providerAccountId(ctx), id: prior.id! },
      { signal: ctx.signal },
    );
    return k ? fromApi(k) : null;
  },
  async delete(prior, ctx) {
    const accountId = providerAccountId(ctx);
    await deleteIgnoringNotFound(() =>
      ctx.client.api.authKeys.delete({ accountId, databaseApiKeyId: prior.id! }, { signal: ctx.signal }),
    );
  },
});

const listSchema = resourceSchema(
  {
    id: attr.computedId('The account whose keys are listed.'),
    account_id: attr.string({
      validate: ACCOUNT_ID,
      optional: true,
      computed: true,
      description: "The account whose keys are listed. Defaults to the provider's `account_id`.",
    }),
    // A listed key: every attribute of the resource.
    keys: attr.of(t.list(shownShape(fields)))({
      computed: true,
      description:
        'The legacy keys of the account. `token` is always empty: the platform returns secrets only on creation.',
    }),
  },
  {
    description: 'Lists the legacy database API keys (v1) of an account.',
    deprecated:
      'The vdb_accounts_auth_keys data source is deprecated and will be removed in a future version; use ' +
      'vdb_accounts_database_api_keys_v2 instead.',
  },
);

export const authKeysDataSource = dataSource<typeof listSchema.fields, VdbContext>({
  typeName: 'vdb_accounts_auth_keys',
  schema: listSchema,
  async read(config, ctx) {
    const accountId = accountIdOf(config.account_id, ctx);
    const keys = await ctx.client.api.authKeys.list({ accountId }, { signal: ctx.signal });
    return {
      id: accountId,
      account_id: accountId,
      keys: keys.map((k) => ({ ...fromApi(k), token: '' })),
    };
  },
});
