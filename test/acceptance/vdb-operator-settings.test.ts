/**
 * The hybrid environment's advanced_operator_settings under real Terraform: keys JavaScript treats
 * specially (`__proto__`, `constructor`) and texts the hand-written YAML printer broke (a backslash
 * before a quote) go to the platform, come back, import and re-plan with no change; a change of the
 * platform's value under `__proto__` shows as drift and is put back.
 */
import { expect } from 'chai';
import { startVdbEmulator, VDB_COLLECTIONS, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { Workspace, requireTerraform } from './terraform.js';

const ADDRESS = 'vdb_accounts_hybrid_cloud_environment.settings';

/** The configuration, with the settings as a heredoc (its text is the YAML). */
const mainTf = (settings: string) => `
terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}

provider "vdb" {}

resource "vdb_accounts_hybrid_cloud_environment" "settings" {
  name                       = "tf-acc-settings"
  bootstrap_commands_version = 0
  configuration {
    namespace                  = "vdb-settings"
    advanced_operator_settings = <<-YAML
${settings
  .split('\n')
  .map((line) => `      ${line}`)
  .join('\n')}
    YAML
  }
}
`;

const SETTINGS = [
  '__proto__:',
  '  polluted: true',
  'constructor: [1, 2]',
  "path: a\\'b",
  'quoted: "say \\"hi\\""',
  'name: café',
].join('\n');
/** The same data written another way: flow style, other key order and quoting, a comment. */
const SAME_DATA = [
  '# the same settings',
  "{name: 'café', path: 'a\\''b', quoted: 'say \"hi\"', constructor: [1, 2], \"__proto__\": {polluted: true}}",
].join('\n');

describe('acceptance: vdb advanced_operator_settings under real Terraform', function () {
  this.timeout(300_000);
  let emulator: VdbEmulator;
  let ws: Workspace;

  before(async function () {
    requireTerraform(this);
    emulator = await startVdbEmulator({ provisioningMs: 200 });
    ws = new Workspace(mainTf(SETTINGS), vdbProviderEnv(emulator));
  });
  after(async () => {
    if (ws) await ws.run(['destroy', '-auto-approve', '-input=false']);
    ws?.dispose();
    await emulator?.close();
  });

  const stored = (id: string) =>
    emulator.get<{ configuration: { advancedOperatorSettings: Record<string, unknown> } }>(
      VDB_COLLECTIONS.hybridEnvironments,
      id,
    )!;
  const noChanges = async () => (await ws.run(['plan', '-detailed-exitcode', '-input=false'])).code;

  it('keeps every key and text through apply, refresh, a same-meaning rewrite, drift and import', async () => {
    await ws.expect(['apply', '-auto-approve', '-input=false']);
    const id = (await ws.state()).get(ADDRESS)!.values.id as string;
    const held = stored(id).configuration.advancedOperatorSettings;
    expect(JSON.stringify(held)).to.equal(
      '{"__proto__":{"polluted":true},"constructor":[1,2],"path":"a\\\\\'b","quoted":"say \\"hi\\"","name":"café"}',
    );
    expect(await noChanges(), 'a re-plan after apply changes nothing').to.equal(0);

    // The same data written differently is no change; the text stays as first written.
    ws.writeConfig(mainTf(SAME_DATA));
    expect(await noChanges(), 'the same data written another way').to.equal(0);

    // Drift under __proto__ is seen, and the apply puts the configured value back.
    const current = stored(id);
    emulator.put(VDB_COLLECTIONS.hybridEnvironments, id, {
      ...current,
      configuration: {
        ...current.configuration,
        advancedOperatorSettings: JSON.parse('{"__proto__":{"polluted":false}}'),
      },
    });
    const drift = await ws.run(['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect(drift.code, drift.stdout).to.equal(2);
    expect(drift.stdout).to.include('polluted: false');
    await ws.expect(['apply', '-auto-approve', '-input=false']);
    const putBack = stored(id).configuration.advancedOperatorSettings;
    expect(Object.keys(putBack).sort()).to.deep.equal(['__proto__', 'constructor', 'name', 'path', 'quoted']);
    expect(putBack).to.deep.equal(held);

    // Imported, the state holds the platform's value printed: the configuration means the same.
    await ws.expect(['state', 'rm', ADDRESS]);
    await ws.expect(['import', '-input=false', ADDRESS, id]);
    const printed = (await ws.state()).get(ADDRESS)!.values.configuration as { advanced_operator_settings: string }[];
    expect(printed[0]!.advanced_operator_settings).to.equal(
      [
        '__proto__:',
        '  polluted: true',
        'constructor:',
        '  - 1',
        '  - 2',
        'name: café',
        "path: a\\'b",
        'quoted: say "hi"',
        '',
      ].join('\n'),
    );
    expect(await noChanges(), 'a re-plan after import').to.equal(0);
  });
});
