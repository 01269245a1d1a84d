/**
 * A large, mixed Terraform configuration for one provider against its emulator: `count` resources
 * of several types that need no cloud account, some referring to others, plus what the emulator
 * should hold once it is applied. Used by the `scale` benchmark and by tests that apply many
 * resources at once.
 *
 * Every resource is its own block (no `count`), rendered from plain attribute values; the same
 * values are returned beside the HCL, so a caller can make the equivalent API calls itself or check
 * the emulator's objects without parsing HCL.
 */
import { packageId } from '../emulators/vdb/catalog.js';
import { secProviderEnv, vdbProviderEnv } from '../tfclient/terraform-cli.js';

export type WorkloadProvider = 'sec' | 'vdb';

/** How Terraform reaches an emulator (what `startSecEmulator` / `startVdbEmulator` return). */
export type EmulatorConnection =
  | {
      readonly provider: 'sec';
      readonly url: string;
      readonly account: string;
      readonly apiKey: string;
      readonly apiSecret: string;
    }
  | { readonly provider: 'vdb'; readonly url: string; readonly apiKey: string; readonly accountId: string };

export interface MassConfigOptions {
  /** How many resources in all. */
  readonly count: number;
  /** Starts every name, so several workloads can share one emulator. Default "mass". */
  readonly prefix?: string;
}

/** A reference to another resource's attribute, rendered as a bare HCL expression. */
export interface Reference {
  readonly address: string;
  readonly attribute: string;
}

export type AttributeValue = string | number | boolean | Reference | readonly AttributeValue[];
/** Attributes, and nested blocks as arrays of bodies. */
export interface Body {
  readonly [name: string]: AttributeValue | readonly Body[];
}

export interface WorkloadObject {
  /** e.g. `sec_alert_channel_email.mass_0003`. */
  readonly address: string;
  readonly type: string;
  /** Position in the configuration, 0-based, over all types. */
  readonly index: number;
  /** The resource block's contents. */
  readonly body: Body;
  /** Fields of the emulator's stored object once applied (dotted paths into it), references left out. */
  readonly expected: Readonly<Record<string, unknown>>;
  /** Attribute → the resource attribute it refers to, e.g. email_alert_channels → the channel's intg_guid. */
  readonly references: Readonly<Record<string, Reference>>;
}

export interface WorkloadType {
  readonly type: string;
  /** Emulator store collection that holds this type's objects. */
  readonly collection: string;
  /** State attribute whose value is the object's key in that collection. */
  readonly key: string;
  /** What destroying leaves behind: absent, or (for undeletable objects) these fields. */
  readonly destroyed: 'absent' | Readonly<Record<string, unknown>>;
  readonly objects: readonly WorkloadObject[];
}

export interface MassConfig {
  readonly provider: WorkloadProvider;
  /** The whole main.tf: required_providers, an empty provider block, one block per resource. */
  readonly hcl: string;
  /** Environment for Terraform (and so the provider) to reach the emulator. */
  readonly env: Readonly<Record<string, string>>;
  /** Every resource, in configuration order. */
  readonly objects: readonly WorkloadObject[];
  /** The same resources by type, with where the emulator keeps them. */
  readonly types: readonly WorkloadType[];
}

/** One resource type of the mix: its block and the object the emulator should then hold. */
interface Kind {
  readonly type: string;
  readonly collection: string;
  readonly key: string;
  readonly destroyed?: Readonly<Record<string, unknown>>;
  /** `refer(type, attribute)` points at the most recent earlier resource of that type. */
  build(
    name: (what: string) => string,
    i: number,
    refer: (type: string, attribute: string) => Reference,
  ): { body: Body; expected: Record<string, unknown> };
}

