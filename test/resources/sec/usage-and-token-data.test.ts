/**
 * The data sources sec_api_token (a token made from the provider's key and secret, deprecated for
 * the ephemeral sec_access_token) and sec_metric_module (a usage event to the platform, unless
 * SEC_TELEMETRY_DISABLE is set), through the real provider executable against the emulator.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import { TerraformClient, configValue } from '../../../src/tfclient/terraform-client.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';

const BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');

describe('sec_api_token and sec_metric_module data sources', function () {
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
  const cfg = (type: string, plain: Record<string, unknown>) => configValue(tf.dataSourceSchema(type).block, plain);

  it('sec_api_token: a working access token, marked sensitive, its schema deprecated for sec_access_token', async () => {
    const state = await tf.readData('sec_api_token', cfg('sec_api_token', {}));
    const token = state.token as string;
    expect(token).to.be.a('string').and.not.equal('');
    expect(emulator.issuedTokens().map((t) => t.token)).to.include(token);
    const schema = tf.dataSourceSchema('sec_api_token');
    expect(schema.block.attributes.token).to.deep.include({ sensitive: true });
    expect(schema.block.deprecated).to.equal(true);
    expect(schema.block.description).to.include('sec_access_token');
  });

  it('sec_metric_module: sends one usage event per read, with the module, its version and the provider version', async () => {
    const state = await tf.readData(
      'sec_metric_module',
      cfg('sec_metric_module', { name: 'terraform-sec-cloud-a-config', version: '1.4.0' }),
    );
    const stored = emulator.get<Record<string, unknown>>('Metrics', state.id as string)!;
    expect(stored).to.deep.include({
      feature: 'terraform-sec-cloud-a-config',
      version: '1.4.0',
      dataset: 'sec-terraform',
      account: 'acme',
      trace_id: state.id,
    });
    expect(stored['feature.data']).to.deep.equal({ provider_version: '2.2.0' });
  });

  it('sec_metric_module: sends nothing when SEC_TELEMETRY_DISABLE is set', async () => {
    const quiet = await TerraformClient.start(BIN, { ...secProviderEnv(emulator), SEC_TELEMETRY_DISABLE: '1' });
    try {
      await quiet.configure({});
      const before = emulator.ids('Metrics').length;
      const state = await quiet.readData(
        'sec_metric_module',
        configValue(quiet.dataSourceSchema('sec_metric_module').block, { name: 'm', version: '1' }),
      );
      expect(state.id).to.be.a('string').and.not.equal('');
      expect(emulator.ids('Metrics')).to.have.length(before);
    } finally {
      await quiet.close();
    }
  });
});
