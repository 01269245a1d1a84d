/**
 * vdb_accounts_cluster and the cluster data sources through the provider executable against the
 * in-process emulator: the whole lifecycle with readiness waits (provisioning takes a few hundred
 * milliseconds), failed provisioning kept in state, StopProvider interrupting a wait.
 */
import { expect } from 'chai';
import type { Cluster } from '../../../src/clients/vdb/api.js';
import { VDB_COLLECTIONS } from '../../../src/emulators/vdb/index.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { startHarness, type Harness } from './harness.js';

const TYPE = 'vdb_accounts_cluster';

describe('vdb_accounts_cluster', function () {
  this.timeout(60_000);
  let h: Harness;
  let small: string;
  let medium: string;

  before(async () => {
    h = await startHarness();
    small = h.emulator.packageId('aws', 'small');
    medium = h.emulator.packageId('aws', 'medium');
  });
  after(async () => h?.close());

  const cluster = (over: Record<string, unknown> = {}, configuration: Record<string, unknown> = {}) => ({
    name: 'tf-cluster',
    cloud_provider: 'aws',
    cloud_region: 'eu-central-1',
    labels: [{ key: 'team', value: 'search' }],
    configuration: [{ number_of_nodes: 1, node_configuration: [{ package_id: small }], ...configuration }],
    ...over,
  });
  const stored = (id: string) => h.emulator.get<Cluster>(VDB_COLLECTIONS.clusters, id)!;
  const status = (state: ObjectValue) => (state.status as ObjectValue[])[0]!;
  const configuration = (state: ObjectValue) => (state.configuration as ObjectValue[])[0]!;

  it('creates a cluster and waits until it is healthy with a URL; update in place waits again; import, drift, destroy', async () => {
    const started = Date.now();
    let state = await h.converge(
      TYPE,
      null,
      cluster(
        {},
        { allowed_ip_source_ranges: ['10.0.0.0/8'], database_configuration: [{ service: [{ jwt_rbac: true }] }] },
      ),
    );
    const id = state.id as string;
    expect(Date.now() - started).to.be.greaterThan(250);
    // The URL the platform publishes once the cluster is up: the emulator's endpoint of this cluster.
    expect(state.url)
      .to.equal(stored(id).state?.endpoint?.url)
      .and.match(new RegExp(`/clusters/${id}$`));
    expect(status(state)).to.deep.include({ phase: 'CLUSTER_PHASE_HEALTHY', nodes_up: 1 });
    expect(state).to.deep.include({
      account_id: h.emulator.accountId,
      delete_backups_on_destroy: true,
      marked_for_deletion_at: '',
    });
    expect(configuration(state).version).to.equal('v1.13.2');
    expect(stored(id)).to.deep.include({
      name: 'tf-cluster',
      cloudProviderId: 'aws',
      cloudProviderRegionId: 'eu-central-1',
    });
    expect(stored(id).configuration).to.deep.include({
      numberOfNodes: 1,
      packageId: small,
      allowedIpSourceRanges: ['10.0.0.0/8'],
    });
    expect(stored(id).state!.jwtRbac).to.equal(true);
    const create = h.emulator.requests.find((r) => r.method === 'CreateCluster')!;
    expect(create.metadata['vdb-jwt-rbac']).to.equal('true');
    expect(h.emulator.requests.filter((r) => r.method === 'GetCluster').length, 'polled until ready').to.be.greaterThan(
      0,
    );

    // Rename, resize, add extra disk: an in-place update that waits for the platform again.
    h.emulator.clearRequests();
    const resized = cluster(
      {
        name: 'tf-cluster-2',
        labels: [
          { key: 'team', value: 'search' },
          { key: 'env', value: 'prod' },
        ],
      },
      {
        number_of_nodes: 2,
        node_configuration: [
          { package_id: medium, resource_configurations: [{ amount: 10, resource_type: 'disk', resource_unit: 'Gi' }] },
        ],
        allowed_ip_source_ranges: ['10.0.0.0/8'],
        database_configuration: [{ service: [{ jwt_rbac: true }] }],
      },
    );
    const change = await h.plan(TYPE, state, resized);
    expect(change.requiresReplace).to.deep.equal([]);
    state = await h.converge(TYPE, state, resized);
    expect(state.id).to.equal(id);
    expect(status(state)).to.deep.include({ phase: 'CLUSTER_PHASE_HEALTHY', nodes_up: 2 });
    expect(stored(id)).to.deep.include({ name: 'tf-cluster-2' });
    expect(stored(id).configuration).to.deep.include({
      numberOfNodes: 2,
      packageId: medium,
      additionalResources: { disk: 10 },
    });
    expect(h.emulator.requests.map((r) => r.method)).to.include.members(['UpdateCluster', 'GetCluster']);
    expect(h.emulator.requests.find((r) => r.method === 'UpdateCluster')!.request!.cluster).to.deep.include({ id });

    // JWT RBAC is one-way: asking to turn it off is refused at plan, before anything is sent.
    const jwtOff = {
      ...resized,
      configuration: [{ ...resized.configuration[0], database_configuration: [{ service: [{ jwt_rbac: false }] }] }],
    };
    h.emulator.clearRequests();
    const off = await h.failure(h.plan(TYPE, state, jwtOff));
    expect(off.diagnostics[0]).to.deep.include({
      summary: 'JWT RBAC cannot be disabled',
      path: 'configuration[0].database_configuration[0].service[0].jwt_rbac',
    });
    expect(h.emulator.requests.map((r) => r.method)).to.not.include('UpdateCluster');

    // Changing the region is a replacement.
    const moved = await h.plan(TYPE, state, { ...resized, cloud_region: 'eu-west-1' });
    expect(moved.requiresReplace).to.deep.include([{ attr: 'cloud_region' }]);

    // Import by id, then an empty plan (delete_backups_on_destroy takes its default).
    const imported = await h.tf.importState(TYPE, id);
    expect(imported).to.deep.include({ id, name: 'tf-cluster-2', delete_backups_on_destroy: true, url: state.url });
    expect(await h.isNoOp(TYPE, imported, resized)).to.equal(true);

    // Drift: a change made elsewhere shows up on refresh, and the plan puts it back.
    h.emulator.put(VDB_COLLECTIONS.clusters, id, { ...stored(id), name: 'renamed-in-console' });
    const refreshed = (await h.tf.read(TYPE, state)).state!;
    expect(refreshed.name).to.equal('renamed-in-console');
    expect(await h.isNoOp(TYPE, refreshed, resized)).to.equal(false);

    // Destroy deletes the cluster with its backups (the default) and waits until it is gone.
    h.emulator.clearRequests();
    await h.destroy(TYPE, refreshed);
    expect(h.emulator.get(VDB_COLLECTIONS.clusters, id)).to.equal(undefined);
    expect(h.emulator.requests.find((r) => r.method === 'DeleteCluster')!.request).to.deep.include({
      clusterId: id,
      deleteBackups: true,
    });
    expect((await h.tf.read(TYPE, refreshed)).state, 'a deleted cluster leaves the state').to.equal(null);
  });

  it('keeps a cluster that failed to provision in the state and says why', async () => {
    h.emulator.failNextProvisioning('no capacity for this package in eu-central-1');
    const plain = cluster({ name: 'tf-doomed' });
    const change = await h.plan(TYPE, null, plain);
    const { state, errors } = await h.applyRaw(TYPE, null, change, plain);
    expect(errors).to.have.length(1);
    expect(errors[0]!.summary).to.equal('Cluster failed to provision');
    expect(errors[0]!.detail).to.match(
      /entered phase CLUSTER_PHASE_FAILED_TO_CREATE: no capacity for this package in eu-central-1/,
    );
    expect(errors[0]!.detail).to.match(/kept in the state.*tainted/);
    expect(state, 'the cluster exists, so it stays in the state').to.not.equal(null);
    const id = state!.id as string;
    expect(stored(id).state!.phase).to.equal('CLUSTER_PHASE_FAILED_TO_CREATE');
    expect(status(state!)).to.deep.include({
      phase: 'CLUSTER_PHASE_FAILED_TO_CREATE',
      reason: 'no capacity for this package in eu-central-1',
    });
    await h.destroy(TYPE, state!);
    expect(h.emulator.get(VDB_COLLECTIONS.clusters, id)).to.equal(undefined);
  });

  it("a change the cluster fails to apply is reported with the platform's reason", async () => {
    const plain = cluster({ name: 'tf-update-fails' });
    const state = await h.converge(TYPE, null, plain);
    h.emulator.failNextProvisioning('disk resize not possible');
    const bigger = cluster({ name: 'tf-update-fails' }, { number_of_nodes: 3 });
    const { state: after, errors } = await h.applyRaw(TYPE, state, await h.plan(TYPE, state, bigger), bigger);
    expect(errors[0]!.summary).to.equal('Cluster failed to apply the change');
    expect(errors[0]!.detail).to.match(/entered phase CLUSTER_PHASE_FAILED_TO_UPDATE: disk resize not possible/);
    // The platform holds the new configuration, and so does the state.
    expect(after!.id).to.equal(state.id);
    expect(configuration(after!).number_of_nodes).to.equal(3);
    expect(status(after!).phase).to.equal('CLUSTER_PHASE_FAILED_TO_UPDATE');
    await h.destroy(TYPE, after!);
  });

  it('stops waiting promptly when Terraform calls StopProvider, keeping the cluster in state', async () => {
    h.emulator.setProvisioningMs(120_000);
    try {
      const plain = cluster({ name: 'tf-slow' });
      const change = await h.plan(TYPE, null, plain);
      const applying = h.applyRaw(TYPE, null, change, plain);
      await new Promise((r) => setTimeout(r, 1_000));
      const stopAt = Date.now();
      expect(await h.tf.stop()).to.equal('');
      const { state, errors } = await applying;
      expect(Date.now() - stopAt, 'the wait ends promptly').to.be.lessThan(2_000);
      expect(errors[0]!.detail).to.match(/cancelled because Terraform asked the provider to stop/);
      expect(state).to.not.equal(null);
      expect(stored(state!.id as string).state!.phase).to.equal('CLUSTER_PHASE_CREATING');
      h.emulator.setProvisioningMs(300);
      h.emulator.clock.advance(120_000);
      await h.destroy(TYPE, state!);
    } finally {
      h.emulator.setProvisioningMs(300);
    }
  });

  it('rejects bad values at plan time with their paths', async () => {
    const bad = cluster(
      { name: 'x' },
      {
        number_of_nodes: 0,
        gpu_type: 'NVIDIA',
        allowed_ip_source_ranges: ['10.0.0.0/40'],
        tolerations: [{ key: 'dedicated', operator: 'TOLERATION_OPERATOR_EXISTS', value: 'db' }],
      },
    );
    const err = await h.failure(h.tf.validateResource(TYPE, h.config(TYPE, bad)));
    const byPath = Object.fromEntries(err.diagnostics.map((d) => [d.path, d.detail]));
    expect(byPath.name).to.match(/2 to 64 characters/);
    expect(byPath['configuration[0].number_of_nodes']).to.match(/a whole number from 1 to 100, got 0/);
    expect(byPath['configuration[0].gpu_type']).to.match(/CLUSTER_CONFIGURATION_GPU_TYPE_NVIDIA/);
    expect(byPath['configuration[0].allowed_ip_source_ranges']).to.match(/IPv4 CIDR/);
    expect(byPath['configuration[0].tolerations']).to.match(/does not allow/);
  });

  it("rejects counts beyond the API's rules at plan time, naming the field, and creates nothing", async () => {
    const beyondWire = cluster(
      {},
      {
        number_of_nodes: 2 ** 32,
        node_configuration: [
          {
            package_id: small,
            resource_configurations: [{ amount: 2 ** 32, resource_type: 'disk', resource_unit: 'Gi' }],
          },
        ],
        topology_spread_constraints: [
          {
            max_skew: 2 ** 31,
            topology_key: 'zone',
            when_unsatisfiable: 'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE',
          },
        ],
        database_configuration: [{ collection: [{ replication_factor: 2 ** 32, write_consistency_factor: 2 ** 31 }] }],
      },
    );
    const err = await h.failure(h.tf.validateResource(TYPE, h.config(TYPE, beyondWire)));
    const byPath = Object.fromEntries(err.diagnostics.map((d) => [d.path, d.detail]));
    expect(byPath).to.have.all.keys(
      'configuration[0].number_of_nodes',
      'configuration[0].node_configuration[0].resource_configurations',
      'configuration[0].node_configuration[0].resource_configurations[0].amount',
      'configuration[0].topology_spread_constraints',
      'configuration[0].database_configuration[0].collection[0].replication_factor',
      'configuration[0].database_configuration[0].collection[0].write_consistency_factor',
    );
    expect(byPath['configuration[0].number_of_nodes']).to.match(/from 1 to 100, got 4294967296/);
    expect(byPath['configuration[0].node_configuration[0].resource_configurations']).to.match(
      /add up to the extra disk per node, which must be a whole number from 0 to 16384, got 4294967296/,
    );
    expect(byPath['configuration[0].database_configuration[0].collection[0].write_consistency_factor']).to.match(
      /from 1 to 100/,
    );

    // Within the wire type but beyond the API's rule (docs/api/vdb.md, "Field rules"): refused at plan too.
    const before = h.emulator.list(VDB_COLLECTIONS.clusters).length;
    const absurd = cluster({}, { number_of_nodes: 9_999_999 });
    const refused = await h.failure(h.tf.validateResource(TYPE, h.config(TYPE, absurd)));
    expect(refused.diagnostics.map((d) => [d.path, d.detail])).to.deep.equal([
      ['configuration[0].number_of_nodes', 'The value must be a whole number from 1 to 100, got 9999999.'],
    ]);
    expect(h.emulator.list(VDB_COLLECTIONS.clusters)).to.have.length(before);
  });

  it('a hybrid cluster with Kubernetes settings and database configuration plans no change after apply', async () => {
    const environment = await h.converge('vdb_accounts_hybrid_cloud_environment', null, {
      name: 'tf-hybrid-env',
      configuration: [{ namespace: 'vdb-hybrid' }],
      bootstrap_commands_version: -1,
    });
    const envId = environment.id as string;
    const plain = {
      name: 'tf-hybrid-cluster',
      cloud_provider: 'hybrid',
      cloud_region: envId,
      configuration: [
        {
          number_of_nodes: 3,
          version: 'latest',
          node_configuration: [{ package_id: h.emulator.packageId('hybrid', 'medium') }],
          service_type: 'CLUSTER_SERVICE_TYPE_LOAD_BALANCER',
          restart_policy: 'CLUSTER_CONFIGURATION_RESTART_POLICY_ROLLING',
          reserved_cpu_percentage: 15,
          node_selector: [{ key: 'pool', value: 'db' }],
          tolerations: [
            {
              key: 'dedicated',
              operator: 'TOLERATION_OPERATOR_EQUAL',
              value: 'db',
              effect: 'TOLERATION_EFFECT_NO_EXECUTE',
              toleration_seconds: 30,
            },
            { operator: 'TOLERATION_OPERATOR_EXISTS' },
            // 0 evicts at once, where unset keeps the pod bound: it is sent and read back as 0.
            {
              key: 'maintenance',
              operator: 'TOLERATION_OPERATOR_EXISTS',
              effect: 'TOLERATION_EFFECT_NO_EXECUTE',
              toleration_seconds: 0,
            },
          ],
          topology_spread_constraints: [
            {
              max_skew: 1,
              topology_key: 'topology.kubernetes.io/zone',
              when_unsatisfiable: 'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE',
            },
          ],
          pod_labels: [{ key: 'app', value: 'vdb' }],
          database_configuration: [
            {
              log_level: 'DATABASE_CONFIGURATION_LOG_LEVEL_INFO',
              collection: [{ replication_factor: 2, vectors: [{ on_disk: true }] }],
              service: [{ api_key: [{ secret_name: 'vdb-api-key', secret_key: 'key' }], enable_tls: true }],
              tls: [
                {
                  cert: [{ secret_name: 'vdb-tls', secret_key: 'tls.crt' }],
                  key: [{ secret_name: 'vdb-tls', secret_key: 'tls.key' }],
                },
              ],
            },
          ],
        },
      ],
    };
    const state = await h.converge(TYPE, null, plain);
    const id = state.id as string;
    expect(state.url).to.match(/vdb-hybrid/);
    // `latest` stays as configured while the status reports the version it resolved to.
    expect(configuration(state).version).to.equal('latest');
    expect(status(state).version).to.equal('v1.13.2');
    const c = stored(id).configuration;
    expect(c.tolerations).to.deep.include({ operator: 'TOLERATION_OPERATOR_EXISTS' });
    expect(c.tolerations).to.deep.include({
      key: 'maintenance',
      operator: 'TOLERATION_OPERATOR_EXISTS',
      effect: 'TOLERATION_EFFECT_NO_EXECUTE',
      tolerationSeconds: 0,
    });
    expect(c.databaseConfiguration).to.deep.include({
      logLevel: 'DATABASE_CONFIGURATION_LOG_LEVEL_INFO',
      tls: { cert: { name: 'vdb-tls', key: 'tls.crt' }, key: { name: 'vdb-tls', key: 'tls.key' } },
    });
    const service = ((configuration(state).database_configuration as ObjectValue[])[0]!.service as ObjectValue[])[0]!;
    expect(service).to.deep.include({ jwt_rbac: false, enable_tls: true });
    const refreshed = (await h.tf.read(TYPE, state)).state!;
    expect(await h.isNoOp(TYPE, refreshed, plain)).to.equal(true);
    const imported = await h.tf.importState(TYPE, id);
    expect(imported.cloud_region).to.equal(envId);

    // The deprecated private_region_id names the same environment: no change, and it reads back.
    const legacy = { ...plain, cloud_region: envId, private_region_id: envId };
    const withLegacy = await h.converge(TYPE, refreshed, legacy);
    expect(withLegacy.private_region_id).to.equal(envId);
    await h.destroy(TYPE, withLegacy);

    // A cluster made when private_region_id named the environment and cloud_region said anything:
    // the configuration the provider writes from that state (GenerateResourceConfig) names the
    // environment as cloud_region, and plans no change against the cluster's import.
    const older = await h.converge(TYPE, null, {
      ...plain,
      name: 'tf-hybrid-older',
      cloud_region: 'placeholder',
      private_region_id: envId,
    });
    const { config } = await h.tf.generateResourceConfig(TYPE, older);
    expect([config.cloud_region, config.private_region_id]).to.deep.equal([envId, null]);
    await h.tf.validateResource(TYPE, config);
    const fresh = await h.tf.importState(TYPE, older.id as string);
    const replanned = await h.tf.plan(TYPE, fresh, config);
    expect(replanned.requiresReplace, 'nothing forces a new cluster').to.deep.equal([]);
    expect(valueEquals(impliedType(h.tf.resourceSchema(TYPE).block), replanned.planned, fresh)).to.equal(true);
    await h.destroy(TYPE, older);
    await h.destroy('vdb_accounts_hybrid_cloud_environment', environment);
  });

  it('data sources read what the emulator holds', async () => {
    const state = await h.converge(TYPE, null, cluster({ name: 'tf-listed' }));
    const id = state.id as string;
    const one = await h.tf.readData(
      'vdb_accounts_cluster',
      h.tf.config(h.tf.dataSourceSchema('vdb_accounts_cluster').block, { id }),
    );
    expect(one).to.deep.include({
      id,
      name: 'tf-listed',
      cloud_provider: 'aws',
      cloud_region: 'eu-central-1',
      url: state.url,
      account_id: h.emulator.accountId,
    });
    expect((one.configuration as ObjectValue[])[0]!.number_of_nodes).to.equal(1);
    expect(((one.configuration as ObjectValue[])[0]!.node_configuration as ObjectValue[])[0]!.package_id).to.equal(
      small,
    );
    const all = await h.tf.readData(
      'vdb_accounts_clusters',
      h.tf.config(h.tf.dataSourceSchema('vdb_accounts_clusters').block, {}),
    );
    const listed = (all.clusters as ObjectValue[]).map((c) => c.id);
    expect(listed).to.have.members(h.emulator.list<Cluster>(VDB_COLLECTIONS.clusters).map((c) => c.id));
    expect(listed).to.include(id);
    await h.destroy(TYPE, state);
  });
});
