/**
 * The ephemeral resources' examples (`examples/<provider>/ephemeral/<type>/main.tf`) as a user runs
 * them, under real Terraform against the emulators: each one validates and applies as shipped (the
 * vdb key's smoke test curls the cluster's endpoint, which the emulator serves), with what it opens
 * closed again afterwards.
 */
import { expect } from 'chai';
import { secClientFor } from '../support/sec-provider.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VDB_COLLECTIONS } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { createVdbClient } from '../../src/clients/vdb/index.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { exampleRuns } from './example-runs.js';
import { REPO_ROOT } from './terraform.js';
import { failOnProblems, tableProblems } from '../support/type-tables.js';

const example = (provider: string, type: string) => join(REPO_ROOT, 'examples', provider, 'ephemeral', type);

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: the ephemeral resources' examples under real ${cli.name}`, function () {
    this.timeout(300_000);
    const runs = exampleRuns(cli);
    const workspace = runs.workspace;

    it('has a test for every ephemeral example', function () {
      const shipped = new Map(
        (['sec', 'vdb'] as const).flatMap((p) =>
          readdirSync(join(REPO_ROOT, 'examples', p, 'ephemeral')).map((type) => [type, p] as const),
        ),
      );
      // The tests below, each titled by the example it runs (an example may have several).
      const tested = new Set(
        (this.test?.parent?.tests ?? []).flatMap((t) => /^([a-z0-9_]+): /.exec(t.title)?.[1] ?? []),
      );
      failOnProblems(
        'the ephemeral examples and their tests',
        tableProblems(
          {
            what: 'ephemeral example',
            where: `the describe "${this.test?.parent?.title}" in test/acceptance/ephemeral-examples.test.ts`,
            noun: 'test',
            entry: (type) =>
              `it('${type}: <what the example does>', …), which validates and applies ` +
              `examples/${shipped.get(type)}/ephemeral/${type} as shipped and checks what it opened is closed`,
          },
          [...shipped.keys()],
          [...tested],
        ),
      );
    });

    it("sec_access_token: a provider instance holding only the run's token creates the channel", async () => {
      const ws = workspace(example('sec', 'sec_access_token'), secProviderEnv(runs.sec));
      await ws.expect(['validate', '-no-color']);
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      expect(runs.sec.list<{ name: string }>('AlertChannels').some((c) => c.name === 'example-access-token')).to.equal(
        true,
      );
      expect(
        runs.sec.issuedTokens().filter((t) => t.requestedSeconds === 900 && t.uses > 0),
        'the 900 s token authorized requests',
      ).to.not.be.empty;
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      await ws.expect(['destroy', '-auto-approve', '-no-color']);
    });

    it('sec_agent_access_token: the installer hook gets the token of an agent token made elsewhere', async () => {
      const client = secClientFor(runs.sec);
      const fleet = await client.agentAccessTokens.create({
        tokenAlias: 'example-fleet',
        tokenEnabled: true,
        props: { description: '', os: 'linux' },
      });
      await client.close();
      const ws = workspace(example('sec', 'sec_agent_access_token'), secProviderEnv(runs.sec));
      await ws.expect(['validate', '-no-color']);
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      const hook = runs.sec
        .list<{ name: string; data: { webhookUrl: string } }>('AlertChannels')
        .find((c) => c.name === 'example-installer')!;
      expect(hook.data.webhookUrl).to.equal(`https://installer.example.com/enroll/${fleet.accessToken}`);
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      await ws.expect(['destroy', '-auto-approve', '-no-color']);
    });

    it("sec_agent_access_token: a token made in the same run is read when named by the resource's id", async () => {
      const config = (name: string) => `
terraform {
  required_providers {
    sec = { source = "keel/sec" }
  }
}

resource "sec_agent_access_token" "fleet" {
  name = "tf-eph-same-run"
}

ephemeral "sec_agent_access_token" "fleet" {
  name = ${name}
}

resource "sec_alert_channel_webhook" "installer" {
  name                   = "tf-eph-same-run-installer"
  webhook_url_wo         = "https://installer.example.com/enroll/\${ephemeral.sec_agent_access_token.fleet.token}"
  webhook_url_wo_version = 1
  test_integration       = false
}
`;
      const ws = runs.configured(config('"tf-eph-same-run"'), secProviderEnv(runs.sec));
      // Opened while planning, before the token exists.
      const early = await ws.expect(['plan', '-no-color'], 1);
      // By its name as text it is opened while planning, before the token exists: the message says what to write.
      expect(early.stderr.replace(/\s+/g, ' '))
        .to.include('Agent access token not found')
        .and.include("set `name` to the resource's `id` (`sec_agent_access_token.<name>.id`)");
      ws.writeConfig(config('sec_agent_access_token.fleet.id'));
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      const tokens = runs.sec.list<{ tokenAlias: string; accessToken: string }>('AgentAccessTokens');
      const token = tokens.find((t) => t.tokenAlias === 'tf-eph-same-run')!;
      const hooks = runs.sec.list<{ name: string; data: { webhookUrl: string } }>('AlertChannels');
      const hook = hooks.find((c) => c.name === 'tf-eph-same-run-installer')!;
      expect(hook.data.webhookUrl).to.equal(`https://installer.example.com/enroll/${token.accessToken}`);
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      await ws.expect(['destroy', '-auto-approve', '-no-color']);
    });

    it("vdb_accounts_database_api_key_v2: as shipped, the smoke test reaches the cluster with the run's key, which is gone afterwards", async () => {
      const client = createVdbClient({ apiUrl: runs.vdb.url, apiKey: runs.vdb.apiKey, userAgent: 'test' });
      const cluster = await client.clusters.create({
        accountId: runs.vdb.accountId,
        name: 'tf-eph-smoke',
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'eu-central-1',
        configuration: { numberOfNodes: 1, packageId: runs.vdb.packageId('aws', 'small') },
      });
      client.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ws = workspace(example('vdb', 'vdb_accounts_database_api_key_v2'), vdbProviderEnv(runs.vdb));
      await ws.expect(['validate', '-no-color']);
      const seen = runs.vdb.databaseRequests.length;
      // The example's own curl, against the cluster's endpoint the emulator serves.
      await ws.expect(['apply', '-auto-approve', '-no-color'], 0, { TF_VAR_cluster_id: cluster.id });
      const created = runs.vdb.requests.filter(
        (r) =>
          r.method === 'CreateDatabaseApiKey' &&
          (r.request?.databaseApiKey as { clusterId?: string } | undefined)?.clusterId === cluster.id,
      );
      expect(created.length, 'opened for the apply').to.be.at.least(1);
      const reached = runs.vdb.databaseRequests.slice(seen);
      expect(
        reached.map((r) => `${r.method} ${r.path}`),
        'the smoke test reached the cluster',
      ).to.deep.equal([`GET /clusters/${cluster.id}/collections`]);
      expect(
        runs.vdb
          .list(VDB_COLLECTIONS.databaseApiKeys)
          .filter((k) => (k as { clusterId: string }).clusterId === cluster.id),
        'closed: deleted',
      ).to.deep.equal([]);
      // curl --fail: the apply succeeded only if the cluster took the key. Nothing of it is kept.
      const state = JSON.parse(readFileSync(join(ws.dir, 'config', 'terraform.tfstate'), 'utf8')) as {
        resources: { type: string }[];
      };
      expect(state.resources.map((r) => r.type)).to.not.include('vdb_accounts_database_api_key_v2');
    });
  });
