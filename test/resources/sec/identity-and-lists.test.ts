/**
 * The sec table of test/resources/identity-and-lists.ts: its rows, one per sec resource type, are
 * SEC_CASES in ./one-of-each.ts, each a configuration that creates one object, and how its identity,
 * query and import differ from the defaults. A new resource type needs its row there (the first test
 * says so).
 */
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import { TerraformClient, configValue } from '../../../src/tfclient/terraform-client.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';
import { runTable, type Plain } from '../identity-and-lists.js';
import { SEC_BIN, SEC_CASES, makeSecPrerequisites } from './one-of-each.js';

runTable('sec', SEC_CASES, { name: 'SEC_CASES', file: 'test/resources/sec/one-of-each.ts' }, async () => {
  const emulator: SecEmulator = await startSecEmulator();
  const fresh = async () => {
    const client = await TerraformClient.start(SEC_BIN, secProviderEnv(emulator));
    await client.configure({});
    return client;
  };
  const tf = await fresh();
  const make = async (type: string, plain: Plain) => {
    const cfg = configValue(tf.resourceSchema(type).block, plain);
    return (await tf.apply(type, null, await tf.plan(type, null, cfg), cfg)).state!;
  };
  await makeSecPrerequisites(make);
  return {
    tf,
    fresh,
    calls: () => emulator.requests.map((r) => `${r.method} ${r.path}`),
    close: async () => {
      await tf.close();
      await emulator.close();
    },
  };
});
