/**
 * The reading of generated configuration and its rule (test/acceptance/generated-hcl.ts), which the
 * real-Terraform test of every release applies to what Terraform wrote: here on texts in Terraform's
 * own form, one breaking each part of the rule, and one keeping it.
 */
import { expect } from 'chai';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import { generatedResources, ruleBreaches } from '../acceptance/generated-hcl.js';

const ACCOUNT = '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5';

const cluster = (extra: string, account = 'null') => `# __generated__ by Terraform
resource "vdb_accounts_cluster" "c" {
  account_id     = ${account}
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
  name           = "search"
  configuration {
    allowed_ip_source_ranges = [
      "10.0.0.0/8",
    ]
    number_of_nodes = 1
${extra}    node_configuration {
      package_id = "4045f510-8069-5ffa-ad6f-c2d4188b2d97"
    }
  }
}
`;

describe('generated configuration: its reading and the rule it keeps', () => {
  it('reads attributes, values over several lines and nested blocks', () => {
    const [r] = generatedResources(cluster(''));
    expect(r!.type).to.equal('vdb_accounts_cluster');
    expect(r!.body.attributes.get('name')).to.equal('"search"');
    const configuration = r!.body.blocks.get('configuration')![0]!;
    expect(configuration.attributes.get('number_of_nodes')).to.equal('1');
    expect(configuration.attributes.get('allowed_ip_source_ranges')).to.include('"10.0.0.0/8"');
    expect(configuration.blocks.get('node_configuration')).to.have.length(1);
  });

  it("finds the platform's choices written, the account where it is the provider's, and other spellings", () => {
    const breaches = (text: string, def: ProviderDef<any, any> = vdbDef) =>
      ruleBreaches(def, generatedResources(text), { account_id: ACCOUNT });
    expect(breaches(cluster(''))).to.deep.equal([]);
    expect(breaches(cluster('    version = "v1.13.2"\n'))).to.deep.equal([
      `vdb_accounts_cluster.c.configuration[0].version = "v1.13.2": the platform's choice, written`,
    ]);
    expect(breaches(cluster('', `"${ACCOUNT}"`))).to.have.length(1);
    expect(breaches(cluster('', '"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"')), 'another account').to.deep.equal([]);
    const schedule = (retention: string) =>
      `resource "vdb_accounts_backup_schedule" "s" {\n  cluster_id       = "${ACCOUNT}"\n  cron_expression  = "@daily"\n  retention_period = "${retention}"\n}\n`;
    expect(breaches(schedule('72h'))).to.deep.equal([]);
    expect(breaches(schedule('72h0m0s'))).to.deep.equal([
      'vdb_accounts_backup_schedule.s.retention_period = "72h0m0s": not as documented ("72h")',
    ]);
    const policy = (severity: string) =>
      `resource "sec_policy" "p" {\n  title    = "x"\n  severity = "${severity}"\n}\n`;
    expect(breaches(policy('High'), secDef)).to.deep.equal([]);
    expect(breaches(policy('high'), secDef)).to.have.length(1);
  });
});
