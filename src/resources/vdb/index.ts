/**
 * The vdb provider: its configuration schema (docs/api/vdb.md, "Provider configuration";
 * docs/decisions.md, "The API key"), how it builds the gRPC management client, and the list of its
 * resources and data sources.
 */
import { VDB_REFERENCES } from './references.js';
import { attr, attrStep, DiagnosticError, provider, providerSchema } from '@keel/provider-framework';
import { createSettingFields, createSettingsOf } from '../shared/create-settings.js';
import { booleanVariable, emptyInBlock, missingSetting } from '../shared/provider-settings.js';
import { ACCOUNT_ID, type VdbContext } from './common.js';
import cluster from './cluster/resource.js';
import { clusterDataSource, clustersDataSource } from './cluster/data-sources.js';
import { databaseApiKeyV2, databaseApiKeysV2DataSource } from './database-api-key-v2.js';
import { authKey, authKeysDataSource } from './auth-key.js';
import { backupSchedule, backupScheduleDataSource, backupSchedulesDataSource } from './backup-schedule.js';
import { manualBackup } from './manual-backup.js';
import { hybridCloudEnvironment } from './hybrid-cloud-environment.js';
import { role } from './role.js';
import { userRoles } from './user-roles.js';
import { bookingPackagesDataSource } from './booking-packages.js';
import { ephemeralDatabaseApiKey } from './ephemeral-database-api-key.js';
import { clusterBackup } from './cluster-backup-action.js';
import { VDB_VERSION } from './version.js';
import * as functions from './functions/index.js';

export { VDB_VERSION } from './version.js';
export const DEFAULT_API_URL = 'grpc.vdb-cloud.example:443';

export type { VdbContext } from './common.js';

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const schema = providerSchema(
  {
    // One schema whatever the environment: the real provider's SDK served `api_key` Required unless
    // VDB_API_KEY was set when it started (docs/api/vdb.md, "Provider configuration"), so a missing
    // key was Terraform's bare "argument is required". It is Optional here and `configure` names
    // the argument and the variable instead. (The seed shows it required: test/pulumi-model's
    // SEED_MAPPINGS.)
    api_key: attr.string({
      optional: true,
      sensitive: true,
      description: 'The API key for the management API. Required unless the `VDB_API_KEY` environment variable is set.',
    }),
    api_url: attr.string({
      optional: true,
      description: 'The URL of the management API. Environment: `VDB_API_URL`; default `grpc.vdb-cloud.example:443`.',
    }),
    account_id: attr.string({
      validate: ACCOUNT_ID,
      optional: true,
      description: 'The default account used by resources that do not set their own. Environment: `VDB_ACCOUNT_ID`.',
    }),
    insecure: attr.bool({
      optional: true,
      default: false,
      description:
        'Skip TLS certificate verification (never plaintext; only loopback `http://` URLs are plaintext). ' +
        'Environment: `VDB_INSECURE` (`true`, `false`, `1` or `0`).',
    }),
    ...createSettingFields('VDB'),
  },
  { description: 'Configuration of the managed vector-database cloud provider.' },
);

export default provider<typeof schema.fields, VdbContext>({
  name: 'vdb',
  namespace: 'keel',
  version: VDB_VERSION,
  schema,
  async configure(config, ctx) {
    // An explicitly configured value wins, even an empty one (which is an error, not a fallback).
    if (config.api_key !== null && config.api_key.trim() === '') {
      throw new DiagnosticError(
        'Empty API key',
        '`api_key` is set but empty: give the management API key, or leave `api_key` out to use the VDB_API_KEY ' +
          'environment variable.',
        [attrStep('api_key')],
      );
    }
    const apiKey = config.api_key ?? (ctx.env.VDB_API_KEY ?? '').trim();
    if (apiKey === '') throw missingSetting('Missing API key', 'api_key', 'VDB_API_KEY');
    let apiUrl = (config.api_url ?? ctx.env.VDB_API_URL ?? '').trim();
    if (apiUrl === '') {
      // Say where the empty value was given: the provider block (which hides the variable) or the variable.
      const variableEmpty = { said: 'The VDB_API_URL environment variable is empty' };
      const emptyVariable = ctx.env.VDB_API_URL === undefined ? undefined : variableEmpty;
      const empty: { said: string; hidden?: string } | undefined =
        emptyInBlock('api_url', 'VDB_API_URL', config.api_url, ctx.env) ?? emptyVariable;
      if (empty !== undefined) {
        const used = `${upperFirst(empty.said)}, so the provider uses ${DEFAULT_API_URL}.`;
        const detail = empty.hidden === undefined ? used : `${used} ${empty.hidden}`;
        ctx.diags.warning('Using default URL', detail, [attrStep('api_url')]);
      }
      apiUrl = DEFAULT_API_URL;
    }
    const insecure = config.insecure ?? booleanVariable(ctx.env, 'VDB_INSECURE', 'insecure') ?? false;
    const accountId = (config.account_id ?? ctx.env.VDB_ACCOUNT_ID ?? '').trim();
    const noAccount = emptyInBlock('account_id', 'VDB_ACCOUNT_ID', config.account_id, ctx.env);
    // Loaded here, not at start-up: the client (grpc-js, the API's protobuf types) is needed only once
    // Terraform configures the provider, which several of the processes Terraform starts per command
    // never do (docs/benchmarks.md: handshake).
    const { createVdbClient } = await import('../../clients/vdb/client.js');
    const api = createVdbClient({
      apiUrl,
      apiKey,
      insecure,
      userAgent: `terraform-provider-vdb/${VDB_VERSION} (Terraform ${ctx.terraformVersion || 'unknown'})`,
      environment: ctx.env,
      logger: { debug: (message, fields) => ctx.log.debug(message, fields as Record<string, unknown> | undefined) },
    });
    const noDefaultAccount = noAccount && [`${noAccount.said}.`, noAccount.hidden].filter(Boolean).join(' ');
    const defaultAccountId = accountId === '' ? null : accountId;
    return { api, address: apiUrl, defaultAccountId, ...(noDefaultAccount ? { noDefaultAccount } : {}) };
  },
  createSettings: (config, env) => createSettingsOf(config, env, 'VDB'),
  environmentPrefix: 'VDB',
  apiAddress: (context) => context.address,
  references: VDB_REFERENCES,
  functions: Object.values(functions),
  resources: [
    cluster,
    databaseApiKeyV2,
    authKey,
    backupSchedule,
    manualBackup,
    hybridCloudEnvironment,
    role,
    userRoles,
  ],
  dataSources: [
    authKeysDataSource,
    backupSchedulesDataSource,
    backupScheduleDataSource,
    clustersDataSource,
    clusterDataSource,
    databaseApiKeysV2DataSource,
    bookingPackagesDataSource,
  ],
  ephemeralResources: [ephemeralDatabaseApiKey],
  actions: [clusterBackup],
});
