/**
 * sec_external_id through the real provider executable and the Terraform-side client: the platform's
 * version-2 format, made by the provider with no API call; stable across refresh and re-plan; a new
 * id when the cloud or account changes; not importable (the platform keeps no record of it).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import { TerraformClient, configValue, type ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';

const BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');
const type = 'sec_external_id';
const FORMAT = /^seceid:cloud_a:v2:acme:123456789012:[=,.@:/\-a-zA-Z0-9]{10}$/;

describe('sec_external_id through the Terraform-side client', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  before(async () => {
    emulator = await startSecEmulator({ account: 'acme' });
    tf = await TerraformClient.start(BIN, secProviderEnv(emulator));
    await tf.configure({});
  });
  after(async () => {
    await tf?.close();
    await emulator?.close();
  });
  const cfg = (plain: Record<string, unknown>) => configValue(tf.resourceSchema(type).block, plain);

  it("makes the id in the platform's format without calling the API; refresh and re-plan keep it", async () => {
    emulator.clearRequests();
    const config = cfg({ csp: 'cloud_a', account_id: '123456789012' });
    const state = (await tf.apply(type, null, await tf.plan(type, null, config), config)).state!;
    expect(state.v2).to.match(FORMAT);
    expect(state.id).to.equal(state.v2);
    const read = (await tf.read(type, state)).state!;
    expect(read).to.deep.equal(state);
    const again = await tf.plan(type, read, config);
    expect(valueEquals(impliedType(tf.resourceSchema(type).block), again.planned, state)).to.equal(true);
    expect(
      emulator.requests.filter((r) => !r.path.includes('/access/tokens')).map((r) => `${r.method} ${r.path}`),
    ).to.deep.equal([]);

    const moved = await tf.plan(type, state, cfg({ csp: 'cloud_a', account_id: '210987654321' }));
    expect(moved.requiresReplace).to.deep.equal([[{ attr: 'account_id' }]]);

    await tf.apply(type, state, await tf.plan(type, state, null), null);
  });

  it('cannot be imported; refuses an unknown cloud at plan time', async () => {
    const err = await tf.importState(type, 'seceid:cloud_a:v2:acme:1:abcdefghij').then(
      () => null,
      (e: unknown) => e as ProviderCallError,
    );
    expect(err?.rpc).to.equal('ImportResourceState');
    const bad = await tf.validateResource(type, cfg({ csp: 'cloud_z', account_id: '1' })).then(
      () => null,
      (e: unknown) => e as ProviderCallError,
    );
    expect(bad!.diagnostics.map((d) => [d.path, d.summary])).to.deep.equal([['csp', 'Invalid value for "csp"']]);
  });
});
