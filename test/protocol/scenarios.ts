/**
 * What the protocol fixtures record: each scenario is a workspace, the commands that set it up, and
 * the one command whose requests real Terraform sends are recorded (record-fixtures.ts), against
 * emulators seeded with the objects of seeds.ts; then what the answers to those requests must show
 * when they are replayed (replay.test.ts), each expectation attached to the recorded request it
 * selects (by RPC, type and a text the request holds).
 *
 * Plans and applies are recorded with -parallelism=1, so that Terraform sends its requests in the
 * same order at every recording (`terraform query` has no such flag).
 */
import type { RpcName } from '../../packages/framework/src/server/rpcs.js';
import type { WheelTerraform } from '../acceptance/terraform.js';
import { SEC_FIXED, VDB_FIXED, type Expectation } from './seeds.js';

/** The expectations of the recorded request a selector picks: the first of its RPC (and type) that holds `holding`. */
export interface StepExpectation {
  /** The step's id in the fixture. */
  readonly id: string;
  readonly rpc: RpcName;
  /** The request's `type_name` (`action_type` for actions). */
  readonly typeName?: string;
  /** A text the request's readable form must hold (an object's id). */
  readonly holding?: string;
  /** Which of the requests selected: the first (0, the default), or the last (a command's apply walk). */
  readonly nth?: 0 | 'last';
  /** What Terraform does there, and why. */
  readonly note: string;
  readonly expect: Expectation;
}

/**
 * A client whose requests can be recorded: a Terraform release of the wheels, the `terraform` on PATH
 * (1.11.4 in CI), or OpenTofu (`npm run clients` builds it).
 */
export type RecordingClient = WheelTerraform | 'path' | 'tofu';

export interface Scenario {
  readonly name: string;
  readonly provider: 'sec' | 'vdb';
  /** The client whose requests are recorded. */
  readonly terraform: RecordingClient;
  /** What the recorded command does, for people. */
  readonly command: string;
  /** The workspace's files (a text alone is its main.tf). */
  readonly files: Readonly<Record<string, string>> | string;
  /** Commands run before it, not recorded: each with its Terraform (`path`: the one on PATH, 1.11.4). */
  readonly setup?: ReadonlyArray<{ readonly terraform: WheelTerraform | 'path'; readonly args: readonly string[] }>;
  /** Files written after the setup, before the recorded command (a changed configuration). */
  readonly changed?: Readonly<Record<string, string>>;
  /** The recorded command's arguments. */
  readonly record: readonly string[];
  /**
   * The recorded command fails, as it should, and its output says this (an error the provider
   * answered, at the argument it names): a recording of what Terraform sends for a bad call.
   */
  readonly fails?: string;
  readonly expect: readonly StepExpectation[];
}

/** A cluster endpoint URL as the platform publishes it, for the function scenarios. */
const FUNCTION_CLUSTER_URL = 'https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example';

const requires = (provider: string) =>
  `terraform {\n  required_providers {\n    ${provider} = { source = "keel/${provider}" }\n  }\n}\n`;

const emailChannels = (nameB: string) => `${requires('sec')}
resource "sec_alert_channel_email" "a" {
  name       = "security-team"
  recipients = ["security@acme.example"]
}

resource "sec_alert_channel_email" "b" {
  name       = "${nameB}"
  recipients = ["oncall@acme.example"]
}
`;

const SEC_ID_SCHEMA = {
  sec_alert_channel_email: [{ name: 'id', required_for_import: true, optional_for_import: false }],
};
const A = SEC_FIXED.channelA;
const B = SEC_FIXED.channelB;
const BACKUP = 'vdb.cloud.cluster.backup.v1.BackupService';
const CLUSTERS = 'vdb.cloud.cluster.v1.ClusterService';
const KEYS = 'vdb.cloud.cluster.auth.v2.DatabaseApiKeyService';
const VDB_ACCOUNT_ID = { name: 'account_id', required_for_import: false, optional_for_import: true };

