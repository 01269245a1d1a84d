/**
 * The request sequences Terraform 1.14 sends for actions (protocol 6.10), written as fixtures beside
 * those of terraform-requests.ts and replayed the same way (replay.test.ts), each step in a provider
 * process of its own walk as Terraform starts them:
 *
 * - `terraform apply -invoke=action.<type>.<name>`: a process that reads the schemas (later ones use
 *   the cached schema: the providers set get_provider_schema_optional); the validate walk's process,
 *   which sends ValidateActionConfig with the root module's variables unknown (and no
 *   ValidateProviderConfig for an empty provider block); the refresh-only plan walk's, which
 *   configures the provider and sends PlanAction with every value known; the apply walk's, which
 *   configures it again and reads the InvokeAction stream.
 * - `terraform apply` of a resource with an `action_trigger`: the same processes, with the resource's
 *   own requests; PlanAction after the resource's PlanResourceChange (the trigger reads the planned
 *   change), deferral_allowed always false; InvokeAction before ApplyResourceChange for `before_*`
 *   events and after it for `after_*` ones. An error in the Completed event stops the apply there.
 *
 * Sources (tag v1.14.9 of hashicorp/terraform) are named in each fixture. The cluster's state is
 * what the provider reads from the seeded emulator (whose cluster has fixed ids and times), taken
 * at build time through the engine, so the fixtures are the same in every build.
 */
import { impliedType } from '../../src/schema/block.js';
import type { CtyType } from '../../src/schema/cty-type.js';
import { encodeMsgpack } from '../../src/schema/msgpack.js';
import { encodeJSON } from '../../src/schema/json.js';
import { Decimal, DynamicValue, Unknown, UNKNOWN, type ObjectValue, type Value } from '../../src/schema/value.js';
import { proposedNew } from '../../src/engine/checks/index.js';
import { ProviderEngine } from '../../src/engine/provider-engine.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { quietLogger } from '../support/quiet-logger.js';
import {
  Builder,
  PLAN_CAPABILITIES,
  SEC_FIXED,
  VDB_FIXED,
  seedVdb,
  type Expectation,
  type Fixture,
  type Json,
} from './terraform-requests.js';

/** The version Terraform sends in ConfigureProvider. */
const TERRAFORM = '1.14.0';
/**
 * Terraform 1.14's client capabilities (eval_context_builtin.go ClientCapabilities): deferral_allowed
 * false (without -allow-deferral, and always for actions), which proto3 leaves off the wire.
 */
const CAPABILITIES = PLAN_CAPABILITIES;
const BACKUP_SERVICE = 'vdb.cloud.cluster.backup.v1.BackupService';
const CLUSTER_SERVICE = 'vdb.cloud.cluster.v1.ClusterService';

/** A value as people read it in a fixture: unknown values are shown as such. */
function readableValue(v: Value): Json {
  if (v instanceof Unknown) return '(unknown)';
  if (v === null) return null;
  if (v instanceof Decimal) return Number(v.text);
  if (v instanceof DynamicValue) return readableValue(v.value);
  if (Array.isArray(v)) return v.map(readableValue);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, readableValue(e)]));
  return v;
}

