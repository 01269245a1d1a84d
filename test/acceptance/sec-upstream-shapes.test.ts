/**
 * Configurations written for the reference provider (its examples, docs and acceptance tests at
 * 2.2.0), translated to our names, applied under the real Terraform CLI against the emulator: the
 * built-in policies and alert profiles they name exist, the shapes the platform accepts apply and
 * settle, and what stays refused (secrets in plain outputs, keys that are not PEM) is refused
 * with a clear message. Each step checks what the emulator stored.
 */
import { expect } from 'chai';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { Workspace, requireTerraform } from './terraform.js';

const PROVIDER = `
terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}
`;

interface Output {
  sensitive: boolean;
  value: unknown;
}

interface ExceptionRecord {
  exceptionId: string;
  policyId: string;
  description: string;
  constraints: { fieldKey: string; fieldValues: unknown[] }[];
}

interface PolicyRecord {
  policyId: string;
  enabled: boolean;
  severity: string;
  alertEnabled: boolean;
  alertProfile: string;
  queryId: string;
  title: string;
  tags: string[];
}

interface IntegrationRecord {
  intgGuid: string;
  name: string;
  type: string;
  data: Record<string, unknown>;
  serverToken?: { serverToken: string; uri: string };
}

describe("acceptance: sec configurations shaped like upstream's", function () {
  this.timeout(600_000);
  let emulator: SecEmulator;
  let ws: Workspace;

  before(async function () {
    requireTerraform(this);
    emulator = await startSecEmulator();
  });
  after(async () => {
    await emulator?.close();
  });

  /** A fresh workspace per scenario, so each starts from an empty state. */
  function workspace(mainTf: string): Workspace {
    ws = new Workspace(PROVIDER + mainTf, secProviderEnv(emulator));
    return ws;
  }
  afterEach(() => ws?.dispose());

  /** Terraform wraps diagnostics to the terminal width: compare them with whitespace collapsed. */
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  const outputs = async (): Promise<Record<string, Output>> =>
    JSON.parse((await ws.expect(['output', '-json'])).stdout) as Record<string, Output>;
  const policy = (id: string) => emulator.get<PolicyRecord>('Policies', id)!;
  const setting = (id: string) => ({ enabled: policy(id).enabled, severity: policy(id).severity });

  describe('built-in policies named by upstream', () => {
    // Upstream's current policy-exception example (examples/resource_lacework_policy_exception/current).
    const exceptionExample = `
resource "sec_policy_exception" "example" {
  policy_id   = "platform-global-39"
  description = var.description
  constraint {
    field_key    = var.field_key
    field_values = ["*"]
  }

  constraint {
    field_key = "resourceTags"
    field_values_map {
      key   = "test"
      value = ["test1", "test2"]
    }
  }
}

# Upstream's documented exception on 73.
resource "sec_policy_exception" "docs" {
  policy_id   = "platform-global-73"
  description = "Exception for account 123456789"
  constraint {
    field_key    = "accountIds"
    field_values = ["123456789"]
  }
}

variable "field_key" {
  type    = string
  default = "accountIds"
}

variable "description" {
  type    = string
  default = "Policy Exception Created via Terraform"
}

output "description" {
  value = sec_policy_exception.example.description
}

output "policy_id" {
  value = sec_policy_exception.example.policy_id
}
`;
    const exceptions = (policyId: string) =>
      emulator.list<ExceptionRecord>('Exceptions').filter((e) => e.policyId === policyId);

    it("creates, updates and destroys exceptions of built-in policies 39 and 73, and lists 39's constraints for an unknown key", async () => {
      workspace(exceptionExample);
      await ws.expect(['apply', '-auto-approve']);
      expect(exceptions('platform-global-39')).to.have.length(1);
      const created = exceptions('platform-global-39')[0]!;
      expect(created.description).to.equal('Policy Exception Created via Terraform');
      expect(created.constraints).to.have.deep.members([
        { fieldKey: 'accountIds', fieldValues: ['*'] },
        { fieldKey: 'resourceTags', fieldValues: [{ key: 'test', value: ['test1', 'test2'] }] },
      ]);
      expect(exceptions('platform-global-73').map((e) => e.constraints)).to.deep.equal([
        [{ fieldKey: 'accountIds', fieldValues: ['123456789'] }],
      ]);
      const out = await outputs();
      expect(out.description!.value).to.equal('Policy Exception Created via Terraform');
      expect(out.policy_id!.value).to.equal('platform-global-39');
      await ws.expect(['plan', '-detailed-exitcode'], 0);

      const updated = ['-var', 'description=Policy Exception Created via Terraform Updated'];
      await ws.expect(['apply', '-auto-approve', ...updated]);
      expect(exceptions('platform-global-39').map((e) => [e.exceptionId, e.description])).to.deep.equal([
        [created.exceptionId, 'Policy Exception Created via Terraform Updated'],
      ]);
      await ws.expect(['plan', '-detailed-exitcode', ...updated], 0);

      // Upstream's invalid-constraint test: the plan, reading the policy, names the keys it takes.
      const invalid = await ws.expect(
        ['apply', '-auto-approve', '-no-color', ...updated, '-var', 'field_key=invalid'],
        1,
      );
      expect(flat(invalid.stderr)).to.match(
        /Policy platform-global-39 has no exception constraint "invalid"; its constraints: `accountIds`, `arns`, `resourceNames`, `resourceTags`/,
      );
      expect(exceptions('platform-global-39')[0]!.constraints.map((c) => c.fieldKey)).to.have.members([
        'accountIds',
        'resourceTags',
      ]);

      await ws.expect(['destroy', '-auto-approve', ...updated]);
      expect(exceptions('platform-global-39')).to.deep.equal([]);
      expect(exceptions('platform-global-73')).to.deep.equal([]);
    });

    // Upstream's managed-policies example (examples/resource_lacework_managed_policies).
    const managedExample = `
resource "sec_managed_policies" "example" {
  policy {
    id       = var.id_1
    enabled  = var.enabled_1
    severity = var.severity_1
  }
  policy {
    id       = var.id_2
    enabled  = var.enabled_2
    severity = var.severity_2
  }
}

variable "id_1" {
  type    = string
  default = "platform-global-1"
}

variable "enabled_1" {
  type = bool
}

variable "severity_1" {
  type = string
}

variable "id_2" {
  type    = string
  default = "platform-global-2"
}

variable "enabled_2" {
  type = bool
}

variable "severity_2" {
  type = string
}

output "policy" {
  value = sec_managed_policies.example.policy
}
`;
    const vars = (values: Record<string, string>) => Object.entries(values).flatMap(([k, v]) => ['-var', `${k}=${v}`]);

    it("tunes built-in policies 1 and 2 as upstream's test does, then puts their settings back", async () => {
      const originals = { one: setting('platform-global-1'), two: setting('platform-global-2') };
      workspace(managedExample);
      const first = vars({ enabled_1: 'false', severity_1: 'High', enabled_2: 'false', severity_2: 'Critical' });
      await ws.expect(['apply', '-auto-approve', ...first]);
      expect(setting('platform-global-1')).to.deep.equal({ enabled: false, severity: 'high' });
      expect(setting('platform-global-2')).to.deep.equal({ enabled: false, severity: 'critical' });
      expect((await outputs()).policy!.value).to.have.deep.members([
        { id: 'platform-global-1', enabled: false, severity: 'High' },
        { id: 'platform-global-2', enabled: false, severity: 'Critical' },
      ]);
      await ws.expect(['plan', '-detailed-exitcode', ...first], 0);

      const second = vars({ enabled_1: 'true', severity_1: 'Low', enabled_2: 'true', severity_2: 'Medium' });
      await ws.expect(['apply', '-auto-approve', ...second]);
      expect(setting('platform-global-1')).to.deep.equal({ enabled: true, severity: 'low' });
      expect(setting('platform-global-2')).to.deep.equal({ enabled: true, severity: 'medium' });
      await ws.expect(['plan', '-detailed-exitcode', ...second], 0);

      // Upstream's duplicate-id and custom-id tests: refused before anything is sent.
      const duplicate = await ws.expect(['plan', '-no-color', ...second, '-var', 'id_2=platform-global-1'], 1);
      expect(flat(duplicate.stderr)).to.match(/Duplicate policy/);
      const custom = await ws.expect(
        ['plan', '-no-color', ...second, '-var', 'id_1=platform-custom-1', '-var', 'id_2=platform-custom-2'],
        1,
      );
      expect(flat(custom.stderr)).to.match(/Invalid value for "policy.id"/);
      expect(flat(custom.stderr)).to.match(/must be the id of a built-in policy/);

      await ws.expect(['destroy', '-auto-approve', ...second]);
      expect(setting('platform-global-1')).to.deep.equal(originals.one);
      expect(setting('platform-global-2')).to.deep.equal(originals.two);
    });

    it("applies upstream's documented example on policies 1, 2 and 10", async () => {
      workspace(`
resource "sec_managed_policies" "example" {
  policy {
    id       = "platform-global-1"
    enabled  = true
    severity = "High"
  }
  policy {
    id       = "platform-global-2"
    enabled  = false
    severity = "Critical"
  }
  policy {
    id       = "platform-global-10"
    enabled  = true
    severity = "Low"
  }
}
`);
      await ws.expect(['apply', '-auto-approve']);
      expect([setting('platform-global-1'), setting('platform-global-2'), setting('platform-global-10')]).to.deep.equal(
        [
          { enabled: true, severity: 'high' },
          { enabled: false, severity: 'critical' },
          { enabled: true, severity: 'low' },
        ],
      );
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
    });
  });

  describe('built-in alert profiles', () => {
    // Upstream's alert-profile example (examples/resource_lacework_alert_profile).
    const profileExample = `
resource "sec_alert_profile" "custom_profile" {
  name    = var.name
  extends = var.extends

  alert {
    name        = "Violation"
    event_name  = "Platform Configuration Cloud B Violation Alert"
    subject     = "{{_OCCURRENCE}} violation detected in project {{PROJECT_ID}}"
    description = var.alert_description
  }
}

variable "name" {
  type    = string
  default = "CUSTOM_PROFILE_TERRAFORM_TEST"
}

variable "extends" {
  type    = string
  default = "SEC_CFG_CLOUD_B_DEFAULT_PROFILE"
}

variable "alert_description" {
  type    = string
  default = "{{_OCCURRENCE}} violation for Cloud B Resource {{RESOURCE_TYPE}}:{{RESOURCE_ID}} in project {{PROJECT_ID}} region {{RESOURCE_REGION}}"
}

output "name" {
  value = sec_alert_profile.custom_profile.name
}

output "extends" {
  value = sec_alert_profile.custom_profile.extends
}

output "alert_description" {
  value = sec_alert_profile.custom_profile.alert.*.description[0]
}
`;
    const description =
      '{{_OCCURRENCE}} violation for Cloud B Resource {{RESOURCE_TYPE}}:{{RESOURCE_ID}} in project {{PROJECT_ID}} region {{RESOURCE_REGION}}';
    const stored = () =>
      emulator.get<{
        extends: string;
        alerts: { name: string; eventName: string; description: string; subject: string }[];
      }>('AlertProfiles', 'CUSTOM_PROFILE_TERRAFORM_TEST');

    it('extends the Cloud B default profile with a template that uses RESOURCE_REGION, updates it, and refuses the reserved prefix', async () => {
      workspace(profileExample);
      await ws.expect(['apply', '-auto-approve']);
      expect(stored()).to.deep.include({ extends: 'SEC_CFG_CLOUD_B_DEFAULT_PROFILE' });
      expect(stored()!.alerts).to.deep.equal([
        {
          name: 'Violation',
          eventName: 'Platform Configuration Cloud B Violation Alert',
          subject: '{{_OCCURRENCE}} violation detected in project {{PROJECT_ID}}',
          description,
        },
      ]);
      const out = await outputs();
      expect([out.name!.value, out.extends!.value, out.alert_description!.value]).to.deep.equal([
        'CUSTOM_PROFILE_TERRAFORM_TEST',
        'SEC_CFG_CLOUD_B_DEFAULT_PROFILE',
        description,
      ]);
      expect((await ws.state()).get('sec_alert_profile.custom_profile')!.values.fields).to.include.members([
        'RESOURCE_REGION',
        'PROJECT_ID',
      ]);
      await ws.expect(['plan', '-detailed-exitcode'], 0);

      const updated = ['-var', `alert_description=${description} Updated`];
      await ws.expect(['apply', '-auto-approve', ...updated]);
      expect(stored()!.alerts[0]!.description).to.equal(`${description} Updated`);
      await ws.expect(['plan', '-detailed-exitcode', ...updated], 0);

      // Upstream's validate test: names with the reserved prefix are refused at plan.
      const reserved = await ws.expect(['plan', '-no-color', ...updated, '-var', 'name=SEC_PROFILE_TERRAFORM_TEST'], 1);
      expect(flat(reserved.stderr)).to.match(/Invalid value for "name"/);
      expect(flat(reserved.stderr)).to.match(
        /must not start with "SEC_", which is reserved for the platform's built-in profiles/,
      );

      await ws.expect(['destroy', '-auto-approve', ...updated]);
      expect(stored()).to.equal(undefined);
    });
  });

  describe('policy alerting with a bare alert profile', () => {
    // Upstream's policy example (examples/resource_lacework_policy): a platform query, no id
    // suffix (""), and alerting through a bare profile.
    const policyExample = `
resource "sec_policy" "example" {
  title            = var.title
  query_id         = "SEC_Global_CloudA_Trail_TrailChange"
  severity         = var.severity
  type             = var.type
  description      = var.description
  remediation      = var.remediation
  evaluation       = var.evaluation
  enabled          = true
  policy_id_suffix = var.policy_id_suffix
  tags             = var.tags

  alerting {
    enabled = false
    profile = var.profile
  }
}

variable "title" {
  type    = string
  default = "lql-terraform-policy"
}

variable "description" {
  type    = string
  default = "Policy Created via Terraform"
}

variable "severity" {
  type    = string
  default = "High"
}

variable "remediation" {
  type    = string
  default = "Please Investigate"
}

variable "type" {
  type    = string
  default = "Violation"
}

variable "evaluation" {
  type    = string
  default = "Hourly"
}

variable "policy_id_suffix" {
  default = ""
}

variable "tags" {
  type    = list(string)
  default = ["cloud_CloudA", "custom"]
}

variable "profile" {
  type    = string
  default = "SEC_CloudATrail_Alerts"
}

output "title" {
  value = sec_policy.example.title
}

output "severity" {
  value = sec_policy.example.severity
}

output "policy_id" {
  value = sec_policy.example.id
}
`;
    const custom = () =>
      emulator.list<PolicyRecord>('Policies').filter((p) => !p.policyId.startsWith('platform-global'));

    it('creates the policy with the bare profile, keeps it on update, and takes the documented <profile>.<template> form too', async () => {
      workspace(policyExample);
      const first = ['-var', 'tags=["cloud_CloudA","resource_Trail"]'];
      await ws.expect(['apply', '-auto-approve', ...first]);
      expect(custom()).to.have.length(1);
      const created = custom()[0]!;
      // No suffix: the platform numbered the policy.
      expect(created.policyId).to.match(new RegExp(`^${emulator.account}-\\d+$`));
      expect(created).to.deep.include({
        title: 'lql-terraform-policy',
        severity: 'high',
        queryId: 'SEC_Global_CloudA_Trail_TrailChange',
        alertEnabled: false,
        alertProfile: 'SEC_CloudATrail_Alerts',
      });
      expect(created.tags).to.have.members(['cloud_CloudA', 'resource_Trail']);
      const state = (await ws.state()).get('sec_policy.example')!.values;
      expect(state).to.deep.include({
        id: created.policyId,
        policy_id_suffix: '',
        alerting: [{ enabled: false, profile: 'SEC_CloudATrail_Alerts' }],
      });
      expect((await outputs()).policy_id!.value).to.equal(created.policyId);
      await ws.expect(['plan', '-detailed-exitcode', ...first], 0);

      const second = [
        ...first,
        '-var',
        'title=lql-terraform-policy-updated',
        '-var',
        'severity=Low',
        '-var',
        'evaluation=Daily',
      ];
      await ws.expect(['apply', '-auto-approve', ...second]);
      expect(custom().map((p) => p.policyId)).to.deep.equal([created.policyId]);
      expect(custom()[0]).to.deep.include({
        title: 'lql-terraform-policy-updated',
        severity: 'low',
        alertProfile: 'SEC_CloudATrail_Alerts',
      });
      await ws.expect(['plan', '-detailed-exitcode', ...second], 0);

      // Upstream's docs write <profile>.<template>.
      const templated = [...second, '-var', 'profile=SEC_CloudATrail_Alerts.CloudATrailDefaultAlert_CloudAResource'];
      await ws.expect(['apply', '-auto-approve', ...templated]);
      expect(custom()[0]!.alertProfile).to.equal('SEC_CloudATrail_Alerts.CloudATrailDefaultAlert_CloudAResource');
      await ws.expect(['plan', '-detailed-exitcode', ...templated], 0);

      // What is not a profile reference is refused at plan, with the attribute path.
      const malformed = await ws.expect(['plan', '-no-color', ...second, '-var', 'profile=SEC_CloudATrail_Alerts.'], 1);
      expect(flat(malformed.stderr)).to.match(/Invalid value for "profile"/);
      expect(flat(malformed.stderr)).to.match(/`<profile>` or\s+`<profile>\.<template>`/);
      // An unknown profile is refused at plan, where the provider reads the platform's profiles.
      const unknown = await ws.expect(
        ['apply', '-auto-approve', '-no-color', ...second, '-var', 'profile=NO_SUCH_PROFILE'],
        1,
      );
      expect(flat(unknown.stderr)).to.match(/No alert profile is named "NO_SUCH_PROFILE"\. The platform has `/);
      expect(custom()[0]!.alertProfile).to.equal('SEC_CloudATrail_Alerts.CloudATrailDefaultAlert_CloudAResource');

      await ws.expect(['destroy', '-auto-approve', ...templated]);
      expect(custom()).to.deep.equal([]);
    });
  });

  describe('a custom query and the policy that evaluates it', () => {
    // Upstream's query example (examples/resource_lacework_query), translated: an indented heredoc
    // (`<<EOT`, kept as written), a function call in the filter, and a policy on the query's id.
    const queryExample = `
resource "sec_query" "example" {
  query_id = "TF_CloudA_Trail_DatabasePasswordChange"
  query    = <<EOT
  {
      source {
          CloudATrailRawEvents
      }
      filter {
          EVENT_SOURCE = 'database.cloud-a.example'
          and EVENT_NAME = 'ModifyDBCluster'
          and value_exists(EVENT:requestParameters.masterUserPassword)
          and EVENT:requestParameters.applyImmediately = 'true'
          and ERROR_CODE is null
      }
      return distinct {
          INSERT_ID,
          INSERT_TIME,
          EVENT_TIME,
          EVENT
      }
  }
EOT
}

resource "sec_policy" "example" {
  title       = "Database password changed"
  query_id    = sec_query.example.id
  severity    = "High"
  type        = "Violation"
  description = "A database cluster's master password was changed"
  remediation = "Check that the change was intended"
}
`;

    it('applies, changes the text, takes a new id with create_before_destroy, destroys the policy first', async () => {
      workspace(queryExample);
      await ws.expect(['apply', '-auto-approve']);
      const stored = emulator.get<{ queryText: string; evaluatorId: string; owner: string }>(
        'Queries',
        'TF_CloudA_Trail_DatabasePasswordChange',
      )!;
      expect(stored.evaluatorId).to.equal('CloudATrail');
      expect(stored.queryText).to.include('value_exists(EVENT:requestParameters.masterUserPassword)');
      const custom = emulator
        .list<PolicyRecord>('Policies')
        .filter((p) => p.queryId === 'TF_CloudA_Trail_DatabasePasswordChange');
      expect(custom.map((p) => p.title)).to.deep.equal(['Database password changed']);
      await ws.expect(['plan', '-detailed-exitcode'], 0);

      ws.writeConfig(PROVIDER + queryExample.replace('          EVENT_TIME,\n', ''));
      await ws.expect(['apply', '-auto-approve']);
      expect(
        emulator.get<{ queryText: string }>('Queries', 'TF_CloudA_Trail_DatabasePasswordChange')!.queryText,
      ).to.not.include('EVENT_TIME');
      expect(
        emulator.list<PolicyRecord>('Policies').filter((p) => p.queryId === 'TF_CloudA_Trail_DatabasePasswordChange'),
      ).to.have.length(1);
      await ws.expect(['plan', '-detailed-exitcode'], 0);

      // A new query_id replaces the query. By default Terraform deletes the old one first, which the
      // platform refuses while the policy uses it; with create_before_destroy (as the query's page
      // says) the new query is made, the policy moved to it, and the old one deleted.
      const [before, after] = ['TF_CloudA_Trail_DatabasePasswordChange', 'TF_CloudA_Trail_DatabasePasswordChanged'];
      const renamed = queryExample.replace(`"${before}"`, `"${after}"`);
      ws.writeConfig(PROVIDER + renamed);
      const refused = await ws.expect(['apply', '-auto-approve', '-no-color'], 1);
      expect(flat(refused.stderr)).to.include('query "TF_CloudA_Trail_DatabasePasswordChange" is used by policy');
      expect(emulator.get('Queries', 'TF_CloudA_Trail_DatabasePasswordChanged'), 'nothing made').to.equal(undefined);
      const lifecycle = '\n  lifecycle {\n    create_before_destroy = true\n  }\n';
      ws.writeConfig(PROVIDER + renamed.replace('\nEOT\n}', `\nEOT\n${lifecycle}}`));
      await ws.expect(['apply', '-auto-approve']);
      expect(emulator.get('Queries', before), 'the old query').to.equal(undefined);
      expect(emulator.get('Queries', after), 'the new query').to.not.equal(undefined);
      const moved = emulator.list<PolicyRecord>('Policies').filter((p) => p.title === 'Database password changed');
      expect(moved.map((p) => p.queryId)).to.deep.equal([after]);
      await ws.expect(['plan', '-detailed-exitcode'], 0);

      // The platform keeps a query a policy uses; Terraform deletes the policy first.
      await ws.expect(['destroy', '-auto-approve']);
      expect(emulator.get('Queries', 'TF_CloudA_Trail_DatabasePasswordChanged')).to.equal(undefined);
    });
  });

  describe("alert rules in the platform's current vocabulary, and in the deprecated one", () => {
    // Upstream's two alert-rule examples (examples/resource_lacework_alert_rule/{current,deprecated}),
    // translated: the resource group of Cloud A accounts, a channel of ours for its placeholder GUID.
    const common = `
resource "sec_alert_channel_email" "example" {
  name       = "Alert rule channel"
  recipients = ["ops@example.com"]
}

resource "sec_resource_group" "example" {
  name = var.resource_group_name
  type = "CLOUD_A"
  group {
    operator = "OR"
    filter {
      filter_name = "filter1"
      field       = "Account"
      operation   = "EQUALS"
      value       = ["*"]
    }
  }
}

variable "resource_group_name" {
  type    = string
  default = "Users for Alert Rules Testing example"
}

variable "severities" {
  type    = list(string)
  default = ["High", "Medium"]
}

variable "alert_categories" {
  type    = list(string)
  default = ["Policy"]
}
`;
    const current = `${common}
resource "sec_alert_rule" "example" {
  name                = "Alert Rule"
  description         = "Alert Rule created by Terraform"
  alert_channels      = [sec_alert_channel_email.example.intg_guid]
  severities          = var.severities
  alert_subcategories = var.alert_subcategories
  alert_categories    = var.alert_categories
  alert_sources       = var.alert_sources
  resource_groups     = [sec_resource_group.example.id]
}

variable "alert_subcategories" {
  type    = list(string)
  default = ["Compliance", "Platform", "User", "Cloud Activity"]
}

variable "alert_sources" {
  type    = list(string)
  default = ["CloudA"]
}

output "alert_subcategories" {
  value = sec_alert_rule.example.alert_subcategories
}

output "alert_sources" {
  value = sec_alert_rule.example.alert_sources
}
`;
    const deprecated = `${common}
resource "sec_alert_rule" "example" {
  name             = "Alert Rule"
  description      = "Alert Rule created by Terraform"
  alert_channels   = [sec_alert_channel_email.example.intg_guid]
  severities       = var.severities
  event_categories = var.event_categories
  alert_categories = var.alert_categories
  resource_groups  = [sec_resource_group.example.id]
}

variable "event_categories" {
  type    = list(string)
  default = ["Compliance", "Platform", "User", "Cloud"]
}

output "event_categories" {
  value = sec_alert_rule.example.event_categories
}
`;
    const storedRule = () => {
      const [rule] = emulator
        .list<{ mcGuid: string; filters: { name: string; subCategory: string[]; source: string[] } }>('AlertRules')
        .filter((r) => r.filters.name === 'Alert Rule');
      return rule!;
    };
    const importBlock = (guid: string) => `\nimport {\n  to = sec_alert_rule.example\n  id = "${guid}"\n}\n`;

    it('applies the current example, re-plans empty, imports and destroys; the fourth cloud and the new subcategories are taken', async () => {
      workspace(current);
      await ws.expect(['apply', '-auto-approve']);
      expect(storedRule().filters.subCategory).to.have.members(['Compliance', 'Platform', 'User', 'Cloud Activity']);
      expect(storedRule().filters.source).to.deep.equal(['CloudA']);
      expect((await outputs()).alert_subcategories!.value).to.have.members([
        'Compliance',
        'Platform',
        'User',
        'Cloud Activity',
      ]);
      await ws.expect(['plan', '-detailed-exitcode'], 0);

      await ws.expect([
        'apply',
        '-auto-approve',
        '-var=alert_sources=["CloudA","CloudD","K8s"]',
        '-var=alert_subcategories=["Threat Intel","Kubernetes Activity","Host Vulnerability","Container Vulnerability"]',
      ]);
      expect(storedRule().filters.source).to.have.members(['CloudA', 'CloudD', 'K8s']);
      expect(storedRule().filters.subCategory).to.have.members([
        'Threat Intel',
        'Kubernetes Activity',
        'Host Vulnerability',
        'Container Vulnerability',
      ]);

      const guid = storedRule().mcGuid;
      await ws.expect(['apply', '-auto-approve']);
      await ws.expect(['state', 'rm', 'sec_alert_rule.example']);
      ws.writeConfig(PROVIDER + current + importBlock(guid));
      await ws.expect(['apply', '-auto-approve']);
      ws.writeConfig(PROVIDER + current);
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
      expect(emulator.list('AlertRules')).to.deep.equal([]);
    });

    it('applies the deprecated example with warnings naming the replacements, keeps its older names, and re-plans empty', async () => {
      workspace(deprecated);
      const applied = await ws.expect(['apply', '-auto-approve', '-no-color']);
      const warnings = flat(applied.stdout + applied.stderr);
      expect(warnings).to.include('Argument "event_categories" is deprecated');
      expect(warnings).to.include('Use `alert_subcategories`');
      expect(warnings).to.include('`Cloud` is the older name of the subcategory `Cloud Activity`');
      expect(storedRule().filters.subCategory).to.have.members(['Compliance', 'Platform', 'User', 'Cloud Activity']);
      expect((await outputs()).event_categories!.value).to.have.members(['Compliance', 'Platform', 'User', 'Cloud']);
      await ws.expect(['plan', '-detailed-exitcode'], 0);

      // Both forms at once: refused at plan time, nothing sent.
      ws.writeConfig(
        PROVIDER +
          deprecated.replace(
            '  event_categories = var.event_categories\n',
            '  event_categories = var.event_categories\n  alert_subcategories = ["Compliance"]\n',
          ),
      );
      const both = await ws.run(['plan', '-no-color']);
      expect(both.code).to.equal(1);
      expect(flat(both.stderr))
        .to.include('Conflicting arguments')
        .and.include('Set `alert_subcategories` or the deprecated `event_categories`, not both');

      // Moving to the current argument sends the same list.
      ws.writeConfig(PROVIDER + current.replace('  alert_sources       = var.alert_sources\n', ''));
      await ws.expect(['apply', '-auto-approve']);
      expect(storedRule().filters.subCategory).to.have.members(['Compliance', 'Platform', 'User', 'Cloud Activity']);
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
    });
  });

  describe("upstream's compliance policy on a built-in query", () => {
    // Upstream's policy-compliance example (examples/resource_lacework_policy_compliance), translated:
    // the platform's Cloud A bucket-logging configuration check, an empty suffix by default.
    const complianceExample = `
resource "sec_policy_compliance" "example" {
  title            = var.title
  query_id         = "SEC_Global_CloudA_Config_BucketLoggingNotEnabled"
  severity         = var.severity
  description      = var.description
  remediation      = var.remediation
  enabled          = true
  policy_id_suffix = var.policy_id_suffix
  tags             = var.tags
  alerting_enabled = true
}

variable "title" {
  type    = string
  default = "lql-terraform-policy"
}

variable "description" {
  type    = string
  default = "Policy Created via Terraform"
}

variable "severity" {
  type    = string
  default = "High"
}

variable "remediation" {
  type    = string
  default = "Please Investigate"
}

variable "policy_id_suffix" {
  default = ""
}

variable "tags" {
  type    = list(string)
  default = ["cloud_CloudA", "custom"]
}

output "tags" {
  value = sec_policy_compliance.example.tags
}
`;

    it('applies, re-plans empty, imports and destroys', async () => {
      workspace(complianceExample);
      await ws.expect(['apply', '-auto-approve']);
      const [created] = emulator
        .list<PolicyRecord>('Policies')
        .filter((p) => p.queryId === 'SEC_Global_CloudA_Config_BucketLoggingNotEnabled');
      expect(created).to.deep.include({
        title: 'lql-terraform-policy',
        severity: 'high',
        enabled: true,
        alertEnabled: true,
      });
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['state', 'rm', 'sec_policy_compliance.example']);
      ws.writeConfig(
        PROVIDER +
          complianceExample +
          `\nimport {\n  to = sec_policy_compliance.example\n  id = "${created!.policyId}"\n}\n`,
      );
      await ws.expect(['apply', '-auto-approve']);
      ws.writeConfig(PROVIDER + complianceExample);
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
      expect(emulator.get('Policies', created!.policyId)).to.equal(undefined);
    });
  });

  describe("upstream's query on the cluster audit log", () => {
    // Upstream's query test (integration/resource_lacework_query_test.go, queryStringK8), translated.
    const k8sQuery = `
resource "sec_query" "example" {
  query_id = "Lql_Terraform_Query_K8s"
  query    = <<EOT
  {
      source {
          SEC_ACT_K8S_AUDIT
      }
      filter {
          (EVENT_JSON:requestURI = '/api/v1/namespaces'
              or EVENT_JSON:requestURI like '/api/v1/namespaces?%')
          and EVENT_JSON:verb = 'create'
          and EVENT_JSON:responseStatus.code between 200 and 299
      }
      return distinct {
          EVENT_NAME,
          EVENT_OBJECT,
          CLUSTER_TYPE,
          CLUSTER_ID
      }
  }
EOT
}
`;

    it('applies, re-plans empty, imports and destroys', async () => {
      workspace(k8sQuery);
      await ws.expect(['apply', '-auto-approve']);
      const stored = emulator.get<{ queryText: string; evaluatorId: string; resultSchema: string }>(
        'Queries',
        'Lql_Terraform_Query_K8s',
      )!;
      expect(stored.evaluatorId).to.equal('');
      expect(JSON.parse(stored.resultSchema).map((c: { name: string }) => c.name)).to.deep.equal([
        'EVENT_NAME',
        'EVENT_OBJECT',
        'CLUSTER_TYPE',
        'CLUSTER_ID',
      ]);
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['state', 'rm', 'sec_query.example']);
      ws.writeConfig(
        `${PROVIDER + k8sQuery}\nimport {\n  to = sec_query.example\n  id = "Lql_Terraform_Query_K8s"\n}\n`,
      );
      await ws.expect(['apply', '-auto-approve']);
      ws.writeConfig(PROVIDER + k8sQuery);
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
      expect(emulator.get('Queries', 'Lql_Terraform_Query_K8s')).to.equal(undefined);
    });
  });

  describe("the value lists of upstream 2.2.0 and its SDK's tests, in one workspace", () => {
    // Translated: upstream's two documented queries (docs/resources/query.md) and its documented
    // compliance query and policy (docs/resources/policy_compliance.md; the docs reuse the id of
    // built-in policy 75's query, so the account's own copy takes another id of the same form); the
    // SDK's (v2.10.0) integration queries, which have no filter, and its host-file policy; a
    // vulnerability exception with the reason `Unknown`, which upstream's list holds.
    const shapes = `
resource "sec_query" "instances" {
  query_id = "TF_CloudA_Config_InstanceWithPublicIPAddress"
  query    = <<EOT
  {
      source {
          SEC_CFG_CLOUD_A_INSTANCES
      }
      filter {
          value_exists(RESOURCE_CONFIG:PublicIpAddress)
      }
      return distinct {
          ACCOUNT_ALIAS,
          ACCOUNT_ID,
          ARN as RESOURCE_KEY,
          RESOURCE_REGION,
          RESOURCE_TYPE,
          SERVICE,
          case when RESOURCE_TYPE = 'instance' then 'HasPublicIp'
          end as COMPLIANCE_FAILURE_REASON
      }
  }
EOT
}

resource "sec_query" "public_acl" {
  query_id = "TF_CloudA_Trail_BucketPublicACLCreated"
  query    = <<EOT
  {
      source {
          CloudATrailRawEvents
      }
      filter {
          EVENT_SOURCE = 'object-store.cloud-a.example'
          and EVENT_NAME = 'CreateBucket'
          and EVENT:requestParameters."x-acl"
          in ('public-read', 'public-read-write', 'authenticated-read')
          and ERROR_CODE is null
      }
      return distinct {
          INSERT_ID,
          INSERT_TIME,
          EVENT_TIME,
          EVENT
      }
  }
EOT
}

resource "sec_query" "trail_validation" {
  query_id = "SEC_Global_CloudA_Config_OwnTrailLogFileValidation"
  query    = <<EOT
  {
    source {
      SEC_CFG_CLOUD_A_TRAIL
    }
    filter {
      RESOURCE_CONFIG:LogFileValidationEnabled = 'false'
    }
    return distinct {
      ACCOUNT_ALIAS,
      ACCOUNT_ID,
      ARN as RESOURCE_KEY,
      RESOURCE_REGION,
      RESOURCE_TYPE,
      SERVICE,
      'TrailLogFileValidationNotEnabled' as COMPLIANCE_FAILURE_REASON
    }
  }
EOT
}

resource "sec_policy_compliance" "example" {
  query_id = sec_query.trail_validation.id
  title = "Ensure trail log file validation is enabled"
  enabled = false
  severity = "High"
  description = "Trail log file validation creates a digitally signed digest file."
  remediation = "Enable log file validation on the trail."
  tags = ["security:compliance"]
  alerting_enabled = false
}

resource "sec_query" "no_filter" {
  query_id = "CLI_CloudA_CTA_IntegrationTest"
  query    = "{ source { CloudATrailRawEvents } return { INSERT_ID } }"
}

resource "sec_query" "host_files" {
  query_id = "CLI_Host_Files_IntegrationTest"
  query    = <<EOT
CLI_Host_Files_IntegrationTest {
    source {
        SEC_HE_FILES
    }
    return {
        PATH
    }
}
EOT
}

resource "sec_policy" "host_files" {
  type        = "Violation"
  query_id    = sec_query.host_files.id
  title       = "My Policy Title"
  enabled     = false
  description = "My Policy Description"
  remediation = "Check yourself..."
  severity    = "high"
  alerting {
    enabled = false
    profile = "SEC_HE_FILES_DEFAULT_PROFILE.HE_File_NewViolation"
  }
}

resource "sec_vulnerability_exception_host" "unknown_reason" {
  name   = "reason Unknown"
  reason = "Unknown"
  vulnerability_criteria {
    cves = ["CVE-2023-1234"]
  }
}
`;
    const queryIds = [
      'TF_CloudA_Config_InstanceWithPublicIPAddress',
      'TF_CloudA_Trail_BucketPublicACLCreated',
      'SEC_Global_CloudA_Config_OwnTrailLogFileValidation',
      'CLI_CloudA_CTA_IntegrationTest',
      'CLI_Host_Files_IntegrationTest',
    ];

    it('applies, re-plans empty and destroys', async () => {
      workspace(shapes);
      await ws.expect(['apply', '-auto-approve']);
      const stored = (id: string) => emulator.get<{ evaluatorId: string; resultSchema: string }>('Queries', id)!;
      expect(queryIds.map((id) => stored(id).evaluatorId)).to.deep.equal(['', 'CloudATrail', '', 'CloudATrail', '']);
      const columns = (id: string) => JSON.parse(stored(id).resultSchema).map((c: { name: string }) => c.name);
      expect(columns('TF_CloudA_Config_InstanceWithPublicIPAddress')).to.include('COMPLIANCE_FAILURE_REASON');
      expect(columns('CLI_Host_Files_IntegrationTest')).to.deep.equal(['PATH']);
      const policies = emulator.list<PolicyRecord & { policyType: string }>('Policies');
      const compliance = policies.find((p) => p.queryId === 'SEC_Global_CloudA_Config_OwnTrailLogFileValidation');
      expect(compliance).to.deep.include({ policyType: 'Compliance', enabled: false });
      expect(policies.find((p) => p.queryId === 'CLI_Host_Files_IntegrationTest')).to.deep.include({
        alertProfile: 'SEC_HE_FILES_DEFAULT_PROFILE.HE_File_NewViolation',
        alertEnabled: false,
      });
      const exceptions = emulator.list<{ exceptionName: string; exceptionReason: string }>('VulnerabilityExceptions');
      expect(exceptions.find((e) => e.exceptionName === 'reason Unknown')?.exceptionReason).to.equal('Unknown');
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
      for (const id of queryIds) expect(emulator.get('Queries', id), id).to.equal(undefined);
    });
  });

  describe('organisation agentless scanning with an empty scanning account', () => {
    // Upstream's example and active acceptance test (examples/resource_lacework_integration_aws_org_agentless_scanning).
    const orgExample = `
provider "sec" {
  organization = true
}

resource "sec_integration_cloud_a_org_agentless_scanning" "example" {
  name                      = var.name
  query_text                = var.query_text
  scan_frequency            = 24
  scan_containers           = true
  scan_host_vulnerabilities = true
  scan_multi_volume         = false
  scan_stopped_instances    = true
  account_id                = var.account_id
  bucket_arn                = var.bucket_arn
  scanning_account          = var.scanning_account
  management_account        = var.management_account
  monitored_accounts        = var.monitored_accounts

  credentials {
    role_arn    = var.role_arn
    external_id = var.external_id
  }

  dynamic "org_account_mappings" {
    for_each = var.org_account_mappings
    content {
      default_platform_account = org_account_mappings.value["default_platform_account"]

      dynamic "mapping" {
        for_each = org_account_mappings.value["mapping"]
        content {
          platform_account = mapping.value["platform_account"]
          cloud_a_accounts = mapping.value["cloud_a_accounts"]
        }
      }
    }
  }
}

variable "account_id" {
  type    = string
  default = ""
}

variable "bucket_arn" {
  type    = string
  default = ""
}

variable "role_arn" {
  type    = string
  default = ""
}

variable "external_id" {
  type    = string
  default = ""
}

variable "name" {
  type    = string
  default = "Cloud A Organizations Agentless Scanning Example"
}

variable "query_text" {
  type    = string
  default = ""
}

variable "scanning_account" {
  type    = string
  default = ""
}

variable "management_account" {
  type    = string
  default = ""
}

variable "monitored_accounts" {
  type    = list(string)
  default = []
}

variable "org_account_mappings" {
  type = list(object({
    default_platform_account = string
    mapping = list(object({
      platform_account = string
      cloud_a_accounts = list(string)
    }))
  }))
  default = []
}

output "name" {
  value = sec_integration_cloud_a_org_agentless_scanning.example.name
}

output "org_account_mappings" {
  value = sec_integration_cloud_a_org_agentless_scanning.example.org_account_mappings
}
`;
    const testVars = (name: string) => [
      '-var',
      `name=${name}`,
      '-var',
      'role_arn=arn:cloud-a:iam::249446771485:role/platform-iam-example-role',
      '-var',
      'external_id=12345',
      '-var',
      'org_account_mappings=[{default_platform_account="customerdemo", mapping=[{platform_account="abc", cloud_a_accounts=["327958430571"]}]}]',
    ];
    const stored = () =>
      emulator.list<IntegrationRecord>('CloudAccounts').filter((i) => i.type === 'CloudAAgentlessOrg');

    it("creates, settles and updates the integration as upstream's test does, then names the scanning account", async () => {
      workspace(orgExample);
      const created = testVars('Cloud A Org Agentless Scanning created by terraform');
      await ws.expect(['apply', '-auto-approve', ...created]);
      expect(stored()).to.have.length(1);
      const guid = stored()[0]!.intgGuid;
      expect(stored()[0]!.name).to.equal('Cloud A Org Agentless Scanning created by terraform');
      expect(stored()[0]!.data).to.deep.include({
        scanningAccount: '',
        monitoredAccounts: '',
        crossAccountCredentials: {
          roleArn: 'arn:cloud-a:iam::249446771485:role/platform-iam-example-role',
          externalId: '12345',
        },
      });
      expect(stored()[0]!.data).to.have.property('accountMappingFile').that.is.a('string');
      const state = (await ws.state()).get('sec_integration_cloud_a_org_agentless_scanning.example')!;
      expect(state.values).to.deep.include({
        scanning_account: '',
        monitored_accounts: [],
        server_token: stored()[0]!.serverToken!.serverToken,
      });
      expect(state.sensitive_values).to.have.property('server_token', true);
      const out = await outputs();
      expect(out.name!.value).to.equal('Cloud A Org Agentless Scanning created by terraform');
      expect(out.org_account_mappings!.value).to.deep.equal([
        {
          default_platform_account: 'customerdemo',
          mapping: [{ platform_account: 'abc', cloud_a_accounts: ['327958430571'] }],
        },
      ]);
      await ws.expect(['plan', '-detailed-exitcode', ...created], 0);

      const updated = testVars('Cloud A Org Agentless Scanning updated by terraform');
      await ws.expect(['apply', '-auto-approve', ...updated]);
      expect(stored().map((i) => [i.intgGuid, i.name])).to.deep.equal([
        [guid, 'Cloud A Org Agentless Scanning updated by terraform'],
      ]);
      await ws.expect(['plan', '-detailed-exitcode', ...updated], 0);

      const named = [
        ...updated,
        '-var',
        'scanning_account=123456789012',
        '-var',
        'monitored_accounts=["ou-abcd-11111111"]',
      ];
      await ws.expect(['apply', '-auto-approve', ...named]);
      expect(stored()[0]!.data).to.deep.include({
        scanningAccount: '123456789012',
        monitoredAccounts: 'ou-abcd-11111111',
      });
      await ws.expect(['plan', '-detailed-exitcode', ...named], 0);

      await ws.expect(['destroy', '-auto-approve', ...named]);
      expect(stored()).to.deep.equal([]);
    });
  });

  describe('what stays strict: sensitive tokens and PEM keys', () => {
    it("refuses upstream's plain outputs of server_token and ingest_token, and applies them marked sensitive", async () => {
      // Upstream's proxy-scanner and log-sink (Splunk) examples output the tokens without `sensitive`.
      const config = (sensitive: boolean) => `
resource "sec_integration_proxy_scanner" "example" {
  name = "tf-upstream-proxy-scanner"

  limit_num_imgs        = 10
  limit_by_tags         = ["dev*", "*test"]
  limit_by_repositories = ["repo/my-image", "repo/other-image"]

  limit_by_label {
    key   = "foo"
    value = "bar"
  }
}

resource "sec_alert_channel_log_sink" "example" {
  name         = "tf-upstream-log-sink"
  channel      = "Log Sink Channel"
  ingest_token = var.ingest_token
  host         = "host"
  port         = 80
  ssl          = true
  event_data {
    index  = "index"
    source = "source"
  }
  test_integration = false
}

variable "ingest_token" {
  type    = string
  default = "BA696D5E-CA2F-4347-97CB-3C89F834816F"
}

output "server_token" {
  value = sec_integration_proxy_scanner.example.server_token${sensitive ? '\n  sensitive = true' : ''}
}

output "ingest_token" {
  value = sec_alert_channel_log_sink.example.ingest_token${sensitive ? '\n  sensitive = true' : ''}
}
`;
      workspace(config(false));
      const plain = await ws.expect(['plan', '-no-color'], 1);
      expect(flat(plain.stderr)).to.match(/Output refers to sensitive values/);
      expect(flat(plain.stderr)).to.match(/output "server_token"/);
      expect(flat(plain.stderr)).to.match(/output "ingest_token"/);
      expect(emulator.list('ContainerRegistries')).to.deep.equal([]);

      ws.writeConfig(PROVIDER + config(true));
      const applied = await ws.expect(['apply', '-auto-approve', '-no-color']);
      expect(applied.stdout).to.not.match(/BA696D5E-CA2F-4347-97CB-3C89F834816F/);
      const scanner = emulator
        .list<IntegrationRecord>('ContainerRegistries')
        .find((r) => r.name === 'tf-upstream-proxy-scanner')!;
      const out = await outputs();
      expect(out.server_token).to.deep.equal({
        sensitive: true,
        type: 'string',
        value: scanner.serverToken!.serverToken,
      });
      expect(out.ingest_token).to.deep.include({ sensitive: true, value: 'BA696D5E-CA2F-4347-97CB-3C89F834816F' });
      const shown = await ws.expect(['output', '-no-color']);
      expect(shown.stdout).to.match(/server_token = <sensitive>/);
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
    });

    it('refuses a private key that is not PEM, and the documented placeholder whose body is not base64, without showing either; takes a real one', async () => {
      // Upstream's Cloud B configuration docs example; its audit-trail example uses "xxxx…" instead.
      const config = (privateKey: string) => `
resource "sec_integration_cloud_b_cfg" "account_abc" {
  name        = "account ABC"
  resource_id = "ABC-project-id"
  credentials {
    client_id      = "123456789012345678900"
    client_email   = "email@abc-project-name.iam.example.com"
    private_key_id = "1234abcd1234abcd1234abcd1234abcd1234abcd"
    private_key    = "${privateKey}"
  }
}
`;
      workspace(config('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'));
      const refused = await ws.expect(['plan', '-no-color'], 1);
      expect(flat(refused.stderr)).to.match(/Invalid value for "private_key"/);
      expect(flat(refused.stderr)).to.match(/PEM-encoded private key/);
      expect(flat(refused.stderr)).to.match(/the value is not shown because it is secret/);
      // Only Terraform's quote of the configuration line shows it, never the diagnostic's text.
      expect((refused.stderr + refused.stdout).match(/x{37}/g)).to.have.length(1);
      expect(refused.stderr).to.match(/private_key += "x{37}"/);

      // Upstream's docs write a placeholder whose body is " ... ": the platform refuses it, so does the plan.
      const placeholder = '-----BEGIN PRIVATE KEY-----\\n ... -----END PRIVATE KEY-----\\n';
      ws.writeConfig(PROVIDER + config(placeholder));
      const notBase64 = await ws.expect(['plan', '-no-color'], 1);
      expect(flat(notBase64.stderr))
        .to.include('base64 body')
        .and.include('the value is not shown because it is secret');
      expect(emulator.list<IntegrationRecord>('CloudAccounts').filter((i) => i.name === 'account ABC')).to.deep.equal(
        [],
      );

      const key =
        '-----BEGIN PRIVATE KEY-----\\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\\n-----END PRIVATE KEY-----\\n';
      ws.writeConfig(PROVIDER + config(key));
      await ws.expect(['apply', '-auto-approve']);
      const stored = emulator.list<IntegrationRecord>('CloudAccounts').find((i) => i.name === 'account ABC')!;
      expect((stored.data.credentials as Record<string, unknown>).privateKey).to.equal(
        '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----\n',
      );
      expect(stored.data).to.deep.include({ idType: 'PROJECT', id: 'ABC-project-id' });
      await ws.expect(['plan', '-detailed-exitcode'], 0);
      await ws.expect(['destroy', '-auto-approve']);
    });
  });
});
