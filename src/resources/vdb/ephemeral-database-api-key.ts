/**
 * `vdb_accounts_database_api_key_v2` (ephemeral): a database API key that lives only for the run,
 * for a migration or a smoke test in the same run. Open creates it with an expiry (so it dies even
 * if Close never comes); Close deletes it. Never stored in plan or state.
 */
import { randomBytes } from 'node:crypto';
import { attr, DiagnosticError, ephemeralResource, isApiError, resourceSchema } from '@keel/provider-framework';
import { ACCOUNT_ID, accountIdOf, type VdbContext } from './common.js';
import { formatTimestamp, goDurationBetweenHours, parseGoDuration } from './formats.js';
import {
  KEY_CLUSTER_ID,
  KEY_NAME,
  accessRuleConflicts,
  accessRuleFields,
  accessRulesToApi,
} from './database-api-key-v2.js';

const LIFETIME = goDurationBetweenHours(1, 720);

const schema = resourceSchema(
  {
    account_id: attr.string({
      validate: ACCOUNT_ID,
      optional: true,
      computed: true,
      refersTo: 'an account',
      description:
        "The account of the cluster. Defaults to the provider's `account_id`; the opened key holds the account " +
        'it was made in.',
    }),
    cluster_id: attr.string({
      required: true,
      validate: KEY_CLUSTER_ID,
      description: 'The cluster the key grants access to.',
    }),
    name: attr.string({
      optional: true,
      computed: true,
      validate: KEY_NAME,
      description: 'Name of the key; unset, a name for the run with a random suffix (read it here).',
    }),
    expires_in: attr.string({
      optional: true,
      default: '1h',
      validate: [LIFETIME],
      description: `How long the key lives if the run never closes it: ${LIFETIME.description}. Default \`1h\`.`,
    }),
    ...accessRuleFields,
    id: attr.string({ computed: true, description: 'The key id (a UUID).' }),
    key: attr.string({ computed: true, sensitive: true, description: 'The secret key.' }),
    expires_at: attr.string({ computed: true, description: 'When the key expires (RFC 3339).' }),
  },
  {
    description:
      'A database API key (v2) that lives only for this run: created when the run needs it, deleted when the run ' +
      'ends, never stored in the plan or the state. It carries an expiry as well, so it dies even if the run is cut ' +
      'off.',
  },
);

export const ephemeralDatabaseApiKey = ephemeralResource<typeof schema.fields, VdbContext>({
  typeName: 'vdb_accounts_database_api_key_v2',
  schema,
  validate: accessRuleConflicts,
  async open(config, ctx) {
    const accountId = accountIdOf(config.account_id, ctx);
    const name = config.name ?? `terraform-run-${randomBytes(4).toString('hex')}`;
    const lifetimeMs = Number(parseGoDuration(config.expires_in ?? '1h')! / 1_000_000n);
    const key = await ctx.client.api.databaseApiKeys.create(
      {
        accountId,
        clusterId: config.cluster_id,
        name,
        expiresAt: formatTimestamp(new Date(Date.now() + lifetimeMs)),
        accessRules: accessRulesToApi(config),
      },
      { signal: ctx.signal },
    );
    return {
      result: {
        account_id: accountId,
        name: key.name,
        id: key.id,
        key: key.key,
        expires_at: formatTimestamp(key.expiresAt),
      },
      private: {
        account_id: accountId,
        cluster_id: config.cluster_id,
        id: key.id,
        expires_at: formatTimestamp(key.expiresAt),
      },
    };
  },
  describeOpened: (priv) =>
    `database API key ${String(priv.id)} of cluster ${String(priv.cluster_id)}, expiring at ${String(priv.expires_at)}`,
  async close(priv, ctx) {
    const [accountId, clusterId, id] = [String(priv.account_id), String(priv.cluster_id), String(priv.id)];
    try {
      await ctx.client.api.databaseApiKeys.delete(
        { accountId, clusterId, databaseApiKeyId: id },
        { signal: ctx.signal },
      );
    } catch (err) {
      if (isApiError(err, 'not_found')) return;
      throw new DiagnosticError(
        'Database API key left behind',
        `The database API key ${id} of cluster ${clusterId} (account ${accountId}) made for this run could not be ` +
          `deleted: ${err instanceof Error ? err.message : String(err)}. It expires at ${String(priv.expires_at)}; ` +
          `delete it sooner if you can.`,
      );
    }
  },
});