/** Escapes a text for a regular expression. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

class ActionBuilder extends Builder {
  actionBlock(type: string) {
    return this.def.actions!.find((a) => a.typeName === type)!.schema.block;
  }
  actionType(type: string): CtyType {
    return impliedType(this.actionBlock(type));
  }
  /** A `config` block's value; an argument given as UNKNOWN is not known yet (a reference, at validation). */
  actionConfig(type: string, plain: Record<string, unknown>): ObjectValue {
    const known = Object.fromEntries(Object.entries(plain).filter(([, v]) => !(v instanceof Unknown)));
    const value = configValue(this.actionBlock(type), known);
    for (const [name, v] of Object.entries(plain)) if (v instanceof Unknown) value[name] = v;
    return value;
  }

  /** A DynamicValue that may hold unknown values (a configuration at validation). */
  dynamic(type: CtyType, value: ObjectValue, values: Record<string, Json>, field: string) {
    values[field] = readableValue(value);
    return { msgpack: encodeMsgpack(type, value) };
  }

  /** The process Terraform starts first, to read the schemas (cached for the command's later processes). */
  schemas(identitySchemas: Expectation['identitySchemas'] = {}): void {
    this.newProcess('Terraform reads the schemas first (contextPlugins); the later processes use the cache.');
    this.schemaSteps(identitySchemas, {
      schema: 'With action_schemas (plugin6/grpc_provider.go GetProviderSchema, convert.ProtoToActionSchema).',
      identities: 'Right after GetProviderSchema, as since 1.12.',
    });
  }

  /** A plan or apply walk's process: the provider block validated, then configured (node_provider.go). */
  configure(walk: 'plan' | 'apply'): void {
    const block = this.def.schema.block;
    this.newProcess(
      `The ${walk} walk starts its own provider process; GetProviderSchema comes from the cache (get_provider_schema_optional).`,
    );
    this.step(
      `${walk}-validate-provider`,
      'ValidateProviderConfig',
      'NodeApplyableProvider.ConfigureProvider validates the provider block first (the validate walk skips an empty one).',
      (v) => ({ config: this.dyn(impliedType(block), configValue(block, {}), v, 'config') }),
      {},
    );
    this.step(
      `${walk}-configure`,
      'ConfigureProvider',
      'Then configures it, with the client capabilities.',
      (v) => ({
        terraform_version: TERRAFORM,
        config: this.dyn(impliedType(block), configValue(block, {}), v, 'config'),
        client_capabilities: CAPABILITIES,
      }),
      {},
    );
  }

  validateAction(id: string, type: string, config: ObjectValue, note: string): void {
    this.step(
      id,
      'ValidateActionConfig',
      note,
      (v) => ({ type_name: type, config: this.dynamic(this.actionType(type), config, v, 'config') }),
      { apiCalls: [] },
    );
  }

  planAction(id: string, type: string, config: ObjectValue, note: string): void {
    this.step(
      id,
      'PlanAction',
      note,
      (v) => ({
        action_type: type,
        config: this.dyn(this.actionType(type), config, v, 'config'),
        client_capabilities: CAPABILITIES,
      }),
      { apiCalls: [] },
    );
  }

  invokeAction(id: string, type: string, config: ObjectValue, note: string, expect: Expectation): void {
    this.step(
      id,
      'InvokeAction',
      note,
      (v) => ({
        action_type: type,
        config: this.dyn(this.actionType(type), config, v, 'config'),
        client_capabilities: CAPABILITIES,
      }),
      expect,
    );
  }
}

const INVOKE_SOURCES = [
  'docs/plugin-protocol/tfplugin6.proto (protocol 6.10: ValidateActionConfig, PlanAction, InvokeAction, ActionSchema)',
  'internal/plugin6/grpc_provider.go: ValidateActionConfig (type_name), PlanAction and InvokeAction (action_type, msgpack config, client capabilities), the event stream read to its end',
  'internal/backend/local/backend_local.go: the validate walk before the plan; internal/terraform/context_validate.go: root module variables unknown',
  'internal/terraform/node_provider.go: no ValidateProviderConfig for an empty provider block in the validate walk; ValidateProviderConfig then ConfigureProvider in the plan and apply walks',
  'internal/terraform/node_action_validate.go: ValidateActionConfig with the evaluated config block',
  'internal/terraform/node_action_invoke.go: -invoke plans in refresh-only mode; PlanAction with the wholly known config and ctx.ClientCapabilities()',
  'internal/terraform/node_action_trigger_instance_apply.go: InvokeAction with the planned config; progress events to the hook; an error in Completed ends the apply',
  'internal/terraform/eval_context_builtin.go ClientCapabilities: deferral_allowed (false unless -allow-deferral), write_only_attributes_allowed true',
];

