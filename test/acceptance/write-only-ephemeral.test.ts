/**
 * Secrets out of state under real Terraform 1.15.5, OpenTofu and Terraform 1.11 (which brought
 * write-only arguments): write-only arguments fed from a variable and from ephemeral resources, an
 * ephemeral access token configuring a provider block, and an ephemeral database key that exists
 * only during the run. The emulators are the witness of what was sent and of what is left; the state
 * file, the plan file and a TF_LOG=trace log must contain none of the secrets.
 */
import { expect } from 'chai';
import { secClientFor } from '../support/sec-provider.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { packageId } from '../../src/emulators/vdb/catalog.js';
import { ACCEPTANCE_CLIS, PATH_TERRAFORM_CLI } from './real-clients.js';
import { Workspace } from './terraform.js';

const HOOK_ONE = 'https://hooks.example.com/services/first-hook-secret';
const HOOK_TWO = 'https://hooks.example.com/services/second-hook-secret';

function configuration(withEphemeralKey: boolean, version: number): string {
  return `
terraform {
  required_providers {
    sec = { source = "keel/sec" }
    vdb = { source = "keel/vdb" }
  }
}

provider "sec" {}
provider "vdb" {}

# Ephemeral: Terraform keeps its value out of the plan file too.
variable "hook" {
  type      = string
  sensitive = true
  ephemeral = true
}

# A short-lived token from the provider's key and secret configures a second provider instance.
ephemeral "sec_access_token" "run" {
  lifetime_seconds = 600
}

provider "sec" {
  alias     = "tokened"
  api_token = ephemeral.sec_access_token.run.token
}

resource "sec_alert_channel_email" "through_token" {
  provider   = sec.tokened
  name       = "wo-acc-email"
  recipients = ["ops@example.com"]
}

# The secret of an agent token made elsewhere, for this run only.
ephemeral "sec_agent_access_token" "fleet" {
  name = "wo-acc-fleet"
}

resource "sec_alert_channel_webhook" "installer" {
  name                   = "wo-acc-installer"
  webhook_url_wo         = "\${var.hook}/\${ephemeral.sec_agent_access_token.fleet.token}"
  webhook_url_wo_version = ${version}
  test_integration       = false
}

resource "vdb_accounts_cluster" "db" {
  name           = "wo-acc-cluster"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = "${packageId('aws', 'small')}"
    }
  }
}
${
  withEphemeralKey
    ? `
# A database key that lives only for the run, handed to a smoke-test hook.
ephemeral "vdb_accounts_database_api_key_v2" "smoke" {
  cluster_id = vdb_accounts_cluster.db.id
  expires_in = "2h"
  global_access_rule {
    access_type = "GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"
  }
}

resource "sec_alert_channel_webhook" "smoke" {
  name                   = "wo-acc-smoke"
  webhook_url_wo         = "https://smoke.example.com/run/\${ephemeral.vdb_accounts_database_api_key_v2.smoke.key}"
  webhook_url_wo_version = 1
  test_integration       = false
}
`
    : ''
}`;
}

