/** The vdb emulator refuses absurd requests (sizes, depths, counts) and keeps answering. */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { expect } from 'chai';
import type { VdbClient } from '../../../src/clients/vdb/index.js';
import type { Plain } from '../../../src/clients/vdb/codec.js';
import { VDB_SERVICES, vdbMethod } from '../../../src/wire/vdb-proto.js';
import { VDB_COLLECTIONS, type VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { PROVISIONING_MS, rawCall, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  const { clusterInput, healthyCluster } = useVdbEmulator((session) => ({ emulator, vdb, account } = session));

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
        'validation error:\n - cluster.configuration.number_of_nodes: must be greater than or equal to 1 and less than or equal to 100 [uint32.gte_lte]',
      );
      await stillAnswering(0);

      const healthy = await healthyCluster();
      const update = cluster({ numberOfNodes: 4_294_967_295 }, { id: healthy.id, name: healthy.name });
      expect(await refused(VDB_SERVICES.cluster, 'UpdateCluster', update)).to.include(
        'cluster.configuration.number_of_nodes: must be greater than or equal to 1 and less than or equal to 100',
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
        'cluster.configuration.additional_resources.disk: must be less than or equal to 16384 [uint32.lte]',
        'cluster.configuration.database_configuration.collection.replication_factor: must be greater than or equal to 1 and less than or equal to 100 [uint32.gte_lte]',
        'cluster.configuration.database_configuration.collection.write_consistency_factor: must be greater than or equal to 1 and less than or equal to 100 [int32.gte_lte]',
        'cluster.configuration.database_configuration.storage.performance.optimizer_cpu_budget: must be greater than or equal to -1024 and less than or equal to 1024 [int32.gte_lte]',
      ]) {
        expect(message).to.include(line);
      }
      await stillAnswering(0);
    });

    it('refuses oversized collections with one line per field, and lists at most 20 violations', async () => {
      const labels = Array.from({ length: 100_000 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
      expect(await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({}, { labels }))).to.equal(
        'validation error:\n - cluster.labels: must contain no more than 10 item(s) [repeated.max_items]',
      );
      const badSelectors = Array.from({ length: 5_000 }, () => ({ key: '-bad', value: 'v' }));
      const listed = await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({ nodeSelector: badSelectors }));
      const lines = listed.split('\n').slice(1);
      expect(lines).to.have.length(21);
      expect(lines[0]).to.equal(
        ' - cluster.configuration.node_selector: must contain no more than 10 item(s) [repeated.max_items]',
      );
      expect(lines[1]).to.include('cluster.configuration.node_selector[0].key: must be a valid Kubernetes label key');
      expect(lines[20]).to.equal(' - … and 4981 more violation(s)');

      const ranges = Array.from({ length: 30_000 }, (_, i) => `10.${Math.floor(i / 256) % 256}.${i % 256}.0/24`);
      expect(
        await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({ allowedIpSourceRanges: ranges })),
      ).to.include('cluster.configuration.allowed_ip_source_ranges: must contain no more than 20 item(s)');
      const tolerations = Array.from({ length: 11 }, (_, i) => ({
        key: `t${i}`,
        operator: 'TOLERATION_OPERATOR_EXISTS',
      }));
      expect(await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({ tolerations }))).to.include(
        'cluster.configuration.tolerations: must contain no more than 10 item(s)',
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
        'hybrid_cloud_environment.configuration.no_proxy_configs: must contain no more than 100 item(s)',
        'hybrid_cloud_environment.configuration.ca_certificates: must be at most 65536 characters',
        'hybrid_cloud_environment.configuration.registry_secret_name: must be at most 253 characters',
        'hybrid_cloud_environment.configuration.http_proxy_url: must be at most 2048 characters',
        'hybrid_cloud_environment.configuration.database_storage_class: must be at most 253 characters',
      ]) {
        expect(message).to.include(line);
      }
      expect(await vdb.hybridEnvironments.list({ accountId: account })).to.deep.equal([]);
    });

    it('refuses absurd page sizes, long strings and long id lists in every service', async () => {
      expect(
        await refused(VDB_SERVICES.cluster, 'ListClusters', { accountId: account, pageSize: 1_000_000 }),
      ).to.include('page_size: must be greater than or equal to 1 and less than or equal to 250');
      expect(
        await refused(VDB_SERVICES.backup, 'ListBackups', { accountId: account, pageSize: 2_000_000_000 }),
      ).to.include('page_size');
      expect(
        await refused(VDB_SERVICES.cluster, 'CreateCluster', cluster({}, { name: 'n'.repeat(1_000_000) })),
      ).to.include('cluster.name: must be at most 64 characters');
      const longProvider = await refused(
        VDB_SERVICES.cluster,
        'CreateCluster',
        cluster({}, { cloudProviderId: 'p'.repeat(1_000_000) }),
      );
      expect(longProvider).to.include('cluster.cloud_provider_id: must be at most 64 characters');

      const healthy = await healthyCluster();
      const schedule = await refused(VDB_SERVICES.backup, 'CreateBackupSchedule', {
        backupSchedule: { accountId: account, clusterId: healthy.id, schedule: '1 '.repeat(500_000) },
      });
      expect(schedule).to.include('backup_schedule.schedule: must be at most 256 characters');
      const legacy = await refused(VDB_SERVICES.databaseApiKeyV1, 'CreateDatabaseApiKey', {
        databaseApiKey: { accountId: account, clusterIds: Array.from({ length: 10_000 }, () => healthy.id) },
      });
      expect(legacy).to.include('database_api_key.cluster_ids: must contain no more than 100 item(s)');

      const role = await refused(VDB_SERVICES.iam, 'CreateRole', {
        role: {
          accountId: account,
          name: 'absurd',
          roleType: 'ROLE_TYPE_CUSTOM',
          permissions: Array.from({ length: 10_000 }, () => ({ value: 'read:clusters' })),
        },
      });
      expect(role).to.include('role.permissions: must contain no more than 100 item(s)');
      const longPermission = await refused(VDB_SERVICES.iam, 'CreateRole', {
        role: {
          accountId: account,
          name: 'absurd',
          roleType: 'ROLE_TYPE_CUSTOM',
          permissions: [{ value: `read:${'x'.repeat(1_000_000)}` }],
        },
      });
      expect(longPermission).to.include('role.permissions[0].value: must be at most 128 characters');
      const member = (await vdb.accounts.listAccountMembers({ accountId: account }))[1]!.user;
      const assign = await refused(VDB_SERVICES.iam, 'AssignUserRoles', {
        accountId: account,
        userId: member.id,
        roleIdsToAdd: Array.from({ length: 10_000 }, () => crypto.randomUUID()),
      });
      expect(assign).to.include('role_ids_to_add: must contain no more than 100 item(s)');
      expect(
        await refused(VDB_SERVICES.booking, 'ListPackages', {
          accountId: account,
          cloudProviderId: 'hybrid',
          statuses: Array(1_000).fill('PACKAGE_STATUS_ACTIVE'),
        }),
      ).to.include('statuses: must contain no more than 10 item(s)');
      expect(
        await refused(VDB_SERVICES.booking, 'ListPackages', {
          accountId: account,
          cloudProviderId: 'q'.repeat(100_000),
          cloudProviderRegionId: 'x',
        }),
      ).to.include('cloud_provider_id: must be at most 64 characters [string.max_len]');
      // A value the server's own checks quote back is cut short.
      const quotedBack = await refused(VDB_SERVICES.iam, 'CreateRole', {
        role: {
          accountId: account,
          name: 'quoted',
          roleType: 'ROLE_TYPE_CUSTOM',
          permissions: [{ value: 'p'.repeat(100) }],
        },
      });
      expect(quotedBack).to.include(`unknown permission "${'p'.repeat(64)}"… (100 characters)`);
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
