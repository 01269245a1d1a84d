import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { status } from '@grpc/grpc-js';
import {
  ApiError,
  createVdbClient,
  formatGoDuration,
  formatTimestamp,
  GoDurationError,
  goDurationToProto,
  parseApiUrl,
  parseGoDuration,
  parseTimestamp,
  protoToGoDuration,
  type ApiErrorCode,
  type ClusterInput,
  type VdbClient,
  type VdbClientConfig,
} from '../../src/clients/vdb/index.js';
import { type Plain, decodePlain, encodePlain } from '../../src/clients/vdb/codec.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadFromProtoDir,
  VDB_DESCRIPTOR_PATH,
  vdbMethod,
  vdbProtoRoot,
  VDB_SERVICES,
} from '../../src/wire/vdb-proto.js';
import { backoffMs } from '../../src/clients/backoff.js';
import { codeForGrpcStatus } from '../../src/clients/vdb/transport.js';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { generateCertificate } from '../../packages/framework/src/server/tls.js';
import { GrpcServer } from '../../packages/framework/src/wire/grpc-server.js';
import { descriptorWithoutRules } from '../../src/wire/validate-import.js';
import { expectApiError } from '../support/api-error.js';

const USER_AGENT = 'terraform-provider-vdb/1.19.2 (test)';

