/**
 * Ephemeral keys that outlive a run. Terraform 1.11 skips CloseEphemeralResource when a
 * consumer of an ephemeral value fails (or the run is interrupted), so the database key opened for
 * the run would stay live until it expires. The provider closes what Terraform left open when the
 * plugin host shuts it down, naming each key (id and expiry) in a warning first.
 *
 * Under real Terraform, against the vdb emulator: a run whose consumer fails leaves no key behind,
 * and the provider's log names it; a run that succeeds closes its key the usual way, with no warning.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { Workspace } from './terraform.js';

const configuration = (exitCode: number) => `
terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}
provider "vdb" {}

data "vdb_booking_packages" "aws" {
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
}

resource "vdb_accounts_cluster" "db" {
  name           = "ephemeral-leftovers"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = one([for p in data.vdb_booking_packages.aws.packages : p.id if p.name == "small"])
    }
  }
}

ephemeral "vdb_accounts_database_api_key_v2" "smoke" {
  cluster_id = vdb_accounts_cluster.db.id
  name       = "smoke-run"
}

# The key's consumer: a smoke test that fails with exit code ${exitCode}.
resource "terraform_data" "smoke" {
  input = ${exitCode}
  provisioner "local-exec" {
    command     = "test -n \\"$KEY\\" && exit ${exitCode}"
    environment = { KEY = ephemeral.vdb_accounts_database_api_key_v2.smoke.key }
  }
}
`;

const LEFT_OPEN =
  'Terraform did not close an ephemeral value this provider opened; closing it as the provider shuts down';

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: ephemeral database keys never outlive the run (real ${cli.name})`, function () {
    this.timeout(120_000);
    let emulator: VdbEmulator;
    let ws: Workspace;

    before(async function () {
      const options = cli.workspace(this);
      emulator = await startVdbEmulator({ provisioningMs: 50 });
      ws = new Workspace(configuration(1), vdbProviderEnv(emulator), options);
    });

    after(async () => {
      if (ws) {
        await ws.run(['destroy', '-auto-approve']);
        ws.dispose();
      }
      await emulator?.close();
    });

    const keysNamed = (name: string) => emulator.list(VDB_COLLECTIONS.databaseApiKeys).filter((k) => k.name === name);
    const opened = () => emulator.requests.filter((r) => r.method === 'CreateDatabaseApiKey').length;
    const deleted = () => emulator.requests.filter((r) => r.method === 'DeleteDatabaseApiKey').length;

    it(`a run whose consumer fails: ${cli.name} never closes the key, and the provider deletes it as it shuts down, naming it in its log`, async () => {
      const log = join(ws.dir, 'failed.log');
      const [openedBefore, deletedBefore] = [opened(), deleted()];
      const r = await ws.run(['apply', '-auto-approve', '-no-color'], { TF_LOG_PROVIDER: 'warn', TF_LOG_PATH: log });
      expect(r.code, r.stderr).to.equal(1);
      expect(r.stderr).to.include('local-exec provisioner error');
      // The apply opens the key (the plan cannot: the cluster is made in the same run), and its consumer fails.
      const openedForRun = opened() - openedBefore;
      expect(openedForRun, 'keys opened for the run').to.be.at.least(1);
      expect(keysNamed('smoke-run'), 'keys left on the platform').to.deep.equal([]);
      expect(deleted() - deletedBefore, 'keys deleted').to.equal(openedForRun);
      const warnings = readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.includes(LEFT_OPEN));
      expect(warnings.length, 'a warning for the key Terraform left open').to.equal(1);
      expect(warnings[0]).to.match(
        /opened="database API key [0-9a-f-]{36} of cluster [0-9a-f-]{36}, expiring at \d{4}-\d\d-\d\dT/,
      );
    });

    it(`a run that succeeds: ${cli.name} closes the key itself, and nothing is left or warned about`, async () => {
      ws.writeConfig(configuration(0));
      const log = join(ws.dir, 'succeeded.log');
      const before = opened();
      const r = await ws.run(['apply', '-auto-approve', '-no-color'], { TF_LOG_PROVIDER: 'warn', TF_LOG_PATH: log });
      expect(r.code, r.stderr).to.equal(0);
      expect(opened() - before).to.be.greaterThan(0);
      expect(keysNamed('smoke-run')).to.deep.equal([]);
      expect(readFileSync(log, 'utf8')).to.not.include(LEFT_OPEN);
    });
  });
