import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { expect } from 'chai';
import {
  ApiError,
  createVdbClient,
  type ApiErrorCode,
  type AuthKey,
  type BackupSchedule,
  type Cluster,
  type ClusterInput,
  type DatabaseApiKey,
  type VdbClient,
} from '../../src/clients/vdb/index.js';
import { decodePlain, encodePlain, type Plain } from '../../src/clients/vdb/codec.js';
import { VDB_SERVICES, vdbMethod } from '../../src/wire/vdb-proto.js';
import {
  FAIL_PROVISIONING_LABEL,
  VDB_COLLECTIONS,
  startVdbEmulator,
  type BootstrapCredentials,
  type VdbEmulator,
} from '../../src/emulators/vdb/index.js';

const PROVISIONING_MS = 1_000;

interface RawAnswer {
  readonly error?: grpc.ServiceError;
  readonly response?: Plain;
  readonly headers?: grpc.Metadata;
  readonly trailers?: grpc.Metadata;
}

/** One call without the client's help: any metadata, any request (including what the client refuses to send). */
async function rawCall(
  emulator: VdbEmulator,
  service: string,
  method: string,
  request: Plain | Buffer,
  metadata: Record<string, string> = {},
): Promise<RawAnswer> {
  const info = vdbMethod(service, method);
  const client = new grpc.Client(`127.0.0.1:${emulator.port}`, grpc.credentials.createInsecure());
  const md = new grpc.Metadata();
  for (const [key, value] of Object.entries(metadata)) md.set(key, value);
  try {
    return await new Promise<RawAnswer>((resolve) => {
      let headers: grpc.Metadata | undefined;
      let trailers: grpc.Metadata | undefined;
      const call = client.makeUnaryRequest<Buffer, Buffer>(
        info.path,
        (bytes) => bytes,
        (bytes) => bytes,
        Buffer.isBuffer(request) ? request : encodePlain(info.request, request),
        md,
        { deadline: Date.now() + 5_000 },
        (error, bytes) => {
          setImmediate(() =>
            resolve(
              error
                ? { error, headers, trailers: error.metadata }
                : { response: decodePlain(info.response, bytes!), headers, trailers },
            ),
          );
        },
      );
      call.on('metadata', (value) => (headers = value));
      call.on('status', (value) => (trailers = value.metadata));
    });
  } finally {
    client.close();
  }
}

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;

  beforeEach(async () => {
    emulator = await startVdbEmulator({ provisioningMs: PROVISIONING_MS });
    account = emulator.accountId;
    vdb = createVdbClient({
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      userAgent: 'test',
      retry: { maxAttempts: 1 },
    });
  });

  afterEach(async () => {
    vdb.close();
    await emulator.close();
  });

  async function failure(promise: Promise<unknown>, code: ApiErrorCode): Promise<string> {
    try {
      await promise;
    } catch (error) {
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).code, (error as ApiError).message).to.equal(code);
      return (error as ApiError).message;
    }
    expect.fail(`expected ApiError ${code}`);
  }

  function clusterInput(overrides: Partial<ClusterInput> = {}): ClusterInput {
    return {
      accountId: account,
      name: 'orders',
      cloudProviderId: 'aws',
      cloudProviderRegionId: 'us-east-1',
      configuration: { numberOfNodes: 3, packageId: emulator.packageId('aws', 'small') },
      ...overrides,
    };
  }

  /** A cluster whose provisioning is already over. */
  async function healthyCluster(overrides: Partial<ClusterInput> = {}): Promise<Cluster> {
    const cluster = await vdb.clusters.create(clusterInput(overrides));
    emulator.clock.advance(PROVISIONING_MS);
    return vdb.clusters.get({ accountId: account, clusterId: cluster.id });
  }

  describe('authentication and transport', () => {
    it('refuses calls without the right `authorization: apikey` metadata', async () => {
      const request = { accountId: account };
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'apikey wrong' },
        { authorization: `Bearer ${emulator.apiKey}` },
        { authorization: emulator.apiKey },
      ];
      for (const metadata of attempts) {
        const answer = await rawCall(emulator, VDB_SERVICES.cluster, 'ListClusters', request, metadata);
        expect(answer.error?.code, JSON.stringify(metadata)).to.equal(grpc.status.UNAUTHENTICATED);
        expect(answer.error?.details).to.include('authorization: apikey <key>');
      }
      const ok = await rawCall(emulator, VDB_SERVICES.cluster, 'ListClusters', request, {
        authorization: `apikey ${emulator.apiKey}`,
      });
      expect(ok.error).to.equal(undefined);
      expect(emulator.requests.at(-1)!.metadata.authorization).to.equal('apikey ***');
      expect(JSON.stringify(emulator.requests)).not.to.include(emulator.apiKey);
    });

    it('serves the global platform lists without a key', async () => {
      const answer = await rawCall(emulator, VDB_SERVICES.platform, 'ListGlobalCloudProviders', {});
      expect((answer.response!.items as Plain[]).map((item) => item.id)).to.deep.equal([
        'aws',
        'gcp',
        'azure',
        'private',
        'hybrid',
      ]);
    });

    it('sends a vdb-trace-id in headers and trailers, on success and on failure', async () => {
      const auth = { authorization: `apikey ${emulator.apiKey}` };
      const ok = await rawCall(emulator, VDB_SERVICES.iam, 'ListRoles', { accountId: account }, auth);
      const failed = await rawCall(emulator, VDB_SERVICES.iam, 'GetRole', { accountId: account, roleId: 'nope' }, auth);
      const [okLog, failedLog] = emulator.requests;
      expect(ok.headers?.get('vdb-trace-id')).to.deep.equal([okLog!.traceId]);
      expect(ok.trailers?.get('vdb-trace-id')).to.deep.equal([okLog!.traceId]);
      expect(failed.error?.code).to.equal(grpc.status.NOT_FOUND);
      expect(failed.trailers?.get('vdb-trace-id')).to.deep.equal([failedLog!.traceId]);
      expect(okLog!.traceId).not.to.equal(failedLog!.traceId);
      expect(failedLog!.code).to.equal(grpc.status.NOT_FOUND);
    });

    it('rejects enum numbers the API does not define', async () => {
      const { request } = vdbMethod(VDB_SERVICES.booking, 'ListPackages');
      const bytes = request
        .encode(
          request.fromObject({
            account_id: account,
            cloud_provider_id: 'aws',
            cloud_provider_region_id: 'us-east-1',
            statuses: [7],
          }),
        )
        .finish();
      const answer = await rawCall(
        emulator,
        VDB_SERVICES.booking,
        'ListPackages',
        Buffer.from(bytes) as unknown as Plain,
        {
          authorization: `apikey ${emulator.apiKey}`,
        },
      );
      expect(answer.error?.code).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(answer.error?.details).to.include('statuses[0]: value must be one of the defined enum values (got 7)');
    });

    it('refuses another account with PERMISSION_DENIED and a malformed account id with INVALID_ARGUMENT', async () => {
      expect(await failure(vdb.clusters.list({ accountId: crypto.randomUUID() }), 'forbidden')).to.include(
        'has no access to account',
      );
      expect(await failure(vdb.clusters.list({ accountId: 'acme' }), 'invalid')).to.include(
        'account_id: value must be a valid UUID [string.uuid]',
      );
      expect(await failure(vdb.clusters.list({ accountId: '' }), 'invalid')).to.include('account_id: value is empty');
    });

    it('answers injected faults, with a delay when asked', async () => {
      emulator.injectFault({
        method: 'ClusterService/ListClusters',
        code: grpc.status.UNAVAILABLE,
        message: 'maintenance',
      });
      expect(await failure(vdb.clusters.list({ accountId: account }), 'unavailable')).to.include(
        'UNAVAILABLE: maintenance',
      );
      emulator.injectFault({ method: /ListRoles$/, delayMs: 300 });
      const started = Date.now();
      await vdb.iam.listRoles({ accountId: account });
      expect(Date.now() - started).to.be.at.least(280);
      await vdb.clusters.list({ accountId: account });
    });
  });

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
        'cluster.name: value does not match regex pattern `^[a-zA-Z0-9-_]+$` [string.pattern]',
        'cluster.labels: value must contain no more than 10 item(s) [repeated.max_items]',
        'cluster.configuration.number_of_nodes: value must be greater than or equal to 1 and less than or equal to 100 [uint32.gte_lte]',
        'cluster.configuration.version: value must be a version such as v1.13.2, or latest [string.pattern]',
        'cluster.configuration.package_id: value must be a valid UUID [string.uuid]',
        'cluster.configuration.tolerations[0]: value must be empty when operator is Exists',
        'cluster.configuration.tolerations[1]: an empty key requires operator Exists',
        'cluster.configuration.tolerations[2]: toleration_seconds is only allowed with effect NoExecute',
        'cluster.configuration.allowed_ip_source_ranges[0]: value must be a valid IPv4 prefix (CIDR) [string.ipv4_prefix]',
        'cluster.configuration.service_type',
        'cluster.configuration.reserved_cpu_percentage: value must be greater than or equal to 1 and less than or equal to 80 [uint32.gte_lte]',
        'cluster.configuration.gpu_type: value must not be in list [0] [enum.not_in]',
        'cluster.configuration.database_configuration.collection.replication_factor: value must be greater than or equal to 1',
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
        'cluster.cloud_provider_region_id: value must be a valid UUID (a hybrid cloud environment id) when cloud_provider_id is hybrid',
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
      expect(answer.error?.details).to.include('cluster.id: value must be empty');
      expect(answer.error?.details).to.include('cluster.state: value must be empty');
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
        'page_size: value must be greater than or equal to 1 and less than or equal to 250 [int32.gte_lte]',
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
      expect((await get(url.replace(cluster.id, creating.id.replace(/.$/, '0')), '/collections', own)).status).to.equal(
        404,
      );
    });
  });

  describe('database API keys', () => {
    it('creates v2 keys with the secret once, lists them blanked, deletes them per cluster', async () => {
      const cluster = await healthyCluster();
      const key = await vdb.databaseApiKeys.create({
        accountId: account,
        clusterId: cluster.id,
        name: 'search reader',
        accessRules: [
          {
            collectionAccess: {
              collectionName: 'docs.v1',
              accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE',
            },
          },
        ],
      });
      expect(key.key).to.match(/^[0-9a-f]{48}$/);
      expect(key.postfix).to.equal(key.key.slice(-4));
      expect(key.createdByEmail).to.equal('');
      expect(
        emulator.get<DatabaseApiKey>(VDB_COLLECTIONS.databaseApiKeys, key.id)?.key,
        'the store keeps the secret',
      ).to.equal(key.key);
      const [listed] = await vdb.databaseApiKeys.list({ accountId: account, clusterId: cluster.id });
      expect(listed).to.deep.include({ id: key.id, key: '', postfix: key.postfix, name: 'search reader' });
      expect(await vdb.databaseApiKeys.list({ accountId: account, clusterId: crypto.randomUUID() })).to.deep.equal([]);

      await failure(
        vdb.databaseApiKeys.delete({ accountId: account, clusterId: crypto.randomUUID(), databaseApiKeyId: key.id }),
        'not_found',
      );
      await vdb.databaseApiKeys.delete({ accountId: account, clusterId: cluster.id, databaseApiKeyId: key.id });
      await failure(
        vdb.databaseApiKeys.delete({ accountId: account, clusterId: cluster.id, databaseApiKeyId: key.id }),
        'not_found',
      );
    });

    it('validates names, expiry and mutually exclusive access rules', async () => {
      const cluster = await healthyCluster();
      const base = { accountId: account, clusterId: cluster.id, name: 'good name' };
      const global = { globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' as const } };
      const collection = {
        collectionAccess: {
          collectionName: 'docs',
          accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' as const,
        },
      };
      expect(
        await failure(vdb.databaseApiKeys.create({ ...base, accessRules: [global, collection] }), 'invalid'),
      ).to.include(
        'database_api_key.access_rules: a global access rule cannot be combined with collection access rules [access_rules.no_mixing]',
      );
      expect(
        await failure(vdb.databaseApiKeys.create({ ...base, accessRules: [global, global] }), 'invalid'),
      ).to.include('at most one global access rule is allowed');
      expect(await failure(vdb.databaseApiKeys.create({ ...base, accessRules: [] }), 'invalid')).to.include(
        'database_api_key.access_rules: value must contain at least 1 item(s)',
      );
      expect(
        await failure(vdb.databaseApiKeys.create({ ...base, accessRules: Array(21).fill(collection) }), 'invalid'),
      ).to.include('value must contain no more than 20 item(s)');
      const badRules = await failure(
        vdb.databaseApiKeys.create({
          ...base,
          name: 'ab',
          expiresAt: '2001-01-01T00:00:00Z',
          accessRules: [
            {
              collectionAccess: {
                collectionName: 'docs/*',
                accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_UNSPECIFIED',
              },
            },
          ],
        }),
        'invalid',
      );
      expect(badRules).to.include('database_api_key.name: value length must be at least 4 characters');
      expect(badRules).to.include('database_api_key.expires_at: value must be greater than now [timestamp.gt_now]');
      expect(badRules).to.include(
        'access_rules[0].collection_access.collection_name: value does not match regex pattern',
      );
      expect(badRules).to.include(
        'access_rules[0].collection_access.access_type: value must not be in list [0] [enum.not_in]',
      );
      const scopeless = await rawCall(
        emulator,
        VDB_SERVICES.databaseApiKeyV2,
        'CreateDatabaseApiKey',
        { databaseApiKey: { ...base, accessRules: [{}] } },
        {
          authorization: `apikey ${emulator.apiKey}`,
        },
      );
      expect(scopeless.error?.details).to.include(
        'database_api_key.access_rules[0].scope: exactly one field is required in oneof [required]',
      );
      await failure(
        vdb.databaseApiKeys.create({ ...base, clusterId: crypto.randomUUID(), accessRules: [global] }),
        'not_found',
      );
    });

    it('creates legacy keys for one or more clusters', async () => {
      const one = await healthyCluster({ name: 'one' });
      const two = await healthyCluster({ name: 'two' });
      const key = await vdb.authKeys.create({ accountId: account, clusterIds: [one.id, two.id] });
      expect(key.prefix).to.equal(key.key.slice(0, 6));
      expect(key.clusterIds).to.deep.equal([one.id, two.id]);
      expect((await vdb.authKeys.list({ accountId: account })).map((k) => [k.id, k.key])).to.deep.equal([[key.id, '']]);
      expect(await vdb.authKeys.list({ accountId: account, clusterId: crypto.randomUUID() })).to.deep.equal([]);
      expect(await failure(vdb.authKeys.create({ accountId: account, clusterIds: [] }), 'invalid')).to.include(
        'database_api_key.cluster_ids: value must contain at least 1 item(s)',
      );
      expect(await failure(vdb.authKeys.create({ accountId: account, clusterIds: ['x'] }), 'invalid')).to.include(
        'database_api_key.cluster_ids[0]: value must be a valid UUID',
      );
      await vdb.authKeys.delete({ accountId: account, databaseApiKeyId: key.id });
      await failure(vdb.authKeys.delete({ accountId: account, databaseApiKeyId: key.id }), 'not_found');
    });
  });

  describe('backups', () => {
    it('accepts cron expressions, descriptors and @every; rejects the rest precisely', async () => {
      const cluster = await healthyCluster();
      const create = (schedule: string, retentionPeriod?: { seconds: number; nanos: number }) =>
        vdb.backupSchedules.create({ accountId: account, clusterId: cluster.id, schedule, retentionPeriod });
      for (const good of [
        '0 3 * * *',
        '*/15 0-6 1,15 JAN-MAR MON-FRI',
        '0 0 3 * * ?',
        '0 0 3 ? * SUN 2030',
        '@daily',
        '@every 1h30m',
        '@annually',
      ]) {
        const schedule = await create(good);
        expect(schedule.schedule).to.equal(good);
        expect(schedule.status).to.equal('BACKUP_SCHEDULE_STATUS_ACTIVE');
      }
      const cases: Array<[string, string]> = [
        ['0 3 * *', 'a cron expression has 5 to 7 fields, got 4'],
        ['61 3 * * *', 'minute field "61": "61" is not a valid minute (0-59)'],
        ['0 3 * * FUNDAY', 'day of week field "FUNDAY"'],
        ['0 3 */0 * *', 'day of month field "*/0": step "0" must be a positive number'],
        ['0 9-5 * * *', 'hour field "9-5": range "9-5" runs backwards'],
        ['@fortnightly', 'unknown descriptor "@fortnightly"'],
        ['@every soon', '@every: invalid duration "soon"'],
        ['', 'the schedule is empty'],
      ];
      for (const [bad, reason] of cases) {
        const message = await failure(create(bad), 'invalid');
        expect(message, bad).to.include(`backup_schedule.schedule: value must be a valid cron expression: ${reason}`);
      }
      expect(await failure(create('@daily', { seconds: 3_600, nanos: 0 }), 'invalid')).to.include(
        'backup_schedule.retention_period: value must be greater than or equal to 86400s and less than or equal to 31536000s [duration.gte_lte]',
      );
      expect(await failure(create('@daily', { seconds: 366 * 86_400, nanos: 0 }), 'invalid')).to.include(
        '[duration.gte_lte]',
      );
      await create('@daily', { seconds: 365 * 86_400, nanos: 0 });
    });

    it('reads, updates and deletes schedules within their cluster', async () => {
      const cluster = await healthyCluster();
      const schedule = await vdb.backupSchedules.create({
        accountId: account,
        clusterId: cluster.id,
        schedule: '@daily',
        retentionPeriod: { seconds: 7 * 86_400, nanos: 0 },
      });
      await failure(
        vdb.backupSchedules.get({ accountId: account, clusterId: crypto.randomUUID(), backupScheduleId: schedule.id }),
        'not_found',
      );
      const updated = await vdb.backupSchedules.update({
        id: schedule.id,
        accountId: account,
        clusterId: cluster.id,
        schedule: '0 4 * * *',
      });
      expect(updated).to.deep.include({ schedule: '0 4 * * *', createdAt: schedule.createdAt });
      expect(updated.retentionPeriod, 'a full update: no retention now').to.equal(undefined);
      const read = await vdb.backupSchedules.get({
        accountId: account,
        clusterId: cluster.id,
        backupScheduleId: schedule.id,
      });
      expect(read).to.deep.equal(updated);
      expect(
        await failure(vdb.backupSchedules.update({ ...updated, clusterId: crypto.randomUUID() }), 'invalid'),
      ).to.include('cluster_id cannot be changed');
      expect(
        (await vdb.backupSchedules.list({ accountId: account, clusterId: cluster.id })).map(
          (s: BackupSchedule) => s.id,
        ),
      ).to.deep.equal([schedule.id]);
      await vdb.backupSchedules.delete({ accountId: account, backupScheduleId: schedule.id, deleteBackups: true });
      await failure(
        vdb.backupSchedules.get({ accountId: account, clusterId: cluster.id, backupScheduleId: schedule.id }),
        'not_found',
      );
    });

    it('runs manual backups to SUCCEEDED with a snapshot of the cluster', async () => {
      const cluster = await healthyCluster();
      const backup = await vdb.backups.create({
        accountId: account,
        clusterId: cluster.id,
        retentionPeriod: { seconds: 2 * 86_400, nanos: 0 },
      });
      expect(backup.status).to.equal('BACKUP_STATUS_RUNNING');
      expect(backup.name).to.match(/^orders-\d{14}$/);
      expect(backup.clusterInfo).to.deep.include({
        name: 'orders',
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-east-1',
        restorePackageId: emulator.packageId('aws', 'small'),
      });
      expect(backup.clusterInfo?.resourcesSummary?.ram).to.deep.equal({ amount: 12, unit: 'Gi' });
      emulator.clock.advance(PROVISIONING_MS);
      const done = await vdb.backups.get({ accountId: account, backupId: backup.id });
      expect(done.status).to.equal('BACKUP_STATUS_SUCCEEDED');
      expect(done.backupDuration).to.deep.equal({ seconds: 1, nanos: 0 });
      expect((await vdb.backups.list({ accountId: account, clusterId: cluster.id })).map((b) => b.id)).to.deep.equal([
        backup.id,
      ]);
      expect(
        await failure(
          vdb.backups.create({ accountId: account, clusterId: cluster.id, retentionPeriod: { seconds: 60, nanos: 0 } }),
          'invalid',
        ),
      ).to.include('backup.retention_period');
      await failure(vdb.backups.create({ accountId: account, clusterId: crypto.randomUUID() }), 'not_found');
      await vdb.backups.delete({ accountId: account, backupId: backup.id });
      await failure(vdb.backups.get({ accountId: account, backupId: backup.id }), 'not_found');
    });
  });

  describe('hybrid cloud environments', () => {
    it('creates environments NOT_READY; bootstrap generation rotates credentials and makes them READY', async () => {
      const environment = await vdb.hybridEnvironments.create({
        accountId: account,
        name: 'dc-1',
        configuration: {
          namespace: 'vdb-system',
          containerRegistryUrl: 'registry.internal:5000/mirror',
          logLevel: 'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_DEBUG',
        },
      });
      expect(environment.bootstrapCommandsGenerated).to.equal(false);
      expect(environment.status).to.deep.include({
        phase: 'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_NOT_READY',
        clusterCreationReadiness: 'CLUSTER_CREATION_STATUS_NOT_READY',
      });

      const first = await vdb.hybridEnvironments.generateBootstrapCommands({
        accountId: account,
        hybridCloudEnvironmentId: environment.id,
      });
      const second = await vdb.hybridEnvironments.generateBootstrapCommands({
        accountId: account,
        hybridCloudEnvironmentId: environment.id,
      });
      expect(first.commands).to.have.length(4);
      expect(first.commands[0]).to.equal(
        'kubectl create namespace vdb-system --dry-run=client -o yaml | kubectl apply -f -',
      );
      expect(first.commands[1]).to.include('--docker-server=registry.internal:5000/mirror');
      expect(first.commands.join('\n'))
        .to.include(first.accessKey)
        .and.include(first.registryPassword)
        .and.include(`environmentId=${environment.id}`);
      expect(second.accessKey, 'every call mints a new access key').not.to.equal(first.accessKey);
      expect(second.registryPassword).not.to.equal(first.registryPassword);
      expect(emulator.get<BootstrapCredentials>(VDB_COLLECTIONS.bootstrapCredentials, environment.id)).to.deep.include({
        generation: 2,
        accessKey: second.accessKey,
      });

      const generated = await vdb.hybridEnvironments.get({
        accountId: account,
        hybridCloudEnvironmentId: environment.id,
      });
      expect(generated.bootstrapCommandsGenerated).to.equal(true);
      expect(generated.status?.phase).to.equal('HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_NOT_READY');
      emulator.clock.advance(PROVISIONING_MS);
      const ready = await vdb.hybridEnvironments.get({ accountId: account, hybridCloudEnvironmentId: environment.id });
      expect(ready.status).to.deep.include({
        phase: 'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_READY',
        clusterCreationReadiness: 'CLUSTER_CREATION_STATUS_READY',
        kubernetesDistribution: 'KUBERNETES_DISTRIBUTION_K3S',
        numberOfNodes: 3,
      });
      expect(ready.status?.componentStatuses.map((component) => component.namespace)).to.deep.equal([
        'vdb-system',
        'vdb-system',
      ]);
    });

    it('makes bootstrap generation fail on demand (FAILED_PRECONDITION, PERMISSION_DENIED)', async () => {
      const environment = await vdb.hybridEnvironments.create({
        accountId: account,
        name: 'dc-2',
        configuration: { namespace: 'vdb' },
      });
      const request = { accountId: account, hybridCloudEnvironmentId: environment.id };
      emulator.failBootstrap('failed_precondition', { message: 'the environment is being deleted' });
      expect(await failure(vdb.hybridEnvironments.generateBootstrapCommands(request), 'invalid')).to.include(
        'FAILED_PRECONDITION: the environment is being deleted',
      );
      emulator.failBootstrap('permission_denied', { once: false });
      await failure(vdb.hybridEnvironments.generateBootstrapCommands(request), 'forbidden');
      await failure(vdb.hybridEnvironments.generateBootstrapCommands(request), 'forbidden');
      emulator.clearBootstrapFailure();
      await vdb.hybridEnvironments.generateBootstrapCommands(request);
      await failure(
        vdb.hybridEnvironments.generateBootstrapCommands({ ...request, hybridCloudEnvironmentId: crypto.randomUUID() }),
        'not_found',
      );
    });

    it('records created_by_email: a console member; for a management key, its owner or (on a key) nobody', async () => {
      // As upstream's acceptance test finds on the platform, with a management key (the owner made the emulator's).
      const byKey = await vdb.hybridEnvironments.create({
        accountId: account,
        name: 'by-key',
        configuration: { namespace: 'vdb' },
      });
      expect(byKey.createdByEmail).to.equal('owner@vdb-emulator.example');

      const token = emulator.userToken('member@vdb-emulator.example');
      const asMember = { authorization: `Bearer ${token}` };
      const created = await rawCall(
        emulator,
        VDB_SERVICES.hybrid,
        'CreateHybridCloudEnvironment',
        { hybridCloudEnvironment: { accountId: account, name: 'by-member', configuration: { namespace: 'vdb' } } },
        asMember,
      );
      expect(created.error, created.error?.details).to.equal(undefined);
      const id = (created.response!.hybridCloudEnvironment as { id: string }).id;
      expect(
        (await vdb.hybridEnvironments.get({ accountId: account, hybridCloudEnvironmentId: id })).createdByEmail,
      ).to.equal('member@vdb-emulator.example');
      expect(
        emulator.requests.find(
          (r) => r.method === 'CreateHybridCloudEnvironment' && r.metadata.authorization !== 'apikey ***',
        )!.metadata.authorization,
      ).to.equal('Bearer ***');

      // A database API key records the console member, and nobody for a management key (vdb.md §2.2).
      const cluster = await healthyCluster();
      const keyByMember = await rawCall(
        emulator,
        VDB_SERVICES.databaseApiKeyV2,
        'CreateDatabaseApiKey',
        {
          databaseApiKey: {
            accountId: account,
            clusterId: cluster.id,
            name: 'member key',
            accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' } }],
          },
        },
        asMember,
      );
      expect((keyByMember.response!.databaseApiKey as { createdByEmail: string }).createdByEmail).to.equal(
        'member@vdb-emulator.example',
      );
      const keyByManagementKey = await vdb.databaseApiKeys.create({
        accountId: account,
        clusterId: cluster.id,
        name: 'automation key',
        accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE' } }],
      });
      expect(keyByManagementKey.createdByEmail).to.equal('');

      const unknown = await rawCall(
        emulator,
        VDB_SERVICES.hybrid,
        'ListHybridCloudEnvironments',
        { accountId: account },
        { authorization: 'Bearer not-a-session' },
      );
      expect(unknown.error?.code).to.equal(grpc.status.UNAUTHENTICATED);
      expect(() => emulator.userToken('stranger@vdb-emulator.example')).to.throw(/not a member/);
    });

    it("records the management key's owner, whichever member made the key", async () => {
      const other = await startVdbEmulator({
        members: ['founder@example.org', 'ops@example.org'],
        managementKeyOwner: 'ops@example.org',
      });
      const client = createVdbClient({ apiUrl: other.url, apiKey: other.apiKey, userAgent: 'test' });
      try {
        const environment = await client.hybridEnvironments.create({
          accountId: other.accountId,
          name: 'by-ops-key',
          configuration: { namespace: 'vdb' },
        });
        expect(environment.createdByEmail).to.equal('ops@example.org');
        const stored = other.get<{ createdByEmail: string }>(VDB_COLLECTIONS.hybridEnvironments, environment.id)!;
        expect(stored.createdByEmail).to.equal('ops@example.org');
      } finally {
        client.close();
        await other.close();
      }
      await startVdbEmulator({ managementKeyOwner: 'stranger@example.org' }).then(
        (unexpected) => unexpected.close().then(() => expect.fail('a management key of a non-member was accepted')),
        (error: Error) => expect(error.message).to.include('must be a member of the account'),
      );
    });

    it('validates the environment and keeps its namespace', async () => {
      const message = await failure(
        vdb.hybridEnvironments.create({
          accountId: account,
          name: 'dc 3',
          configuration: {
            namespace: 'Not_A_Label',
            httpProxyUrl: 'proxy without scheme',
            containerRegistryUrl: 'https://registry.example',
            chartRepositoryUrl: 'charts.example',
            logLevel: 'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_UNSPECIFIED',
            controlPlaneLabels: Array.from({ length: 11 }, (_, i) => ({ key: `l${i}`, value: '' })),
          },
        }),
        'invalid',
      );
      for (const line of [
        'hybrid_cloud_environment.name: value does not match regex pattern',
        'hybrid_cloud_environment.configuration.namespace: value must be a valid DNS label',
        'hybrid_cloud_environment.configuration.http_proxy_url: value must be a valid URI [string.uri]',
        'hybrid_cloud_environment.configuration.container_registry_url: value must be host[:port][/path]',
        'hybrid_cloud_environment.configuration.chart_repository_url: value must be scheme://host[:port][/path]',
        'hybrid_cloud_environment.configuration.log_level: value must not be in list [0] [enum.not_in]',
        'hybrid_cloud_environment.configuration.control_plane_labels: value must contain no more than 10 item(s)',
      ]) {
        expect(message).to.include(line);
      }
      expect(
        await failure(
          vdb.hybridEnvironments.create({ accountId: account, name: 'dc-3', configuration: { namespace: '' } }),
          'invalid',
        ),
      ).to.include('hybrid_cloud_environment.configuration.namespace: value is required');

      const environment = await vdb.hybridEnvironments.create({
        accountId: account,
        name: 'dc-3',
        configuration: { namespace: 'vdb' },
      });
      const renamed = await vdb.hybridEnvironments.update({
        id: environment.id,
        accountId: account,
        name: 'dc-three',
        configuration: { namespace: 'vdb', noProxyConfigs: ['.internal'] },
      });
      expect(renamed).to.deep.include({ name: 'dc-three', createdAt: environment.createdAt });
      expect(renamed.configuration?.noProxyConfigs).to.deep.equal(['.internal']);
      expect(
        await failure(
          vdb.hybridEnvironments.update({
            id: environment.id,
            accountId: account,
            name: 'dc-three',
            configuration: { namespace: 'other' },
          }),
          'invalid',
        ),
      ).to.include('configuration.namespace cannot be changed (is vdb)');
      expect((await vdb.hybridEnvironments.list({ accountId: account })).map((env) => env.name)).to.deep.equal([
        'dc-three',
      ]);
      await vdb.hybridEnvironments.delete({ accountId: account, hybridCloudEnvironmentId: environment.id });
      await failure(
        vdb.hybridEnvironments.get({ accountId: account, hybridCloudEnvironmentId: environment.id }),
        'not_found',
      );
    });
  });

  describe('bounds: absurd requests are refused, and the emulator keeps answering', () => {
    const asKey = () => ({ authorization: `apikey ${emulator.apiKey}` });

    /** Sends `request` as is and returns the INVALID_ARGUMENT message, which must stay short whatever was sent. */
    async function refused(service: string, method: string, request: Plain): Promise<string> {
      const answer = await rawCall(emulator, service, method, request, asKey());
      expect(answer.error?.code, answer.error?.details ?? 'the call succeeded').to.equal(grpc.status.INVALID_ARGUMENT);
      expect(answer.error!.details.length, 'the answer does not echo the request').to.be.below(4_096);
      return answer.error!.details;
    }

    /** The emulator still answers, with only the objects it had. */
    async function stillAnswering(clusters = 0): Promise<void> {
      expect(await vdb.clusters.list({ accountId: account })).to.have.length(clusters);
    }

    function cluster(configuration: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Plain {
      return {
        cluster: {
          accountId: account,
          name: 'absurd',
          cloudProviderId: 'aws',
          cloudProviderRegionId: 'us-east-1',
          configuration: { numberOfNodes: 3, packageId: emulator.packageId('aws', 'small'), ...configuration },
          ...extra,
        },
      };
    }

    it('answers bytes that are no message, a Struct nested 10,000 deep and a message over 4 MiB, and answers on', async () => {
      const create = vdbMethod(VDB_SERVICES.hybrid, 'CreateHybridCloudEnvironment');
      const garbage = await rawCall(
        emulator,
        VDB_SERVICES.hybrid,
        'CreateHybridCloudEnvironment',
        Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]),
        asKey(),
      );
      expect(garbage.error?.code, 'garbage').to.equal(grpc.status.INVALID_ARGUMENT);
      expect(garbage.error?.details).to.match(/^validation error:\n - CreateHybridCloudEnvironmentRequest: not a/);
      // Nesting past protobufjs' recursion limit is refused as undecodable, before any walk of it.
      const deep = await rawCall(
        emulator,
        VDB_SERVICES.hybrid,
        'CreateHybridCloudEnvironment',
        nestedStructRequest(create.request, 10_000),
        asKey(),
      );
      expect(deep.error?.code, 'deep Struct').to.equal(grpc.status.INVALID_ARGUMENT);
      expect(deep.error?.details).to.include('max depth exceeded');
      const huge = await rawCall(
        emulator,
        VDB_SERVICES.hybrid,
        'CreateHybridCloudEnvironment',
        Buffer.alloc(5 * 1024 * 1024, 0x20),
        asKey(),
      );
      expect(huge.error?.code, 'over 4 MiB').to.equal(grpc.status.RESOURCE_EXHAUSTED);
      expect(emulator.list(VDB_COLLECTIONS.hybridEnvironments), 'nothing created').to.deep.equal([]);
      await stillAnswering(0);
    });

    it('refuses 9,999,999 nodes on create and update without allocating for them', async () => {
      const heapBefore = process.memoryUsage().heapUsed;
      const message = await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({ numberOfNodes: 9_999_999 }));
      expect(message).to.equal(
        'validation error:\n - cluster.configuration.number_of_nodes: value must be greater than or equal to 1 and less than or equal to 100 [uint32.gte_lte]',
      );
      await stillAnswering(0);

      const healthy = await healthyCluster();
      const update = cluster({ numberOfNodes: 4_294_967_295 }, { id: healthy.id, name: healthy.name });
      expect(await refused(VDB_SERVICES.cluster, 'UpdateCluster', update)).to.include(
        'cluster.configuration.number_of_nodes: value must be greater than or equal to 1 and less than or equal to 100',
      );
      emulator.clock.advance(PROVISIONING_MS);
      const after = await vdb.clusters.get({ accountId: account, clusterId: healthy.id });
      expect(after.configuration.numberOfNodes).to.equal(3);
      expect(after.state?.nodes).to.have.length(3);
      expect(process.memoryUsage().heapUsed - heapBefore, 'no per-node allocation').to.be.below(64 * 1024 * 1024);

      // The largest allowed cluster is fine.
      const largest = await vdb.clusters.create(
        clusterInput({
          name: 'largest',
          configuration: { numberOfNodes: 100, packageId: emulator.packageId('aws', 'small') },
        }),
      );
      emulator.clock.advance(PROVISIONING_MS);
      expect((await vdb.clusters.get({ accountId: account, clusterId: largest.id })).state?.nodes).to.have.length(100);
    });

    it('refuses absurd disk, replica, consistency and CPU-budget figures, naming each field and its bound', async () => {
      const message = await refused(
        VDB_SERVICES.cluster,
        'CreateCluster',
        cluster({
          additionalResources: { disk: 4_294_967_295 },
          databaseConfiguration: {
            collection: { replicationFactor: 1_000_000, writeConsistencyFactor: 2_000_000_000 },
            storage: { performance: { optimizerCpuBudget: -2_000_000_000 } },
          },
        }),
      );
      for (const line of [
        'cluster.configuration.additional_resources.disk: value must be greater than or equal to 0 and less than or equal to 16384 [uint32.gte_lte]',
        'cluster.configuration.database_configuration.collection.replication_factor: value must be greater than or equal to 1 and less than or equal to 100 [uint32.gte_lte]',
        'cluster.configuration.database_configuration.collection.write_consistency_factor: value must be greater than or equal to 1 and less than or equal to 100 [int32.gte_lte]',
        'cluster.configuration.database_configuration.storage.performance.optimizer_cpu_budget: value must be greater than or equal to -1024 and less than or equal to 1024 [int32.gte_lte]',
      ]) {
        expect(message).to.include(line);
      }
      await stillAnswering(0);
    });

    it('refuses oversized collections with one line per field, and lists at most 20 violations', async () => {
      const labels = Array.from({ length: 100_000 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
      expect(await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({}, { labels }))).to.equal(
        'validation error:\n - cluster.labels: value must contain no more than 10 item(s) [repeated.max_items]',
      );
      const badSelectors = Array.from({ length: 5_000 }, () => ({ key: '-bad', value: 'v' }));
      const listed = await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({ nodeSelector: badSelectors }));
      const lines = listed.split('\n').slice(1);
      expect(lines).to.have.length(21);
      expect(lines[0]).to.equal(
        ' - cluster.configuration.node_selector: value must contain no more than 10 item(s) [repeated.max_items]',
      );
      expect(lines[1]).to.include(
        'cluster.configuration.node_selector[0].key: value must be a valid Kubernetes label key',
      );
      expect(lines[20]).to.equal(' - … and 4981 more violation(s)');

      const ranges = Array.from({ length: 30_000 }, (_, i) => `10.${Math.floor(i / 256) % 256}.${i % 256}.0/24`);
      expect(
        await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({ allowedIpSourceRanges: ranges })),
      ).to.include('cluster.configuration.allowed_ip_source_ranges: value must contain no more than 20 item(s)');
      const tolerations = Array.from({ length: 11 }, (_, i) => ({
        key: `t${i}`,
        operator: 'TOLERATION_OPERATOR_EXISTS',
      }));
      expect(await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({ tolerations }))).to.include(
        'cluster.configuration.tolerations: value must contain no more than 10 item(s)',
      );

      const environment = (configuration: Record<string, unknown>) => ({
        hybridCloudEnvironment: {
          accountId: account,
          name: 'absurd',
          configuration: { namespace: 'vdb', ...configuration },
        },
      });
      const message = await refused(
        VDB_SERVICES.hybrid,
        'CreateHybridCloudEnvironment',
        environment({
          noProxyConfigs: Array.from({ length: 10_000 }, (_, i) => `host-${i}.internal`),
          caCertificates: 'x'.repeat(1024 * 1024),
          registrySecretName: 's'.repeat(10_000),
          httpProxyUrl: `http://proxy.example/${'p'.repeat(100_000)}`,
          databaseStorageClass: 'c'.repeat(300),
        }),
      );
      for (const line of [
        'hybrid_cloud_environment.configuration.no_proxy_configs: value must contain no more than 100 item(s)',
        'hybrid_cloud_environment.configuration.ca_certificates: value length must be at most 65536 characters',
        'hybrid_cloud_environment.configuration.registry_secret_name: value length must be at most 253 characters',
        'hybrid_cloud_environment.configuration.http_proxy_url: value length must be at most 2048 characters',
        'hybrid_cloud_environment.configuration.database_storage_class: value length must be at most 253 characters',
      ]) {
        expect(message).to.include(line);
      }
      expect(await vdb.hybridEnvironments.list({ accountId: account })).to.deep.equal([]);
    });

    it('refuses absurd page sizes, long strings and long id lists in every service', async () => {
      expect(
        await refused(VDB_SERVICES.cluster, 'ListClusters', { accountId: account, pageSize: 1_000_000 }),
      ).to.include('page_size: value must be greater than or equal to 1 and less than or equal to 250');
      expect(
        await refused(VDB_SERVICES.backup, 'ListBackups', { accountId: account, pageSize: 2_000_000_000 }),
      ).to.include('page_size');
      expect(
        await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({}, { name: 'n'.repeat(1_000_000) })),
      ).to.include('cluster.name: value length must be at most 64 characters');
      const longProvider = await refused(
        VDB_SERVICES.cluster,
        'CreateCluster',
        cluster({}, { cloudProviderId: 'p'.repeat(1_000_000) }),
      );
      expect(longProvider).to.include('cluster.cloud_provider_id: value length must be at most 64 characters');

      const healthy = await healthyCluster();
      const schedule = await refused(VDB_SERVICES.backup, 'CreateBackupSchedule', {
        backupSchedule: { accountId: account, clusterId: healthy.id, schedule: '1 '.repeat(500_000) },
      });
      expect(schedule).to.include('backup_schedule.schedule: value length must be at most 256 characters');
      const legacy = await refused(VDB_SERVICES.databaseApiKeyV1, 'CreateDatabaseApiKey', {
        databaseApiKey: { accountId: account, clusterIds: Array.from({ length: 10_000 }, () => healthy.id) },
      });
      expect(legacy).to.include('database_api_key.cluster_ids: value must contain no more than 100 item(s)');

      const role = await refused(VDB_SERVICES.iam, 'CreateRole', {
        role: {
          accountId: account,
          name: 'absurd',
          roleType: 'ROLE_TYPE_CUSTOM',
          permissions: Array.from({ length: 10_000 }, () => ({ value: 'read:clusters' })),
        },
      });
      expect(role).to.include('role.permissions: value must contain no more than 100 item(s)');
      const longPermission = await refused(VDB_SERVICES.iam, 'CreateRole', {
        role: {
          accountId: account,
          name: 'absurd',
          roleType: 'ROLE_TYPE_CUSTOM',
          permissions: [{ value: `read:${'x'.repeat(1_000_000)}` }],
        },
      });
      expect(longPermission).to.include('role.permissions[0].value: value length must be at most 128 characters');
      const member = (await vdb.accounts.listAccountMembers({ accountId: account }))[1]!.user;
      const assign = await refused(VDB_SERVICES.iam, 'AssignUserRoles', {
        accountId: account,
        userId: member.id,
        roleIdsToAdd: Array.from({ length: 10_000 }, () => crypto.randomUUID()),
      });
      expect(assign).to.include('role_ids_to_add: value must contain no more than 100 item(s)');
      expect(
        await refused(VDB_SERVICES.booking, 'ListPackages', {
          accountId: account,
          cloudProviderId: 'hybrid',
          statuses: Array(1_000).fill('PACKAGE_STATUS_ACTIVE'),
        }),
      ).to.include('statuses: value must contain no more than 10 item(s)');
      const quotedBack = await refused(VDB_SERVICES.booking, 'ListPackages', {
        accountId: account,
        cloudProviderId: 'q'.repeat(100_000),
        cloudProviderRegionId: 'x',
      });
      expect(quotedBack).to.include('(100000 characters)');
      await stillAnswering(1);
    });

    it('refuses a request over 4 MiB with RESOURCE_EXHAUSTED before decoding it', async () => {
      const answer = await rawCall(
        emulator,
        VDB_SERVICES.hybrid,
        'CreateHybridCloudEnvironment',
        {
          hybridCloudEnvironment: {
            accountId: account,
            name: 'huge',
            configuration: { namespace: 'vdb', caCertificates: 'x'.repeat(5 * 1024 * 1024) },
          },
        },
        asKey(),
      );
      expect(answer.error?.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
      expect(
        emulator.requests.filter((r) => r.method === 'CreateHybridCloudEnvironment'),
        'never reached a handler',
      ).to.deep.equal([]);
      await stillAnswering(0);
    });
  });

  describe('booking and platform', () => {
    it('lists packages per provider and region, hybrid without a region', async () => {
      const free = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'gcp',
        cloudProviderRegionId: 'europe-west3',
      });
      expect(free.map((pkg) => pkg.name)).to.deep.equal(['free', 'small', 'medium', 'large', 'xlarge']);
      expect(free[0]).to.deep.include({
        type: 'free',
        currency: 'USD',
        unitIntPricePerHour: 0,
        status: 'PACKAGE_STATUS_ACTIVE',
        resourceConfiguration: { cpu: '500m', ram: '1Gi', disk: '4Gi' },
      });
      expect(free[0]).not.to.have.property('offeredIn');
      const paidOnly = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-west-1',
        statuses: ['PACKAGE_STATUS_ACTIVE'],
      });
      expect(paidOnly.map((pkg) => pkg.name)).to.deep.equal(['small', 'medium', 'large', 'xlarge']);
      const retired = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-west-1',
        statuses: ['PACKAGE_STATUS_DEACTIVATED'],
      });
      expect(retired.map((pkg) => [pkg.name, pkg.status])).to.deep.equal([['legacy', 'PACKAGE_STATUS_DEACTIVATED']]);
      const both = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-west-1',
        statuses: ['PACKAGE_STATUS_ACTIVE', 'PACKAGE_STATUS_DEACTIVATED'],
      });
      expect(both.map((pkg) => pkg.name)).to.deep.equal(['small', 'medium', 'large', 'xlarge', 'legacy']);
      const hybrid = await vdb.booking.listPackages({ accountId: account, cloudProviderId: 'hybrid' });
      expect(hybrid.map((pkg) => pkg.id)).to.include(emulator.packageId('hybrid', 'small'));
      expect(emulator.requests.at(-1)!.request).to.deep.include({ cloudProviderRegionId: '' });

      expect(
        await failure(vdb.booking.listPackages({ accountId: account, cloudProviderId: 'aws' }), 'invalid'),
      ).to.include('cloud_provider_region_id: value is required unless cloud_provider_id is hybrid');
      expect(
        await failure(
          vdb.booking.listPackages({ accountId: account, cloudProviderId: 'aws', cloudProviderRegionId: 'xx' }),
          'invalid',
        ),
      ).to.include('unknown region "xx"');
      expect(
        await failure(
          vdb.booking.listPackages({ accountId: account, cloudProviderId: 'ibm', cloudProviderRegionId: 'xx' }),
          'invalid',
        ),
      ).to.include('unknown cloud provider "ibm"');
    });

    it("books the cheapest paid package of an unfiltered list in every region (upstream's tests pick so)", async () => {
      let booked = 0;
      for (const { id: cloudProviderId } of await vdb.platform.listCloudProviders({ accountId: account })) {
        for (const region of await vdb.platform.listCloudProviderRegions({ accountId: account, cloudProviderId })) {
          const where = { accountId: account, cloudProviderId, cloudProviderRegionId: region.id };
          const paid = (await vdb.booking.listPackages(where)).filter((pkg) => pkg.type === 'paid');
          const cheapest = paid.reduce((a, b) => (b.unitIntPricePerHour < a.unitIntPricePerHour ? b : a));
          const configuration = { numberOfNodes: 1, packageId: cheapest.id };
          const cluster = await vdb.clusters.create(clusterInput({ ...where, name: `cheap-${booked}`, configuration }));
          expect(cluster.configuration.packageId, `${cloudProviderId}/${region.id}`).to.equal(cheapest.id);
          booked++;
        }
      }
      expect(booked).to.equal(17);
    });

    it('lists providers and regions', async () => {
      const providers = await vdb.platform.listCloudProviders({ accountId: account });
      expect(providers.find((provider) => provider.id === 'azure')).to.deep.equal({
        id: 'azure',
        name: 'Azure',
        freeTier: true,
        available: true,
      });
      const regions = await vdb.platform.listCloudProviderRegions({ accountId: account, cloudProviderId: 'gcp' });
      expect(regions.map((region) => region.id)).to.deep.equal(['europe-west3', 'us-east4']);
      const region = await vdb.platform.getCloudProviderRegion({
        accountId: account,
        cloudProviderId: 'aws',
        regionId: 'eu-west-2',
      });
      expect(region).to.deep.include({ provider: 'aws', countryIsoCode: 'GB', freeTier: false });
      await failure(
        vdb.platform.getCloudProviderRegion({ accountId: account, cloudProviderId: 'aws', regionId: 'europe-west3' }),
        'not_found',
      );
    });
  });

  describe('IAM and members', () => {
    it('has system roles and a permission catalog; custom roles get categories filled', async () => {
      const roles = await vdb.iam.listRoles({ accountId: account });
      expect(roles.map((role) => [role.name, role.roleType, role.subType])).to.deep.equal([
        ['Owner', 'ROLE_TYPE_SYSTEM', 'SYSTEM_ROLE_SUB_TYPE_OWNER'],
        ['Admin', 'ROLE_TYPE_SYSTEM', 'SYSTEM_ROLE_SUB_TYPE_ADMIN'],
        ['Base', 'ROLE_TYPE_SYSTEM', 'SYSTEM_ROLE_SUB_TYPE_BASE'],
      ]);
      const permissions = await vdb.iam.listPermissions({ accountId: account });
      expect(permissions).to.deep.include({ value: 'read:backups', category: 'Cluster' });

      const role = await vdb.iam.createRole({
        accountId: account,
        name: 'Backup operators',
        description: 'Runs backups',
        permissions: ['read:backups', 'write:backups', 'read:backups'],
      });
      expect(role).to.deep.include({ roleType: 'ROLE_TYPE_CUSTOM', description: 'Runs backups' });
      expect(role.subType).to.equal(undefined);
      expect(role.permissions).to.deep.equal([
        { value: 'read:backups', category: 'Cluster' },
        { value: 'write:backups', category: 'Cluster' },
      ]);
      const updated = await vdb.iam.updateRole({
        id: role.id,
        accountId: account,
        name: 'Backup admins',
        permissions: ['delete:backups'],
      });
      expect(updated).to.deep.include({ name: 'Backup admins', description: '', createdAt: role.createdAt });
      expect(await vdb.iam.getRole({ accountId: account, roleId: role.id })).to.deep.equal(updated);

      const owner = roles[0]!;
      expect(
        await failure(
          vdb.iam.updateRole({ id: owner.id, accountId: account, name: 'Owner', permissions: ['read:clusters'] }),
          'invalid',
        ),
      ).to.include('system role Owner cannot be changed');
      expect(await failure(vdb.iam.deleteRole({ accountId: account, roleId: owner.id }), 'invalid')).to.include(
        'system role Owner cannot be deleted',
      );
      await vdb.iam.deleteRole({ accountId: account, roleId: role.id });
      await failure(vdb.iam.getRole({ accountId: account, roleId: role.id }), 'not_found');
    });

    it('lists every documented permission under its documented category, and roles may use each', async () => {
      // The platform's permission reference, section by section, plus restore:backups from the API's method options.
      const documented: Record<string, string[]> = {
        'Identity and Access Management': [
          'read:roles',
          'write:roles',
          'delete:roles',
          'read:management_keys',
          'write:management_keys',
          'delete:management_keys',
          'write:invites',
          'read:invites',
          'delete:invites',
          'read:users',
          'delete:users',
        ],
        Cluster: [
          'read:api_keys',
          'write:api_keys',
          'delete:api_keys',
          'read:backups',
          'write:backups',
          'delete:backups',
          'restore:backups',
          'read:clusters',
          'write:clusters',
          'delete:clusters',
          'read:cluster_data',
          'write:cluster_data',
          'read:backup_schedules',
          'write:backup_schedules',
          'delete:backup_schedules',
        ],
        'Hybrid Cloud': [
          'read:hybrid_cloud_environments',
          'write:hybrid_cloud_environments',
          'delete:hybrid_cloud_environments',
        ],
        'Payment & Billing': ['read:payment_information', 'write:payment_information'],
        'Account Management': ['read:account', 'write:account', 'delete:account'],
        Profile: ['read:profile'],
      };
      const expected = Object.entries(documented).flatMap(([category, values]) =>
        values.map((value) => ({ value, category })),
      );
      const listed = await vdb.iam.listPermissions({ accountId: account });
      expect([...listed].sort((a, b) => a.value.localeCompare(b.value))).to.deep.equal(
        [...expected].sort((a, b) => a.value.localeCompare(b.value)),
      );

      const role = await vdb.iam.createRole({
        accountId: account,
        name: 'Data and restores',
        permissions: ['restore:backups', 'read:cluster_data', 'write:cluster_data', 'read:account'],
      });
      expect(role.permissions).to.deep.equal([
        { value: 'restore:backups', category: 'Cluster' },
        { value: 'read:cluster_data', category: 'Cluster' },
        { value: 'write:cluster_data', category: 'Cluster' },
        { value: 'read:account', category: 'Account Management' },
      ]);

      // The system roles as documented: the owner has everything, an admin all but write:account.
      const roles = await vdb.iam.listRoles({ accountId: account });
      const valuesOf = (name: string) =>
        roles
          .find((r) => r.name === name)!
          .permissions.map((p) => p.value)
          .sort();
      expect(valuesOf('Owner')).to.deep.equal(expected.map((p) => p.value).sort());
      expect(valuesOf('Admin')).to.deep.equal(
        expected
          .map((p) => p.value)
          .filter((v) => v !== 'write:account')
          .sort(),
      );
    });

    it('validates roles', async () => {
      const message = await failure(
        vdb.iam.createRole({
          accountId: account,
          name: 'ops',
          description: 'x'.repeat(257),
          permissions: ['fly:rockets'],
        }),
        'invalid',
      );
      expect(message).to.include('role.name: value length must be at least 4 characters');
      expect(message).to.include('role.description: value length must be at most 256 characters');
      expect(message).to.include('role.permissions[0].value: unknown permission "fly:rockets" (see ListPermissions)');
      expect(
        await failure(vdb.iam.createRole({ accountId: account, name: 'operators', permissions: [] }), 'invalid'),
      ).to.include('role.permissions: value must contain at least 1 item(s)');
      const system = await rawCall(
        emulator,
        VDB_SERVICES.iam,
        'CreateRole',
        {
          role: {
            accountId: account,
            name: 'sneaky',
            roleType: 'ROLE_TYPE_SYSTEM',
            permissions: [{ value: 'read:clusters' }],
          },
        },
        { authorization: `apikey ${emulator.apiKey}` },
      );
      expect(system.error?.details).to.include(
        'role.role_type: value must be in list [2] (ROLE_TYPE_CUSTOM) [enum.in]',
      );
    });

    it('lists members and assigns and removes their roles', async () => {
      const members = await vdb.accounts.listAccountMembers({ accountId: account });
      expect(members.map((member) => [member.user.email, member.isOwner])).to.deep.equal([
        ['owner@vdb-emulator.example', true],
        ['member@vdb-emulator.example', false],
      ]);
      const added = emulator.addMember('new@vdb-emulator.example');
      expect(
        (await vdb.accounts.listAccountMembers({ accountId: account })).map((member) => member.user.id),
      ).to.include(added.id);

      const member = members[1]!.user;
      const role = await vdb.iam.createRole({ accountId: account, name: 'Readers', permissions: ['read:clusters'] });
      const names = async () =>
        (await vdb.iam.listUserRoles({ accountId: account, userId: member.id })).map((r) => r.name);
      expect(await names()).to.deep.equal(['Base']);
      await vdb.iam.assignUserRoles({ accountId: account, userId: member.id, roleIdsToAdd: [role.id] });
      await vdb.iam.assignUserRoles({ accountId: account, userId: member.id, roleIdsToAdd: [role.id] });
      expect(await names()).to.deep.equal(['Base', 'Readers']);
      await vdb.iam.deleteRole({ accountId: account, roleId: role.id });
      expect(await names(), 'deleting a role unassigns it').to.deep.equal(['Base']);

      expect(await failure(vdb.iam.assignUserRoles({ accountId: account, userId: member.id }), 'invalid')).to.include(
        'at least one of role_ids_to_add and role_ids_to_delete must be non-empty',
      );
      await failure(
        vdb.iam.assignUserRoles({ accountId: account, userId: member.id, roleIdsToAdd: [crypto.randomUUID()] }),
        'not_found',
      );
      await failure(vdb.iam.listUserRoles({ accountId: account, userId: crypto.randomUUID() }), 'not_found');
    });
  });
});

