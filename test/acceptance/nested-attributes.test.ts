/**
 * Nested attributes (tfplugin6 `nested_type`, `attr.nested`) under the real clients (Terraform 1.15.5,
 * the main judge, and OpenTofu): the client loads the schema, plans with its own ProposedNew and checks
 * the provider's plan and apply result by its own rules. The provider is the test provider `acme/nester`
 * (test/support/nested-things.ts), whose `nester_server` has a single nested attribute (`settings`, with
 * a computed `fingerprint` that follows `mode`) and a list one (`rules`, each with a computed `rule_id`
 * and an optional+computed `protocol`); its platform is a JSON file, as the client starts a process per
 * walk. Applied, re-planned with no change, one inner value changed, re-planned with no change.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { providerInstallationConfig } from '../../src/tfclient/terraform-cli.js';
import { launcherDir } from './served-provider.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { Workspace, type WorkspaceOptions } from './terraform.js';

const ENTRY = fileURLToPath(new URL('./nested-provider.js', import.meta.url));
const REQUIRES = 'terraform {\n  required_providers {\n    nester = { source = "acme/nester" }\n  }\n}\n';
const server = (mode: string, port: number) => `${REQUIRES}
resource "nester_server" "s" {
  name = "web"
  settings = {
    mode    = "${mode}"
    retries = 2
  }
  rules = [
    { port = ${port} },
    { port = 443, protocol = "udp" },
  ]
}

output "first_rule" {
  value = nester_server.s.rules[0].rule_id
}
`;

describe('nested attributes, under the real clients', () => {
  let binDir = '';
  before(() => {
    binDir = launcherDir('nester', ENTRY);
  });
  after(() => rmSync(binDir, { recursive: true, force: true }));

  for (const cli of ACCEPTANCE_CLIS) {
    describe(cli.name, function () {
      this.timeout(300_000);
      let options: WorkspaceOptions;
      let ws: Workspace | undefined;

      before(function () {
        options = { ...cli.workspace(this), cliConfig: providerInstallationConfig({ 'acme/nester': binDir }) };
      });
      afterEach(() => ws?.dispose());

      it('applies single and list nested attributes, re-plans nothing, and updates one inner value alone', async () => {
        const store = join(binDir, `store-${cli.command}-${Date.now()}.json`);
        const w = new Workspace(server('fast', 80), { NESTER_STORE: store, KEEL_CREATE_RECORDS: 'off' }, options);
        ws = w;
        const plan = await w.expect(['plan', '-no-color']);
        expect(plan.stdout).to.match(/fingerprint\s+= \(known after apply\)/);
        expect(plan.stdout).to.match(/rule_id\s+= \(known after apply\)/);
        await w.expect(['apply', '-auto-approve', '-no-color']);
        const created = (await w.state()).get('nester_server.s')!.values;
        expect(created.settings).to.deep.equal({ mode: 'fast', retries: 2, fingerprint: 'fp-fast' });
        expect(created.rules).to.deep.equal([
          { port: 80, protocol: 'tcp', rule_id: 'r-2' },
          { port: 443, protocol: 'udp', rule_id: 'r-3' },
        ]);
        await w.expect(['plan', '-detailed-exitcode', '-no-color'], 0);

        // One inner value: the mode, which the fingerprint follows; the rules stay as they are.
        w.writeConfig(server('safe', 80));
        const change = await w.expect(['plan', '-detailed-exitcode', '-no-color'], 2);
        expect(change.stdout).to.match(/~ mode\s+= "fast" -> "safe"/);
        expect(change.stdout).to.match(/~ fingerprint\s+= "fp-fast" -> \(known after apply\)/);
        expect(change.stdout).to.not.match(/rule_id\s+=.*->/);
        expect(change.stdout).to.match(/Plan: 0 to add, 1 to change, 0 to destroy\./);
        await w.expect(['apply', '-auto-approve', '-no-color']);
        const updated = (await w.state()).get('nester_server.s')!.values;
        expect(updated.settings).to.deep.equal({ mode: 'safe', retries: 2, fingerprint: 'fp-safe' });
        expect(updated.rules).to.deep.equal(created.rules);
        await w.expect(['plan', '-detailed-exitcode', '-no-color'], 0);

        // A list element's inner value: its computed id stays, a new element's is known after apply.
        w.writeConfig(
          server('safe', 8080).replace(
            '{ port = 443, protocol = "udp" },',
            '{ port = 443, protocol = "udp" },\n    { port = 22 },',
          ),
        );
        await w.expect(['apply', '-auto-approve', '-no-color']);
        const ported = (await w.state()).get('nester_server.s')!.values;
        expect(ported.rules).to.deep.equal([
          { port: 8080, protocol: 'tcp', rule_id: 'r-2' },
          { port: 443, protocol: 'udp', rule_id: 'r-3' },
          { port: 22, protocol: 'tcp', rule_id: 'r-4' },
        ]);
        await w.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      });
    });
  }
});