describe('vdb client', () => {
  let emulator: VdbEmulator;
  let clients: VdbClient[];
  /** Every ApiError a test saw; afterEach checks none of them leaks the API key. */
  let seenErrors: ApiError[];

  beforeEach(async () => {
    emulator = await startVdbEmulator({ provisioningMs: 200 });
    clients = [];
    seenErrors = [];
  });

  afterEach(async () => {
    for (const error of seenErrors) {
      expect(error.message, 'ApiError message leaks the API key').not.to.include(emulator.apiKey);
    }
    for (const client of clients) client.close();
    await emulator.close();
  });

  function client(overrides: Partial<VdbClientConfig> = {}): VdbClient {
    const created = createVdbClient({
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      userAgent: USER_AGENT,
      retry: { baseDelayMs: 5, maxDelayMs: 40 },
      ...overrides,
    });
    clients.push(created);
    return created;
  }

  async function apiError(promise: Promise<unknown>, code: ApiErrorCode): Promise<ApiError> {
    const error = await expectApiError(promise, code);
    seenErrors.push(error);
    return error;
  }

  function clusterInput(overrides: Partial<ClusterInput> = {}): ClusterInput {
    return {
      accountId: emulator.accountId,
      name: 'orders',
      cloudProviderId: 'aws',
      cloudProviderRegionId: 'eu-central-1',
      configuration: { numberOfNodes: 1, packageId: emulator.packageId('aws', 'small') },
      ...overrides,
    };
  }

  const callsOf = (method: string) => emulator.requests.filter((request) => request.method === method);

  describe('endpoint', () => {
    it('uses TLS for host:port, host and https://, plaintext only for loopback http://', () => {
      expect(parseApiUrl('grpc.vdb-cloud.example:443')).to.deep.equal({
        target: 'grpc.vdb-cloud.example:443',
        host: 'grpc.vdb-cloud.example',
        tls: true,
      });
      expect(parseApiUrl('grpc.vdb-cloud.example')).to.include({ target: 'grpc.vdb-cloud.example:443', tls: true });
      expect(parseApiUrl('https://api.example:8443')).to.include({ target: 'api.example:8443', tls: true });
      expect(parseApiUrl('localhost:50051')).to.include({ target: 'localhost:50051', tls: true });
      expect(parseApiUrl('http://127.0.0.1:50051')).to.include({ target: '127.0.0.1:50051', tls: false });
      expect(parseApiUrl('http://localhost:50051')).to.include({ tls: false });
      expect(parseApiUrl('http://[::1]:50051')).to.include({ target: '[::1]:50051', tls: false });
    });

    it('refuses plaintext to other hosts, unknown schemes and paths with ApiError invalid', () => {
      for (const url of [
        'http://grpc.vdb-cloud.example:80',
        'http://10.0.0.1:50051',
        'grpc://x:1',
        'https://x/v1',
        '',
        '   ',
      ]) {
        let thrown: unknown;
        try {
          parseApiUrl(url);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, url).to.be.instanceOf(ApiError);
        expect((thrown as ApiError).code).to.equal('invalid');
      }
      expect(() => parseApiUrl('http://grpc.vdb-cloud.example')).to.throw(/only loopback hosts/);
    });

    it('refuses an empty API key and a non-loopback plaintext URL at creation', () => {
      expect(() => createVdbClient({ apiUrl: emulator.url, apiKey: ' ', userAgent: USER_AGENT })).to.throw(
        ApiError,
        /API key must not be empty/,
      );
      expect(() => createVdbClient({ apiUrl: 'http://example.com:80', apiKey: 'k', userAgent: USER_AGENT })).to.throw(
        ApiError,
        /refusing plaintext/,
      );
    });
  });

  describe('calls', () => {
    it('sends the API key as `authorization: apikey <key>` and the user agent on every call, over one connection', async () => {
      const vdb = client();
      await vdb.platform.listCloudProviders({ accountId: emulator.accountId });
      await vdb.clusters.list({ accountId: emulator.accountId });
      await vdb.iam.listRoles({ accountId: emulator.accountId });
      expect(emulator.requests).to.have.length(3);
      for (const request of emulator.requests) {
        expect(request.code).to.equal(status.OK);
        expect(request.metadata.authorization).to.equal('apikey ***');
        expect(request.metadata['user-agent']).to.match(/^terraform-provider-vdb\/1\.19\.2 \(test\)/);
      }
      expect(new Set(emulator.requests.map((request) => request.peer)).size, 'one channel, one connection').to.equal(1);
    });

    it('maps a wrong key to unauthenticated with the call trace id in the message', async () => {
      const error = await apiError(
        client({ apiKey: 'not-the-key' }).clusters.list({ accountId: emulator.accountId }),
        'unauthenticated',
      );
      const [logged] = emulator.requests;
      expect(error.requestId).to.equal(logged!.traceId);
      expect(error.message).to.include(`request id ${logged!.traceId}`);
      expect(error.message).to.include('ClusterService/ListClusters');
      expect(error.message).to.include('UNAUTHENTICATED');
    });

    it('maps gRPC statuses to ApiError codes', async () => {
      const vdb = client();
      await apiError(vdb.clusters.get({ accountId: emulator.accountId, clusterId: crypto.randomUUID() }), 'not_found');
      const invalid = await apiError(vdb.clusters.create(clusterInput({ name: 'x' })), 'invalid');
      expect(invalid.message).to.include('cluster.name: must be at least 2 characters [string.min_len]');
      await apiError(vdb.clusters.list({ accountId: crypto.randomUUID() }), 'forbidden');
      emulator.injectFault({ method: 'CreateRole', code: status.ALREADY_EXISTS, message: 'role exists' });
      await apiError(
        vdb.iam.createRole({ accountId: emulator.accountId, name: 'readers', permissions: ['read:clusters'] }),
        'conflict',
      );
      emulator.failBootstrap('failed_precondition');
      await apiError(
        vdb.hybridEnvironments.generateBootstrapCommands({
          accountId: emulator.accountId,
          hybridCloudEnvironmentId: crypto.randomUUID(),
        }),
        'invalid',
      );
      emulator.failBootstrap('permission_denied');
      await apiError(
        vdb.hybridEnvironments.generateBootstrapCommands({
          accountId: emulator.accountId,
          hybridCloudEnvironmentId: crypto.randomUUID(),
        }),
        'forbidden',
      );

      expect(codeForGrpcStatus(status.RESOURCE_EXHAUSTED)).to.equal('rate_limited');
      expect(codeForGrpcStatus(status.UNAVAILABLE)).to.equal('unavailable');
      expect(codeForGrpcStatus(status.DEADLINE_EXCEEDED)).to.equal('timeout');
      expect(codeForGrpcStatus(status.CANCELLED)).to.equal('cancelled');
      expect(codeForGrpcStatus(status.PERMISSION_DENIED)).to.equal('forbidden');
      expect(codeForGrpcStatus(status.INTERNAL)).to.equal('unknown');
    });

    it('sends vdb-jwt-rbac metadata on create only when asked', async () => {
      const vdb = client();
      const withJwt = await vdb.clusters.create(clusterInput({ name: 'with-jwt' }), { jwtRbac: true });
      const plain = await vdb.clusters.create(clusterInput({ name: 'plain' }));
      const [first, second] = callsOf('CreateCluster');
      expect(first!.metadata['vdb-jwt-rbac']).to.equal('true');
      expect(second!.metadata).not.to.have.property('vdb-jwt-rbac');
      expect(withJwt.state?.jwtRbac).to.equal(true);
      expect(plain.state?.jwtRbac).to.equal(false);
    });
  });

  describe('retries, deadlines, cancellation', () => {
    it('retries reads on UNAVAILABLE and RESOURCE_EXHAUSTED, then succeeds', async () => {
      emulator.injectFault({ method: 'ListClusters', code: status.UNAVAILABLE, times: 2 });
      emulator.injectFault({ method: 'ListClusters', code: status.RESOURCE_EXHAUSTED });
      const clusters = await client().clusters.list({ accountId: emulator.accountId });
      expect(clusters).to.deep.equal([]);
      expect(callsOf('ListClusters').map((request) => request.code)).to.deep.equal([
        status.UNAVAILABLE,
        status.UNAVAILABLE,
        status.RESOURCE_EXHAUSTED,
        status.OK,
      ]);
    });

    it('gives up after the attempt budget with every attempt trace id in the error', async () => {
      emulator.injectFault({ method: 'GetCluster', code: status.UNAVAILABLE, times: Infinity, message: 'overloaded' });
      const error = await apiError(
        client({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }).clusters.get({
          accountId: emulator.accountId,
          clusterId: crypto.randomUUID(),
        }),
        'unavailable',
      );
      const calls = callsOf('GetCluster');
      expect(calls).to.have.length(3);
      expect(error.requestId).to.equal(calls.map((call) => call.traceId).join(', '));
      const ids = calls.map((call) => call.traceId).join(', ');
      expect(error.message).to.include('UNAVAILABLE: overloaded').and.include(`(request ids ${ids})`);
    });

    it('repeats a create the server declined (RESOURCE_EXHAUSTED), making one cluster', async () => {
      emulator.injectFault({ method: 'CreateCluster', code: status.RESOURCE_EXHAUSTED, times: 2 });
      const created = await client().clusters.create(clusterInput());
      expect(callsOf('CreateCluster').map((request) => request.code)).to.deep.equal([
        status.RESOURCE_EXHAUSTED,
        status.RESOURCE_EXHAUSTED,
        status.OK,
      ]);
      expect(emulator.list<{ id: string }>(VDB_COLLECTIONS.clusters).map((c) => c.id)).to.deep.equal([created.id]);
    });

    it('fails a create whose answer was lost with outcome_unknown, without repeating it', async () => {
      // Handled (the cluster exists), then answered UNAVAILABLE as if the connection dropped.
      emulator.injectFault({ method: 'CreateCluster', ambiguous: true });
      const lost = await apiError(client().clusters.create(clusterInput()), 'outcome_unknown');
      expect(lost.message).to.include('may or may not have taken effect');
      expect(lost.requestId).to.equal(callsOf('CreateCluster')[0]!.traceId);
      expect(callsOf('CreateCluster')).to.have.length(1);
      expect(emulator.list(VDB_COLLECTIONS.clusters)).to.have.length(1);

      // UNAVAILABLE before the handler: from the client's side exactly the same.
      emulator.injectFault({ method: 'CreateCluster', code: status.UNAVAILABLE });
      await apiError(client().clusters.create(clusterInput({ name: 'other' })), 'outcome_unknown');
      expect(callsOf('CreateCluster')).to.have.length(2);
      expect(emulator.list(VDB_COLLECTIONS.clusters)).to.have.length(1);
    });

    it('fails a create with outcome_unknown when its deadline passes while it is out', async () => {
      emulator.injectFault({ method: 'CreateRole', delayMs: 1_000 });
      const role = { accountId: emulator.accountId, name: 'auditors', permissions: ['read:backups'] };
      const error = await apiError(client().iam.createRole(role, { timeoutMs: 150 }), 'outcome_unknown');
      expect(error.message).to.include('no answer within 150 ms (DEADLINE_EXCEEDED)');
      expect(callsOf('CreateRole')).to.have.length(1);
    });

    it("waits for the server's retry-after before repeating a declined call", async () => {
      emulator.setFaultProfile({ seed: 1, rate: 1, kinds: ['rate-limit'], retryAfterSeconds: 1 });
      setTimeout(() => emulator.setFaultProfile(undefined), 300);
      const started = Date.now();
      const roles = await client({ retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 2_000 } }).iam.listRoles({
        accountId: emulator.accountId,
      });
      expect(Date.now() - started).to.be.at.least(950);
      expect(roles.length).to.be.greaterThan(0);
      expect(callsOf('ListRoles').map((request) => request.code)).to.deep.equal([status.RESOURCE_EXHAUSTED, status.OK]);
    });

    it('retries idempotent writes (update, delete, assign)', async () => {
      const vdb = client();
      const cluster = await vdb.clusters.create(clusterInput());
      emulator.injectFault({ method: 'UpdateCluster', code: status.RESOURCE_EXHAUSTED });
      const renamed = await vdb.clusters.update({ ...clusterInput({ name: 'renamed' }), id: cluster.id });
      expect(renamed.name).to.equal('renamed');
      expect(callsOf('UpdateCluster').map((request) => request.code)).to.deep.equal([
        status.RESOURCE_EXHAUSTED,
        status.OK,
      ]);

      const [member] = await vdb.accounts.listAccountMembers({ accountId: emulator.accountId });
      const [admin] = (await vdb.iam.listRoles({ accountId: emulator.accountId })).filter(
        (role) => role.name === 'Admin',
      );
      emulator.injectFault({ method: 'AssignUserRoles', code: status.UNAVAILABLE });
      await vdb.iam.assignUserRoles({
        accountId: emulator.accountId,
        userId: member!.user.id,
        roleIdsToAdd: [admin!.id],
      });
      expect(callsOf('AssignUserRoles').map((request) => request.code)).to.deep.equal([status.UNAVAILABLE, status.OK]);
      const roles = await vdb.iam.listUserRoles({ accountId: emulator.accountId, userId: member!.user.id });
      expect(roles.map((role) => role.name)).to.include('Admin');

      emulator.injectFault({ method: 'DeleteCluster', code: status.UNAVAILABLE });
      await vdb.clusters.delete({ accountId: emulator.accountId, clusterId: cluster.id, deleteBackups: true });
      expect(callsOf('DeleteCluster').map((request) => request.code)).to.deep.equal([status.UNAVAILABLE, status.OK]);
      expect(emulator.get(VDB_COLLECTIONS.clusters, cluster.id)).to.equal(undefined);
    });

    it('stops waiting between retries when the signal aborts', async () => {
      emulator.injectFault({ method: 'ListRoles', code: status.UNAVAILABLE, times: Infinity });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = Date.now();
      await apiError(
        client({ retry: { maxAttempts: 10, baseDelayMs: 5_000, maxDelayMs: 5_000 } }).iam.listRoles(
          { accountId: emulator.accountId },
          { signal: controller.signal },
        ),
        'cancelled',
      );
      expect(Date.now() - started, 'the 5 s back-off was cut short').to.be.below(5_000);
      expect(callsOf('ListRoles')).to.have.length(1);
    });

    it('stops waiting before repeating a declined create when the signal aborts', async () => {
      emulator.injectFault({ method: 'CreateCluster', code: status.RESOURCE_EXHAUSTED, times: Infinity });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = Date.now();
      await apiError(
        client({ retry: { maxAttempts: 10, baseDelayMs: 5_000, maxDelayMs: 5_000 } }).clusters.create(clusterInput(), {
          signal: controller.signal,
        }),
        'cancelled',
      );
      expect(Date.now() - started, 'the 5 s back-off was cut short').to.be.below(5_000);
      expect(callsOf('CreateCluster')).to.have.length(1);
    });

    it('cancels a call in flight when the signal aborts', async () => {
      emulator.injectFault({ method: 'ListRoles', delayMs: 2_000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = Date.now();
      await apiError(
        client().iam.listRoles({ accountId: emulator.accountId }, { signal: controller.signal }),
        'cancelled',
      );
      expect(Date.now() - started).to.be.lessThan(1_000);
    });

    describe('when Terraform asks the provider to stop (StopProvider)', () => {
      const roleInput = (name: string) => ({ accountId: emulator.accountId, name, permissions: ['read:clusters'] });
      const rolesNamed = (name: string) =>
        emulator.list<{ name: string }>(VDB_COLLECTIONS.roles).filter((r) => r.name === name);

      it('lets a create already on the wire finish and returns the object it made', async () => {
        emulator.injectFault({ method: 'CreateRole', delayMs: 400 });
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 100);
        const role = await client({ stopGraceMs: 5_000 }).iam.createRole(roleInput('graced'), { signal: stop.signal });
        expect(stop.signal.aborted).to.equal(true);
        expect(rolesNamed('graced').map((r) => (r as unknown as { id: string }).id)).to.deep.equal([role.id]);
      });

      it('gives a create on the wire the grace at most, then reports its outcome unknown (the platform still made it)', async () => {
        emulator.injectFault({ method: 'CreateRole', delayMs: 800 });
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 50);
        const started = Date.now();
        const error = await apiError(
          client({ stopGraceMs: 150 }).iam.createRole(roleInput('cut off'), { signal: stop.signal }),
          'outcome_unknown',
        );
        expect(Date.now() - started).to.be.within(150, 700);
        expect(error.message).to.match(
          /^\S+\/CreateRole: Terraform asked the provider to stop and no answer came within the 150 ms the provider waits for requests already sent; .*may or may not have taken effect/,
        );
        // The emulator, like the platform, finishes what it was sent although the client went away.
        await new Promise((resolve) => setTimeout(resolve, 900));
        expect(rolesNamed('cut off')).to.have.length(1);
      });

      it('cuts a read off at once', async () => {
        emulator.injectFault({ method: 'ListRoles', delayMs: 2_000 });
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 50);
        const started = Date.now();
        const error = await apiError(
          client({ stopGraceMs: 5_000 }).iam.listRoles({ accountId: emulator.accountId }, { signal: stop.signal }),
          'cancelled',
        );
        expect(Date.now() - started).to.be.below(1_000);
        expect(error.message).to.match(
          /ListRoles: Terraform asked the provider to stop while the request was out( \(request id [^)]*\))?$/,
        );
      });

      it('sends nothing after the stop and says the create changed nothing', async () => {
        const error = await apiError(
          client().iam.createRole(roleInput('never'), { signal: AbortSignal.abort() }),
          'cancelled',
        );
        expect(error.message).to.match(
          /CreateRole: Terraform asked the provider to stop before the request was sent, so it changed nothing$/,
        );
        expect(callsOf('CreateRole')).to.have.length(0);
        expect(rolesNamed('never')).to.have.length(0);
      });
    });

    it('puts a deadline on every call', async () => {
      emulator.injectFault({ method: 'ListRoles', delayMs: 2_000 });
      const started = Date.now();
      const error = await apiError(
        client({ timeoutMs: 150 }).iam.listRoles({ accountId: emulator.accountId }),
        'timeout',
      );
      expect(Date.now() - started).to.be.lessThan(1_000);
      expect(error.message).to.include('no answer within 150 ms');
      // The per-call option wins over the client's default.
      emulator.injectFault({ method: 'ListRoles', delayMs: 2_000 });
      await apiError(client().iam.listRoles({ accountId: emulator.accountId }, { timeoutMs: 100 }), 'timeout');
    });

    it('keeps backoff delays within the policy, growing exponentially with jitter', () => {
      const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };
      for (let i = 0; i < 50; i++) {
        const first = backoffMs(policy, 1);
        const third = backoffMs(policy, 3);
        const capped = backoffMs(policy, 10);
        expect(first).to.be.within(50, 100);
        expect(third).to.be.within(200, 400);
        expect(capped).to.be.within(500, 1_000);
      }
    });

    it('fails calls after close()', async () => {
      const vdb = client();
      vdb.close();
      await apiError(vdb.iam.listRoles({ accountId: emulator.accountId }), 'cancelled');
    });
  });

  describe('conversion', () => {
    it('returns plain camelCase objects with RFC 3339 timestamps, durations and enum names', async () => {
      const vdb = client();
      const cluster = await vdb.clusters.create(
        clusterInput({
          labels: [{ key: 'team', value: 'search' }],
          configuration: {
            numberOfNodes: 2,
            packageId: emulator.packageId('aws', 'medium'),
            serviceType: 'CLUSTER_SERVICE_TYPE_LOAD_BALANCER',
            reservedCpuPercentage: 10,
            allowedIpSourceRanges: ['10.0.0.0/8'],
            databaseConfiguration: {
              collection: { replicationFactor: 2, vectors: { onDisk: true } },
              logLevel: 'DATABASE_CONFIGURATION_LOG_LEVEL_INFO',
            },
            tolerations: [
              {
                key: 'dedicated',
                operator: 'TOLERATION_OPERATOR_EQUAL',
                value: 'db',
                effect: 'TOLERATION_EFFECT_NO_EXECUTE',
                tolerationSeconds: 30,
              },
            ],
          },
        }),
      );
      expect(cluster.createdAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(cluster.labels).to.deep.equal([{ key: 'team', value: 'search' }]);
      expect(cluster.configuration).to.deep.include({
        numberOfNodes: 2,
        serviceType: 'CLUSTER_SERVICE_TYPE_LOAD_BALANCER',
        reservedCpuPercentage: 10,
        allowedIpSourceRanges: ['10.0.0.0/8'],
        databaseConfiguration: {
          collection: { replicationFactor: 2, vectors: { onDisk: true } },
          logLevel: 'DATABASE_CONFIGURATION_LOG_LEVEL_INFO',
        },
      });
      expect(cluster.configuration.tolerations[0]).to.deep.equal({
        key: 'dedicated',
        operator: 'TOLERATION_OPERATOR_EQUAL',
        value: 'db',
        effect: 'TOLERATION_EFFECT_NO_EXECUTE',
        tolerationSeconds: 30,
      });
      // Absent optionals stay absent (presence matters to the provider).
      expect(cluster.configuration).not.to.have.property('gpuType');
      expect(cluster.configuration).not.to.have.property('reservedMemoryPercentage');
      expect(cluster.state?.phase).to.equal('CLUSTER_PHASE_CREATING');

      const schedule = await vdb.backupSchedules.create({
        accountId: emulator.accountId,
        clusterId: cluster.id,
        schedule: '@daily',
        retentionPeriod: goDurationToProto('72h'),
      });
      expect(schedule.retentionPeriod).to.deep.equal({ seconds: 259_200, nanos: 0 });
      expect(protoToGoDuration(schedule.retentionPeriod!)).to.equal('72h0m0s');

      const expiresAt = '2099-01-02T03:04:05.5+02:00';
      const key = await vdb.databaseApiKeys.create({
        accountId: emulator.accountId,
        clusterId: cluster.id,
        name: 'reader key',
        expiresAt,
        accessRules: [
          { collectionAccess: { collectionName: 'docs', accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' } },
        ],
      });
      expect(key.expiresAt).to.equal('2099-01-02T01:04:05.500Z');
      expect(key.accessRules).to.deep.equal([
        { collectionAccess: { collectionName: 'docs', accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' } },
      ]);
      expect(key.key).to.have.length.greaterThan(10);
      const [listed] = await vdb.databaseApiKeys.list({ accountId: emulator.accountId, clusterId: cluster.id });
      expect(listed!.key, 'lists never carry the secret').to.equal('');
    });

    it('round-trips a Struct (advanced operator settings) as JSON', async () => {
      const settings = {
        operator: { replicas: 2, features: ['a', 'b'], debug: false, extra: null, nested: { ratio: 0.5 } },
      };
      const environment = await client().hybridEnvironments.create({
        accountId: emulator.accountId,
        name: 'edge',
        configuration: { namespace: 'vdb-edge', advancedOperatorSettings: settings },
      });
      expect(environment.configuration?.advancedOperatorSettings).to.deep.equal(settings);
    });

    it('refuses a malformed request before sending it', async () => {
      const vdb = client();
      const badTime = await apiError(
        vdb.databaseApiKeys.create({
          accountId: emulator.accountId,
          clusterId: crypto.randomUUID(),
          name: 'key name',
          expiresAt: 'tomorrow',
          accessRules: [],
        }),
        'invalid',
      );
      expect(badTime.message).to.include('databaseApiKey.expiresAt: expected an RFC 3339 timestamp');
      const badEnum = await apiError(
        vdb.clusters.create(
          clusterInput({
            configuration: {
              numberOfNodes: 1,
              packageId: emulator.packageId('aws', 'small'),
              gpuType: 'NVIDIA' as never,
            },
          }),
        ),
        'invalid',
      );
      expect(badEnum.message).to.include(
        'cluster.configuration.gpuType: expected one of CLUSTER_CONFIGURATION_GPU_TYPE_UNSPECIFIED',
      );
      const unknownField = await apiError(
        vdb.clusters.create(
          clusterInput({ configuration: { numberOfNodes: 1, packageId: 'x', colour: 'red' } as never }),
        ),
        'invalid',
      );
      expect(unknownField.message).to.include('cluster.configuration.colour: ClusterConfiguration has no field colour');
      const badNumber = await apiError(
        vdb.clusters.create(clusterInput({ configuration: { numberOfNodes: -1, packageId: 'x' } })),
        'invalid',
      );
      expect(badNumber.message).to.include('cluster.configuration.numberOfNodes: expected a uint32 integer');
      expect(emulator.requests, 'nothing reached the server').to.have.length(0);
    });

    it('reports a response without its required parts as malformed', async () => {
      const vdb = client();
      const cluster = await vdb.clusters.create(clusterInput());
      const stored = emulator.get<Record<string, unknown>>(VDB_COLLECTIONS.clusters, cluster.id)!;
      delete stored.configuration;
      emulator.put(VDB_COLLECTIONS.clusters, cluster.id, stored);
      const error = await apiError(
        vdb.clusters.get({ accountId: emulator.accountId, clusterId: cluster.id }),
        'malformed_response',
      );
      expect(error.message).to.include('cluster: missing configuration');
    });

    it('refuses a created key, of either key service, that comes without its secret', async () => {
      // A server whose CreateDatabaseApiKey answers name the key but leave its secret empty.
      const server = new GrpcServer({ maxReceiveMessageBytes: 1024 * 1024, maxSendMessageBytes: 1024 * 1024 });
      for (const service of [VDB_SERVICES.databaseApiKeyV2, VDB_SERVICES.databaseApiKeyV1]) {
        const { path, request, response } = vdbMethod(service, 'CreateDatabaseApiKey');
        server.unary(
          path,
          { decode: (bytes) => request.decode(bytes), encode: () => Buffer.alloc(0) },
          {
            decode: () => undefined,
            encode: (value) => encodePlain(response, value as Plain),
          },
          () => ({ databaseApiKey: { id: 'key-1', key: '' } }),
        );
      }
      const port = await server.listen('127.0.0.1');
      try {
        const vdb = client({ apiUrl: `http://127.0.0.1:${port}` });
        const accountId = emulator.accountId;
        const creates = [
          vdb.databaseApiKeys.create({ accountId, clusterId: 'c', name: 'k', accessRules: [] }),
          vdb.authKeys.create({ accountId, clusterIds: ['c'] }),
        ];
        for (const create of creates) {
          const error = await apiError(create, 'malformed_response');
          expect(error.message).to.include('databaseApiKey: missing key');
        }
      } finally {
        server.close();
      }
    });

    it('reads unknown enum numbers of a newer server as UNSPECIFIED', () => {
      const { response } = vdbMethod(VDB_SERVICES.cluster, 'GetCluster');
      const clusterType = response.lookupType('Cluster');
      const bytes = response
        .encode(
          response.fromObject({ cluster: { id: 'c', configuration: { number_of_nodes: 1 }, state: { phase: 99 } } }),
        )
        .finish();
      expect(decodePlain(response, bytes)).to.deep.nested.include({
        'cluster.state.phase': 'CLUSTER_PHASE_UNSPECIFIED',
      });
      expect(clusterType.name).to.equal('Cluster');
    });

    it('encodes and decodes every field of a cluster without loss', () => {
      const { response } = vdbMethod(VDB_SERVICES.cluster, 'GetCluster');
      const cluster = {
        id: 'id',
        createdAt: '2024-05-01T10:00:00Z',
        accountId: 'a',
        name: 'n',
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-east-1',
        labels: [{ key: 'k', value: 'v' }],
        configuration: {
          lastModifiedAt: '2024-05-01T10:00:00.123456Z',
          numberOfNodes: 3,
          version: 'v1.2.3',
          packageId: 'p',
          additionalResources: { disk: 10 },
          databaseConfiguration: {
            collection: { replicationFactor: 1, writeConsistencyFactor: 1, vectors: { onDisk: false } },
            storage: { performance: { optimizerCpuBudget: -1, asyncScorer: true } },
            service: { apiKey: { name: 's', key: 'k' }, readOnlyApiKey: { name: 's', key: 'r' }, enableTls: false },
            logLevel: 'DATABASE_CONFIGURATION_LOG_LEVEL_WARN',
            tls: { cert: { name: 't', key: 'crt' }, key: { name: 't', key: 'key' } },
            inference: { enabled: false },
          },
          nodeSelector: [],
          tolerations: [{ operator: 'TOLERATION_OPERATOR_EXISTS' }],
          annotations: [],
          allowedIpSourceRanges: [],
          serviceType: 'CLUSTER_SERVICE_TYPE_UNSPECIFIED',
          serviceAnnotations: [],
          podLabels: [],
          reservedCpuPercentage: 0,
          gpuType: 'CLUSTER_CONFIGURATION_GPU_TYPE_AMD',
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'zone',
              whenUnsatisfiable: 'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_SCHEDULE_ANYWAY',
            },
          ],
          clusterStorageConfiguration: { storageTierType: 'STORAGE_TIER_TYPE_BALANCED' },
        },
        state: {
          version: 'v1.2.3',
          nodesUp: 3,
          phase: 'CLUSTER_PHASE_HEALTHY',
          reason: '',
          endpoint: { url: 'https://x', restPort: 443, grpcPort: 8443 },
          nodes: [{ name: 'n0', version: 'v', endpoint: 'e', state: 'CLUSTER_NODE_STATE_HEALTHY' }],
          jwtRbac: true,
        },
      };
      // Explicit zero values of optional fields (serviceType UNSPECIFIED, reservedCpuPercentage 0) keep their presence.
      expect(decodePlain(response, encodePlain(response, { cluster }))).to.deep.equal({ cluster });
    });
  });

  describe('pagination', () => {
    it('follows next_page_token until the last page', async () => {
      await emulator.close();
      emulator = await startVdbEmulator({ pageSize: 2, provisioningMs: 10 });
      const vdb = client();
      for (const name of ['c1', 'c2', 'c3', 'c4', 'c5']) await vdb.clusters.create(clusterInput({ name }));
      const clusters = await vdb.clusters.list({ accountId: emulator.accountId });
      expect(clusters.map((cluster) => cluster.name)).to.deep.equal(['c1', 'c2', 'c3', 'c4', 'c5']);
      expect(callsOf('ListClusters').map((request) => request.request?.pageToken ?? null)).to.deep.equal([
        null,
        'offset:2',
        'offset:4',
      ]);
    });
  });

  describe('TLS', () => {
    let tlsEmulator: VdbEmulator | undefined;

    afterEach(async () => {
      await tlsEmulator?.close();
      tlsEmulator = undefined;
    });

    it('verifies certificates, and skips verification (still TLS) only with insecure', async () => {
      const certificate = await generateCertificate('localhost');
      tlsEmulator = await startVdbEmulator({ tls: { certPem: certificate.certPem, keyPem: certificate.keyPem } });
      const target = `localhost:${tlsEmulator.port}`;
      const verified = client({
        apiUrl: target,
        apiKey: tlsEmulator.apiKey,
        retry: { maxAttempts: 1 },
        timeoutMs: 5_000,
      });
      const error = await apiError(
        verified.platform.listCloudProviders({ accountId: tlsEmulator.accountId }),
        'unavailable',
      );
      expect(error.message).to.match(/certificate/i);
      expect(tlsEmulator.requests, 'nothing reached the server').to.have.length(0);

      const insecure = client({ apiUrl: `https://${target}`, apiKey: tlsEmulator.apiKey, insecure: true });
      const providers = await insecure.platform.listCloudProviders({ accountId: tlsEmulator.accountId });
      expect(providers.map((provider) => provider.id)).to.include('aws');
      expect(tlsEmulator.requests).to.have.length(1);
    });

    it('a certificate it cannot verify: one sentence naming the trust sources, at once, not retried; a refused connection: one sentence, retried', async () => {
      const certificate = await generateCertificate('localhost');
      tlsEmulator = await startVdbEmulator({ tls: { certPem: certificate.certPem, keyPem: certificate.keyPem } });
      const attempts: unknown[] = [];
      const logger = { debug: (_message: string, fields: unknown) => attempts.push(fields) };
      const untrusted = client({ apiUrl: `localhost:${tlsEmulator.port}`, apiKey: tlsEmulator.apiKey, logger });
      const error = await apiError(
        untrusted.platform.listCloudProviders({ accountId: tlsEmulator.accountId }),
        'unavailable',
      );
      expect(error.message).to.match(
        /^PlatformService\/ListCloudProviders: the TLS certificate of localhost:\d+ could not be verified \(self-signed certificate\)\. The provider trusts /,
      );
      expect(error.message)
        .to.include("add the API's certificate authority to the system's store, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS")
        .and.not.include('Resolution note');
      expect(attempts, 'not retried').to.have.length(1);

      attempts.length = 0;
      const refused = client({
        apiUrl: '127.0.0.1:1',
        logger,
        retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 },
      });
      const closed = await apiError(refused.clusters.create(clusterInput()), 'unavailable');
      expect(closed.message).to.equal(
        'ClusterService/CreateCluster: nothing accepts connections at 127.0.0.1:1 (connection refused): check the API URL and its port',
      );
      // Nothing was sent, so even a create is tried again, and its outcome is known.
      expect(attempts).to.have.length(3);
    });

    it('trusts NODE_EXTRA_CA_CERTS beside GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, and names both when neither holds the certificate', async () => {
      const certificate = await generateCertificate('localhost');
      tlsEmulator = await startVdbEmulator({ tls: { certPem: certificate.certPem, keyPem: certificate.keyPem } });
      const dir = mkdtempSync(join(tmpdir(), 'vdb-trust-'));
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, certificate.certPem);
      const saved = { grpc: process.env.GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, extra: process.env.NODE_EXTRA_CA_CERTS };
      try {
        process.env.GRPC_DEFAULT_SSL_ROOTS_FILE_PATH = '/etc/ssl/certs/ca-certificates.crt';
        process.env.NODE_EXTRA_CA_CERTS = ca;
        const trusted = client({ apiUrl: `localhost:${tlsEmulator.port}`, apiKey: tlsEmulator.apiKey });
        expect(
          (await trusted.platform.listCloudProviders({ accountId: tlsEmulator.accountId })).map((p) => p.id),
        ).to.include('aws');
        delete process.env.NODE_EXTRA_CA_CERTS;
        const untrusted = client({ apiUrl: `localhost:${tlsEmulator.port}`, apiKey: tlsEmulator.apiKey });
        const error = await apiError(
          untrusted.platform.listCloudProviders({ accountId: tlsEmulator.accountId }),
          'unavailable',
        );
        expect(error.message).to.include(
          'The provider trusts GRPC_DEFAULT_SSL_ROOTS_FILE_PATH (/etc/ssl/certs/ca-certificates.crt):',
        );
      } finally {
        for (const [k, v] of [
          ['GRPC_DEFAULT_SSL_ROOTS_FILE_PATH', saved.grpc],
          ['NODE_EXTRA_CA_CERTS', saved.extra],
        ] as const) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('reports a plaintext server behind a TLS URL at once, in one sentence, even with insecure and for a create', async () => {
      const target = `localhost:${emulator.port}`;
      const attempts: unknown[] = [];
      // The default retry budget, with delays short enough that retries would still finish quickly.
      const overTls = client({
        apiUrl: `https://${target}`,
        insecure: true,
        retry: { baseDelayMs: 5, maxDelayMs: 40 },
        logger: { debug: (_message, fields) => attempts.push(fields) },
      });
      const sentence = `the server at ${target} did not answer TLS, so it may be a plaintext endpoint: check the API URL (plain http:// is accepted for loopback hosts only)`;

      const read = await apiError(overTls.iam.listRoles({ accountId: emulator.accountId }), 'unavailable');
      expect(read.message).to.equal(`IAMService/ListRoles: ${sentence}`);
      expect(attempts, 'not retried').to.have.length(1);
      // Nothing was sent, so a create's outcome is known: it did not happen.
      const create = await apiError(overTls.clusters.create(clusterInput()), 'unavailable');
      expect(create.message).to.equal(`ClusterService/CreateCluster: ${sentence}`);
      expect(attempts).to.have.length(2);
      expect(emulator.requests).to.have.length(0);
    });
  });
});

describe('vdb protos', () => {
  const fieldIds = (typeName: string): Record<string, number> =>
    Object.fromEntries(
      vdbProtoRoot()
        .lookupType(typeName)
        .fieldsArray.map((field) => [field.name, field.id]),
    );

  it('the built descriptor matches proto/vdb (rebuilt with the sources)', () => {
    const parsed = loadFromProtoDir(fileURLToPath(new URL('../../../proto', import.meta.url)));
    parsed.resolveAll();
    const built = readFileSync(VDB_DESCRIPTOR_PATH, 'utf8').trim();
    expect(JSON.stringify(descriptorWithoutRules(parsed.toJSON()))).to.equal(built);
  });

  it('uses the neutral packages and the field numbers of docs/api/vdb.md, "Services and packages"', () => {
    const services = Object.values(VDB_SERVICES);
    for (const service of services) expect(service).to.match(/^vdb\.cloud\.[a-z.]+\.v\d\.[A-Za-z]+Service$/);
    expect(fieldIds('vdb.cloud.cluster.v1.Cluster')).to.deep.equal({
      id: 1,
      created_at: 2,
      account_id: 3,
      name: 4,
      deleted_at: 5,
      cloud_provider_id: 10,
      cloud_provider_region_id: 11,
      labels: 12,
      configuration: 20,
      state: 100,
    });
    expect(fieldIds('vdb.cloud.cluster.v1.ClusterConfiguration')).to.include({
      number_of_nodes: 2,
      version: 3,
      package_id: 4,
      additional_resources: 5,
      database_configuration: 7,
      allowed_ip_source_ranges: 11,
      reserved_cpu_percentage: 20,
      reserved_memory_percentage: 21,
      gpu_type: 22,
      restart_policy: 23,
      rebalance_strategy: 24,
      topology_spread_constraints: 25,
      cluster_storage_configuration: 26,
    });
    expect(fieldIds('vdb.cloud.cluster.v1.ClusterState')).to.include({
      phase: 4,
      endpoint: 6,
      scalability_info: 8,
      nodes: 9,
      jwt_rbac: 10,
    });
    expect(fieldIds('vdb.cloud.cluster.auth.v2.DatabaseApiKey')).to.include({
      expires_at: 6,
      access_rules: 7,
      postfix: 9,
      key: 10,
    });
    expect(fieldIds('vdb.cloud.cluster.backup.v1.Backup')).to.include({
      backup_schedule_id: 9,
      retention_period: 10,
      cluster_info: 12,
    });
    expect(fieldIds('vdb.cloud.hybrid.v1.HybridCloudEnvironment')).to.include({
      bootstrap_commands_generated: 19,
      configuration: 20,
      status: 21,
    });
    expect(fieldIds('vdb.cloud.hybrid.v1.HybridCloudEnvironmentConfiguration')).to.include({
      log_level: 21,
      tolerations: 22,
      advanced_operator_settings: 24,
      control_plane_labels: 25,
    });
    expect(fieldIds('vdb.cloud.hybrid.v1.HybridCloudEnvironmentStatus')).to.include({
      cluster_creation_readiness: 9,
      kubernetes_distribution: 10,
      volume_snapshot_classes: 13,
    });
    expect(fieldIds('vdb.cloud.booking.v1.Package')).to.include({ tier: 9, available_storage_tier_configurations: 10 });
    expect(fieldIds('vdb.cloud.iam.v1.AssignUserRolesRequest')).to.deep.equal({
      account_id: 1,
      user_id: 2,
      role_ids_to_add: 3,
      role_ids_to_delete: 4,
    });
    expect(Object.keys(vdbProtoRoot().lookupEnum('vdb.cloud.hybrid.v1.ClusterCreationStatus').values)).to.deep.equal([
      'CLUSTER_CREATION_STATUS_UNSPECIFIED',
      'CLUSTER_CREATION_STATUS_READY',
      'CLUSTER_CREATION_STATUS_NOT_READY',
    ]);
    expect(vdbProtoRoot().lookupEnum('vdb.cloud.cluster.v1.ClusterPhase').values.CLUSTER_PHASE_DELETING).to.equal(18);
  });
});

describe('vdb Go durations and timestamps', () => {
  it('parses Go duration syntax exactly', () => {
    expect(parseGoDuration('72h')).to.equal(259_200_000_000_000n);
    expect(parseGoDuration('1h30m')).to.equal(5_400_000_000_000n);
    expect(parseGoDuration('1.5s')).to.equal(1_500_000_000n);
    expect(parseGoDuration('.5s')).to.equal(500_000_000n);
    expect(parseGoDuration('1.s')).to.equal(1_000_000_000n);
    expect(parseGoDuration('2us')).to.equal(2_000n);
    expect(parseGoDuration('2µs')).to.equal(2_000n);
    expect(parseGoDuration('-1m')).to.equal(-60_000_000_000n);
    expect(parseGoDuration('0')).to.equal(0n);
    for (const bad of ['', '1', 'h', '1d', '.s', '1h 30m', '--1s', '9999999999999h']) {
      expect(() => parseGoDuration(bad), bad).to.throw(/invalid duration/);
    }
    // A unit named like a member every object has is as unknown as any other.
    for (const unit of ['constructor', '__proto__', 'toString', 'valueOf']) {
      expect(() => parseGoDuration(`1${unit}`), unit).to.throw(
        GoDurationError,
        `invalid duration "1${unit}": unknown unit "${unit}"`,
      );
      expect(() => parseGoDuration(`1h2${unit}`), unit).to.throw(GoDurationError, `unknown unit "${unit}"`);
    }
  });

  it('formats like Go Duration.String()', () => {
    const cases: Array<[bigint, string]> = [
      [0n, '0s'],
      [1n, '1ns'],
      [1_500n, '1.5µs'],
      [250_000_000n, '250ms'],
      [1_500_000_000n, '1.5s'],
      [60_000_000_000n, '1m0s'],
      [5_400_000_000_000n, '1h30m0s'],
      [259_200_000_000_000n, '72h0m0s'],
      [3_723_500_000_000n, '1h2m3.5s'],
      [-90_000_000_000n, '-1m30s'],
    ];
    for (const [nanos, text] of cases) expect(formatGoDuration(nanos)).to.equal(text);
  });

  it('converts timestamps between RFC 3339 and seconds/nanos', () => {
    expect(formatTimestamp({ seconds: 0, nanos: 0 })).to.equal('1970-01-01T00:00:00Z');
    expect(formatTimestamp({ seconds: 1_714_557_600, nanos: 500_000_000 })).to.equal('2024-05-01T10:00:00.500Z');
    expect(formatTimestamp({ seconds: 1_714_557_600, nanos: 1 })).to.equal('2024-05-01T10:00:00.000000001Z');
    expect(parseTimestamp('2024-05-01T12:00:00+02:00')).to.deep.equal({ seconds: 1_714_557_600, nanos: 0 });
    expect(parseTimestamp('2024-05-01T10:00:00.25Z')).to.deep.equal({ seconds: 1_714_557_600, nanos: 250_000_000 });
    for (const bad of [
      '2024-05-01',
      '2024-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-05-01T24:00:00Z',
      '2024-05-01T10:00:00',
      'now',
    ]) {
      expect(parseTimestamp(bad), bad).to.equal(undefined);
    }
    expect(parseTimestamp('2024-02-29T00:00:00Z')).not.to.equal(undefined);
  });
});
