/** HybridCloudService in the vdb emulator: environments, bootstrap commands and credentials, readiness. */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { createVdbClient, type VdbClient } from '../../../src/clients/vdb/index.js';
import { VDB_SERVICES } from '../../../src/wire/vdb-proto.js';
import {
  VDB_COLLECTIONS,
  startVdbEmulator,
  type BootstrapCredentials,
  type VdbEmulator,
} from '../../../src/emulators/vdb/index.js';
import { PROVISIONING_MS, failure, rawCall, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  const { healthyCluster } = useVdbEmulator((session) => ({ emulator, vdb, account } = session));

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

      // A database API key records the console member, and nobody for a management key
      // (docs/api/vdb.md, "Creator e-mail addresses").
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
        'hybrid_cloud_environment.name: does not match regex pattern',
        'hybrid_cloud_environment.configuration.namespace: must be a valid DNS label',
        'hybrid_cloud_environment.configuration.http_proxy_url: does not match regex pattern',
        'hybrid_cloud_environment.configuration.container_registry_url: does not match regex pattern',
        'hybrid_cloud_environment.configuration.chart_repository_url: does not match regex pattern',
        'hybrid_cloud_environment.configuration.log_level: must not be in list [0] [enum.not_in]',
        'hybrid_cloud_environment.configuration.control_plane_labels: must contain no more than 10 item(s)',
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
});