const TRIGGER_SOURCES = [
  'internal/configs/action.go: action_trigger events before_create, after_create, before_update, after_update',
  'internal/terraform/node_action_trigger_instance_plan.go: PlanAction after the resource is planned (it reads the planned change), deferral_allowed forced false',
  'internal/terraform/transform_action_diff.go and node_action_trigger_apply.go: before_* invocations run before the resource is applied, after_* ones after it',
  'internal/terraform/context_plan_actions_test.go: an action run before a change of a resource cannot refer to it (a cycle)',
];

// ---------------------------------------------------------------------------------------------------
// vdb

/** The lines a successful backup shows (the number of polls depends on timing). */
function backupProgress(cluster: string, timeout: string): (string | { zeroOrMore: string })[] {
  const backup = `backup search-prod-\\d{14} \\([0-9a-f-]{36}\\)`;
  return [
    `^Requesting a backup of cluster ${literal(cluster)}$`,
    `^Backing up cluster ${literal(cluster)}: ${backup} started; waiting up to ${literal(timeout)} for it to finish$`,
    { zeroOrMore: `^B${backup.slice(1)}: BACKUP_STATUS_RUNNING \\(\\d+ m?s\\)$` },
    `^B${backup.slice(1)} succeeded \\(it took \\S+\\)$`,
  ];
}

const backupCalls = (): Expectation['apiCalls'] => [
  `${BACKUP_SERVICE}/ListBackups`,
  `${BACKUP_SERVICE}/CreateBackup`,
  { oneOrMore: `${BACKUP_SERVICE}/GetBackup` },
];

