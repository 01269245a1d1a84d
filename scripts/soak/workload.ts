/**
 * What one soak workspace manages, in both providers: sec e-mail channels with an alert rule on each
 * second one, vdb custom roles, and one cluster carrying a few database keys. Every object's name
 * starts with the workspace's prefix, so the ledger (./ledger.ts) tells whose an object is from the
 * API alone.
 */
import { packageId } from '../../src/emulators/vdb/catalog.js';

/** The resource types the soak manages and how their objects are found in the API. */
export const SOAK_TYPES = {
  channel: { type: 'sec_alert_channel_email', idAttribute: 'intg_guid', importId: (id: string) => id },
  rule: { type: 'sec_alert_rule', idAttribute: 'guid', importId: (id: string) => id },
  role: { type: 'vdb_accounts_role', idAttribute: 'id', importId: (id: string) => id },
  cluster: { type: 'vdb_accounts_cluster', idAttribute: 'id', importId: (id: string) => id },
  key: {
    type: 'vdb_accounts_database_api_key_v2',
    idAttribute: 'id',
    importId: (id: string, values: Record<string, unknown>) => `${String(values.cluster_id)}/${id}`,
  },
} as const;

export type SoakKind = keyof typeof SOAK_TYPES;

/** Database keys per workspace: a cluster carries a handful. */
const KEYS = 3;

export interface WorkspaceShape {
  readonly channels: number;
  readonly roles: number;
  readonly keys: number;
}

/** About `resources` in all: a quarter channels, an eighth rules, the rest vdb. */
export function shapeFor(resources: number): WorkspaceShape {
  const channels = Math.max(2, Math.round(resources / 4));
  const rules = Math.ceil(channels / 2);
  const roles = Math.max(1, resources - channels - rules - 1 - KEYS);
  return { channels, roles, keys: KEYS };
}

/** What a configuration holds at one step of the cycle. */
export interface Step {
  /** 'a' or 'b': the update step switches every changeable value (recipients, descriptions). */
  readonly version: 'a' | 'b';
  /** Of each counted kind, how many are kept (a partial destroy keeps fewer). */
  readonly channels: number;
  readonly roles: number;
  readonly keys: number;
  /** address → import id: `import` blocks for objects the state forgot. */
  readonly imports?: ReadonlyMap<string, string>;
}

export const fullStep = (shape: WorkspaceShape, version: 'a' | 'b'): Step => ({ version, ...shape });

/** The workspace's name prefix: `soak-w3-`. */
export const namePrefix = (workspace: number): string => `soak-w${workspace}-`;

/** main.tf for the workspace at this step. */
export function render(workspace: number, step: Step): string {
  const name = (what: string, i: number) => `${namePrefix(workspace)}${what}-${i}`;
  const blocks: string[] = [
    'terraform {\n  required_providers {\n' +
      '    sec = { source = "keel/sec" }\n    vdb = { source = "keel/vdb" }\n  }\n}\n',
    'provider "sec" {}\nprovider "vdb" {}\n',
  ];
  for (let i = 0; i < step.channels; i++) {
    blocks.push(
      `resource "sec_alert_channel_email" "c${i}" {\n  name       = "${name('channel', i)}"\n` +
        `  recipients = ["${step.version}-${i}@example.com", "security@example.com"]\n}\n`,
    );
    if (i % 2 === 0) {
      blocks.push(
        `resource "sec_alert_rule" "r${i}" {\n  name           = "${name('rule', i)}"\n` +
          `  description    = "Critical alerts, version ${step.version}"\n` +
          `  alert_channels = [sec_alert_channel_email.c${i}.intg_guid]\n` +
          '  severities     = ["Critical", "High"]\n}\n',
      );
    }
  }
  for (let i = 0; i < step.roles; i++) {
    blocks.push(
      `resource "vdb_accounts_role" "role${i}" {\n  name        = "${name('role', i)}"\n` +
        `  description = "Reads clusters, version ${step.version}"\n` +
        '  permissions {\n    value = "read:clusters"\n  }\n}\n',
    );
  }
  blocks.push(
    `resource "vdb_accounts_cluster" "main" {\n  name           = "${name('cluster', 0)}"\n` +
      '  cloud_provider = "aws"\n  cloud_region   = "eu-central-1"\n' +
      '  configuration {\n    number_of_nodes = 1\n    node_configuration {\n' +
      `      package_id = "${packageId('aws', 'small')}"\n    }\n  }\n}\n`,
  );
  for (let i = 0; i < step.keys; i++) {
    blocks.push(
      `resource "vdb_accounts_database_api_key_v2" "key${i}" {\n` +
        `  cluster_id = vdb_accounts_cluster.main.id\n  name       = "${name('key', i)}"\n` +
        '  global_access_rule {\n    access_type = "GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"\n  }\n}\n',
    );
  }
  for (const [address, id] of step.imports ?? []) {
    blocks.push(`import {\n  to = ${address}\n  id = "${id}"\n}\n`);
  }
  return blocks.join('\n');
}