// Write-only arguments came with Terraform 1.11: they run under it too.
for (const cli of [...ACCEPTANCE_CLIS, PATH_TERRAFORM_CLI])
  describe(`acceptance: write-only arguments and ephemeral resources under real ${cli.name}`, function () {
    this.timeout(300_000);
    let sec: SecEmulator;
    let vdb: VdbEmulator;
    let ws: Workspace;

    before(async function () {
      const options = cli.workspace(this);
      sec = await startSecEmulator();
      vdb = await startVdbEmulator({ provisioningMs: 300 });
      // The agent token exists already, made outside this configuration (its secret is not in this state).
      const client = secClientFor(sec);
      await client.agentAccessTokens.create({
        tokenAlias: 'wo-acc-fleet',
        tokenEnabled: true,
        props: { description: '', os: 'linux' },
      });
      await client.close();
      ws = new Workspace(configuration(false, 1), { ...secProviderEnv(sec), ...vdbProviderEnv(vdb) }, options);
    });

    after(async () => {
      ws?.dispose();
      await sec?.close();
      await vdb?.close();
    });

    type Channel = { name: string; data: { webhookUrl: string } };
    const channel = (name: string) => sec.list<Channel>('AlertChannels').find((c) => c.name === name);
    const agentToken = () =>
      sec
        .list<{ tokenAlias: string; accessToken: string }>('AgentAccessTokens')
        .find((t) => t.tokenAlias === 'wo-acc-fleet')!.accessToken;
    const runKeys = () =>
      vdb.list<{ name: string }>(VDB_COLLECTIONS.databaseApiKeys).filter((k) => k.name.startsWith('terraform-run-'));

    it('sends write-only values fed from a variable and from ephemeral resources, and the ephemeral token configures a provider', async () => {
      await ws.expect(['apply', '-auto-approve', '-no-color'], 0, { TF_VAR_hook: HOOK_ONE });
      expect(channel('wo-acc-installer')!.data.webhookUrl).to.equal(`${HOOK_ONE}/${agentToken()}`);
      // The channel was created through the provider instance configured with the ephemeral access
      // token: the tokens asked for with its lifetime (600 s) authorized requests.
      expect(channel('wo-acc-email')).to.not.equal(undefined);
      const ephemeralTokens = sec.issuedTokens().filter((t) => t.requestedSeconds === 600);
      expect(ephemeralTokens.length, 'opened for the plan and for the apply').to.be.at.least(2);
      expect(
        ephemeralTokens.reduce((sum, t) => sum + t.uses, 0),
        'requests the ephemeral tokens authorized',
      ).to.be.greaterThan(0);
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0, { TF_VAR_hook: HOOK_ONE });
    });

    it('makes an ephemeral database key for the run and deletes it when the run ends', async () => {
      ws.writeConfig(configuration(true, 1));
      const keysBefore = vdb.list(VDB_COLLECTIONS.databaseApiKeys).length;
      await ws.expect(['apply', '-auto-approve', '-no-color'], 0, { TF_VAR_hook: HOOK_ONE });
      const smoke = channel('wo-acc-smoke')!.data.webhookUrl;
      expect(smoke).to.match(/^https:\/\/smoke\.example\.com\/run\/\S{16,}$/);
      // Opened for the plan and for the apply, closed each time: nothing is left.
      expect(vdb.requests.filter((r) => r.method === 'CreateDatabaseApiKey').length).to.be.at.least(2);
      expect(runKeys(), 'keys of the run left behind').to.deep.equal([]);
      expect(vdb.list(VDB_COLLECTIONS.databaseApiKeys).length).to.equal(keysBefore);
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0, { TF_VAR_hook: HOOK_ONE });
      expect(runKeys()).to.deep.equal([]);
    });

    it('rotates a write-only value by changing its version', async () => {
      ws.writeConfig(configuration(true, 2));
      const plan = await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 2, { TF_VAR_hook: HOOK_TWO });
      expect(plan.stdout).to.include('sec_alert_channel_webhook.installer will be updated in-place');
      await ws.expect(['apply', '-auto-approve', '-no-color'], 0, { TF_VAR_hook: HOOK_TWO });
      expect(channel('wo-acc-installer')!.data.webhookUrl).to.equal(`${HOOK_TWO}/${agentToken()}`);
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0, { TF_VAR_hook: HOOK_TWO });
    });

    it('keeps every secret out of the state file, the plan file and a TF_LOG=trace log', async () => {
      const planFile = join(ws.dir, 'config', 'secrets.tfplan');
      const traced = await ws.run(['plan', '-no-color', `-out=${planFile}`], {
        TF_VAR_hook: HOOK_TWO,
        TF_LOG: 'trace',
      });
      expect(traced.code, traced.stderr).to.equal(0);
      const planJson = await ws.expect(['show', '-json', planFile], 0, { TF_VAR_hook: HOOK_TWO });
      const stateJson = await ws.expect(['show', '-json'], 0, { TF_VAR_hook: HOOK_TWO });
      const stateFile = readFileSync(join(ws.dir, 'config', 'terraform.tfstate'), 'utf8');
      const smokeKey = channel('wo-acc-smoke')!.data.webhookUrl.split('/').pop()!;
      const secrets = {
        'the first hook': 'first-hook-secret',
        'the second hook': 'second-hook-secret',
        'the agent token': agentToken(),
        'the ephemeral database key': smokeKey,
        ...Object.fromEntries(sec.issuedTokens().map((t, i) => [`access token ${i + 1}`, t.token])),
      };
      expect(sec.issuedTokens().length, "the ephemeral access tokens and the provider's own").to.be.at.least(2);
      const places = {
        'the state file': stateFile,
        'terraform show -json': stateJson.stdout,
        'the plan JSON': planJson.stdout,
        'the trace log': `${traced.stdout}\n${traced.stderr}`,
      };
      expect(places['the trace log']).to.include('terraform-provider-sec').and.include('terraform-provider-vdb');
      for (const [where, text] of Object.entries(places)) {
        for (const [what, secret] of Object.entries(secrets))
          expect(text.includes(secret), `${what} appears in ${where}`).to.equal(false);
      }
    });

    it('destroys what it made, leaving no ephemeral key behind', async () => {
      await ws.expect(['destroy', '-auto-approve', '-no-color'], 0, { TF_VAR_hook: HOOK_TWO });
      expect(channel('wo-acc-installer')).to.equal(undefined);
      expect(runKeys()).to.deep.equal([]);
    });
  });
