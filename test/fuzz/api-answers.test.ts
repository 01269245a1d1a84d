/**
 * Malformed or unexpected management-API answers, seen from Terraform: through the real executables
 * against the emulators, an answer of the wrong shape (or not JSON at all) becomes an error
 * diagnostic naming the API call and where the answer went wrong, never a crash or a wrong state;
 * the provider keeps serving. (test/clients covers the decoding itself in more detail.)
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, SEC_COLLECTIONS, type SecEmulator } from '../../src/emulators/sec/index.js';
import { VDB_COLLECTIONS } from '../../src/emulators/vdb/index.js';
import { TerraformClient, configValue, ProviderCallError } from '../../src/tfclient/terraform-client.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { decodeMsgpack, encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { startHarness, type Harness } from '../resources/vdb/harness.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';

const SEC_BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');

async function failure(promise: Promise<unknown>): Promise<ProviderCallError> {
  const outcome = await promise.then(
    () => new Error('expected the call to fail'),
    (err: unknown) => err,
  );
  if (!(outcome instanceof ProviderCallError)) throw outcome;
  return outcome;
}

describe('malformed management-API answers become diagnostics naming the call (sec)', function () {
  this.timeout(60_000);
  const TYPE = 'sec_alert_channel_email';
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let state: ObjectValue;
  let path: string;

  before(async () => {
    emulator = await startSecEmulator();
    tf = await TerraformClient.start(SEC_BIN, secProviderEnv(emulator));
    await tf.configure({});
    const config = configValue(tf.resourceSchema(TYPE).block, { name: 'ops', recipients: ['ops@example.com'] });
    state = (await tf.apply(TYPE, null, await tf.plan(TYPE, null, config), config)).state!;
    path = `/api/v2/AlertChannels/${state.id as string}`;
  });
  after(async () => {
    await tf?.close();
    await emulator?.close();
  });

  it('an answer of the wrong shape on read', async () => {
    const stored = emulator.get<Record<string, unknown>>(SEC_COLLECTIONS.alertChannels, state.id as string)!;
    emulator.injectFault({ method: 'GET', path, status: 200, body: { data: { ...stored, enabled: 'sometimes' } } });
    const err = await failure(tf.read(TYPE, state));
    expect(err.diagnostics).to.have.length(1);
    expect(err.diagnostics[0]!.summary).to.equal(`Cannot read ${TYPE}`);
    expect(err.diagnostics[0]!.detail).to.match(
      /^GET \/api\/v2\/AlertChannels\/\{intgGuid\}: the response does not have the expected shape: data\.enabled: .*\(HTTP 200/,
    );
    expect(err.diagnostics[0]!.detail).to.not.include(emulator.apiSecret);
  });

  it('an answer that is not JSON on update, keeping the prior state', async () => {
    const block = tf.resourceSchema(TYPE).block;
    const config = configValue(block, { name: 'ops-2', recipients: ['ops@example.com'] });
    const change = await tf.plan(TYPE, state, config);
    // The answer to the PATCH itself (the update reads the object first, normally).
    emulator.injectFault({ method: 'PATCH', path, status: 200, rawBody: '<html>maintenance</html>', times: Infinity });
    const dyn = (v: ObjectValue | null) => ({ msgpack: encodeMsgpack(impliedType(block), v) });
    const res = await tf.plugin.call('ApplyResourceChange', {
      type_name: TYPE,
      prior_state: dyn(state),
      planned_state: dyn(change.planned),
      config: dyn(config),
      planned_private: change.plannedPrivate,
    });
    emulator.clearFaults();
    expect(res.diagnostics).to.have.length(1);
    expect(res.diagnostics[0]).to.deep.include({ severity: 1, summary: `Cannot update ${TYPE}` });
    expect(res.diagnostics[0].detail).to.match(
      /^PATCH \/api\/v2\/AlertChannels\/\{intgGuid\}: the response body is not JSON/,
    );
    expect(decodeMsgpack(impliedType(block), res.new_state.msgpack), 'the prior state stays').to.deep.equal(state);
  });

  it('keeps serving: the next read is normal', async () => {
    emulator.clearFaults();
    const read = await tf.read(TYPE, state);
    expect(read.state!.id).to.equal(state.id);
  });
});

describe('malformed management-API answers become diagnostics naming the call (vdb)', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness({ provisioningMs: 100 });
  });
  after(async () => {
    await h?.close();
  });

  it('a cluster answer without its required parts, on read', async () => {
    const state = await h.converge('vdb_accounts_cluster', null, {
      name: 'tf-malformed',
      cloud_provider: 'aws',
      cloud_region: 'eu-central-1',
      configuration: [
        { number_of_nodes: 1, node_configuration: [{ package_id: h.emulator.packageId('aws', 'small') }] },
      ],
    });
    const id = state.id as string;
    const stored = h.emulator.get<Record<string, unknown>>(VDB_COLLECTIONS.clusters, id)!;
    const { configuration, ...withoutConfiguration } = stored;
    h.emulator.put(VDB_COLLECTIONS.clusters, id, withoutConfiguration);
    const err = await h.failure(h.tf.read('vdb_accounts_cluster', state));
    expect(err.diagnostics).to.have.length(1);
    expect(err.diagnostics[0]!.summary).to.equal('Cannot read vdb_accounts_cluster');
    expect(err.diagnostics[0]!.detail).to.match(/GetCluster: malformed response: cluster: missing configuration/);
    expect(err.diagnostics[0]!.detail).to.not.include(h.emulator.apiKey);

    // Once the API answers properly again, the same state reads and destroys normally.
    h.emulator.put(VDB_COLLECTIONS.clusters, id, { ...withoutConfiguration, configuration });
    expect((await h.tf.read('vdb_accounts_cluster', state)).state!.id).to.equal(id);
    await h.destroy('vdb_accounts_cluster', state);
  });
});
