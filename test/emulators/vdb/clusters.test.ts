/** ClusterService in the vdb emulator: provisioning phases, validation, updates, power, deletion and what goes with it, paging; and the clusters' own endpoints. */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { AuthKey, Cluster, VdbClient } from '../../../src/clients/vdb/index.js';
import { VDB_SERVICES } from '../../../src/wire/vdb-proto.js';
import { FAIL_PROVISIONING_LABEL, VDB_COLLECTIONS, type VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { PROVISIONING_MS, failure, rawCall, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  const { clusterInput, healthyCluster } = useVdbEmulator((session) => ({ emulator, vdb, account } = session));

  describe('clusters', () => {
    it('moves through provisioning phases over time: CREATING, URL halfway, then HEALTHY', async () => {
      const created = await vdb.clusters.create(clusterInput({ labels: [{ key: 'env', value: 'test' }] }));
      expect(created.state).to.deep.include({ phase: 'CLUSTER_PHASE_CREATING', nodesUp: 0, reason: '' });
      expect(created.state?.endpoint).to.equal(undefined);
      expect(created.configuration.version, 'the server fills the version').to.equal('v1.13.2');

      emulator.clock.advance(PROVISIONING_MS / 2);
      const halfway = await vdb.clusters.get({ accountId: account, clusterId: created.id });
      expect(halfway.state?.phase).to.equal('CLUSTER_PHASE_CREATING');
      // The cluster's own endpoint, which the emulator serves on loopback (database-endpoints.ts).
      expect(halfway.state?.endpoint?.url).to.match(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/clusters/${created.id}$`));
      expect(halfway.state?.nodes.map((node) => node.state)).to.deep.equal(
        Array(3).fill('CLUSTER_NODE_STATE_STARTING'),
      );

      emulator.clock.advance(PROVISIONING_MS / 2);
      const ready = await vdb.clusters.get({ accountId: account, clusterId: created.id });
      expect(ready.state).to.deep.include({ phase: 'CLUSTER_PHASE_HEALTHY', nodesUp: 3, version: 'v1.13.2' });
      expect(ready.state?.scalabilityInfo?.status).to.equal('CLUSTER_SCALABILITY_STATUS_SCALABLE');
      expect(ready.state?.resources?.cpu).to.deep.equal({
        base: 1,
        complimentary: 0,
        additional: 0,
        reserved: 0.2,
        available: 0.8,
      });
      expect(
        emulator.get<Cluster>(VDB_COLLECTIONS.clusters, created.id)?.state?.phase,
        'the store shows it too',
      ).to.equal('CLUSTER_PHASE_HEALTHY');
    });

    it('provisions in real time (default provisioningMs is short)', async () => {
      emulator.setProvisioningMs(150);
      const created = await vdb.clusters.create(clusterInput());
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await vdb.clusters.get({ accountId: account, clusterId: created.id })).state?.phase).to.equal(
        'CLUSTER_PHASE_HEALTHY',
      );
    });

    it('fails provisioning with the platform reason: failNextProvisioning, or the magic label', async () => {
      emulator.failNextProvisioning('insufficient capacity in us-east-1');
      const first = await vdb.clusters.create(clusterInput({ name: 'first' }));
      const second = await vdb.clusters.create(clusterInput({ name: 'second' }));
      const labelled = await vdb.clusters.create(
        clusterInput({ name: 'third', labels: [{ key: FAIL_PROVISIONING_LABEL, value: 'quota exceeded' }] }),
      );
      emulator.clock.advance(PROVISIONING_MS);
      const [a, b, c] = await Promise.all(
        [first, second, labelled].map((cluster) => vdb.clusters.get({ accountId: account, clusterId: cluster.id })),
      );
      expect(a!.state).to.deep.include({
        phase: 'CLUSTER_PHASE_FAILED_TO_CREATE',
        reason: 'insufficient capacity in us-east-1',
        nodesUp: 0,
      });
      expect(b!.state?.phase, 'only the next one fails').to.equal('CLUSTER_PHASE_HEALTHY');
      expect(c!.state).to.deep.include({ phase: 'CLUSTER_PHASE_FAILED_TO_CREATE', reason: 'quota exceeded' });
    });

    it('updates: configuration changes go through UPDATING, renames apply at once, placement cannot change', async () => {
      const cluster = await healthyCluster();
      const renamed = await vdb.clusters.update({ ...clusterInput({ name: 'orders-v2' }), id: cluster.id });
      expect(renamed.name).to.equal('orders-v2');
      expect(renamed.state?.phase).to.equal('CLUSTER_PHASE_HEALTHY');
      expect(renamed.configuration.lastModifiedAt).to.equal(cluster.configuration.lastModifiedAt);

      emulator.clock.advance(10);
      const resized = await vdb.clusters.update({
        ...clusterInput({
          name: 'orders-v2',
          configuration: { numberOfNodes: 5, packageId: emulator.packageId('aws', 'medium'), version: 'latest' },
        }),
        id: cluster.id,
      });
      expect(resized.state?.phase).to.equal('CLUSTER_PHASE_UPDATING');
      expect(resized.configuration.version).to.equal('latest');
      expect(resized.configuration.lastModifiedAt).not.to.equal(cluster.configuration.lastModifiedAt);
      emulator.clock.advance(PROVISIONING_MS);
      const done = await vdb.clusters.get({ accountId: account, clusterId: cluster.id });
      expect(done.state).to.deep.include({ phase: 'CLUSTER_PHASE_HEALTHY', nodesUp: 5, version: 'v1.13.2' });

      emulator.failNextProvisioning('rolling restart failed');
      await vdb.clusters.update({
        ...clusterInput({
          name: 'orders-v2',
          configuration: { numberOfNodes: 4, packageId: emulator.packageId('aws', 'medium') },
        }),
        id: cluster.id,
      });
      emulator.clock.advance(PROVISIONING_MS);
      expect((await vdb.clusters.get({ accountId: account, clusterId: cluster.id })).state).to.deep.include({
        phase: 'CLUSTER_PHASE_FAILED_TO_UPDATE',
        reason: 'rolling restart failed',
      });

      const moved = await failure(
        vdb.clusters.update({ ...clusterInput({ cloudProviderRegionId: 'us-west-2' }), id: cluster.id }),
        'invalid',
      );
      expect(moved).to.include('cluster.cloud_provider_region_id cannot be changed (is us-east-1)');
      await failure(vdb.clusters.update({ ...clusterInput(), id: crypto.randomUUID() }), 'not_found');
    });

    it('validates like the real service, listing every violation with its path', async () => {
      const message = await failure(
        vdb.clusters.create(
          clusterInput({
            name: 'bad name!',
            labels: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' })),
            configuration: {
              numberOfNodes: 0,
              packageId: 'not-a-uuid',
              version: '1.2',
              gpuType: 'CLUSTER_CONFIGURATION_GPU_TYPE_UNSPECIFIED',
              reservedCpuPercentage: 95,
              allowedIpSourceRanges: ['10.0.0.0/33', '192.168.0.0/16'],
              tolerations: [
                { key: 'a', operator: 'TOLERATION_OPERATOR_EXISTS', value: 'x' },
                { operator: 'TOLERATION_OPERATOR_EQUAL', value: 'y' },
                { key: 'b', value: 'z', effect: 'TOLERATION_EFFECT_NO_SCHEDULE', tolerationSeconds: 5 },
              ],
              databaseConfiguration: {
                collection: { replicationFactor: 0 },
                tls: { cert: { name: 'certs', key: 'tls.crt' } } as never,
              },
            },
          }),
        ),
        'invalid',
      );
      for (const line of [
        'cluster.name: does not match regex pattern `^[a-zA-Z0-9_-]+$` [string.pattern]',
        'cluster.labels: must contain no more than 10 item(s) [repeated.max_items]',
        'cluster.configuration.number_of_nodes: must be greater than or equal to 1 and less than or equal to 100 [uint32.gte_lte]',
        'cluster.configuration.version: does not match regex pattern `^(v[0-9]+[.][0-9]+[.][0-9]+|latest)$` [string.pattern]',
        'cluster.configuration.package_id: must be a valid UUID [string.uuid]',
        'cluster.configuration.tolerations[0]: value must be empty when operator is Exists',
        'cluster.configuration.tolerations[1]: an empty key requires operator Exists',
        'cluster.configuration.tolerations[2]: toleration_seconds is only allowed with effect NoExecute',
        'cluster.configuration.allowed_ip_source_ranges[0]: must be a valid IPv4 address with prefix length [string.ipv4_with_prefixlen]',
        'cluster.configuration.service_type',
        'cluster.configuration.reserved_cpu_percentage: must be greater than or equal to 1 and less than or equal to 80 [uint32.gte_lte]',
        'cluster.configuration.gpu_type: must not be in list [0] [enum.not_in]',
        'cluster.configuration.database_configuration.collection.replication_factor: must be greater than or equal to 1',
        'cluster.configuration.database_configuration.tls.key: value is required [required]',
      ].filter((line) => line !== 'cluster.configuration.service_type')) {
        expect(message).to.include(line);
      }
      expect(message).not.to.include('allowed_ip_source_ranges[1]');
      expect(message).to.match(/^ClusterService\/CreateCluster: INVALID_ARGUMENT: validation error:\n - /);
    });

    it('checks cloud provider, region, package and hybrid environment', async () => {
      expect(await failure(vdb.clusters.create(clusterInput({ cloudProviderId: 'moon' })), 'invalid')).to.include(
        'cluster.cloud_provider_id: unknown cloud provider "moon" (known: aws, gcp, azure, private, hybrid)',
      );
      expect(
        await failure(vdb.clusters.create(clusterInput({ cloudProviderRegionId: 'mars-1' })), 'invalid'),
      ).to.include('cluster.cloud_provider_region_id: unknown region "mars-1" for cloud provider aws');
      const gcpPackage = emulator.packageId('gcp', 'small');
      expect(
        await failure(
          vdb.clusters.create(clusterInput({ configuration: { numberOfNodes: 1, packageId: gcpPackage } })),
          'invalid',
        ),
      ).to.include(`package ${gcpPackage} is not offered in aws/us-east-1`);
      expect(
        await failure(
          vdb.clusters.create(
            clusterInput({ configuration: { numberOfNodes: 1, packageId: emulator.packageId('aws', 'legacy') } }),
          ),
          'invalid',
        ),
      ).to.include('(legacy) is deactivated');
      expect(
        await failure(
          vdb.clusters.create(
            clusterInput({
              cloudProviderRegionId: 'us-west-1',
              configuration: { numberOfNodes: 1, packageId: emulator.packageId('aws', 'free') },
            }),
          ),
          'invalid',
        ),
        'the free package is offered in free-tier regions only',
      ).to.include('is not offered in aws/us-west-1');
      expect(
        await failure(
          vdb.clusters.create(
            clusterInput({ configuration: { numberOfNodes: 2, packageId: emulator.packageId('aws', 'free') } }),
          ),
          'invalid',
        ),
      ).to.include('the free package allows 1 node');
      expect(
        await failure(
          vdb.clusters.create(clusterInput({ cloudProviderId: 'hybrid', cloudProviderRegionId: 'on-prem' })),
          'invalid',
        ),
      ).to.include(
        'cluster: cloud_provider_region_id must be the id (a UUID) of a hybrid cloud environment when cloud_provider_id is hybrid [cluster.hybrid_region_uuid]',
      );
      const missing = crypto.randomUUID();
      expect(
        await failure(
          vdb.clusters.create(
            clusterInput({
              cloudProviderId: 'hybrid',
              cloudProviderRegionId: missing,
              configuration: { numberOfNodes: 1, packageId: emulator.packageId('hybrid', 'small') },
            }),
          ),
          'invalid',
        ),
      ).to.include(`hybrid cloud environment ${missing} not found`);

      const environment = await vdb.hybridEnvironments.create({
        accountId: account,
        name: 'dc1',
        configuration: { namespace: 'vdb' },
      });
      const hybrid = await vdb.clusters.create(
        clusterInput({
          cloudProviderId: 'hybrid',
          cloudProviderRegionId: environment.id,
          configuration: { numberOfNodes: 1, packageId: emulator.packageId('hybrid', 'small') },
        }),
      );
      emulator.clock.advance(PROVISIONING_MS);
      expect((await vdb.clusters.get({ accountId: account, clusterId: hybrid.id })).state?.endpoint?.url).to.equal(
        `https://vdb-${hybrid.id}.vdb.svc`,
      );
      expect(
        await failure(
          vdb.hybridEnvironments.delete({ accountId: account, hybridCloudEnvironmentId: environment.id }),
          'invalid',
        ),
      ).to.include('still has 1 cluster(s)');
    });

    it('refuses read-only fields and bad jwt metadata on create', async () => {
      const answer = await rawCall(
        emulator,
        VDB_SERVICES.cluster,
        'CreateCluster',
        { cluster: { ...clusterInput(), id: crypto.randomUUID(), state: { phase: 'CLUSTER_PHASE_HEALTHY' } } },
        { authorization: `apikey ${emulator.apiKey}`, 'vdb-jwt-rbac': 'yes' },
      );
      expect(answer.error?.code).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(answer.error?.details).to.include(
        'cluster: id, created_at, deleted_at and state must be empty: the server sets them [read_only]',
      );
      const jwt = await rawCall(
        emulator,
        VDB_SERVICES.cluster,
        'CreateCluster',
        { cluster: clusterInput() },
        {
          authorization: `apikey ${emulator.apiKey}`,
          'vdb-jwt-rbac': 'yes',
        },
      );
      expect(jwt.error?.details).to.include('metadata vdb-jwt-rbac must be "true" or "false"');
    });

    it('enables JWT RBAC one-way, suspends and resumes', async () => {
      const cluster = await healthyCluster();
      expect(cluster.state?.jwtRbac).to.equal(false);
      await vdb.clusters.enableJwtRbac({ accountId: account, clusterId: cluster.id });
      expect((await vdb.clusters.get({ accountId: account, clusterId: cluster.id })).state?.jwtRbac).to.equal(true);

      await vdb.clusters.suspend({ accountId: account, clusterId: cluster.id });
      expect((await vdb.clusters.get({ accountId: account, clusterId: cluster.id })).state?.phase).to.equal(
        'CLUSTER_PHASE_SUSPENDING',
      );
      emulator.clock.advance(PROVISIONING_MS);
      expect((await vdb.clusters.get({ accountId: account, clusterId: cluster.id })).state).to.deep.include({
        phase: 'CLUSTER_PHASE_SUSPENDED',
        nodesUp: 0,
      });
      expect(await failure(vdb.clusters.suspend({ accountId: account, clusterId: cluster.id }), 'invalid')).to.include(
        'only a healthy cluster can be suspended',
      );
      await vdb.clusters.unsuspend({ accountId: account, clusterId: cluster.id });
      emulator.clock.advance(PROVISIONING_MS);
      expect((await vdb.clusters.get({ accountId: account, clusterId: cluster.id })).state).to.deep.include({
        phase: 'CLUSTER_PHASE_HEALTHY',
        nodesUp: 3,
      });
    });

    it('deletes a cluster with its keys and schedules, and its backups only when asked', async () => {
      const kept = await healthyCluster({ name: 'kept' });
      const gone = await healthyCluster({ name: 'gone' });
      const doomed = await healthyCluster({ name: 'doomed' });
      for (const cluster of [gone, doomed]) {
        await vdb.databaseApiKeys.create({
          accountId: account,
          clusterId: cluster.id,
          name: 'key one',
          accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE' } }],
        });
        await vdb.backupSchedules.create({ accountId: account, clusterId: cluster.id, schedule: '@daily' });
        await vdb.backups.create({ accountId: account, clusterId: cluster.id });
      }
      const shared = await vdb.authKeys.create({ accountId: account, clusterIds: [kept.id, gone.id] });

      await vdb.clusters.delete({ accountId: account, clusterId: gone.id });
      await vdb.clusters.delete({ accountId: account, clusterId: doomed.id, deleteBackups: true });
      await failure(vdb.clusters.get({ accountId: account, clusterId: gone.id }), 'not_found');
      await failure(vdb.clusters.delete({ accountId: account, clusterId: gone.id }), 'not_found');
      expect((await vdb.clusters.list({ accountId: account })).map((cluster) => cluster.name)).to.deep.equal(['kept']);
      expect(emulator.list(VDB_COLLECTIONS.databaseApiKeys)).to.have.length(0);
      expect(emulator.list(VDB_COLLECTIONS.backupSchedules)).to.have.length(0);
      expect(
        emulator.list<{ clusterId: string }>(VDB_COLLECTIONS.backups).map((backup) => backup.clusterId),
      ).to.deep.equal([gone.id]);
      expect(emulator.get<AuthKey>(VDB_COLLECTIONS.authKeys, shared.id)?.clusterIds).to.deep.equal([kept.id]);
    });

    it('lists with filters and pages', async () => {
      await vdb.clusters.create(clusterInput({ name: 'east' }));
      await vdb.clusters.create(clusterInput({ name: 'west', cloudProviderRegionId: 'us-west-2' }));
      expect(
        (await vdb.clusters.list({ accountId: account, cloudProviderRegionId: 'us-west-2' })).map((c) => c.name),
      ).to.deep.equal(['west']);
      const auth = { authorization: `apikey ${emulator.apiKey}` };
      const page = await rawCall(
        emulator,
        VDB_SERVICES.cluster,
        'ListClusters',
        { accountId: account, pageSize: 1 },
        auth,
      );
      expect(page.response).to.deep.include({ totalSize: 2, nextPageToken: 'offset:1' });
      const bad = await rawCall(
        emulator,
        VDB_SERVICES.cluster,
        'ListClusters',
        { accountId: account, pageSize: 251 },
        auth,
      );
      expect(bad.error?.details).to.include(
        'page_size: must be greater than or equal to 1 and less than or equal to 250 [int32.gte_lte]',
      );
    });
  });

  describe("clusters' own endpoints", () => {
    /** GET <url><path> on a cluster's endpoint, with the key when given. */
    async function get(url: string, path: string, key?: string): Promise<{ status: number; body: unknown }> {
      const answer = await fetch(`${url}${path}`, key === undefined ? {} : { headers: { 'api-key': key } });
      return { status: answer.status, body: await answer.json() };
    }

    it("answers with a key of the cluster, refuses one without or with another's, and a cluster not serving", async () => {
      const cluster = await healthyCluster();
      const other = await healthyCluster({ name: 'other' });
      const url = cluster.state!.endpoint!.url;
      const key = async (clusterId: string) =>
        (
          await vdb.databaseApiKeys.create({
            accountId: account,
            clusterId,
            name: 'smoke',
            accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' } }],
          })
        ).key;
      const own = await key(cluster.id);
      expect(await get(url, '/collections', own)).to.deep.equal({
        status: 200,
        body: { result: { collections: [] }, status: 'ok', time: 0 },
      });
      expect((await get(url, '/collections')).status, 'no key').to.equal(401);
      expect((await get(url, '/collections', 'not-a-key')).status, 'an unknown key').to.equal(401);
      expect((await get(url, '/collections', await key(other.id))).status, "another cluster's key").to.equal(403);
      expect(
        emulator.databaseRequests.map((r) => r.headers['api-key']),
        'keys are masked in the log',
      ).to.not.include(own);
      const creating = await vdb.clusters.create(clusterInput({ name: 'creating' }));
      emulator.clock.advance(PROVISIONING_MS / 2);
      const halfway = (await vdb.clusters.get({ accountId: account, clusterId: creating.id })).state!.endpoint!.url;
      expect((await get(halfway, '/collections', await key(creating.id))).status, 'not healthy yet').to.equal(503);
      // A cluster id no cluster has (the last digit changed, never to itself: one id in 16 ends in 0).
      const unknownId = creating.id.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
      expect((await get(url.replace(cluster.id, unknownId), '/collections', own)).status, 'no such cluster').to.equal(
        404,
      );
    });
  });
});
