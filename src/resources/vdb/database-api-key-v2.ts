/**
 * `vdb_accounts_database_api_key_v2` and the `vdb_accounts_database_api_keys_v2` data source
 * (docs/api/vdb.md, "Database API keys"): a key that grants access to one cluster's database,
 * either globally or per collection. The platform cannot change a key, so every input forces a new
 * one; the secret is returned once, on create, and kept from the state afterwards.
 */
import {
  attr,
  attrStep,
  block,
  dataSource,
  DiagnosticError,
  type Diagnostics,
  listResource,
  type ModelOf,
  resource,
  resourceSchema,
  t,
} from '@keel/provider-framework';
import type { AccessRule, CollectionAccessType, DatabaseApiKey, GlobalAccessType } from '../../clients/vdb/api.js';
import {
  ACCOUNT_ID,
  accountScopedIdentity,
  accountFilter,
  accountIdField,
  accountIdOf,
  deleteIgnoringNotFound,
  shownShape,
  splitImportId,
  type VdbContext,
} from './common.js';
import { formatTimestamp, sameInstant, uuid } from './formats.js';
import { apiItems, apiRule, apiRules } from './rules.js';
import { combinations, heldBySchema, heldInCode } from './rules-held.js';
import { madeAtFrom } from '../shared/made-at.js';
import { wireMessage } from './wired-fields.js';

// The API's rules of each field (src/resources/vdb/rules.ts).
const KEY = 'cluster.auth.v2.DatabaseApiKey';
const GLOBAL_ACCESS = apiRule('cluster.auth.v2.GlobalAccessRule.access_type');
const COLLECTION_ACCESS = apiRule('cluster.auth.v2.CollectionAccessRule.access_type');
/** How a key's name rule reads where a regex would, for the resource and the ephemeral key. */
const NAME_WORDS = { what: 'letters, digits, `_`, spaces and `-`', samples: ['ci key'] } as const;
export const KEY_NAME = apiRules(`${KEY}.name`, NAME_WORDS);
export const KEY_CLUSTER_ID = apiRules(`${KEY}.cluster_id`);
const MANAGE: GlobalAccessType = 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE';

/** How a key grants access; the resource and the ephemeral key share them. */
export const accessRuleFields = {
  global_access_rule: block.one(
    {
      access_type: attr.string({
        required: true,
        validate: [GLOBAL_ACCESS],
        description: `The access the key grants: ${GLOBAL_ACCESS.description}.`,
      }),
    },
    {
      // The platform cannot change a key's access: a new access makes a new key. No block and a
      // block naming the default (MANAGE) grant the same access, so a change between them does not.
      replace: (prior: { access_type: string }[], planned: { access_type: string }[]) =>
        globalAccess(prior) !== globalAccess(planned),
      description:
        'Access to the whole database. Cannot be combined with `collection_access_rules`; when neither is set the ' +
        'key gets `GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE`.',
    },
  ),
  collection_access_rules: block.list(
    {
      collection_name: attr.string({
        required: true,
        validate: apiRules('cluster.auth.v2.CollectionAccessRule.collection_name', {
          what: 'letters, digits, `.`, `_` and `-`',
          samples: ['products', 'docs.v2'],
        }),
        description: 'The collection.',
      }),
      access_type: attr.string({
        required: true,
        validate: [COLLECTION_ACCESS],
        description: `The access the key grants to it: ${COLLECTION_ACCESS.description}.`,
      }),
    },
    {
      replace: true,
      max: apiItems(`${KEY}.access_rules`).max,
      description: 'Access to individual collections. Cannot be combined with `global_access_rule`.',
    },
  ),
};

const declared = {
  id: attr.computedId('The key id (a UUID).'),
  account_id: accountIdField(),
  cluster_id: attr.string({
    required: true,
    replace: true,
    refersTo: 'a cluster',
    description: 'The cluster the key grants access to.',
  }),
  name: attr.string({
    required: true,
    replace: true,
    description: 'Name of the key.',
  }),
  created_at: attr.string({ computed: true, description: 'When the key was created (RFC 3339).' }),
  expires_at: attr.string({
    optional: true,
    computed: true,
    replace: true,
    validate: apiRules(`${KEY}.expires_at`),
    equal: sameInstant,
    description:
      'When the key expires (RFC 3339); unset means never. The same instant in another notation (offset, fractional ' +
      'seconds) is no change.',
  }),
  created_by_email: attr.string({
    computed: true,
    description:
      'The e-mail address of the user who created the key; empty when a management key created it (as this provider ' +
      'does).',
  }),
  postfix: attr.string({ computed: true, description: 'The last characters of the key, to recognise it.' }),
  key: attr.string({
    computed: true,
    sensitive: true,
    masked: true,
    oneTime: true,
    sensitiveUnlikeUpstream: true,
    description: 'The secret key. The platform returns it only when the key is created; it is empty after an import.',
  }),
  ...accessRuleFields,
};

