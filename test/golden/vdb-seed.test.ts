/**
 * Seed conformance of the whole vdb provider: every resource token, function token, property, nested
 * type, required flag, secret flag, default and deprecation that the vdb seed names must come out of
 * `buildPulumiSchema(await describeProvider('vdb'))` exactly as the seed has it. The only differences
 * allowed are listed below, each with its reason. The suite itself is seed-conformance.ts.
 */
import { expect } from 'chai';
import type { PulumiPackageSchema } from '../pulumi-model/schema.js';
import { compareWithSeed, type AllowedDifference } from './seed-compare.js';
import { describeSeedConformance, resourceToken, upstreamAdditions } from './seed-conformance.js';

/** Every difference from the vdb seed that is intended, and why. */
export const VDB_ALLOWED: AllowedDifference[] = [
  // The provider's own settings: declared with each field (addedOverUpstream).
  ...(await upstreamAdditions('vdb')),
  {
    what: 'AccountsDatabaseApiKeyV2.key: is secret, the seed does not flag it',
    reason:
      'docs/decisions.md, "Credentials are sensitive": the seed leaves the secret-carrying `key` output unflagged; we flag it anyway, a deliberate, documented difference.',
  },
  {
    what: 'AccountsAuthKey.token: is secret, the seed does not flag it',
    reason:
      'docs/decisions.md, "Credentials are sensitive": the seed leaves the secret-carrying `token` output unflagged; we flag it anyway, a deliberate, documented difference.',
  },
  // Defaults the seed does not mention (it is silent, not contrary; the default is recorded as
  // `default` on inputs, test/pulumi-model/schema.ts header).
  {
    what: 'AccountsCluster.deleteBackupsOnDestroy: has default true, the seed states none',
    reason:
      'The seed is silent; docs/api/vdb.md, "Settings the platform never holds": `delete_backups_on_destroy` defaults to true.',
  },
  {
    what: 'AccountsBackupSchedule.deleteBackupsOnDestroy: has default true, the seed states none',
    reason:
      'The seed is silent; docs/api/vdb.md, "Settings the platform never holds": `delete_backups_on_destroy` defaults to true.',
  },
  // Bridge facts.
  {
    what: 'AccountsClusterConfiguration.databaseConfiguration{}.inference: is not a required output, the seed says always present in output',
    reason:
      'docs/decisions.md, "Nested objects are blocks": nested objects are blocks, and a block is never computed on the wire, so the bridge cannot show it as always present in the output (test/pulumi-model/schema.ts header, pkg/pf/proto); upstream 1.19.2 declared it an Optional+Computed SDKv2 block. Its `enabled` field is Optional+Computed as the seed has it.',
  },
  {
    what: 'AccountsManualBackupClusterInfo.resourcesSummaries{}.*: is required (output type), the seed says optional',
    reason:
      'Bridge fact (test/pulumi-model/schema.ts header, BuildOptions.bridge): the seed-era bridge makes every field of a computed object-typed attribute a required output. The seed stars the inner `amount`/`unit` but not `cpus`/`disks`/`rams`, which are equally computed-only lists (the same shape in AccountsClusterStatus is "all fields required").',
  },
];

/**
 * The reference inventory (docs/api/vdb.md, "The upstream inventory"): 8 resources, 7 data sources
 * in version 1.19.2.
 */
export const VDB_RESOURCE_TYPES = [
  'vdb_accounts_auth_key',
  'vdb_accounts_backup_schedule',
  'vdb_accounts_cluster',
  'vdb_accounts_database_api_key_v2',
  'vdb_accounts_hybrid_cloud_environment',
  'vdb_accounts_manual_backup',
  'vdb_accounts_role',
  'vdb_accounts_user_roles',
];
export const VDB_DATA_SOURCE_TYPES = [
  'vdb_accounts_auth_keys',
  'vdb_accounts_backup_schedule',
  'vdb_accounts_backup_schedules',
  'vdb_accounts_cluster',
  'vdb_accounts_clusters',
  'vdb_accounts_database_api_keys_v2',
  'vdb_booking_packages',
];

describeSeedConformance({
  provider: 'vdb',
  allowed: VDB_ALLOWED,
  resourceTypes: VDB_RESOURCE_TYPES,
  dataSourceTypes: VDB_DATA_SOURCE_TYPES,
  extra: (get) => {
    it('keeps `name` a required Terraform argument that Pulumi auto-names (docs/decisions.md, "Names and Pulumi")', () => {
      const { schema } = get();
      const cluster = schema.resources[resourceToken('vdb', 'vdb_accounts_cluster')];
      expect(cluster, 'the vdb_accounts_cluster resource').to.not.equal(undefined);
      expect(cluster.inputProperties).to.have.property('name');
      expect(cluster.requiredInputs ?? []).to.not.include('name');
      expect(cluster.required ?? []).to.include('name');
    });

    it('notices a broken schema (the comparison is not vacuous)', () => {
      const { schema, seed } = get();
      const broken: PulumiPackageSchema = JSON.parse(JSON.stringify(schema));
      const vars = broken.config.variables!;
      delete vars.apiKey!.secret;
      vars.apiUrl = { type: 'number' };
      broken.config.defaults = ['apiUrl'];
      const diffs = compareWithSeed(broken, seed, { only: ['config'], allowedDifferences: VDB_ALLOWED });
      expect(diffs).to.include('config.apiKey: is not secret, the seed flags it secret');
      expect(diffs).to.include('config.apiUrl: type is number, the seed says string');
      expect(diffs).to.include('config.apiUrl: is required, the seed says optional');
    });
  },
});