/** `terraform apply -invoke=action.vdb_cluster_backup.now -var cluster_id=…` */
async function vdbInvokeBackup(): Promise<Fixture> {
  const b = new ActionBuilder(await loadProviderDef('vdb'));
  const type = 'vdb_cluster_backup';
  const written = { retention_period: '72h' };
  b.schemas();
  b.newProcess('The validate walk (backend_local.go), in a process of its own.');
  b.validateAction(
    'validate-action',
    type,
    b.actionConfig(type, { ...written, cluster_id: UNKNOWN }),
    'action "vdb_cluster_backup" "now" { config { cluster_id = var.cluster_id, retention_period = "72h" } }: the variable is unknown in the validate walk.',
  );
  const config = b.actionConfig(type, { ...written, cluster_id: VDB_FIXED.cluster });
  b.configure('plan');
  b.planAction(
    'plan-action',
    type,
    config,
    'The refresh-only plan of -invoke: the whole config known (node_action_invoke.go refuses unknown values first).',
  );
  b.configure('apply');
  b.invokeAction(
    'invoke',
    type,
    config,
    'The apply walk runs the planned invocation and reads its events until the stream ends.',
    {
      progress: backupProgress(VDB_FIXED.cluster, '1h'),
      completedErrors: [],
      apiCalls: backupCalls(),
      apiRequests: [
        {
          call: `${BACKUP_SERVICE}/CreateBackup`,
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
  );
  return {
    name: 'vdb-1.14-invoke-backup',
    terraform: TERRAFORM,
    command: 'terraform apply -invoke=action.vdb_cluster_backup.now -var cluster_id=<the cluster>',
    provider: 'vdb',
    sources: INVOKE_SOURCES,
    steps: b.steps,
  };
}

/**
 * The seeded cluster as Terraform holds it after its last apply and refresh, read through the engine
 * from an emulator seeded as the replay seeds its own; and the plan of `config` against it.
 */
async function clusterStates(type: string, config: ObjectValue) {
  const def = await loadProviderDef('vdb');
  const emulator = await startVdbEmulator({ accountId: VDB_FIXED.account, provisioningMs: 20 });
  try {
    await seedVdb(emulator);
    const engine = new ProviderEngine(def, quietLogger, { ...process.env, ...vdbProviderEnv(emulator) });
    const block = def.resources.find((r) => r.typeName === type)!.schema.block;
    await engine.configureProvider(TERRAFORM, configValue(def.schema.block, {}));
    const imported = await engine.importWithIdentity(type, { id: VDB_FIXED.cluster });
    const read = await engine.readWithIdentity(type, imported.state!, imported.private, imported.identity);
    const stored = read.state!;
    const plan = engine.planWithIdentity(
      type,
      stored,
      proposedNew(block, stored, config) as ObjectValue,
      config,
      read.private,
      read.identity,
    );
    const problems = [...read.diags.items, ...plan.diags.items].filter((d) => d.severity === 'error');
    if (problems.length > 0) throw new Error(`the cluster fixture does not plan: ${JSON.stringify(problems)}`);
    return { stored, storedPrivate: read.private, plan };
  } finally {
    await emulator.close();
  }
}

/** `terraform apply` of more nodes for a cluster whose `before_update` trigger backs it up first. */
async function vdbBackupBeforeUpdate(): Promise<Fixture> {
  const b = new ActionBuilder(await loadProviderDef('vdb'));
  const cluster = 'vdb_accounts_cluster';
  const action = 'vdb_cluster_backup';
  const block = b.block(cluster);
  const T = b.resourceType(cluster);
  const emulatorPackage = 'small';
  const packageId = await smallPackageId(emulatorPackage);
  const config = configValue(block, {
    name: 'search-prod',
    cloud_provider: 'aws',
    cloud_region: 'eu-central-1',
    configuration: [{ number_of_nodes: 2, node_configuration: [{ package_id: packageId }] }],
  });
  const { stored, storedPrivate, plan } = await clusterStates(cluster, config);
  const priv = (p: Record<string, unknown>) =>
    Object.keys(p).length === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(p));
  const id = { account_id: VDB_FIXED.account, id: VDB_FIXED.cluster };
  const written = { retention_period: '168h', timeout: '2h' };

  b.schemas({
    [cluster]: [
      { name: 'account_id', required_for_import: false, optional_for_import: true },
      { name: 'id', required_for_import: true, optional_for_import: false },
    ],
  });
  b.newProcess('The validate walk, in a process of its own.');
  b.step(
    'validate-cluster',
    'ValidateResourceConfig',
    "The cluster: 2 nodes where the state has 1 (lifecycle { action_trigger { events = [before_update], actions = [action.vdb_cluster_backup.before_change] } } is Terraform's alone).",
    (v) => ({ type_name: cluster, config: b.dyn(T, config, v, 'config'), client_capabilities: CAPABILITIES }),
    { apiCalls: [] },
  );
  b.validateAction(
    'validate-action',
    action,
    b.actionConfig(action, { ...written, cluster_id: UNKNOWN }),
    'action "vdb_cluster_backup" "before_change" { config { cluster_id = var.cluster_id, retention_period = "168h", timeout = "2h" } } (an action run before a change of the cluster cannot refer to the cluster itself).',
  );
  const actionConfig = b.actionConfig(action, { ...written, cluster_id: VDB_FIXED.cluster });
  b.configure('plan');
  b.step(
    'upgrade',
    'UpgradeResourceState',
    'The stored state of the cluster, as JSON.',
    () => ({ type_name: cluster, version: 0, raw_state: { json: Buffer.from(encodeJSON(T, stored)) } }),
    { state: { field: 'upgraded_state', includes: { id: VDB_FIXED.cluster, name: 'search-prod' } }, apiCalls: [] },
  );
  b.step(
    'read',
    'ReadResource',
    'Refresh, with the stored identity.',
    (v) => ({
      type_name: cluster,
      current_state: b.dyn(T, stored, v, 'current_state'),
      private: priv(storedPrivate),
      client_capabilities: CAPABILITIES,
      current_identity: b.identity(cluster, id, v, 'current_identity'),
    }),
    { identity: { field: 'new_identity', value: id } },
  );
  b.step(
    'plan-cluster',
    'PlanResourceChange',
    'An update in place: one node more.',
    (v) => ({
      type_name: cluster,
      prior_state: b.dyn(T, stored, v, 'prior_state'),
      proposed_new_state: b.dyn(T, proposedNew(block, stored, config) as ObjectValue, v, 'proposed_new_state'),
      config: b.dyn(T, config, v, 'config'),
      prior_private: priv(storedPrivate),
      client_capabilities: CAPABILITIES,
      prior_identity: b.identity(cluster, id, v, 'prior_identity'),
    }),
    { identity: { field: 'planned_identity', value: id }, requiresReplace: [], apiCalls: [] },
    {
      'prior_state.msgpack': 'read.new_state.msgpack',
      prior_private: 'read.private',
      'prior_identity.identity_data.msgpack': 'read.new_identity.identity_data.msgpack',
    },
  );
  b.planAction(
    'plan-action',
    action,
    actionConfig,
    'The trigger fires for an update: PlanAction once the change is planned, deferral_allowed false.',
  );
  b.configure('apply');
  b.invokeAction(
    'invoke',
    action,
    actionConfig,
    'before_update: the backup runs before the cluster is touched, and Terraform waits for the stream to end.',
    { progress: backupProgress(VDB_FIXED.cluster, '2h'), completedErrors: [], apiCalls: backupCalls() },
  );
  b.step(
    'apply-cluster',
    'ApplyResourceChange',
    'Only once the action completed without an error: the update itself.',
    (v) => ({
      type_name: cluster,
      prior_state: b.dyn(T, stored, v, 'prior_state'),
      planned_state: b.dynamic(T, plan.planned!, v, 'planned_state'),
      config: b.dyn(T, config, v, 'config'),
      planned_private: priv(plan.plannedPrivate),
      planned_identity: b.identity(cluster, id, v, 'planned_identity'),
    }),
    {
      identity: { field: 'new_identity', value: id },
      state: { field: 'new_state', includes: { id: VDB_FIXED.cluster, name: 'search-prod' } },
      // The change, then the wait until the cluster is healthy again.
      apiCalls: [`${CLUSTER_SERVICE}/UpdateCluster`, { oneOrMore: `${CLUSTER_SERVICE}/GetCluster` }],
      apiRequests: [
        { call: `${CLUSTER_SERVICE}/UpdateCluster`, includes: { cluster: { configuration: { numberOfNodes: 2 } } } },
      ],
    },
    {
      'planned_state.msgpack': 'plan-cluster.planned_state.msgpack',
      planned_private: 'plan-cluster.planned_private',
      'planned_identity.identity_data.msgpack': 'plan-cluster.planned_identity.identity_data.msgpack',
    },
  );
  return {
    name: 'vdb-1.14-backup-before-update',
    terraform: TERRAFORM,
    command:
      'terraform apply (vdb_accounts_cluster.main from 1 node to 2, with an action_trigger before_update of action.vdb_cluster_backup.before_change)',
    provider: 'vdb',
    sources: [...INVOKE_SOURCES, ...TRIGGER_SOURCES],
    steps: b.steps,
  };
}

/** The emulator's catalogue id of a package, as the fixtures' emulators have it (stable across runs). */
async function smallPackageId(name: string): Promise<string> {
  const emulator = await startVdbEmulator({ accountId: VDB_FIXED.account });
  try {
    return emulator.packageId('aws', name);
  } finally {
    await emulator.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// sec

/** `terraform apply` of a renamed e-mail channel whose `after_update` trigger sends a test alert through it. */
async function secTestAfterUpdate(): Promise<Fixture> {
  const b = new ActionBuilder(await loadProviderDef('sec'));
  const type = 'sec_alert_channel_email';
  const action = 'sec_alert_channel_test';
  const block = b.block(type);
  const T = b.resourceType(type);
  const stored = configValue(block, {
    id: SEC_FIXED.channelB,
    intg_guid: SEC_FIXED.channelB,
    name: 'on-call',
    enabled: true,
    test_integration: true,
    org_level: false,
    type_name: 'EmailUser',
    created_or_updated_by: SEC_FIXED.by,
    created_or_updated_time: SEC_FIXED.time,
    recipients: ['oncall@acme.example'],
  });
  const config = configValue(block, { name: 'on-call-team', recipients: ['oncall@acme.example'] });
  const id = { id: SEC_FIXED.channelB };
  const channel = `/api/v2/AlertChannels/${SEC_FIXED.channelB}`;

  b.schemas({ [type]: [{ name: 'id', required_for_import: true, optional_for_import: false }] });
  b.newProcess('The validate walk, in a process of its own.');
  b.step(
    'validate-channel',
    'ValidateResourceConfig',
    'The channel, renamed (lifecycle { action_trigger { events = [after_update], actions = [action.sec_alert_channel_test.on_call] } }).',
    (v) => ({ type_name: type, config: b.dyn(T, config, v, 'config'), client_capabilities: CAPABILITIES }),
    { apiCalls: [] },
  );
  b.validateAction(
    'validate-action',
    action,
    b.actionConfig(action, { channel_id: UNKNOWN }),
    'action "sec_alert_channel_test" "on_call" { config { channel_id = sec_alert_channel_email.on_call.id } }: a resource attribute is unknown in the validate walk.',
  );
  const actionConfig = b.actionConfig(action, { channel_id: SEC_FIXED.channelB });
  b.configure('plan');
  b.step(
    'upgrade',
    'UpgradeResourceState',
    'The stored state.',
    () => ({ type_name: type, version: 0, raw_state: { json: Buffer.from(encodeJSON(T, stored)) } }),
    { state: { field: 'upgraded_state', includes: { id: SEC_FIXED.channelB } }, apiCalls: [] },
  );
  b.step(
    'read',
    'ReadResource',
    'Refresh.',
    (v) => ({
      type_name: type,
      current_state: b.dyn(T, stored, v, 'current_state'),
      private: Buffer.alloc(0),
      client_capabilities: CAPABILITIES,
      current_identity: b.identity(type, id, v, 'current_identity'),
    }),
    { identity: { field: 'new_identity', value: id }, apiCalls: [`GET ${channel}`] },
  );
  b.step(
    'plan-channel',
    'PlanResourceChange',
    'The rename, in place.',
    (v) => ({
      type_name: type,
      prior_state: b.dyn(T, stored, v, 'prior_state'),
      proposed_new_state: b.dyn(T, proposedNew(block, stored, config) as ObjectValue, v, 'proposed_new_state'),
      config: b.dyn(T, config, v, 'config'),
      prior_private: Buffer.alloc(0),
      client_capabilities: CAPABILITIES,
      prior_identity: b.identity(type, id, v, 'prior_identity'),
    }),
    { identity: { field: 'planned_identity', value: id }, requiresReplace: [], apiCalls: [] },
    {
      'prior_state.msgpack': 'read.new_state.msgpack',
      'prior_identity.identity_data.msgpack': 'read.new_identity.identity_data.msgpack',
    },
  );
  b.planAction(
    'plan-action',
    action,
    actionConfig,
    "The trigger fires for an update: the channel's id is known (it is the prior one).",
  );
  b.configure('apply');
  // The plan as the provider makes it (planning sends nothing, so no platform is needed).
  const engine = new ProviderEngine(b.def, quietLogger, {});
  const proposed = proposedNew(block, stored, config) as ObjectValue;
  const plan = engine.planWithIdentity(type, stored, proposed, config, {}, { ...id });
  if (plan.diags.hasErrors) throw new Error(`the channel fixture does not plan: ${JSON.stringify(plan.diags.items)}`);
  b.step(
    'apply-channel',
    'ApplyResourceChange',
    'after_update: the update first (with the channel test the resource runs after an update).',
    (v) => ({
      type_name: type,
      prior_state: b.dyn(T, stored, v, 'prior_state'),
      planned_state: b.dynamic(T, plan.planned!, v, 'planned_state'),
      config: b.dyn(T, config, v, 'config'),
      planned_private: Buffer.alloc(0),
      planned_identity: b.identity(type, id, v, 'planned_identity'),
    }),
    {
      identity: { field: 'new_identity', value: id },
      state: { field: 'new_state', includes: { id: SEC_FIXED.channelB, name: 'on-call-team' } },
      // A whole-object update reads the channel first, so that what the platform holds and the
      // configuration does not speak of is written back (src/clients/sec/replace.ts).
      apiCalls: [`GET ${channel}`, `PATCH ${channel}`, `POST ${channel}/test`],
    },
    {
      'planned_state.msgpack': 'plan-channel.planned_state.msgpack',
      'planned_identity.identity_data.msgpack': 'plan-channel.planned_identity.identity_data.msgpack',
    },
  );
  b.invokeAction('invoke', action, actionConfig, 'Then the action, once the channel is updated.', {
    progress: [
      `^Sending a test alert through alert channel ${SEC_FIXED.channelB}$`,
      `^Test alert sent through alert channel ${SEC_FIXED.channelB}$`,
    ],
    completedErrors: [],
    apiCalls: [`POST ${channel}/test`],
  });
  return {
    name: 'sec-1.14-test-alert-after-update',
    terraform: TERRAFORM,
    command:
      'terraform apply (sec_alert_channel_email.on_call renamed, with an action_trigger after_update of action.sec_alert_channel_test.on_call)',
    provider: 'sec',
    sources: [...INVOKE_SOURCES, ...TRIGGER_SOURCES],
    steps: b.steps,
  };
}

/** `terraform apply -invoke=action.sec_inventory_scan.cloud_a` */
async function secInvokeInventoryScan(): Promise<Fixture> {
  const b = new ActionBuilder(await loadProviderDef('sec'));
  const type = 'sec_inventory_scan';
  const config = b.actionConfig(type, { cloud: 'CLOUD_A' });
  b.schemas();
  b.newProcess('The validate walk, in a process of its own.');
  b.validateAction(
    'validate-action',
    type,
    config,
    'action "sec_inventory_scan" "cloud_a" { config { cloud = "CLOUD_A" } }.',
  );
  b.configure('plan');
  b.planAction('plan-action', type, config, 'The refresh-only plan of -invoke.');
  b.configure('apply');
  b.invokeAction('invoke', type, config, 'One request; the platform scans in the background.', {
    progress: [
      '^Asking the platform to scan the CLOUD_A resource inventory$',
      '^The platform is scanning the CLOUD_A resource inventory: scanning \\(Scan has been requested\\)$',
    ],
    completedErrors: [],
    apiCalls: ['POST /api/v2/Inventory/scan'],
    apiRequests: [{ call: 'POST /api/v2/Inventory/scan', includes: { query: { csp: 'CLOUD_A' } } }],
  });
  return {
    name: 'sec-1.14-invoke-inventory-scan',
    terraform: TERRAFORM,
    command: 'terraform apply -invoke=action.sec_inventory_scan.cloud_a',
    provider: 'sec',
    sources: INVOKE_SOURCES,
    steps: b.steps,
  };
}

export async function buildActionFixtures(): Promise<Fixture[]> {
  return [
    await vdbInvokeBackup(),
    await vdbBackupBeforeUpdate(),
    await secTestAfterUpdate(),
    await secInvokeInventoryScan(),
  ];
}