/**
 * The key's fields that are the API's as they are (./wired-fields.ts): checked, sent and read back from their
 * wiring alone, so a field the `.proto` gains needs its attribute (`replace`: a key never changes) and its
 * entry here. The expiry (a Timestamp held as RFC 3339) and the access rules (a oneof) are mapped by hand.
 */
const wired = wireMessage(KEY, declared, { cluster_id: 'cluster_id', name: { field: 'name', ...NAME_WORDS } });
const fields = wired.fields;

/** The global access a key's rule grants: the one named, else the platform's default. */
function globalAccess(rules: readonly { access_type: string | null }[] | null): string {
  return rules?.[0]?.access_type ?? MANAGE;
}

const schema = resourceSchema(fields, {
  description: 'A database API key (v2) of a cluster, with global or per-collection access.',
});

type Model = ModelOf<typeof fields>;

type AccessRules = Pick<ModelOf<typeof accessRuleFields>, 'global_access_rule' | 'collection_access_rules'>;

/** One kind of rule per key: global or per collection. */
export function accessRuleConflicts(
  config: { global_access_rule?: unknown[] | undefined; collection_access_rules?: unknown[] | undefined },
  diags: Diagnostics,
): void {
  if ((config.global_access_rule?.length ?? 0) > 0 && (config.collection_access_rules?.length ?? 0) > 0) {
    diags.error(
      'Conflicting access rules',
      'A key has either one `global_access_rule` or `collection_access_rules`, not both. Remove one of them.',
      [attrStep('collection_access_rules')],
    );
  }
}

export function accessRulesToApi(m: AccessRules): AccessRule[] {
  if (m.collection_access_rules.length > 0) {
    return m.collection_access_rules.map((r) => ({
      collectionAccess: { collectionName: r.collection_name, accessType: r.access_type as CollectionAccessType },
    }));
  }
  return [{ globalAccess: { accessType: (m.global_access_rule[0]?.access_type ?? MANAGE) as GlobalAccessType } }];
}