const SEC_KINDS: Record<string, Kind> = {
  email: {
    type: 'sec_alert_channel_email',
    collection: 'AlertChannels',
    key: 'intg_guid',
    build: (name, i) => {
      const recipients = [`alerts-${i}@example.com`, 'security@example.com'];
      return {
        body: { name: name('email'), recipients },
        expected: { type: 'EmailUser', name: name('email'), 'data.channelProps.recipients': recipients },
      };
    },
  },
  webhook: {
    type: 'sec_alert_channel_webhook',
    collection: 'AlertChannels',
    key: 'intg_guid',
    build: (name, i) => {
      const url = `https://hooks.example.com/alerts/${i}`;
      return {
        body: { name: name('webhook'), webhook_url: url },
        expected: { type: 'Webhook', name: name('webhook'), 'data.webhookUrl': url },
      };
    },
  },
  resourceGroup: {
    type: 'sec_resource_group',
    collection: 'ResourceGroups',
    key: 'id',
    build: (name, i) => {
      const account = String(100000000000 + i);
      return {
        body: {
          name: name('group'),
          type: 'CLOUD_A',
          description: `Resources of account ${account}`,
          group: [
            {
              operator: 'AND',
              filter: [{ filter_name: 'account', field: 'Account', operation: 'EQUALS', value: [account] }],
            },
          ],
        },
        expected: { name: name('group'), resourceType: 'CLOUD_A', 'query.filters.account.values': [account] },
      };
    },
  },
  teamMember: {
    type: 'sec_team_member',
    collection: 'TeamMembers',
    key: 'guid',
    build: (name, i) => {
      const email = `${name('member')}@example.com`;
      return {
        body: { email, first_name: 'Member', last_name: `Number ${i}`, company: 'Example Corp' },
        expected: { userName: email, 'props.lastName': `Number ${i}`, 'props.company': 'Example Corp' },
      };
    },
  },
  token: {
    type: 'sec_agent_access_token',
    collection: 'AgentAccessTokens',
    key: 'token',
    destroyed: { tokenEnabled: 0 },
    build: (name, i) => ({
      body: { name: name('token'), description: `Agents of fleet ${i}`, os: 'linux' },
      expected: { tokenAlias: name('token'), tokenEnabled: 1, 'props.description': `Agents of fleet ${i}` },
    }),
  },
  vulnerabilityException: {
    type: 'sec_vulnerability_exception_host',
    collection: 'VulnerabilityExceptions',
    key: 'guid',
    build: (name, i) => ({
      body: {
        name: name('exception'),
        reason: 'Compensating Controls',
        vulnerability_criteria: [{ severities: ['Low', 'Info'] }],
        resource_scope: [{ hostnames: [`host-${i}`] }],
      },
      expected: { exceptionType: 'Host', exceptionName: name('exception'), 'resourceScope.hostname': [`host-${i}`] },
    }),
  },
  reportRule: {
    type: 'sec_report_rule',
    collection: 'ReportRules',
    key: 'guid',
    build: (name, _i, refer) => ({
      body: {
        name: name('report'),
        severities: ['Critical', 'High'],
        email_alert_channels: [refer('sec_alert_channel_email', 'intg_guid')],
        weekly_snapshot: true,
      },
      expected: {
        type: 'Report',
        'filters.name': name('report'),
        'filters.severity': [1, 2],
        'reportNotificationTypes.trendReport': true,
      },
    }),
  },
};

const VDB_KINDS: Record<string, Kind> = {
  role: {
    type: 'vdb_accounts_role',
    collection: 'roles',
    key: 'id',
    build: (name, i) => ({
      body: {
        name: name('role'),
        description: `Role number ${i}`,
        permissions: [{ value: 'read:clusters' }, { value: 'read:backups' }],
      },
      expected: {
        name: name('role'),
        roleType: 'ROLE_TYPE_CUSTOM',
        description: `Role number ${i}`,
        'permissions.length': 2,
      },
    }),
  },
  cluster: {
    type: 'vdb_accounts_cluster',
    collection: 'clusters',
    key: 'id',
    build: (name) => ({
      body: {
        name: name('cluster'),
        cloud_provider: 'aws',
        cloud_region: 'eu-central-1',
        configuration: [{ number_of_nodes: 1, node_configuration: [{ package_id: packageId('aws', 'small') }] }],
      },
      expected: {
        name: name('cluster'),
        cloudProviderId: 'aws',
        'configuration.numberOfNodes': 1,
        'state.phase': 'CLUSTER_PHASE_HEALTHY',
      },
    }),
  },
  databaseKey: {
    type: 'vdb_accounts_database_api_key_v2',
    collection: 'databaseApiKeys',
    key: 'id',
    build: (name, _i, refer) => ({
      body: {
        cluster_id: refer('vdb_accounts_cluster', 'id'),
        name: name('key'),
        global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
      },
      expected: { name: name('key') },
    }),
  },
  backupSchedule: {
    type: 'vdb_accounts_backup_schedule',
    collection: 'backupSchedules',
    key: 'id',
    build: (_name, i, refer) => {
      const schedule = `${i % 60} 3 * * *`;
      return {
        body: { cluster_id: refer('vdb_accounts_cluster', 'id'), cron_expression: schedule, retention_period: '72h' },
        expected: { schedule, status: 'BACKUP_SCHEDULE_STATUS_ACTIVE' },
      };
    },
  },
};