/** A backup's progress, as the vdb_cluster_backup action reports it, waiting up to `timeout`. */
const backupProgress = (timeout: string) => [
  `^Requesting a backup of cluster ${VDB_FIXED.cluster}$`,
  `^Backing up cluster ${VDB_FIXED.cluster}: backup search-prod-\\d{14} \\([0-9a-f-]{36}\\) started; waiting up to ${timeout} for it to finish$`,
  { zeroOrMore: '^Backup search-prod-\\d{14} \\([0-9a-f-]{36}\\): BACKUP_STATUS_RUNNING \\(\\d+ m?s\\)$' },
  '^Backup search-prod-\\d{14} \\([0-9a-f-]{36}\\) succeeded \\(it took \\S+\\)$',
];
const backupCalls = [`${BACKUP}/ListBackups`, `${BACKUP}/CreateBackup`, { oneOrMore: `${BACKUP}/GetBackup` }];

/** The seeded cluster as a configuration that plans no change, with `nodes` nodes. */
const seededCluster = (nodes: number) => `${requires('vdb')}
variable "cluster_id" {
  type = string
}

data "vdb_booking_packages" "aws" {
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
}

resource "vdb_accounts_cluster" "main" {
  name           = "search-prod"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  configuration {
    number_of_nodes = ${nodes}
    node_configuration {
      package_id = one([for p in data.vdb_booking_packages.aws.packages : p.id if p.name == "small"])
    }
  }

  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.vdb_cluster_backup.before_change]
    }
  }
}

action "vdb_cluster_backup" "before_change" {
  config {
    cluster_id       = var.cluster_id
    retention_period = "168h"
    timeout          = "2h"
  }
}
`;