heldInCode({
  message: 'cluster.auth.v2.DatabaseApiKey',
  rules: ['access_rules#cel.access_rules.no_mixing'],
  where: 'database-api-key-v2.ts: accessRuleConflicts',
  samples: () =>
    combinations({
      global_access_rule: [[], [{ access_type: MANAGE }]],
      collection_access_rules: [
        [],
        [{ collection_name: 'docs', access_type: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
      ],
    }),
  planReports: accessRuleConflicts,
  sent: (rules) => ({ accessRules: accessRulesToApi(rules) }),
  // Sent as it is written, a key naming both kinds would mix them; the mapping keeps the collections' alone.
  literal: (rules) => ({
    accessRules: [
      ...rules.global_access_rule.map((g) => ({ globalAccess: { accessType: g.access_type } })),
      ...rules.collection_access_rules.map((c) => ({
        collectionAccess: { collectionName: c.collection_name, accessType: c.access_type },
      })),
    ],
  }),
});
heldBySchema(`${KEY}.access_rules#cel.access_rules.single_global`, {
  type: 'vdb_accounts_database_api_key_v2',
  attribute: 'global_access_rule',
  as: 'at most one',
});

const globalRules = (k: DatabaseApiKey) =>
  k.accessRules.flatMap((r) => (r.globalAccess ? [{ access_type: r.globalAccess.accessType as string }] : []));
const collectionRules = (k: DatabaseApiKey) =>
  k.accessRules.flatMap((r) =>
    r.collectionAccess
      ? [{ collection_name: r.collectionAccess.collectionName, access_type: r.collectionAccess.accessType as string }]
      : [],
  );

/**
 * The key as the resource shows it. A key created without rules gets one global MANAGE rule; that
 * implicit rule reads back as "no rule" unless the configuration named it (else every plan would
 * want to replace the key).
 */
function fromApi(k: DatabaseApiKey, prior: Model | null): Partial<Model> {
  const global = globalRules(k);
  const implicitManage =
    global.length === 1 &&
    global[0]!.access_type === MANAGE &&
    k.accessRules.length === 1 &&
    (prior?.global_access_rule.length ?? 0) === 0;
  return {
    ...wired.read(k, prior ?? undefined),
    id: k.id,
    account_id: k.accountId,
    created_at: formatTimestamp(k.createdAt),
    expires_at: formatTimestamp(k.expiresAt),
    created_by_email: k.createdByEmail,
    postfix: k.postfix,
    collection_access_rules: collectionRules(k),
    // Only the create response carries the secret; reads keep the state's (masked).
    key: k.key,
    global_access_rule: implicitManage ? [] : global,
  };
}

/** The API lists an account's keys, or one cluster's. */
const keyFilters = resourceSchema(
  {
    account_id: accountFilter('keys'),
    cluster_id: attr.string({ optional: true, validate: [uuid], description: 'Only the keys of this cluster.' }),
  },
  {
    description:
      'Lists the database API keys (v2) of an account, or of one cluster. Secrets are not listed: the platform ' +
      'returns a key only when it is created.',
  },
);

export const databaseApiKeyV2 = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_database_api_key_v2',
  schema,
  importIdDescription: '`<cluster_id>/<api_key_id>`',
  identity: accountScopedIdentity({ cluster_id: 'The cluster the key belongs to.', id: 'The key id.' }),
  list: listResource<typeof fields, typeof keyFilters.fields, VdbContext>({
    schema: keyFilters,
    async list(f, ctx) {
      const keys = await ctx.client.api.databaseApiKeys.list(
        { accountId: accountIdOf(f.account_id, ctx), ...(f.cluster_id ? { clusterId: f.cluster_id } : {}) },
        { signal: ctx.signal },
      );
      return keys.map((k) => fromApi(k, null));
    },
    displayName: (m) => m.name,
  }),
  importState: async (id) => {
    const [clusterId, keyId] = splitImportId(id, 'cluster_id', 'api_key_id');
    return { id: keyId, cluster_id: clusterId };
  },
  validate: accessRuleConflicts,
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const created = await ctx.client.api.databaseApiKeys.create(
      {
        ...(wired.send(plan) as { clusterId: string; name: string }),
        accountId,
        ...(plan.expires_at ? { expiresAt: formatTimestamp(plan.expires_at) } : {}),
        accessRules: accessRulesToApi(plan),
      },
      { signal: ctx.signal },
    );
    return fromApi(created, plan);
  },
  /**
   * A key is known by its cluster and name (not unique on the platform). Its secret was in the lost
   * answer, which the engine handles (`key` is one-time).
   */
  findCreated: {
    key: 'its cluster and name',
    uniqueKey: false,
    describe: (plan) => `the database API key named ${JSON.stringify(plan.name)} of cluster ${plan.cluster_id}`,
    // One listing of the account's keys serves the creates on every cluster.
    list: async (plan, ctx) =>
      (
        await ctx.client.api.databaseApiKeys.list(
          { accountId: accountIdOf(plan.account_id, ctx) },
          { signal: ctx.signal },
        )
      ).map((k) => fromApi(k, plan)),
    scope: (plan) => plan.account_id ?? '',
    holdsKey: (plan, found) => found.cluster_id === plan.cluster_id && found.name === plan.name,
    importId: (found) => `${found.cluster_id}/${found.id}`,
    madeAt: madeAtFrom('created_at'),
  },
  async read(prior, ctx) {
    const k = await ctx.client.api.databaseApiKeys.find(
      { accountId: accountIdOf(prior.account_id, ctx), clusterId: prior.cluster_id, id: prior.id! },
      { signal: ctx.signal },
    );
    return k ? fromApi(k, prior) : null;
  },
  /**
   * Every change the platform would see replaces the key; what is left in place is the default
   * global rule written out or left out (e.g. after an import), which changes nothing on the platform.
   */
  async update(plan, prior, ctx) {
    const k = await ctx.client.api.databaseApiKeys.find(
      { accountId: accountIdOf(prior.account_id, ctx), clusterId: prior.cluster_id, id: prior.id! },
      { signal: ctx.signal },
    );
    if (!k)
      throw new DiagnosticError(
        'Database API key not found',
        `The key ${prior.id} of cluster ${prior.cluster_id} no longer exists.`,
      );
    return fromApi(k, plan);
  },
  async delete(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    await deleteIgnoringNotFound(() =>
      ctx.client.api.databaseApiKeys.delete(
        { accountId, clusterId: prior.cluster_id, databaseApiKeyId: prior.id! },
        { signal: ctx.signal },
      ),
    );
  },
});

/** A listed key: every attribute and block of the resource. */
const keyShape = shownShape(fields);

const listSchema = resourceSchema(
  {
    id: attr.computedId('`<account_id>/<cluster_id>`.'),
    account_id: attr.string({
      validate: ACCOUNT_ID,
      optional: true,
      computed: true,
      description: "The account of the cluster. Defaults to the provider's `account_id`.",
    }),
    cluster_id: attr.string({ required: true, validate: [uuid], description: 'The cluster whose keys are listed.' }),
    keys: attr.of(t.list(keyShape))({
      computed: true,
      description:
        'The database API keys of the cluster, with the attributes of the `vdb_accounts_database_api_key_v2` ' +
        'resource. `key` is always empty: the platform returns secrets only on creation.',
    }),
  },
  { description: 'Lists the database API keys (v2) of a cluster.' },
);

export const databaseApiKeysV2DataSource = dataSource<typeof listSchema.fields, VdbContext>({
  typeName: 'vdb_accounts_database_api_keys_v2',
  schema: listSchema,
  async read(config, ctx) {
    const accountId = accountIdOf(config.account_id, ctx);
    const keys = await ctx.client.api.databaseApiKeys.list(
      { accountId, clusterId: config.cluster_id },
      { signal: ctx.signal },
    );
    return {
      id: `${accountId}/${config.cluster_id}`,
      account_id: accountId,
      // Every rule as the platform holds it: there is no configuration whose implicit rule could be left out.
      keys: keys.map((k) => ({ ...fromApi(k, null), key: '', global_access_rule: globalRules(k) })),
    };
  },
});