/**
 * The order types repeat in; a type that refers to another comes after it in the cycle, so every
 * reference points backwards. sec: mostly channels and groups, one report rule per cycle pointing at
 * the channel before it. vdb: clusters are few (each waits for provisioning) and carry keys and a
 * backup schedule; roles make up the bulk.
 */
const CYCLES: Record<WorkloadProvider, readonly Kind[]> = {
  sec: [
    'email',
    'webhook',
    'resourceGroup',
    'email',
    'teamMember',
    'token',
    'vulnerabilityException',
    'reportRule',
    'email',
    'webhook',
    'resourceGroup',
  ].map((k) => SEC_KINDS[k]!),
  vdb: ['cluster', 'databaseKey', 'databaseKey', 'backupSchedule', ...Array<string>(16).fill('role')].map(
    (k) => VDB_KINDS[k]!,
  ),
};

/** Builds the configuration: the cycle of kinds repeated until `count` resources. */
export function massConfig(connection: EmulatorConnection, options: MassConfigOptions): MassConfig {
  const { provider } = connection;
  const prefix = options.prefix ?? 'mass';
  const cycle = CYCLES[provider];
  const latest = new Map<string, string>();
  const refer = (type: string, attribute: string): Reference => {
    const address = latest.get(type);
    if (!address) throw new Error(`mass-config: the cycle refers to ${type} before declaring one`);
    return { address, attribute };
  };
  const objects: WorkloadObject[] = [];
  for (let i = 0; i < options.count; i++) {
    const label = `${prefix}_${String(i).padStart(4, '0')}`;
    const name = (what: string) => `${prefix}-${what}-${i}`;
    const kind = cycle[i % cycle.length]!;
    const built = kind.build(name, i, refer);
    const address = `${kind.type}.${label}`;
    const references: Record<string, Reference> = {};
    for (const [attribute, value] of Object.entries(built.body)) {
      const target = Array.isArray(value) ? value[0] : value;
      if (isReference(target)) references[attribute] = target;
    }
    objects.push({ address, type: kind.type, index: i, body: built.body, expected: built.expected, references });
    latest.set(kind.type, address);
  }

  const kinds = [...new Map(cycle.map((k) => [k.type, k])).values()];
  const types = kinds
    .map((k) => ({
      type: k.type,
      collection: k.collection,
      key: k.key,
      destroyed: k.destroyed ?? ('absent' as const),
      objects: objects.filter((o) => o.type === k.type),
    }))
    .filter((t) => t.objects.length > 0);

  const header =
    `terraform {\n  required_providers {\n    ${provider} = {\n      source = "keel/${provider}"\n` +
    `    }\n  }\n}\n\nprovider "${provider}" {}\n`;
  const blocks = objects.map(
    (o) => `\nresource "${o.type}" "${o.address.split('.')[1]}" {\n${renderBody(o.body, '  ')}}\n`,
  );
  return { provider, hcl: header + blocks.join(''), env: connectionEnv(connection), objects, types };
}

/** The provider settings as environment variables. */
export function connectionEnv(connection: EmulatorConnection): Record<string, string> {
  return connection.provider === 'sec' ? secProviderEnv(connection) : vdbProviderEnv(connection);
}

function isReference(value: unknown): value is Reference {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && 'address' in value && 'attribute' in value
  );
}

const isBlockList = (value: AttributeValue | readonly Body[]): value is readonly Body[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !isReference(v));

function renderBody(body: Body, indent: string): string {
  let out = '';
  for (const [name, value] of Object.entries(body)) {
    if (isBlockList(value)) {
      for (const nested of value) out += `${indent}${name} {\n${renderBody(nested, `${indent}  `)}${indent}}\n`;
    } else {
      out += `${indent}${name} = ${renderValue(value as AttributeValue)}\n`;
    }
  }
  return out;
}

function renderValue(value: AttributeValue): string {
  if (isReference(value)) return `${value.address}.${value.attribute}`;
  if (Array.isArray(value)) return `[${value.map(renderValue).join(', ')}]`;
  // JSON string escapes are valid HCL; `${` and `%{` would start templates.
  if (typeof value === 'string') return JSON.stringify(value).replace(/([$%])\{/g, '$1$1{');
  return String(value);
}
