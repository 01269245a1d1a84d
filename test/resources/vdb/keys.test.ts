/**
 * Database API keys (v2), the legacy auth keys and their data sources, through the provider
 * executable against the in-process emulator.
 */
import { expect } from 'chai';
import { VDB_COLLECTIONS } from '../../../src/emulators/vdb/index.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { startHarness, type Harness } from './harness.js';

const KEY = 'vdb_accounts_database_api_key_v2';
const AUTH = 'vdb_accounts_auth_key';

describe('vdb database API keys', function () {
  this.timeout(60_000);
  let h: Harness;
  let cluster: ObjectValue;
  let clusterId: string;

  before(async () => {
    h = await startHarness({ provisioningMs: 100 });
    cluster = await h.converge('vdb_accounts_cluster', null, {
      name: 'tf-keys',
      cloud_provider: 'aws',
      cloud_region: 'eu-central-1',
      configuration: [
        { number_of_nodes: 1, node_configuration: [{ package_id: h.emulator.packageId('aws', 'small') }] },
      ],
    });
    clusterId = cluster.id as string;
  });
  after(async () => {
    if (cluster) await h.destroy('vdb_accounts_cluster', cluster).catch(() => undefined);
    await h?.close();
  });

  it('v2 key: create with collection rules, no-op re-plan, replace on change, import, drift, destroy', async () => {
    const plain = {
      cluster_id: clusterId,
      name: 'tf reader',
      expires_at: '2040-01-01T02:00:00+02:00',
      collection_access_rules: [
        { collection_name: 'docs', access_type: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' },
        { collection_name: 'logs.v1', access_type: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE' },
      ],
    };
    const state = await h.converge(KEY, null, plain);
    const id = state.id as string;
    const stored = h.emulator.get<{ key: string; expiresAt: string; accessRules: unknown[] }>(
      VDB_COLLECTIONS.databaseApiKeys,
      id,
    )!;
    expect(state.key, 'the secret from the create response').to.equal(stored.key).and.to.have.length.greaterThan(8);
    expect(state.postfix).to.equal(stored.key.slice(-4));
    // The configured notation stays although the platform stores UTC.
    expect(state.expires_at).to.equal('2040-01-01T02:00:00+02:00');
    expect(stored.expiresAt).to.equal('2040-01-01T00:00:00Z');
    expect(stored.accessRules).to.deep.equal([
      { collectionAccess: { collectionName: 'docs', accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' } },
      { collectionAccess: { collectionName: 'logs.v1', accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE' } },
    ]);
    // Reads keep the secret (the platform never returns it again).
    expect((await h.tf.read(KEY, state)).state!.key).to.equal(stored.key);

    // A key cannot change: a new name is a replacement.
    const renamed = await h.plan(KEY, state, { ...plain, name: 'tf reader 2' });
    expect(renamed.requiresReplace).to.deep.include([{ attr: 'name' }]);

    // Import `<cluster_id>/<api_key_id>`: everything but the secret, and no change to plan.
    const imported = await h.tf.importState(KEY, `${clusterId}/${id}`);
    expect(imported).to.deep.include({
      id,
      cluster_id: clusterId,
      name: 'tf reader',
      key: '',
      expires_at: '2040-01-01T00:00:00Z',
    });
    expect(await h.isNoOp(KEY, imported, plain)).to.equal(true);
    const badImport = await h.failure(h.tf.importState(KEY, id));
    expect(badImport.diagnostics[0]!.detail).to.match(/<cluster_id>\/<api_key_id>/);

    // Deleted elsewhere: gone from the state on refresh.
    h.emulator.remove(VDB_COLLECTIONS.databaseApiKeys, id);
    expect((await h.tf.read(KEY, state)).state).to.equal(null);
    await h.destroy(KEY, state);
  });

  it('v2 key without rules gets global MANAGE and plans no change; data source lists the keys', async () => {
    const plain = { cluster_id: clusterId, name: 'tf admin' };
    const state = await h.converge(KEY, null, plain);
    const id = state.id as string;
    expect(h.emulator.get<{ accessRules: unknown[] }>(VDB_COLLECTIONS.databaseApiKeys, id)!.accessRules).to.deep.equal([
      { globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE' } },
    ]);
    expect(state.global_access_rule).to.deep.equal([]);
    expect(state.expires_at).to.equal('');
    const refreshed = (await h.tf.read(KEY, state)).state!;
    expect(await h.isNoOp(KEY, refreshed, plain)).to.equal(true);

    const ro = await h.converge(KEY, null, {
      cluster_id: clusterId,
      name: 'tf ro',
      global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
    });
    const data = await h.tf.readData(
      'vdb_accounts_database_api_keys_v2',
      h.tf.config(h.tf.dataSourceSchema('vdb_accounts_database_api_keys_v2').block, { cluster_id: clusterId }),
    );
    expect(data.id).to.equal(`${h.emulator.accountId}/${clusterId}`);
    const keys = data.keys as ObjectValue[];
    expect(keys.map((k) => k.id)).to.have.members([id, ro.id]);
    const listed = keys.find((k) => k.id === ro.id)!;
    expect(listed).to.deep.include({ name: 'tf ro', key: '', cluster_id: clusterId });
    expect(listed.global_access_rule).to.deep.equal([{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }]);
    await h.destroy(KEY, state);
    await h.destroy(KEY, ro);
    expect(h.emulator.list(VDB_COLLECTIONS.databaseApiKeys)).to.deep.equal([]);
  });

  it('v2 key naming the default MANAGE rule: an import reads no rule, and the plan keeps the key, sending nothing', async () => {
    const MANAGE = [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE' }];
    const plain = { cluster_id: clusterId, name: 'tf explicit', global_access_rule: MANAGE };
    const state = await h.converge(KEY, null, plain);
    const imported = await h.tf.importState(KEY, `${clusterId}/${String(state.id)}`);
    expect(imported.global_access_rule).to.deep.equal([]);
    const change = await h.plan(KEY, imported, plain);
    expect(change.requiresReplace, 'the same access: no new key').to.deep.equal([]);
    const requests = h.emulator.requests.length;
    const { state: after } = await h.tf.apply(KEY, imported, change, h.config(KEY, plain));
    expect(
      h.emulator.requests
        .slice(requests)
        .map((r) => r.method)
        .filter((m) => !/(^|\/)(Get|List)\w*$/.test(m)),
    ).to.deep.equal([]);
    expect(after!.id).to.equal(state.id);
    expect(await h.isNoOp(KEY, after!, plain)).to.equal(true);
    // A different access still makes a new key.
    expect(
      (
        await h.plan(KEY, after, {
          ...plain,
          global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
        })
      ).requiresReplace,
    ).to.deep.equal([[{ attr: 'global_access_rule' }]]);
    await h.destroy(KEY, after!);
  });

  it('v2 key: both kinds of access rule, or bad values, fail at plan time with paths', async () => {
    const both = {
      cluster_id: clusterId,
      name: 'tf both',
      global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE' }],
      collection_access_rules: [
        { collection_name: 'docs', access_type: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' },
      ],
    };
    const err = await h.failure(h.tf.validateResource(KEY, h.config(KEY, both)));
    expect(err.diagnostics).to.have.length(1);
    expect(err.diagnostics[0]).to.deep.include({
      summary: 'Conflicting access rules',
      path: 'collection_access_rules',
    });

    const bad = await h.failure(
      h.tf.validateResource(
        KEY,
        h.config(KEY, {
          cluster_id: 'nope',
          name: 'ab',
          expires_at: 'tomorrow',
          global_access_rule: [{ access_type: 'MANAGE' }],
        }),
      ),
    );
    expect(bad.diagnostics.map((d) => d.path).sort()).to.deep.equal([
      'cluster_id',
      'expires_at',
      'global_access_rule[0].access_type',
      'name',
    ]);
  });

  it('legacy auth key: deprecated, still works; import; data source', async () => {
    expect(h.tf.resourceSchema(AUTH).block.deprecated).to.equal(true);
    const plain = { cluster_ids: [clusterId] };
    const state = await h.converge(AUTH, null, plain);
    const id = state.id as string;
    const stored = h.emulator.get<{ key: string; clusterIds: string[] }>(VDB_COLLECTIONS.authKeys, id)!;
    expect(state.token).to.equal(stored.key);
    expect(state.prefix).to.equal(stored.key.slice(0, 6));
    expect(stored.clusterIds).to.deep.equal([clusterId]);
    expect((await h.tf.read(AUTH, state)).state!.token, 'kept from the state').to.equal(stored.key);

    const imported = await h.tf.importState(AUTH, id);
    expect(imported).to.deep.include({ id, token: '', prefix: state.prefix });
    expect(await h.isNoOp(AUTH, imported, plain)).to.equal(true);

    const data = await h.tf.readData(
      'vdb_accounts_auth_keys',
      h.tf.config(h.tf.dataSourceSchema('vdb_accounts_auth_keys').block, {}),
    );
    expect((data.keys as ObjectValue[]).find((k) => k.id === id)).to.deep.include({
      prefix: state.prefix,
      token: '',
      cluster_ids: [clusterId],
    });

    const other = await h.plan(AUTH, state, {
      cluster_ids: [clusterId, clusterId.replace(/.$/, (last) => (last === '0' ? '1' : '0'))],
    });
    expect(other.requiresReplace).to.deep.include([{ attr: 'cluster_ids' }]);
    await h.destroy(AUTH, state);
    expect(h.emulator.get(VDB_COLLECTIONS.authKeys, id)).to.equal(undefined);
  });
});