describe('vdb emulator CLI', () => {
  const main = fileURLToPath(new URL('../../src/emulators/main.js', import.meta.url));

  it('prints exactly one JSON line with url, api_key and account_id, serves the API, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [main, 'vdb', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const first = await lines.next();
      const ready = JSON.parse(first.value as string);
      expect(ready).to.have.keys('url', 'api_key', 'account_id');
      expect(ready.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ready.account_id).to.match(/^[0-9a-f-]{36}$/);

      const vdb = createVdbClient({ apiUrl: ready.url, apiKey: ready.api_key, userAgent: 'test' });
      try {
        const regions = await vdb.platform.listCloudProviderRegions({
          accountId: ready.account_id,
          cloudProviderId: 'azure',
        });
        expect(regions).to.have.length(4);
      } finally {
        vdb.close();
      }

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).to.equal(0);
      const rest = await lines.next();
      expect(rest.done, 'nothing else on stdout').to.equal(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('honours --port', async () => {
    const probe = await startVdbEmulator();
    const port = probe.port;
    await probe.close();
    const child = spawn(process.execPath, [main, 'vdb', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
      expect(JSON.parse(first.value as string).url).to.equal(`http://127.0.0.1:${port}`);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});

/** Protobuf's wire form of a length-delimited field. */
function lengthDelimited(field: number, payload: Buffer): Buffer {
  const varint = (value: number): Buffer => {
    const bytes: number[] = [];
    for (; value > 0x7f; value = Math.floor(value / 128)) bytes.push((value & 0x7f) | 0x80);
    bytes.push(value);
    return Buffer.from(bytes);
  };
  return Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
}

/**
 * A request whose one Struct (advanced operator settings) holds a list in a list … `depth` deep,
 * built from the inside out, as no encoder that recurses could.
 */
function nestedStructRequest(request: protobuf.Type, depth: number): Buffer {
  const path = pathToStruct(request, new Set());
  if (!path) throw new Error(`${request.name} holds no Struct`);
  // Value.list_value = 6, ListValue.values = 1; Struct.fields = 1 (a map entry: key 1, value 2).
  let value: Buffer = Buffer.alloc(0);
  for (let i = 0; i < depth; i++) value = lengthDelimited(6, lengthDelimited(1, value));
  let message = lengthDelimited(1, Buffer.concat([lengthDelimited(1, Buffer.from('x')), lengthDelimited(2, value)]));
  for (const field of path.reverse()) message = lengthDelimited(field, message);
  return message;
}

/** The field numbers from `type` down to a google.protobuf.Struct field. */
function pathToStruct(type: protobuf.Type, seen: Set<string>): number[] | undefined {
  seen.add(type.fullName);
  for (const field of type.fieldsArray) {
    const resolved = field.resolve().resolvedType;
    if (!(resolved instanceof protobuf.Type) || field.map) continue;
    if (resolved.fullName === '.google.protobuf.Struct') return [field.id];
    if (seen.has(resolved.fullName)) continue;
    const below = pathToStruct(resolved, seen);
    if (below) return [field.id, ...below];
  }
  return undefined;
}
