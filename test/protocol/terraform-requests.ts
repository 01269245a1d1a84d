/**
 * The request sequences Terraform 1.12 and 1.14 send a provider process for identity-aware plans,
 * imports by identity and `terraform query` (the actions' are in action-requests.ts), built message by message from the protocol's
 * documentation and Terraform's sources (each fixture names the files it follows), and written as
 * fixtures (`fixtures/*.json`): every request as the exact protobuf bytes (base64) beside a
 * readable form. Terraform 1.11, the one installed, cannot send them, so replay.test.ts replays
 * these bytes, unchanged, to the real executables over the same gRPC path Terraform uses.
 *
 * The objects they name are seeded into the emulators with fixed ids (seed* below), so the bytes
 * are the same on every run. `npm run build && node dist/test/protocol/write-fixtures.js` rewrites
 * them; a test fails when the committed ones are stale.
 */
import { impliedType } from '../../src/schema/block.js';
import type { CtyType } from '../../src/schema/cty-type.js';
import { encodeMsgpack } from '../../src/schema/msgpack.js';
import { encodeJSON } from '../../src/schema/json.js';
import type { ObjectValue } from '../../src/schema/value.js';
import { proposedNew } from '../../src/engine/checks/index.js';
import { identityType } from '../../src/engine/identity.js';
import { encodeMessage, rpcTypes, SERVICE_NAMES, type RpcName } from '../../src/server/proto.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { ProviderDef } from '../../src/engine/contracts.js';
import type { SecEmulator } from '../../src/emulators/sec/index.js';
import { VDB_COLLECTIONS, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { createSecClient } from '../../src/clients/sec/index.js';
import { createVdbClient } from '../../src/clients/vdb/index.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A line or call that may come several times: `oneOrMore` (at least once) or `zeroOrMore`, matched by a pattern. */
export type Repeated = { oneOrMore: string; zeroOrMore?: undefined } | { zeroOrMore: string; oneOrMore?: undefined };

/** What a response must show; every response must also carry no error diagnostic. */
export interface Expectation {
  /** An identity in the response (a dotted path to a ResourceIdentityData), decoded: exactly this, or absent for null. */
  identity?: { field: string; value: Record<string, string | null> | null };
  /** Attributes a state in the response (a dotted path to a DynamicValue) must hold. */
  state?: { field: string; includes: Record<string, Json> };
  requiresReplace?: [];
  /** GetResourceIdentitySchemas: the identity attributes of these types, in order, with their import roles. */
  identitySchemas?: Record<string, { name: string; required_for_import: boolean; optional_for_import: boolean }[]>;
  /** ListResource: the events, in order (the stream ends after them). */
  events?: { display_name: string; identity: Record<string, string>; resource_object?: Record<string, Json> | null }[];
  /** GenerateResourceConfig: the configuration answered, as Terraform's JSON shows it (every attribute). */
  config?: Record<string, Json>;
  /** The summaries of the warnings answered, in order (none when empty). */
  warnings?: string[];
  /** Texts the answer's bytes must not hold anywhere (a secret of the object). */
  withholds?: string[];
  /**
   * The management-API calls the request makes, in order: `METHOD /path` (sec, without the query
   * and the token exchange) or `service/Method` (vdb); a `Repeated` entry stands for a poll.
   */
  apiCalls?: (string | Repeated)[];
  /** What the named calls sent (the first of each name): the decoded request (vdb) or `{query, body}` (sec). */
  apiRequests?: { call: string; includes: Record<string, Json> }[];
  /** InvokeAction: the progress lines, in order, each matching its pattern (regular expressions). */
  progress?: (string | Repeated)[];
  /** InvokeAction: the summaries of the error diagnostics of the last event, Completed ([] = it succeeded). */
  completedErrors?: string[];
}

export interface FixtureStep {
  /** Names the step for `sameAs` references. */
  id: string;
  rpc: RpcName;
  /** What Terraform is doing, and where its code does it. */
  note: string;
  /** The request message: field names as in tfplugin6.proto, bytes fields as base64. */
  request: Json;
  /** The DynamicValues and identities inside the request, decoded (for people; `bytes` is what is sent). */
  values: Record<string, Json>;
  /** The exact request bytes (base64 of the protobuf encoding). */
  bytes: string;
  /**
   * Request fields that Terraform copies from an earlier response (dotted paths): replaying checks
   * that this response gives exactly those bytes, so the recorded request is what Terraform would send.
   */
  sameAs?: Record<string, string>;
  expect: Expectation;
  /**
   * Terraform starts a new provider process for this step (a new graph walk); what for. The replay
   * does the same, so nothing one process kept can help the next.
   */
  newProcess?: string;
}

export interface Fixture {
  name: string;
  terraform: string;
  command: string;
  provider: 'sec' | 'vdb';
  /** The Terraform sources (tag v1.15.9 unless said) and documents the sequence follows. */
  sources: string[];
  steps: FixtureStep[];
}

// ---------------------------------------------------------------------------------------------------
// Fixed objects

export const SEC_FIXED = {
  channelA: 'ACME_5C1E0A7F3B2D4E6F8091A2B3C4D5E6F708192A3B4C5D6E7F',
  channelB: 'ACME_0B9A8C7D6E5F40312233445566778899AABBCCDDEEFF0011',
  /** A webhook channel: its URL is its secret. */
  hook: 'ACME_7E6D5C4B3A2918F7E6D5C4B3A2918F7E6D5C4B3A2918F7E6',
  hookUrl: 'https://hooks.acme.example/T0001/B0002/s3cr3t-t0k3n',
  time: '2026-01-15T10:00:00.000Z',
  by: 'terraform@acme.example',
  roleArn: 'arn:cloud-a:iam::123456789012:role/sec-platform-audit',
};

export const VDB_FIXED = {
  account: '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5',
  cluster: 'c0ffee00-1234-4abc-8def-0123456789ab',
  otherCluster: 'c0ffee00-5678-4abc-8def-0123456789ab',
  reader: '3f6c1f0e-8a52-4d7b-9c1e-2b7a4d9e5f10',
  writer: '9a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
  created: '2026-01-15T10:00:00Z',
  /** The same, as the emulator stores times. */
  createdAt: '2026-01-15T10:00:00.000Z',
};

/** Re-keys a stored object to a fixed id (and fixed fields), as if the platform had made it so. */
function rekey<T extends object>(
  store: {
    get<U>(c: string, id: string): U | undefined;
    put(c: string, id: string, v: unknown): void;
    remove(c: string, id: string): boolean;
  },
  collection: string,
  from: string,
  to: string,
  fields: Partial<T>,
): void {
  const record = store.get<T>(collection, from)!;
  store.remove(collection, from);
  store.put(collection, to, { ...record, ...fields });
}

/** Two e-mail alert channels and a webhook channel with fixed GUIDs and times, and an agent token. */
export async function seedSec(emulator: SecEmulator): Promise<void> {
  const client = createSecClient({
    baseUrl: emulator.url,
    account: emulator.account,
    apiKey: emulator.apiKey,
    apiSecret: emulator.apiSecret,
    userAgent: 'fixtures',
  });
  try {
    for (const [guid, name, recipient] of [
      [SEC_FIXED.channelA, 'security-team', 'security@acme.example'],
      [SEC_FIXED.channelB, 'on-call', 'oncall@acme.example'],
    ] as const) {
      const made = await client.alertChannels.create({
        name,
        type: 'EmailUser',
        enabled: true,
        data: { channelProps: { recipients: [recipient] } },
      });
      rekey(emulator, 'AlertChannels', made.intgGuid, guid, {
        intgGuid: guid,
        createdOrUpdatedTime: SEC_FIXED.time,
        createdOrUpdatedBy: SEC_FIXED.by,
      });
    }
    // A CloudA account for the inventory to scan.
    await client.cloudAccounts.create({
      name: 'production account',
      type: 'CloudACfg',
      enabled: true,
      data: { crossAccountCredentials: { roleArn: SEC_FIXED.roleArn, externalId: 'sec-7f3c2a' } },
    });
    await client.agentAccessTokens.create({
      tokenAlias: 'build-fleet',
      tokenEnabled: true,
      props: { description: 'CI agents', os: 'linux' },
    });
    const hook = await client.alertChannels.create({
      name: 'siem-hook',
      type: 'Webhook',
      enabled: true,
      data: { webhookUrl: SEC_FIXED.hookUrl },
    });
    rekey(emulator, 'AlertChannels', hook.intgGuid, SEC_FIXED.hook, {
      intgGuid: SEC_FIXED.hook,
      createdOrUpdatedTime: SEC_FIXED.time,
      createdOrUpdatedBy: SEC_FIXED.by,
    });
  } finally {
    await client.close();
  }
}

/** Waits until a new cluster is healthy (before it is re-keyed, which ends its provisioning). */
async function healthy(emulator: VdbEmulator, id: string): Promise<void> {
  for (let waited = 0; ; waited += 10) {
    const phase = emulator.get<{ state?: { phase?: string } }>(VDB_COLLECTIONS.clusters, id)?.state?.phase;
    if (phase === 'CLUSTER_PHASE_HEALTHY') return;
    if (waited > 10_000) throw new Error(`seeded cluster ${id} is not healthy (${phase})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A seeded cluster with fixed times and the endpoint of its fixed id, so that a read of it gives the
 * same state in every run (the action fixtures record one).
 */
function pinCluster(emulator: VdbEmulator, id: string): void {
  const text = JSON.stringify(emulator.get(VDB_COLLECTIONS.clusters, id));
  const host = /https:\/\/([0-9a-f-]{36})\./.exec(text)?.[1];
  const pinned = text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, VDB_FIXED.createdAt)
    .replaceAll(host ?? id, id);
  emulator.put(VDB_COLLECTIONS.clusters, id, JSON.parse(pinned));
}

/** Two clusters and two keys of the first, with fixed ids. */
export async function seedVdb(emulator: VdbEmulator): Promise<void> {
  const api = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'fixtures' });
  try {
    const packageId = emulator.packageId('aws', 'small');
    for (const [id, name] of [
      [VDB_FIXED.cluster, 'search-prod'],
      [VDB_FIXED.otherCluster, 'search-staging'],
    ] as const) {
      const made = await api.clusters.create({
        accountId: emulator.accountId,
        name,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'eu-central-1',
        configuration: { numberOfNodes: 1, packageId },
      });
      await healthy(emulator, made.id);
      rekey(emulator, VDB_COLLECTIONS.clusters, made.id, id, { id });
      pinCluster(emulator, id);
    }
    const keys = [
      {
        id: VDB_FIXED.reader,
        name: 'ci reader',
        accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' as const } }],
      },
      {
        id: VDB_FIXED.writer,
        name: 'ci writer',
        accessRules: [
          {
            collectionAccess: {
              collectionName: 'docs',
              accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE' as const,
            },
          },
        ],
      },
    ];
    for (const k of keys) {
      const made = await api.databaseApiKeys.create({
        accountId: emulator.accountId,
        clusterId: VDB_FIXED.cluster,
        name: k.name,
        accessRules: k.accessRules,
      });
      rekey(emulator, VDB_COLLECTIONS.databaseApiKeys, made.id, k.id, {
        id: k.id,
        createdAt: VDB_FIXED.created,
        postfix: 'a1b2',
      });
    }
  } finally {
    api.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// Building messages

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A plain message with Buffers → JSON with base64 strings (what protobufjs' fromObject reads back). */
function readable(v: unknown): Json {
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return b64(v);
  if (Array.isArray(v)) return v.map(readable);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, readable(e)]));
  return v as Json;
}

export class Builder {
  readonly steps: FixtureStep[] = [];
  constructor(readonly def: ProviderDef<any, any>) {}

  resourceType(type: string): CtyType {
    return impliedType(this.def.resources.find((r) => r.typeName === type)!.schema.block);
  }
  block(type: string) {
    return this.def.resources.find((r) => r.typeName === type)!.schema.block;
  }
  identityTypeOf(type: string): CtyType {
    return identityType(this.def.resources.find((r) => r.typeName === type)!.identity!);
  }
  listBlock(type: string) {
    return this.def.resources.find((r) => r.typeName === type)!.list!.schema.block;
  }

  /** A DynamicValue the way Terraform sends one: msgpack of the value at the schema's implied type. */
  dyn(type: CtyType, value: ObjectValue | null, values: Record<string, Json>, field: string) {
    values[field] = value === null ? null : (JSON.parse(encodeJSON(type, value)) as Json);
    return { msgpack: encodeMsgpack(type, value) };
  }
  identity(type: string, value: Record<string, string | null>, values: Record<string, Json>, field: string) {
    return { identity_data: this.dyn(this.identityTypeOf(type), value, values, field) };
  }

  /** Why Terraform starts a new provider process before the next step (see FixtureStep.newProcess). */
  private processStart: string | undefined;

  /** The next step is the first of a new provider process. */
  newProcess(why: string): void {
    this.processStart = why;
  }

  step(
    id: string,
    rpc: RpcName,
    note: string,
    build: (values: Record<string, Json>) => Record<string, unknown>,
    expect: Expectation,
    sameAs?: Record<string, string>,
  ): void {
    const values: Record<string, Json> = {};
    const request = build(values);
    const bytes = encodeMessage(rpcTypes(SERVICE_NAMES.provider, rpc).request, request);
    const newProcess = this.processStart;
    this.processStart = undefined;
    this.steps.push({
      id,
      rpc,
      note,
      request: readable(request),
      values,
      bytes: b64(bytes),
      ...(sameAs ? { sameAs } : {}),
      expect,
      ...(newProcess ? { newProcess } : {}),
    });
  }

  /** How Terraform 1.12 and later read the schemas: GetProviderSchema, then GetResourceIdentitySchemas. */
  protected schemaSteps(
    identitySchemas: Expectation['identitySchemas'],
    why: { readonly schema: string; readonly identities: string },
  ): void {
    this.step('schema', 'GetProviderSchema', why.schema, () => ({}), {});
    this.step('identity-schemas', 'GetResourceIdentitySchemas', why.identities, () => ({}), { identitySchemas });
  }

  /** The start of every provider process of a plan, import or query walk in Terraform 1.12 and later. */
  start(
    terraformVersion: string,
    capabilities: Record<string, boolean>,
    identitySchemas: Expectation['identitySchemas'] = {},
  ): void {
    const providerBlock = this.def.schema.block;
    this.schemaSteps(identitySchemas, {
      schema: 'Every provider process starts by reading the schema (plugin6/grpc_provider.go GetProviderSchema).',
      identities:
        'Terraform 1.12 and later ask right after GetProviderSchema and merge the identities into the resource schemas (plugin6/grpc_provider.go GetProviderSchema).',
    });
    this.step(
      'validate-provider',
      'ValidateProviderConfig',
      'The provider block (empty: the settings come from the environment).',
      (v) => ({ config: this.dyn(impliedType(providerBlock), configValue(providerBlock, {}), v, 'config') }),
      {},
    );
    this.step(
      'configure',
      'ConfigureProvider',
      'Once per process before any resource RPC (terraform/node_provider.go).',
      (v) => ({
        terraform_version: terraformVersion,
        config: this.dyn(impliedType(providerBlock), configValue(providerBlock, {}), v, 'config'),
        client_capabilities: capabilities,
      }),
      {},
    );
  }
}

export const PLAN_CAPABILITIES = { write_only_attributes_allowed: true };

// ---------------------------------------------------------------------------------------------------
// The sequences

/** `terraform plan` (1.12) of two e-mail channels: one whose state 1.11 wrote (no identity), one with identity. */
async function secPlan(): Promise<Fixture> {
  const b = new Builder(await loadProviderDef('sec'));
  const type = 'sec_alert_channel_email';
  const block = b.block(type);
  const T = b.resourceType(type);
  const stateOf = (guid: string, name: string, recipient: string): ObjectValue =>
    configValue(block, {
      id: guid,
      intg_guid: guid,
      name,
      enabled: true,
      test_integration: true,
      org_level: false,
      type_name: 'EmailUser',
      created_or_updated_by: SEC_FIXED.by,
      created_or_updated_time: SEC_FIXED.time,
      recipients: [recipient],
    });
  const a = stateOf(SEC_FIXED.channelA, 'security-team', 'security@acme.example');
  const bState = stateOf(SEC_FIXED.channelB, 'on-call', 'oncall@acme.example');
  const configA = configValue(block, { name: 'security-team', recipients: ['security@acme.example'] });
  const configB = configValue(block, { name: 'on-call-team', recipients: ['oncall@acme.example'] });
  const idA = { id: SEC_FIXED.channelA };
  const idB = { id: SEC_FIXED.channelB };

  b.start('1.12.2', PLAN_CAPABILITIES, {
    [type]: [{ name: 'id', required_for_import: true, optional_for_import: false }],
  });
  b.step(
    'validate-a',
    'ValidateResourceConfig',
    'Each resource block, with the client capabilities (terraform/node_resource_validate.go).',
    (v) => ({ type_name: type, config: b.dyn(T, configA, v, 'config'), client_capabilities: PLAN_CAPABILITIES }),
    {},
  );
  b.step(
    'upgrade-a',
    'UpgradeResourceState',
    'Every instance read from the state, as JSON (terraform/upgrade_resource_state.go). Its identity is not upgraded: 1.11 stored none, and UpgradeResourceIdentity is only called when a stored identity has another version.',
    () => ({ type_name: type, version: 0, raw_state: { json: Buffer.from(encodeJSON(T, a)) } }),
    { state: { field: 'upgraded_state', includes: { id: SEC_FIXED.channelA, name: 'security-team' } } },
  );
  b.step(
    'read-a',
    'ReadResource',
    'Refresh. The state came from Terraform 1.11, so there is no current_identity (terraform/node_resource_abstract_instance.go refresh).',
    (v) => ({
      type_name: type,
      current_state: b.dyn(T, a, v, 'current_state'),
      private: Buffer.alloc(0),
      client_capabilities: PLAN_CAPABILITIES,
    }),
    {
      identity: { field: 'new_identity', value: idA },
      state: { field: 'new_state', includes: { id: SEC_FIXED.channelA, recipients: ['security@acme.example'] } },
      apiCalls: [`GET /api/v2/AlertChannels/${SEC_FIXED.channelA}`],
    },
  );
  b.step(
    'plan-a',
    'PlanResourceChange',
    'No change: prior state and identity as the refresh returned them (terraform/node_resource_abstract_instance.go plan).',
    (v) => ({
      type_name: type,
      prior_state: b.dyn(T, a, v, 'prior_state'),
      proposed_new_state: b.dyn(T, proposedNew(block, a, configA) as ObjectValue, v, 'proposed_new_state'),
      config: b.dyn(T, configA, v, 'config'),
      prior_private: Buffer.alloc(0),
      client_capabilities: PLAN_CAPABILITIES,
      prior_identity: b.identity(type, idA, v, 'prior_identity'),
    }),
    {
      identity: { field: 'planned_identity', value: idA },
      requiresReplace: [],
      state: { field: 'planned_state', includes: { name: 'security-team' } },
      apiCalls: [],
    },
    {
      'prior_state.msgpack': 'read-a.new_state.msgpack',
      'prior_identity.identity_data.msgpack': 'read-a.new_identity.identity_data.msgpack',
      prior_private: 'read-a.private',
    },
  );
  b.step(
    'validate-b',
    'ValidateResourceConfig',
    'The second resource block.',
    (v) => ({ type_name: type, config: b.dyn(T, configB, v, 'config'), client_capabilities: PLAN_CAPABILITIES }),
    {},
  );
  b.step(
    'upgrade-b',
    'UpgradeResourceState',
    'Its stored state.',
    () => ({ type_name: type, version: 0, raw_state: { json: Buffer.from(encodeJSON(T, bState)) } }),
    {
      state: { field: 'upgraded_state', includes: { id: SEC_FIXED.channelB } },
    },
  );
  b.step(
    'read-b',
    'ReadResource',
    'Refresh of a state Terraform 1.12 wrote: the stored identity goes along as current_identity.',
    (v) => ({
      type_name: type,
      current_state: b.dyn(T, bState, v, 'current_state'),
      private: Buffer.alloc(0),
      client_capabilities: PLAN_CAPABILITIES,
      current_identity: b.identity(type, idB, v, 'current_identity'),
    }),
    { identity: { field: 'new_identity', value: idB } },
  );
  b.step(
    'plan-b',
    'PlanResourceChange',
    'A rename, in place: the identity stays (Terraform checks it is known for an update).',
    (v) => ({
      type_name: type,
      prior_state: b.dyn(T, bState, v, 'prior_state'),
      proposed_new_state: b.dyn(T, proposedNew(block, bState, configB) as ObjectValue, v, 'proposed_new_state'),
      config: b.dyn(T, configB, v, 'config'),
      prior_private: Buffer.alloc(0),
      client_capabilities: PLAN_CAPABILITIES,
      prior_identity: b.identity(type, idB, v, 'prior_identity'),
    }),
    {
      identity: { field: 'planned_identity', value: idB },
      requiresReplace: [],
      state: { field: 'planned_state', includes: { id: SEC_FIXED.channelB, name: 'on-call-team' } },
    },
    {
      'prior_state.msgpack': 'read-b.new_state.msgpack',
      'prior_identity.identity_data.msgpack': 'read-b.new_identity.identity_data.msgpack',
    },
  );
  return {
    name: 'sec-1.12-plan',
    terraform: '1.12.2',
    command: 'terraform plan (two sec_alert_channel_email in the state: one written by 1.11, one by 1.12)',
    provider: 'sec',
    sources: [
      'docs/plugin-protocol/tfplugin6.proto (ReadResource.current_identity, PlanResourceChange.prior_identity/planned_identity)',
      'internal/plugin6/grpc_provider.go: GetProviderSchema then GetResourceIdentitySchemas; ReadResource, PlanResourceChange',
      'internal/terraform/node_resource_abstract_instance.go: refresh and plan send the stored identity; validateIdentityKnown for reads and updates',
      'internal/terraform/upgrade_resource_state.go: upgradeResourceIdentity only for another identity version',
      'protocol.md §2.4, §2.5 (the 1.11 sequence this one extends)',
    ],
    steps: b.steps,
  };
}

/** `terraform plan` (1.12) with `import { to = …; identity = { cluster_id = …, id = … } }`, the account left to the provider. */
async function vdbImport(): Promise<Fixture> {
  const b = new Builder(await loadProviderDef('vdb'));
  const type = 'vdb_accounts_database_api_key_v2';
  const block = b.block(type);
  const T = b.resourceType(type);
  const config = configValue(block, {
    cluster_id: VDB_FIXED.cluster,
    name: 'ci reader',
    global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
  });
  const given = { account_id: null, cluster_id: VDB_FIXED.cluster, id: VDB_FIXED.reader };
  const full = { account_id: VDB_FIXED.account, cluster_id: VDB_FIXED.cluster, id: VDB_FIXED.reader };
  // What the import returns: the identity's attributes, defaults filled in; the read completes it.
  const imported = configValue(block, { id: VDB_FIXED.reader, cluster_id: VDB_FIXED.cluster });
  const read = configValue(block, {
    id: VDB_FIXED.reader,
    account_id: VDB_FIXED.account,
    cluster_id: VDB_FIXED.cluster,
    name: 'ci reader',
    created_at: VDB_FIXED.created,
    expires_at: null,
    created_by_email: '',
    postfix: 'a1b2',
    key: '',
    global_access_rule: [{ access_type: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' }],
  });

  b.start('1.12.2', PLAN_CAPABILITIES, {
    [type]: [
      { name: 'account_id', required_for_import: false, optional_for_import: true },
      { name: 'cluster_id', required_for_import: true, optional_for_import: false },
      { name: 'id', required_for_import: true, optional_for_import: false },
    ],
  });
  b.step(
    'validate',
    'ValidateResourceConfig',
    'The resource block the import block points at.',
    (v) => ({ type_name: type, config: b.dyn(T, config, v, 'config'), client_capabilities: PLAN_CAPABILITIES }),
    {},
  );
  b.step(
    'import',
    'ImportResourceState',
    'Import by identity: `identity` instead of `id`; the attribute left out of the import block is null (terraform/node_resource_plan_instance.go importState).',
    (v) => ({
      type_name: type,
      client_capabilities: PLAN_CAPABILITIES,
      identity: b.identity(type, given, v, 'identity'),
    }),
    {
      // The account left out is the provider's, where the object lives: the identity names it at once.
      identity: { field: 'imported_resources.0.identity', value: full },
      state: {
        field: 'imported_resources.0.state',
        includes: { id: VDB_FIXED.reader, cluster_id: VDB_FIXED.cluster, account_id: null },
      },
      // The identity is all the read needs: the import itself asks the platform nothing.
      apiCalls: [],
    },
  );
  b.step(
    'read',
    'ReadResource',
    'The refresh of the imported object, with the state, private data and identity the import returned.',
    (v) => ({
      type_name: type,
      current_state: b.dyn(T, imported, v, 'current_state'),
      private: Buffer.from(JSON.stringify({ 'keel.imported': true })),
      client_capabilities: PLAN_CAPABILITIES,
      current_identity: b.identity(type, full, v, 'current_identity'),
    }),
    {
      identity: { field: 'new_identity', value: full },
      state: { field: 'new_state', includes: { account_id: VDB_FIXED.account, name: 'ci reader', postfix: 'a1b2' } },
      apiCalls: ['vdb.cloud.cluster.auth.v2.DatabaseApiKeyService/ListDatabaseApiKeys'],
    },
    {
      'current_state.msgpack': 'import.imported_resources.0.state.msgpack',
      private: 'import.imported_resources.0.private',
      'current_identity.identity_data.msgpack': 'import.imported_resources.0.identity.identity_data.msgpack',
    },
  );
  b.step(
    'plan',
    'PlanResourceChange',
    'The plan of the imported object against its configuration: no change, the identity complete.',
    (v) => ({
      type_name: type,
      prior_state: b.dyn(T, read, v, 'prior_state'),
      proposed_new_state: b.dyn(T, proposedNew(block, read, config) as ObjectValue, v, 'proposed_new_state'),
      config: b.dyn(T, config, v, 'config'),
      prior_private: Buffer.alloc(0),
      client_capabilities: PLAN_CAPABILITIES,
      prior_identity: b.identity(type, full, v, 'prior_identity'),
    }),
    { identity: { field: 'planned_identity', value: full }, requiresReplace: [] },
    {
      'prior_state.msgpack': 'read.new_state.msgpack',
      prior_private: 'read.private',
      'prior_identity.identity_data.msgpack': 'read.new_identity.identity_data.msgpack',
    },
  );
  return {
    name: 'vdb-1.12-import-by-identity',
    terraform: '1.12.2',
    command: 'terraform plan with an import block giving an identity (account_id left out)',
    provider: 'vdb',
    sources: [
      'docs/plugin-protocol/tfplugin6.proto (ImportResourceState.Request.identity, ImportedResource.identity)',
      'internal/terraform/node_resource_plan_instance.go importState: identity-based import, "didn\'t return an identity", then refresh',
      'internal/plugin6/convert/schema.go ProtoToIdentitySchema: required_for_import / optional_for_import',
      'protocol.md §2.5 (`import {}` block + plan)',
    ],
    steps: b.steps,
  };
}

/** `terraform query` (1.14): two list blocks of a .tfquery.hcl file. */
async function vdbQuery(): Promise<Fixture> {
  const b = new Builder(await loadProviderDef('vdb'));
  const keys = 'vdb_accounts_database_api_key_v2';
  const clusters = 'vdb_accounts_cluster';
  const keyFilters = configValue(b.listBlock(keys), { cluster_id: VDB_FIXED.cluster });
  const clusterFilters = configValue(b.listBlock(clusters), {});
  const capabilities = { write_only_attributes_allowed: true };
  b.start('1.14.0', capabilities);
  b.step(
    'validate-keys',
    'ValidateListResourceConfig',
    'list "vdb_accounts_database_api_key_v2" "ci" { config { cluster_id = … }; include_resource = true }: the contents of the config block only (plugin6/grpc_provider.go ValidateListResourceConfig).',
    (v) => ({ type_name: keys, config: b.dyn(impliedType(b.listBlock(keys)), keyFilters, v, 'config') }),
    {},
  );
  b.step(
    'list-keys',
    'ListResource',
    'The stream Terraform reads until it ends or `limit` results came (default 100); with include_resource each result carries its object (terraform/node_resource_plan_instance_query.go).',
    (v) => ({
      type_name: keys,
      config: b.dyn(impliedType(b.listBlock(keys)), keyFilters, v, 'config'),
      include_resource_object: true,
      limit: 100,
    }),
    {
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
      // One listing for the whole answer, not a read per object.
      apiCalls: ['vdb.cloud.cluster.auth.v2.DatabaseApiKeyService/ListDatabaseApiKeys'],
    },
  );
  b.step(
    'validate-clusters',
    'ValidateListResourceConfig',
    'list "vdb_accounts_cluster" "any" { limit = 1 }: no config block, so every filter is null.',
    (v) => ({ type_name: clusters, config: b.dyn(impliedType(b.listBlock(clusters)), clusterFilters, v, 'config') }),
    {},
  );
  b.step(
    'list-clusters',
    'ListResource',
    'Two clusters exist, one is asked for, without the object (include_resource defaults to false).',
    (v) => ({
      type_name: clusters,
      config: b.dyn(impliedType(b.listBlock(clusters)), clusterFilters, v, 'config'),
      include_resource_object: false,
      limit: 1,
    }),
    {
      events: [
        {
          display_name: 'search-prod',
          identity: { account_id: VDB_FIXED.account, id: VDB_FIXED.cluster },
          resource_object: null,
        },
      ],
      apiCalls: ['vdb.cloud.cluster.v1.ClusterService/ListClusters'],
    },
  );
  return {
    name: 'vdb-1.14-query',
    terraform: '1.14.0',
    command: 'terraform query (list blocks for database API keys with include_resource, and clusters with limit = 1)',
    provider: 'vdb',
    sources: [
      'docs/plugin-protocol/tfplugin6.proto (ListResource, ValidateListResourceConfig)',
      "internal/plugin6/grpc_provider.go ListResource: sends the config block's contents, include_resource_object and limit; stops at limit; an event without identity is an error",
      "internal/plugin6/convert/schema.go ProtoToListSchema: the provider's schema is the `config` block",
      'internal/terraform/eval_query.go: limit defaults to 100, include_resource to false',
      'internal/terraform/node_resource_plan_instance_query.go: ValidateListResourceConfig then ListResource per list block',
    ],
    steps: b.steps,
  };
}

/** `terraform query -generate-config-out=…` (1.14): include_resource is forced on. */
async function secQuery(): Promise<Fixture> {
  const b = new Builder(await loadProviderDef('sec'));
  const tokens = 'sec_agent_access_token';
  const channels = 'sec_alert_channel_email';
  const tokenFilters = configValue(b.listBlock(tokens), { name: 'build-fleet' });
  const channelFilters = configValue(b.listBlock(channels), {});
  b.start('1.14.0', { write_only_attributes_allowed: true });
  b.step(
    'validate-tokens',
    'ValidateListResourceConfig',
    'list "sec_agent_access_token" "fleet" { config { name = "build-fleet" } }.',
    (v) => ({ type_name: tokens, config: b.dyn(impliedType(b.listBlock(tokens)), tokenFilters, v, 'config') }),
    {},
  );
  b.step(
    'list-tokens',
    'ListResource',
    '-generate-config-out makes Terraform ask for the objects, to write their configuration and import blocks.',
    (v) => ({
      type_name: tokens,
      config: b.dyn(impliedType(b.listBlock(tokens)), tokenFilters, v, 'config'),
      include_resource_object: true,
      limit: 100,
    }),
    // The identity is a fingerprint of the secret token: the replay computes it from the emulator.
    {
      events: [
        {
          display_name: 'build-fleet',
          identity: { token_sha256: '<sha256 of the token>' },
          resource_object: { name: 'build-fleet', description: 'CI agents', os: 'linux', enabled: true },
        },
      ],
      apiCalls: ['POST /api/v2/AgentAccessTokens/search'],
    },
  );
  b.step(
    'validate-channels',
    'ValidateListResourceConfig',
    'list "sec_alert_channel_email" "all" {}: the type has no filters.',
    (v) => ({ type_name: channels, config: b.dyn(impliedType(b.listBlock(channels)), channelFilters, v, 'config') }),
    {},
  );
  b.step(
    'list-channels',
    'ListResource',
    'Every e-mail channel, with its object.',
    (v) => ({
      type_name: channels,
      config: b.dyn(impliedType(b.listBlock(channels)), channelFilters, v, 'config'),
      include_resource_object: true,
      limit: 100,
    }),
    {
      events: [
        {
          display_name: 'security-team',
          identity: { id: SEC_FIXED.channelA },
          resource_object: {
            id: SEC_FIXED.channelA,
            name: 'security-team',
            recipients: ['security@acme.example'],
            test_integration: true,
          },
        },
        {
          display_name: 'on-call',
          identity: { id: SEC_FIXED.channelB },
          resource_object: { id: SEC_FIXED.channelB, name: 'on-call', recipients: ['oncall@acme.example'] },
        },
      ],
      apiCalls: ['GET /api/v2/AlertChannels'],
    },
  );
  return {
    name: 'sec-1.14-query-generate-config',
    terraform: '1.14.0',
    command: 'terraform query -generate-config-out=generated.tf (agent tokens by name, e-mail channels)',
    provider: 'sec',
    sources: [
      'internal/terraform/node_resource_plan_instance_query.go: "if we are generating config, we implicitly set include_resource to true"',
      "internal/terraform/node_resource_plan_instance.go generateHCLListResourceDef: configuration from each result's state, import blocks from its identity",
      'internal/plugin6/grpc_provider.go ListResource',
    ],
    steps: b.steps,
  };
}

/**
 * `terraform query -generate-config-out=generated.tf` (1.14.1 and later) with a provider that
 * advertises generate_resource_config: after each list block's results, one GenerateResourceConfig
 * per result, with the listed object as its state; Terraform writes the answer as HCL. Then the
 * request Terraform 1.14.0 sends, which carries no state.
 */
async function secQueryProviderConfig(): Promise<Fixture> {
  const b = new Builder(await loadProviderDef('sec'));
  const emails = 'sec_alert_channel_email';
  const hooks = 'sec_alert_channel_webhook';
  const noFilters = (type: string) => configValue(b.listBlock(type), {});
  const asJson = (type: string, value: ObjectValue) =>
    JSON.parse(encodeJSON(b.resourceType(type), value)) as Record<string, Json>;
  // The objects as the listing gives them (and Terraform keeps them): what an import reads.
  const listed = (type: string, guid: string, name: string, typeName: string, own: Record<string, unknown>) =>
    configValue(b.block(type), {
      id: guid,
      intg_guid: guid,
      name,
      enabled: true,
      test_integration: true,
      org_level: false,
      type_name: typeName,
      created_or_updated_by: SEC_FIXED.by,
      created_or_updated_time: SEC_FIXED.time,
      ...own,
    });
  const a = listed(emails, SEC_FIXED.channelA, 'security-team', 'EmailUser', { recipients: ['security@acme.example'] });
  const c = listed(emails, SEC_FIXED.channelB, 'on-call', 'EmailUser', { recipients: ['oncall@acme.example'] });
  // The URL is the channel's secret: a listing never carries it.
  const hook = listed(hooks, SEC_FIXED.hook, 'siem-hook', 'Webhook', {});
  const generate = (type: string, state: ObjectValue | null) => (v: Record<string, Json>) => ({
    type_name: type,
    ...(state === null ? {} : { state: b.dyn(b.resourceType(type), state, v, 'state') }),
  });
  const listSteps = (type: string, what: string, events: Expectation['events'], apiCalls: string[]) => {
    b.step(
      `validate-${what}`,
      'ValidateListResourceConfig',
      `list "${type}" "${what}" {}: no filters.`,
      (v) => ({ type_name: type, config: b.dyn(impliedType(b.listBlock(type)), noFilters(type), v, 'config') }),
      {},
    );
    b.step(
      `list-${what}`,
      'ListResource',
      '-generate-config-out forces include_resource: each result carries its object.',
      (v) => ({
        type_name: type,
        config: b.dyn(impliedType(b.listBlock(type)), noFilters(type), v, 'config'),
        include_resource_object: true,
        limit: 100,
      }),
      { events, apiCalls },
    );
  };
  b.start('1.14.1', { write_only_attributes_allowed: true });
  listSteps(
    emails,
    'mail',
    [
      {
        display_name: 'security-team',
        identity: { id: SEC_FIXED.channelA },
        resource_object: { name: 'security-team', enabled: true },
      },
      { display_name: 'on-call', identity: { id: SEC_FIXED.channelB }, resource_object: { name: 'on-call' } },
    ],
    ['GET /api/v2/AlertChannels'],
  );
  b.step(
    'generate-mail-0',
    'GenerateResourceConfig',
    'The configuration of the first result: its object, re-encoded at the resource type (plugin6/grpc_provider.go ' +
      'GenerateResourceConfig). Only what a user writes: no id or platform values, the defaults left out.',
    generate(emails, a),
    {
      config: asJson(
        emails,
        configValue(b.block(emails), { name: 'security-team', recipients: ['security@acme.example'] }),
      ),
      warnings: [],
      apiCalls: [],
    },
    { 'state.msgpack': 'list-mail.events.0.resource_object.msgpack' },
  );
  b.step(
    'generate-mail-1',
    'GenerateResourceConfig',
    'The second result.',
    generate(emails, c),
    {
      config: asJson(emails, configValue(b.block(emails), { name: 'on-call', recipients: ['oncall@acme.example'] })),
      warnings: [],
      apiCalls: [],
    },
    { 'state.msgpack': 'list-mail.events.1.resource_object.msgpack' },
  );
  listSteps(
    hooks,
    'hooks',
    [
      {
        display_name: 'siem-hook',
        identity: { id: SEC_FIXED.hook },
        resource_object: { name: 'siem-hook', webhook_url: null },
      },
    ],
    ['GET /api/v2/AlertChannels'],
  );
  b.step(
    'generate-hook',
    'GenerateResourceConfig',
    'A channel whose URL is its secret: the configuration leaves it (and its write-only twin) null, which ' +
      'Terraform writes as `null # sensitive`, and a warning says to set webhook_url_wo.',
    generate(hooks, hook),
    {
      config: asJson(hooks, configValue(b.block(hooks), { name: 'siem-hook' })),
      warnings: ['Generated configuration to complete'],
      withholds: [SEC_FIXED.hookUrl],
      apiCalls: [],
    },
    { 'state.msgpack': 'list-hooks.events.0.resource_object.msgpack' },
  );
  b.step(
    'generate-without-state',
    'GenerateResourceConfig',
    'Terraform 1.14.0 sends the request without the state (State: nil; hashicorp/terraform#37896, fixed in ' +
      '1.14.1): every argument unset, an object all the same (genconfig panics on a null one), and a warning.',
    generate(emails, null),
    {
      config: asJson(emails, configValue(b.block(emails), {})),
      warnings: ['No configuration written for sec_alert_channel_email'],
      apiCalls: [],
    },
  );
  return {
    name: 'sec-1.14-query-provider-config',
    terraform: '1.14.1',
    command:
      'terraform query -generate-config-out=generated.tf (e-mail and webhook channels), the configuration written ' +
      'by the provider',
    provider: 'sec',
    sources: [
      'docs/plugin-protocol/tfplugin6.proto (GenerateResourceConfig; ServerCapabilities.generate_resource_config)',
      'internal/terraform/node_resource_plan_instance.go generateHCLListResourceDef and generateResourceConfig: one ' +
        'call per listed result, its state unmarked, only when the provider advertises generate_resource_config',
      'internal/plugin6/grpc_provider.go GenerateResourceConfig: the state as msgpack at the implied type; the ' +
        'answer decoded at it (tag v1.14.0 sent no state; fixed by #37896 in v1.14.1)',
      'internal/genconfig/generate_config.go GenerateListResourceContents: the HCL written from each answer',
    ],
    steps: b.steps,
  };
}

export async function buildFixtures(): Promise<Fixture[]> {
  return [await secPlan(), await secQueryProviderConfig(), await vdbImport(), await vdbQuery(), await secQuery()];
}

/** The identity type of a resource, for decoding identities in responses. */
export async function identityTypeOf(provider: 'sec' | 'vdb', type: string): Promise<CtyType> {
  return new Builder(await loadProviderDef(provider)).identityTypeOf(type);
}

export async function resourceTypeOf(provider: 'sec' | 'vdb', type: string): Promise<CtyType> {
  return new Builder(await loadProviderDef(provider)).resourceType(type);
}
