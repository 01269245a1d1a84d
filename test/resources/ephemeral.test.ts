/**
 * Ephemeral resources of both providers through the real executables and the Terraform-side
 * client (ValidateEphemeralResourceConfig, Open, Renew, Close), against the emulators.
 */
import { expect } from 'chai';
import { secClientFor } from '../support/sec-provider.js';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { TerraformClient, configValue, ProviderCallError } from '../../src/tfclient/terraform-client.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { createVdbClient } from '../../src/clients/vdb/index.js';

const BIN = (name: string) => join(process.cwd(), 'bin', `terraform-provider-${name}`);

async function failure(promise: Promise<unknown>): Promise<ProviderCallError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the call must fail').to.be.instanceOf(ProviderCallError);
  return err as ProviderCallError;
}

describe('ephemeral resources', function () {
  this.timeout(60_000);

  describe('sec', () => {
    let emulator: SecEmulator;
    let tf: TerraformClient;
    before(async () => {
      emulator = await startSecEmulator();
      tf = await TerraformClient.start(BIN('sec'), secProviderEnv(emulator));
      await tf.configure({});
    });
    after(async () => {
      await tf?.close();
      await emulator?.close();
    });
    const config = (type: string, plain: Record<string, unknown>) => configValue(tf.ephemeralSchema(type).block, plain);

    it('sec_access_token: a fresh token of the asked lifetime, renewal due a minute before expiry, and an honest renewal', async () => {
      const before = emulator.issuedTokens().length;
      const opened = await tf.openEphemeral('sec_access_token', config('sec_access_token', { lifetime_seconds: 900 }));
      const issued = emulator.issuedTokens().slice(before);
      expect(issued.map((t) => t.requestedSeconds)).to.deep.equal([900]);
      expect(opened.result.token).to.equal(issued[0]!.token);
      expect(opened.result.lifetime_seconds).to.equal(900);
      const expiresAt = Date.parse(opened.result.expires_at as string);
      expect(expiresAt - Date.now()).to.be.within(890_000, 901_000);
      // A minute before expiry (the result shows whole seconds).
      expect(opened.renewAt!.getTime() - (expiresAt - 60_000)).to.be.within(0, 999);
      expect(tf.ephemeralSchema('sec_access_token').block.attributes.token!.sensitive).to.equal(true);
      // The token works, and renewal says it cannot be extended.
      expect(emulator.issuedTokens().find((t) => t.token === opened.result.token)!.uses).to.equal(0);
      const received = tf.received.length;
      await tf.renewEphemeral('sec_access_token', opened.private);
      expect(tf.received.slice(received).map((d) => [d.severity, d.summary])).to.deep.equal([
        ['warning', 'Access token about to expire'],
      ]);
      const bad = await failure(
        tf.openEphemeral('sec_access_token', config('sec_access_token', { lifetime_seconds: 10 })),
      );
      expect(bad.diagnostics.map((d) => d.path)).to.deep.equal(['lifetime_seconds']);
    });

    it('sec_agent_access_token: the secret of an existing token by name; an unknown name is an error at `name`', async () => {
      const client = secClientFor(emulator);
      const made = await client.agentAccessTokens.create({
        tokenAlias: 'eph-fleet',
        tokenEnabled: true,
        props: { description: '', os: 'linux' },
      });
      await client.close();
      const opened = await tf.openEphemeral(
        'sec_agent_access_token',
        config('sec_agent_access_token', { name: 'eph-fleet' }),
      );
      expect(opened.result).to.deep.equal({ name: 'eph-fleet', token: made.accessToken, enabled: true });
      const missing = await failure(
        tf.openEphemeral('sec_agent_access_token', config('sec_agent_access_token', { name: 'no-such-token' })),
      );
      expect(missing.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Agent access token not found', 'name'],
      ]);
    });
  });

  describe('vdb', () => {
    let emulator: VdbEmulator;
    let tf: TerraformClient;
    let clusterId: string;
    before(async () => {
      emulator = await startVdbEmulator({ provisioningMs: 50 });
      const client = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'test' });
      clusterId = (
        await client.clusters.create({
          accountId: emulator.accountId,
          name: 'eph-cluster',
          cloudProviderId: 'aws',
          cloudProviderRegionId: 'eu-central-1',
          configuration: { numberOfNodes: 1, packageId: emulator.packageId('aws', 'small') },
        })
      ).id;
      client.close();
      tf = await TerraformClient.start(BIN('vdb'), vdbProviderEnv(emulator));
      await tf.configure({});
    });
    after(async () => {
      await tf?.close();
      await emulator?.close();
    });
    const type = 'vdb_accounts_database_api_key_v2';
    const config = (plain: Record<string, unknown>) => configValue(tf.ephemeralSchema(type).block, plain);
    const stored = (id: string) =>
      emulator.get<{ name: string; expiresAt?: string; key: string }>(VDB_COLLECTIONS.databaseApiKeys, id);

    it('creates a key that expires by itself, and deletes it on close', async () => {
      const opened = await tf.openEphemeral(
        type,
        config({
          cluster_id: clusterId,
          expires_in: '2h',
          global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
        }),
      );
      const id = opened.result.id as string;
      expect(stored(id)!.key).to.equal(opened.result.key);
      expect(stored(id)!.name).to.match(/^terraform-run-[0-9a-f]{8}$/);
      expect(Date.parse(stored(id)!.expiresAt!) - Date.now()).to.be.within(7_190_000, 7_201_000);
      expect(opened.result).to.deep.include({
        account_id: emulator.accountId,
        cluster_id: clusterId,
        expires_in: '2h',
        name: stored(id)!.name,
      });
      await tf.closeEphemeral(type, opened.private);
      expect(stored(id)).to.equal(undefined);
    });

    it('warns, naming the key and its expiry, when it cannot delete it on close; refuses conflicting rules at validation', async () => {
      const opened = await tf.openEphemeral(type, config({ cluster_id: clusterId, name: 'eph kept key' }));
      const id = opened.result.id as string;
      emulator.injectFault({
        method: /auth\.v2\.DatabaseApiKeyService\/DeleteDatabaseApiKey$/,
        code: status.PERMISSION_DENIED,
        message: 'no delete permission',
      });
      const received = tf.received.length;
      await tf.closeEphemeral(type, opened.private);
      const [warning] = tf.received.slice(received);
      expect(warning).to.deep.include({ severity: 'warning', summary: 'Database API key left behind' });
      expect(warning!.detail)
        .to.include(id)
        .and.include(clusterId)
        .and.include('no delete permission')
        .and.include('It expires at');
      expect(warning!.detail).to.not.include(opened.result.key as string);
      expect(stored(id)).to.not.equal(undefined);

      const conflicting = await failure(
        tf.openEphemeral(
          type,
          config({
            cluster_id: clusterId,
            global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE' }],
            collection_access_rules: [
              { collection_name: 'c', access_type: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' },
            ],
          }),
        ),
      );
      expect(conflicting.rpc).to.equal('ValidateEphemeralResourceConfig');
      expect(conflicting.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Conflicting access rules', 'collection_access_rules'],
      ]);
    });
  });
});
