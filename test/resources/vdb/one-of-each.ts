/**
 * One object of every vdb resource type, as a configuration that creates it, and the objects those
 * configurations refer to (made first, through the API, by prepareVdbPrerequisites). The identity and
 * list-resource table (identity-and-lists.test.ts) runs a row for each; the answer-mapping test
 * (test/clients/vdb-answers-mapped.test.ts) makes them all.
 */
import { join } from 'node:path';
import type { VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { createVdbClient } from '../../../src/clients/vdb/index.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { byId, type Case, type Plain } from '../identity-and-lists.js';

export const VDB_BIN = join(process.cwd(), 'bin', 'terraform-provider-vdb');

/** What the vdb cases refer to, made first through the API. */
const vdbPrereq = { cluster: '', member: '', role: '', finishProvisioning: () => {} };
const inAccount = (own: (s: ObjectValue) => Plain) => (s: ObjectValue) => ({ account_id: s.account_id, ...own(s) });

export const VDB_CASES: Case[] = [
  {
    type: 'vdb_accounts_cluster',
    config: () => ({
      name: 'q-cluster',
      cloud_provider: 'aws',
      cloud_region: 'eu-west-1',
      configuration: [{ number_of_nodes: 1, node_configuration: [{ package_id: vdbPackage.small }] }],
    }),
    identity: inAccount(byId),
    filters: () => ({ cloud_provider: 'aws', cloud_region: 'eu-west-1' }),
  },
  {
    type: 'vdb_accounts_database_api_key_v2',
    config: () => ({ cluster_id: vdbPrereq.cluster, name: 'q key' }),
    identity: inAccount((s) => ({ cluster_id: s.cluster_id, id: s.id })),
    filters: (s) => ({ cluster_id: s.cluster_id }),
    importId: (s) => `${s.cluster_id as string}/${s.id as string}`,
  },
  {
    type: 'vdb_accounts_auth_key',
    config: () => ({ cluster_ids: [vdbPrereq.cluster] }),
    displayName: (s) => `${s.prefix as string}… (${s.id as string})`,
    filters: () => ({ cluster_id: vdbPrereq.cluster }),
  },
  {
    type: 'vdb_accounts_backup_schedule',
    config: () => ({ cluster_id: vdbPrereq.cluster, cron_expression: '0 4 * * *', retention_period: '72h' }),
    identity: inAccount((s) => ({ cluster_id: s.cluster_id, id: s.id })),
    displayName: (s) => `0 4 * * * (cluster ${s.cluster_id as string})`,
    filters: (s) => ({ cluster_id: s.cluster_id }),
    importId: (s) => `${s.cluster_id as string}/${s.id as string}`,
  },
  {
    type: 'vdb_accounts_manual_backup',
    config: () => ({ cluster_id: vdbPrereq.cluster, retention_period: '48h' }),
    identity: inAccount(byId),
    settle: () => vdbPrereq.finishProvisioning(),
    filters: (s) => ({ cluster_id: s.cluster_id }),
  },
  {
    type: 'vdb_accounts_hybrid_cloud_environment',
    config: () => ({ name: 'q-hybrid', configuration: [{ namespace: 'vdb-q' }] }),
    identity: inAccount(byId),
    settle: () => vdbPrereq.finishProvisioning(),
  },
  {
    type: 'vdb_accounts_role',
    config: () => ({ name: 'q reader', permissions: [{ value: 'read:clusters' }] }),
    identity: inAccount(byId),
  },
  {
    type: 'vdb_accounts_user_roles',
    config: () => ({ user_email: vdbPrereq.member, role_ids: [vdbPrereq.role] }),
    identity: inAccount((s) => ({ user_email: s.user_email })),
    notListed: 'it owns no object on the platform: only the roles it assigned, which nothing else records',
    notImportable: 'it records which roles it granted, which an import cannot know',
  },
];
const vdbPackage = { small: '' };

/** Makes, through the API and the emulator, the objects the cases refer to. */
export async function prepareVdbPrerequisites(emulator: VdbEmulator): Promise<void> {
  vdbPackage.small = emulator.packageId('aws', 'small');
  const api = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'test' });
  try {
    vdbPrereq.cluster = (
      await api.clusters.create({
        accountId: emulator.accountId,
        name: 'q-base',
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'eu-central-1',
        configuration: { numberOfNodes: 1, packageId: vdbPackage.small },
      })
    ).id;
    vdbPrereq.role = (
      await api.iam.createRole({ accountId: emulator.accountId, name: 'q base role', permissions: ['read:backups'] })
    ).id;
  } finally {
    api.close();
  }
  vdbPrereq.member = emulator.addMember('q-member@vdb-emulator.example').email;
  vdbPrereq.finishProvisioning = () => emulator.clock.advance(60_000);
}

/**
 * A configuration of every data source, from the objects made of each type (by type): each reads what
 * its row's object is, or its account's objects of the kind.
 */
export const VDB_DATA_SOURCES: Readonly<
  Record<string, (made: ReadonlyMap<string, Record<string, unknown>>) => Record<string, unknown>>
> = {
  vdb_booking_packages: () => ({ cloud_provider: 'aws', cloud_region: 'eu-central-1' }),
  vdb_accounts_cluster: (made) => ({ id: made.get('vdb_accounts_cluster')!.id }),
  vdb_accounts_clusters: () => ({}),
  vdb_accounts_auth_keys: () => ({}),
  vdb_accounts_backup_schedule: (made) => ({
    id: made.get('vdb_accounts_backup_schedule')!.id,
    cluster_id: made.get('vdb_accounts_backup_schedule')!.cluster_id,
  }),
  vdb_accounts_backup_schedules: (made) => ({ cluster_id: made.get('vdb_accounts_backup_schedule')!.cluster_id }),
  vdb_accounts_database_api_keys_v2: (made) => ({
    cluster_id: made.get('vdb_accounts_database_api_key_v2')!.cluster_id,
  }),
};
