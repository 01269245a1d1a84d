/**
 * The vdb table of test/resources/identity-and-lists.ts: its rows, one per vdb resource type, are
 * VDB_CASES in ./one-of-each.ts, each a configuration that creates one object, and how its identity,
 * query and import differ from the defaults. A new resource type needs its row there (the first test
 * says so).
 */
import { startVdbEmulator, type VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { TerraformClient } from '../../../src/tfclient/terraform-client.js';
import { vdbProviderEnv } from '../../../src/tfclient/terraform-cli.js';
import { runTable } from '../identity-and-lists.js';
import { VDB_BIN, VDB_CASES, prepareVdbPrerequisites } from './one-of-each.js';

runTable('vdb', VDB_CASES, { name: 'VDB_CASES', file: 'test/resources/vdb/one-of-each.ts' }, async () => {
  const emulator: VdbEmulator = await startVdbEmulator({ provisioningMs: 50 });
  await prepareVdbPrerequisites(emulator);
  const fresh = async () => {
    const client = await TerraformClient.start(VDB_BIN, vdbProviderEnv(emulator));
    await client.configure({});
    return client;
  };
  const tf = await fresh();
  return {
    tf,
    fresh,
    calls: () => emulator.requests.map((r) => `${r.service}/${r.method} ${JSON.stringify(r.request)}`),
    close: async () => {
      await tf.close();
      await emulator.close();
    },
  };
});
