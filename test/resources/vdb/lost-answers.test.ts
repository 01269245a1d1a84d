/**
 * Creates whose answer is lost, for the vdb resource types, through the provider executable against
 * the emulator. The emulator carries the create out and then answers UNAVAILABLE (fault
 * `ambiguous`): types with a natural key find what they made and adopt it — one object, its id in
 * state, the steps after the create done — a key whose one-time secret was lost is replaced, and
 * types without a natural key fail with a diagnostic instead of creating a second object.
 */
import { expect } from 'chai';
import { VDB_COLLECTIONS } from '../../../src/emulators/vdb/index.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { startHarness, type Harness } from './harness.js';

type Plain = Record<string, unknown>;
type Stored = Record<string, unknown>;

interface Case {
  type: string;
  /** The create method the fault hits (a pattern for the key services, whose method names are the same). */
  method: string | RegExp;
  collection: string;
  config: () => Plain;
  settled?: (stored: Stored, state: ObjectValue) => void;
}

describe('vdb resources: creates whose answer is lost', function () {
  this.timeout(120_000);
  let h: Harness;
  let cluster: ObjectValue;

  const clusterConfig = (name: string): Plain => ({
    name,
    cloud_provider: 'aws',
    cloud_region: 'eu-central-1',
    configuration: [{ number_of_nodes: 1, node_configuration: [{ package_id: h.emulator.packageId('aws', 'small') }] }],
  });
  const callsOf = (method: string | RegExp) =>
    h.emulator.requests.filter((r) =>
      typeof method === 'string' ? r.method === method : method.test(`/${r.service}/${r.method}`),
    );

  before(async () => {
    h = await startHarness({ provisioningMs: 100 });
    cluster = await h.converge('vdb_accounts_cluster', null, clusterConfig('tf-base'));
  });
  after(async () => {
    if (cluster) await h.destroy('vdb_accounts_cluster', cluster).catch(() => undefined);
    await h?.close();
  });
  afterEach(() => h.emulator.clearFaults());

  const CASES: Case[] = [
    {
      type: 'vdb_accounts_cluster',
      method: 'CreateCluster',
      collection: VDB_COLLECTIONS.clusters,
      config: () => clusterConfig('tf-lost'),
      // The create waited until the cluster was ready; so did the adoption.
      settled: (_stored, state) =>
        expect((state.status as { phase: string }[])[0]!.phase).to.equal('CLUSTER_PHASE_HEALTHY'),
    },
    {
      type: 'vdb_accounts_backup_schedule',
      method: 'CreateBackupSchedule',
      collection: VDB_COLLECTIONS.backupSchedules,
      config: () => ({ cluster_id: cluster.id, cron_expression: '0 4 * * *', retention_period: '72h' }),
    },
    {
      type: 'vdb_accounts_hybrid_cloud_environment',
      method: 'CreateHybridCloudEnvironment',
      collection: VDB_COLLECTIONS.hybridEnvironments,
      config: () => ({ name: 'tf-lost-env', configuration: [{ namespace: 'vdb-tf' }] }),
      // The bootstrap commands were generated for the adopted environment.
      settled: (stored, state) => {
        expect(stored.bootstrapCommandsGenerated).to.equal(true);
        expect(state.bootstrap_commands).to.have.length.greaterThan(0);
      },
    },
    {
      type: 'vdb_accounts_role',
      method: 'CreateRole',
      collection: VDB_COLLECTIONS.roles,
      config: () => ({ name: 'tf lost role', permissions: [{ value: 'read:clusters' }] }),
    },
  ];

  for (const c of CASES) {
    it(`${c.type}: adopts the one object the lost create made`, async () => {
      const before = h.emulator.list<Stored>(c.collection).map((s) => s.id);
      h.emulator.clearRequests();
      h.emulator.injectFault({ method: c.method, ambiguous: true });
      const state = await h.converge(c.type, null, c.config());
      const added = h.emulator.list<Stored>(c.collection).filter((s) => !before.includes(s.id));
      expect(added, 'exactly one new object').to.have.length(1);
      expect(state.id).to.equal(added[0]!.id);
      expect(callsOf(c.method), 'the create was sent once').to.have.length(1);
      c.settled?.(added[0]!, state);
      await h.destroy(c.type, state);
    });
  }

  it('replaces a database API key whose secret was lost, leaving older keys of the same name alone', async () => {
    const type = 'vdb_accounts_database_api_key_v2';
    const method = /auth\.v2\.DatabaseApiKeyService\/CreateDatabaseApiKey$/;
    const plain = { cluster_id: cluster.id, name: 'tf lost key' };
    // Someone's key of the same name from an hour ago: not what this apply made.
    const older = await h.converge(type, null, plain);
    const olderStored = h.emulator.get<Stored>(VDB_COLLECTIONS.databaseApiKeys, older.id as string)!;
    h.emulator.put(VDB_COLLECTIONS.databaseApiKeys, older.id as string, {
      ...olderStored,
      createdAt: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    });

    h.emulator.clearRequests();
    h.emulator.injectFault({ method, ambiguous: true });
    const state = await h.converge(type, null, plain);
    const keys = h.emulator.list<Stored>(VDB_COLLECTIONS.databaseApiKeys).filter((k) => k.name === 'tf lost key');
    expect(keys.map((k) => k.id).sort()).to.deep.equal([older.id, state.id].sort());
    // Created twice; the first key, whose secret nobody knows, was deleted.
    expect(callsOf(method)).to.have.length(2);
    expect(callsOf(/auth\.v2\.DatabaseApiKeyService\/DeleteDatabaseApiKey$/).map((c) => c.request?.databaseApiKeyId))
      .to.have.length(1)
      .and.not.to.include(older.id);
    expect(state.key, 'the secret of the key in state is known').to.equal(keys.find((k) => k.id === state.id)!.key);
    await h.destroy(type, state);
    await h.destroy(type, older);
  });

  it('replaces a legacy auth key whose token was lost (found by its clusters and creation time), leaving older keys alone', async () => {
    const type = 'vdb_accounts_auth_key';
    const method = /auth\.v1\.DatabaseApiKeyService\/CreateDatabaseApiKey$/;
    const plain = { cluster_ids: [cluster.id] };
    // A key for the same cluster from an hour ago: not what this apply made.
    const older = await h.converge(type, null, plain);
    const olderStored = h.emulator.get<Stored>(VDB_COLLECTIONS.authKeys, older.id as string)!;
    h.emulator.put(VDB_COLLECTIONS.authKeys, older.id as string, {
      ...olderStored,
      createdAt: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    });

    h.emulator.clearRequests();
    h.emulator.injectFault({ method, ambiguous: true });
    const state = await h.converge(type, null, plain);
    const keys = h.emulator.list<Stored>(VDB_COLLECTIONS.authKeys);
    expect(keys.map((k) => k.id).sort()).to.deep.equal([older.id, state.id].sort());
    // Created twice; the first key, whose token nobody knows, was deleted (never the older one).
    expect(callsOf(method)).to.have.length(2);
    expect(callsOf(/auth\.v1\.DatabaseApiKeyService\/DeleteDatabaseApiKey$/).map((c) => c.request?.databaseApiKeyId))
      .to.have.length(1)
      .and.not.to.include(older.id);
    expect(state.token, 'the token of the key in state is known').to.equal(keys.find((k) => k.id === state.id)!.key);
    await h.destroy(type, state);
    await h.destroy(type, older);
  });

  it('adopts the manual backup a lost create made (its cluster, no schedule, made during this apply), not an older one', async () => {
    const type = 'vdb_accounts_manual_backup';
    const older = await h.converge(type, null, { cluster_id: cluster.id });
    const olderStored = h.emulator.get<Stored>(VDB_COLLECTIONS.backups, older.id as string)!;
    h.emulator.put(VDB_COLLECTIONS.backups, older.id as string, {
      ...olderStored,
      createdAt: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    });
    const before = h.emulator.list<Stored>(VDB_COLLECTIONS.backups).map((b) => b.id);

    h.emulator.clearRequests();
    h.emulator.injectFault({ method: 'CreateBackup', ambiguous: true });
    const state = await h.converge(type, null, { cluster_id: cluster.id });
    const added = h.emulator.list<Stored>(VDB_COLLECTIONS.backups).filter((b) => !before.includes(b.id));
    expect(added, 'exactly one new backup').to.have.length(1);
    expect(state.id).to.equal(added[0]!.id);
    expect(callsOf('CreateBackup'), 'the create was sent once').to.have.length(1);
    await h.destroy(type, state);
    await h.destroy(type, older);
  });

  it('creates a cluster again when the create was lost before it took effect, still one cluster', async () => {
    const before = h.emulator.list(VDB_COLLECTIONS.clusters).length;
    h.emulator.clearRequests();
    h.emulator.injectFault({ method: 'CreateCluster', code: 14 /* UNAVAILABLE */ });
    const state = await h.converge('vdb_accounts_cluster', null, clusterConfig('tf-retried'));
    expect(callsOf('CreateCluster')).to.have.length(2);
    expect(h.emulator.list(VDB_COLLECTIONS.clusters)).to.have.length(before + 1);
    await h.destroy('vdb_accounts_cluster', state);
  });
});