/** The apply walk's provider process configures the provider last (actions.test.ts starts from it). */
const applyWalkConfiguration: StepExpectation[] = [
  {
    id: 'apply-configure',
    rpc: 'ConfigureProvider',
    nth: 'last',
    note: "The apply walk's provider process is configured before the action runs.",
    expect: {},
  },
];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'sec-1.12-plan',
    provider: 'sec',
    terraform: '1.12.2',
    command:
      'terraform plan: two sec_alert_channel_email in the state, one imported by 1.11 (no identity), one by 1.12',
    files: emailChannels('on-call-team'),
    setup: [
      { terraform: 'path', args: ['import', 'sec_alert_channel_email.a', A] },
      { terraform: '1.12.2', args: ['import', 'sec_alert_channel_email.b', B] },
    ],
    record: ['plan', '-no-color', '-parallelism=1'],
    expect: [
      {
        id: 'identity-schemas',
        rpc: 'GetResourceIdentitySchemas',
        note: 'Right after GetProviderSchema, from 1.12 on.',
        expect: { identitySchemas: SEC_ID_SCHEMA },
      },
      {
        id: 'upgrade-a',
        rpc: 'UpgradeResourceState',
        holding: A,
        note: 'The state 1.11 wrote, as JSON; it has no identity to upgrade.',
        expect: { state: { field: 'upgraded_state', includes: { id: A, name: 'security-team' } } },
      },
      {
        id: 'read-a',
        rpc: 'ReadResource',
        holding: A,
        note: 'Refresh of a state 1.11 wrote: no current_identity; the answer gives one.',
        expect: {
          identity: { field: 'new_identity', value: { id: A } },
          state: { field: 'new_state', includes: { id: A, recipients: ['security@acme.example'] } },
          apiCalls: [`GET /api/v2/AlertChannels/${A}`],
        },
      },
      {
        id: 'plan-a',
        rpc: 'PlanResourceChange',
        holding: A,
        note: 'No change: the prior state and identity as the refresh answered them.',
        expect: {
          identity: { field: 'planned_identity', value: { id: A } },
          requiresReplace: [],
          state: { field: 'planned_state', includes: { name: 'security-team' } },
          apiCalls: [],
        },
      },
      {
        id: 'upgrade-b',
        rpc: 'UpgradeResourceState',
        holding: B,
        note: 'The state 1.12 wrote.',
        expect: { state: { field: 'upgraded_state', includes: { id: B } } },
      },
      {
        id: 'read-b',
        rpc: 'ReadResource',
        holding: B,
        note: 'Refresh of a state 1.12 wrote: its identity goes along as current_identity.',
        expect: { identity: { field: 'new_identity', value: { id: B } } },
      },
      {
        id: 'plan-b',
        rpc: 'PlanResourceChange',
        holding: B,
        note: 'A rename, in place: the identity stays.',
        expect: {
          identity: { field: 'planned_identity', value: { id: B } },
          requiresReplace: [],
          state: { field: 'planned_state', includes: { id: B, name: 'on-call-team' } },
        },
      },
    ],
  },
  {
    name: 'vdb-1.12-import-by-identity',
    provider: 'vdb',
    terraform: '1.12.2',
    command: 'terraform plan with an import block giving an identity (account_id left out)',
    files: `${requires('vdb')}
import {
  to       = vdb_accounts_database_api_key_v2.reader
  identity = { cluster_id = "${VDB_FIXED.cluster}", id = "${VDB_FIXED.reader}" }
}

resource "vdb_accounts_database_api_key_v2" "reader" {
  cluster_id = "${VDB_FIXED.cluster}"
  name       = "ci reader"
  global_access_rule {
    access_type = "GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"
  }
}
`,
    record: ['plan', '-no-color', '-parallelism=1'],
    expect: [
      {
        id: 'identity-schemas',
        rpc: 'GetResourceIdentitySchemas',
        note: 'The identity an import block may give: the account is optional.',
        expect: {
          identitySchemas: {
            vdb_accounts_database_api_key_v2: [
              VDB_ACCOUNT_ID,
              { name: 'cluster_id', required_for_import: true, optional_for_import: false },
              { name: 'id', required_for_import: true, optional_for_import: false },
            ],
          },
        },
      },
      {
        id: 'import',
        rpc: 'ImportResourceState',
        note: 'The identity as written, the account left out: the provider fills in its own.',
        expect: {
          identity: {
            field: 'imported_resources.0.identity',
            value: { account_id: VDB_FIXED.account, cluster_id: VDB_FIXED.cluster, id: VDB_FIXED.reader },
          },
          state: {
            field: 'imported_resources.0.state',
            includes: { id: VDB_FIXED.reader, cluster_id: VDB_FIXED.cluster, account_id: null },
          },
          apiCalls: [],
        },
      },
      {
        id: 'read',
        rpc: 'ReadResource',
        note: 'The imported object read at once.',
        expect: {
          identity: {
            field: 'new_identity',
            value: { account_id: VDB_FIXED.account, cluster_id: VDB_FIXED.cluster, id: VDB_FIXED.reader },
          },
          state: {
            field: 'new_state',
            includes: { account_id: VDB_FIXED.account, name: 'ci reader', postfix: 'a1b2' },
          },
          apiCalls: [`${KEYS}/ListDatabaseApiKeys`],
        },
      },
      {
        id: 'plan',
        rpc: 'PlanResourceChange',
        note: 'Planned against the configuration: no change.',
        expect: {
          identity: {
            field: 'planned_identity',
            value: { account_id: VDB_FIXED.account, cluster_id: VDB_FIXED.cluster, id: VDB_FIXED.reader },
          },
          requiresReplace: [],
        },
      },
    ],
  },
  {
    name: 'vdb-1.14-query',
    provider: 'vdb',
    terraform: '1.14.9',
    command: 'terraform query: the database API keys of a cluster with include_resource, the clusters with limit = 1',
    files: {
      'main.tf': `${requires('vdb')}\nprovider "vdb" {}\n`,
      'search.tfquery.hcl': `list "vdb_accounts_database_api_key_v2" "ci" {
  provider         = vdb
  include_resource = true
  config {
    cluster_id = "${VDB_FIXED.cluster}"
  }
}

list "vdb_accounts_cluster" "first" {
  provider = vdb
  limit    = 1
}
`,
    },
    record: ['query', '-no-color'],
    expect: [
      {
        id: 'list-keys',
        rpc: 'ListResource',
        typeName: 'vdb_accounts_database_api_key_v2',
        note: 'The keys of one cluster, whole objects, secrets never listed.',
        expect: {
          events: [
            {
              display_name: 'ci reader',
              identity: { account_id: VDB_FIXED.account, cluster_id: VDB_FIXED.cluster, id: VDB_FIXED.reader },
              resource_object: {
                id: VDB_FIXED.reader,
                name: 'ci reader',
                key: '',
                global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
              },
            },
            {
              display_name: 'ci writer',
              identity: { account_id: VDB_FIXED.account, cluster_id: VDB_FIXED.cluster, id: VDB_FIXED.writer },
              resource_object: {
                id: VDB_FIXED.writer,
                name: 'ci writer',
                collection_access_rules: [
                  { access_type: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE', collection_name: 'docs' },
                ],
              },
            },
          ],
          apiCalls: [`${KEYS}/ListDatabaseApiKeys`],
        },
      },
      {
        id: 'list-clusters',
        rpc: 'ListResource',
        typeName: 'vdb_accounts_cluster',
        note: 'limit = 1: the first cluster, no object (include_resource is false).',
        expect: {
          events: [
            {
              display_name: 'search-prod',
              identity: { account_id: VDB_FIXED.account, id: VDB_FIXED.cluster },
              resource_object: null,
            },
          ],
          apiCalls: [`${CLUSTERS}/ListClusters`],
        },
      },
    ],
  },
  {
    name: 'sec-1.14-query-generate-config',
    provider: 'sec',
    terraform: '1.14.9',
    command:
      'terraform query -generate-config-out=generated.tf: agent tokens by name, e-mail and webhook channels, the configuration written by the provider',
    files: {
      'main.tf': `${requires('sec')}\nprovider "sec" {}\n`,
      'search.tfquery.hcl': `list "sec_agent_access_token" "fleet" {
  provider         = sec
  include_resource = true
  config {
    name = "build-fleet"
  }
}

list "sec_alert_channel_email" "all" {
  provider         = sec
  include_resource = true
}

list "sec_alert_channel_webhook" "all" {
  provider         = sec
  include_resource = true
}
`,
    },
    record: ['query', '-no-color', '-generate-config-out=generated.tf'],
    expect: [
      {
        id: 'list-tokens',
        rpc: 'ListResource',
        typeName: 'sec_agent_access_token',
        note: 'A token found by name: its identity is a fingerprint of the token, never the token.',
        expect: {
          events: [
            {
              display_name: 'build-fleet',
              identity: { token_sha256: '<sha256 of the token>' },
              resource_object: { name: 'build-fleet', description: 'CI agents', os: 'linux', enabled: true },
            },
          ],
          apiCalls: ['POST /api/v2/AgentAccessTokens/search'],
        },
      },
      {
        id: 'list-mail',
        rpc: 'ListResource',
        typeName: 'sec_alert_channel_email',
        note: 'Every e-mail channel, whole.',
        expect: {
          events: [
            {
              display_name: 'security-team',
              identity: { id: A },
              resource_object: { id: A, name: 'security-team', recipients: ['security@acme.example'] },
            },
            {
              display_name: 'on-call',
              identity: { id: B },
              resource_object: { id: B, name: 'on-call', recipients: ['oncall@acme.example'] },
            },
          ],
          apiCalls: ['GET /api/v2/AlertChannels'],
        },
      },
      {
        id: 'generate-mail',
        rpc: 'GenerateResourceConfig',
        typeName: 'sec_alert_channel_email',
        holding: 'security-team',
        note: 'The configuration of a listed object, from the state the listing gave.',
        expect: {
          config: { name: 'security-team', recipients: ['security@acme.example'] },
          warnings: [],
          apiCalls: [],
        },
      },
      {
        id: 'list-hooks',
        rpc: 'ListResource',
        typeName: 'sec_alert_channel_webhook',
        note: 'A webhook channel: its URL is its secret, never listed.',
        expect: {
          events: [
            {
              display_name: 'siem-hook',
              identity: { id: SEC_FIXED.hook },
              resource_object: { name: 'siem-hook', webhook_url: null },
            },
          ],
          withholds: [SEC_FIXED.hookUrl],
          apiCalls: ['GET /api/v2/AlertChannels'],
        },
      },
      {
        id: 'generate-hook',
        rpc: 'GenerateResourceConfig',
        typeName: 'sec_alert_channel_webhook',
        note: 'A required secret cannot be written: null, and a warning names it.',
        expect: {
          config: { name: 'siem-hook', webhook_url: null },
          warnings: ['Generated configuration to complete'],
          withholds: [SEC_FIXED.hookUrl],
          apiCalls: [],
        },
      },
    ],
  },
  {
    name: 'sec-1.14-invoke-inventory-scan',
    provider: 'sec',
    terraform: '1.14.9',
    command: 'terraform apply -invoke=action.sec_inventory_scan.cloud_a',
    files: `${requires('sec')}
action "sec_inventory_scan" "cloud_a" {
  config {
    cloud = "CLOUD_A"
  }
}
`,
    record: ['apply', '-auto-approve', '-no-color', '-parallelism=1', '-invoke=action.sec_inventory_scan.cloud_a'],
    expect: [
      ...applyWalkConfiguration,
      {
        id: 'validate-action',
        rpc: 'ValidateActionConfig',
        note: 'The validate walk: nothing is sent to the platform.',
        expect: { apiCalls: [] },
      },
      {
        id: 'plan-action',
        rpc: 'PlanAction',
        note: 'Planning an action sends nothing either.',
        expect: { apiCalls: [] },
      },
      {
        id: 'invoke',
        rpc: 'InvokeAction',
        note: 'The scan, with its progress.',
        expect: {
          progress: [
            '^Asking the platform to scan the CLOUD_A resource inventory$',
            '^The platform is scanning the CLOUD_A resource inventory: scanning \\(Scan has been requested\\)$',
          ],
          completedErrors: [],
          apiCalls: ['POST /api/v2/Inventory/scan'],
          apiRequests: [{ call: 'POST /api/v2/Inventory/scan', includes: { query: { csp: 'CLOUD_A' } } }],
        },
      },
    ],
  },
  {
    name: 'sec-1.14-test-alert-after-update',
    provider: 'sec',
    terraform: '1.14.9',
    command:
      'terraform apply: sec_alert_channel_email.b renamed, with an action_trigger after_update of action.sec_alert_channel_test.b',
    files: `${requires('sec')}
resource "sec_alert_channel_email" "b" {
  name       = "on-call"
  recipients = ["oncall@acme.example"]
}
`,
    setup: [{ terraform: '1.14.9', args: ['import', 'sec_alert_channel_email.b', B] }],
    changed: {
      'main.tf': `${requires('sec')}
resource "sec_alert_channel_email" "b" {
  name       = "on-call-team"
  recipients = ["oncall@acme.example"]

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.sec_alert_channel_test.b]
    }
  }
}

action "sec_alert_channel_test" "b" {
  config {
    channel_id = sec_alert_channel_email.b.id
  }
}
`,
    },
    record: ['apply', '-auto-approve', '-no-color', '-parallelism=1'],
    expect: [
      {
        id: 'identity-schemas',
        rpc: 'GetResourceIdentitySchemas',
        note: 'Read once, by the process that reads the schemas.',
        expect: { identitySchemas: SEC_ID_SCHEMA },
      },
      {
        id: 'plan-channel',
        rpc: 'PlanResourceChange',
        note: 'The rename, in place.',
        expect: { identity: { field: 'planned_identity', value: { id: B } }, requiresReplace: [], apiCalls: [] },
      },
      {
        id: 'plan-action',
        rpc: 'PlanAction',
        note: 'The trigger read the planned change.',
        expect: { apiCalls: [] },
      },
      {
        id: 'apply-channel',
        rpc: 'ApplyResourceChange',
        note: 'The update, and the channel tested at its new name (test_integration).',
        expect: {
          identity: { field: 'new_identity', value: { id: B } },
          state: { field: 'new_state', includes: { id: B, name: 'on-call-team' } },
          apiCalls: [
            `GET /api/v2/AlertChannels/${B}`,
            `PATCH /api/v2/AlertChannels/${B}`,
            `POST /api/v2/AlertChannels/${B}/test`,
          ],
        },
      },
      {
        id: 'invoke',
        rpc: 'InvokeAction',
        note: 'After the update: the test alert.',
        expect: {
          progress: [
            `^Sending a test alert through alert channel ${B}$`,
            `^Test alert sent through alert channel ${B}$`,
          ],
          completedErrors: [],
          apiCalls: [`POST /api/v2/AlertChannels/${B}/test`],
        },
      },
    ],
  },
  {
    name: 'vdb-1.14-invoke-backup',
    provider: 'vdb',
    terraform: '1.14.9',
    command: 'terraform apply -invoke=action.vdb_cluster_backup.now -var cluster_id=<the cluster>',
    files: `${requires('vdb')}
variable "cluster_id" {
  type = string
}

action "vdb_cluster_backup" "now" {
  config {
    cluster_id       = var.cluster_id
    retention_period = "72h"
  }
}
`,
    record: [
      'apply',
      '-auto-approve',
      '-no-color',
      '-parallelism=1',
      '-invoke=action.vdb_cluster_backup.now',
      `-var=cluster_id=${VDB_FIXED.cluster}`,
    ],
    expect: [
      ...applyWalkConfiguration,
      {
        id: 'validate-action',
        rpc: 'ValidateActionConfig',
        note: 'The validate walk, the variable not known yet: nothing is sent.',
        expect: { apiCalls: [] },
      },
      { id: 'plan-action', rpc: 'PlanAction', note: 'Planning sends nothing.', expect: { apiCalls: [] } },
      {
        id: 'invoke',
        rpc: 'InvokeAction',
        note: 'The backup requested once and waited for.',
        expect: {
          progress: backupProgress('1h'),
          completedErrors: [],
          apiCalls: backupCalls,
          apiRequests: [
            {
              call: `${BACKUP}/CreateBackup`,
              includes: {
                backup: {
                  accountId: VDB_FIXED.account,
                  clusterId: VDB_FIXED.cluster,
                  retentionPeriod: { seconds: 259200 },
                },
              },
            },
          ],
        },
      },
    ],
  },
  {
    name: 'vdb-1.14-backup-before-update',
    provider: 'vdb',
    terraform: '1.14.9',
    command:
      'terraform apply: vdb_accounts_cluster.main from 1 node to 2, with an action_trigger before_update of action.vdb_cluster_backup.before_change',
    files: seededCluster(1),
    setup: [
      {
        terraform: '1.14.9',
        args: ['import', `-var=cluster_id=${VDB_FIXED.cluster}`, 'vdb_accounts_cluster.main', VDB_FIXED.cluster],
      },
    ],
    changed: { 'main.tf': seededCluster(2) },
    record: ['apply', '-auto-approve', '-no-color', '-parallelism=1', `-var=cluster_id=${VDB_FIXED.cluster}`],
    expect: [
      {
        id: 'identity-schemas',
        rpc: 'GetResourceIdentitySchemas',
        note: 'Read once, by the process that reads the schemas.',
        expect: {
          identitySchemas: {
            vdb_accounts_cluster: [
              VDB_ACCOUNT_ID,
              { name: 'id', required_for_import: true, optional_for_import: false },
            ],
          },
        },
      },
      {
        id: 'plan-cluster',
        rpc: 'PlanResourceChange',
        typeName: 'vdb_accounts_cluster',
        note: "One node more, in place; the change is checked against the platform's catalogue, read once.",
        expect: {
          identity: { field: 'planned_identity', value: { account_id: VDB_FIXED.account, id: VDB_FIXED.cluster } },
          requiresReplace: [],
          apiCalls: [
            'vdb.cloud.platform.v1.PlatformService/ListCloudProviders',
            'vdb.cloud.platform.v1.PlatformService/ListCloudProviderRegions',
            'vdb.cloud.booking.v1.BookingService/ListPackages',
          ],
        },
      },
      { id: 'plan-action', rpc: 'PlanAction', note: 'The trigger read the planned change.', expect: { apiCalls: [] } },
      {
        id: 'invoke',
        rpc: 'InvokeAction',
        note: 'Before the update: the backup, waited for.',
        expect: { progress: backupProgress('2h'), completedErrors: [], apiCalls: backupCalls },
      },
      {
        id: 'apply-cluster',
        rpc: 'ApplyResourceChange',
        typeName: 'vdb_accounts_cluster',
        note: 'Then the update, waited for until the cluster is healthy.',
        expect: {
          identity: { field: 'new_identity', value: { account_id: VDB_FIXED.account, id: VDB_FIXED.cluster } },
          state: { field: 'new_state', includes: { id: VDB_FIXED.cluster, name: 'search-prod' } },
          apiCalls: [`${CLUSTERS}/UpdateCluster`, { oneOrMore: `${CLUSTERS}/GetCluster` }],
          apiRequests: [
            { call: `${CLUSTERS}/UpdateCluster`, includes: { cluster: { configuration: { numberOfNodes: 2 } } } },
          ],
        },
      },
    ],
  },
  {
    name: 'vdb-1.15-functions',
    provider: 'vdb',
    terraform: '1.15.5',
    command: 'terraform plan of outputs that call vdb functions: a provider process Terraform never configures',
    files: `${requires('vdb')}
output "cluster" {
  value = provider::vdb::parse_cluster_url("${FUNCTION_CLUSTER_URL}:6333/dashboard")
}

output "grpc" {
  value = provider::vdb::cluster_endpoint("${FUNCTION_CLUSTER_URL}", "grpc")
}
`,
    record: ['plan', '-no-color'],
    expect: [
      {
        id: 'parse',
        rpc: 'CallFunction',
        holding: 'parse_cluster_url',
        note: 'The URL split into id, region and cloud; nothing is sent to the platform.',
        expect: {
          functionResult: { id: '0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f', region: 'eu-central-1', cloud: 'aws' },
          apiCalls: [],
        },
      },
      {
        id: 'endpoint',
        rpc: 'CallFunction',
        holding: 'cluster_endpoint',
        note: 'The gRPC endpoint, port included.',
        expect: { functionResult: `${FUNCTION_CLUSTER_URL}:8443`, apiCalls: [] },
      },
    ],
  },
  {
    name: 'sec-opentofu-function-error',
    provider: 'sec',
    terraform: 'tofu',
    command: 'tofu plan of a variadic sec function called with a bad third argument: the plan fails at it',
    files: `${requires('sec')}
output "ids" {
  value = provider::sec::policy_ids("acme", "ok-1", "NO")
}
`,
    record: ['plan', '-no-color'],
    fails: 'Invalid value for "suffixes" parameter: "NO" is not a policy id suffix',
    expect: [
      {
        id: 'bad-suffix',
        rpc: 'CallFunction',
        holding: 'policy_ids',
        note: 'The variadic arguments come one by one; the error is at the third, which OpenTofu names by its parameter.',
        expect: { functionError: { includes: '"NO" is not a policy id suffix', argument: 2 } },
      },
    ],
  },
];
