/**
 * A repeat that is unknown until apply (docs/decisions.md, "Lists the platform keeps each value of once"):
 * a data export rule naming the channel it exports to twice, `[c.intg_guid, c.intg_guid]`, under real
 * Terraform 1.15.5 and OpenTofu. The plan cannot see the repeat; the apply sends the channel once and
 * succeeds, the re-plan is empty, and `destroy`, whose first step is a normal plan of the configuration
 * with every value known, destroys everything. The emulator's store is the witness.
 */
import { expect } from 'chai';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { startEmulator, type EmulatorHandle } from './examples-workspace.js';
import { Workspace } from './terraform.js';

const CONFIG = `
terraform {
  required_providers {
    sec = { source = "keel/sec" }
  }
}

resource "sec_alert_channel_cloud_a_object_store" "exports" {
  name       = "repeat-bucket"
  bucket_arn = "arn:cloud-a:s3:::acme-repeats"
  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-repeats"
    external_id = "acme-repeats-1"
  }
}

resource "sec_data_export_rule" "twice" {
  name            = "repeat-rule"
  integration_ids = [
    sec_alert_channel_cloud_a_object_store.exports.intg_guid,
    sec_alert_channel_cloud_a_object_store.exports.intg_guid,
  ]
}
`;

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: a repeat unknown until apply, under real ${cli.name}`, function () {
    this.timeout(300_000);
    let emulator: EmulatorHandle;
    let ws: Workspace;

    before(async function () {
      const options = cli.workspace(this);
      emulator = await startEmulator.sec();
      ws = new Workspace(CONFIG, emulator.env, options);
    });

    after(async () => {
      ws?.dispose();
      await emulator?.close();
    });

    it('applies, sending the channel once; re-plans empty; destroys', async () => {
      const rules = () => emulator.ids('DataExportRules');
      const before = rules().length;
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      const made = rules().filter((_, i) => i >= before);
      expect(made).to.have.length(1);
      const stored = emulator.get('DataExportRules', made[0]!) as { intgGuidList: string[] };
      expect(stored.intgGuidList).to.have.length(1);
      const state = await ws.state();
      expect(state.get('sec_data_export_rule.twice')?.values.integration_ids).to.have.length(2);
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      await ws.expect(['destroy', '-auto-approve', '-no-color']);
      expect(rules()).to.have.length(before);
      expect((await ws.state()).size).to.equal(0);
    });
  });
