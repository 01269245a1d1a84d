/**
 * `vdb_accounts_hybrid_cloud_environment` (docs/api/vdb.md, "Hybrid cloud environments"): a
 * customer-operated Kubernetes cluster the platform can place database clusters in. Besides the
 * environment itself the resource manages its bootstrap commands, which install the platform's
 * agent, under the rotation knob `bootstrap_commands_version`:
 * - unset at create → 1 (generate); `-1` → never generate; `0` → idle (nothing generated); > 0 → generate;
 * - a change to > 0 regenerates (rotating the credentials inside); a change to 0 or -1 clears the
 *   commands from the state (nothing is revoked on the platform);
 * - reads and imports never generate; the commands only change when the knob does.
 */
import {
  attr,
  attrStep,
  block,
  type ConfigModelOf,
  type Diagnostics,
  indexStep,
  isApiError,
  listResource,
  type ModelOf,
  type OpContext,
  resource,
  resourceSchema,
  t,
  validators,
  listedInOneCall,
} from '@keel/provider-framework';
import type {
  HybridEnvironment,
  HybridEnvironmentConfiguration,
  HybridEnvironmentConfigurationInput,
  HybridLogLevel,
} from '../../clients/vdb/api.js';
import {
  accountFilter,
  accountIdField,
  accountScopedIdentity,
  accountIdOf,
  checkTolerations,
  deleteIgnoringNotFound,
  keyValueSet,
  keyValuesFromApi,
  setNote,
  keyValuesToApi,
  tolerationFromApi,
  tolerationSet,
  tolerationToApi,
  type VdbContext,
} from './common.js';
import { INT32_MAX, formatTimestamp } from './formats.js';
import { apiRule, apiRules } from './rules.js';
import { heldBySchema } from './rules-held.js';
import { wireMessage } from './wired-fields.js';
import {
  parseSettings,
  printSettings,
  sameSettings,
  settingsProblem,
  type SettingsObject,
} from './operator-settings.js';
import { madeAtFrom } from '../shared/made-at.js';

// The API's rules of each field (src/resources/vdb/rules.ts).
const CONFIGURATION_FIELD = 'hybrid.v1.HybridCloudEnvironmentConfiguration';
const LOG_LEVEL = apiRule(`${CONFIGURATION_FIELD}.log_level`);
const PROXY_URL = { what: 'a URL such as `http://proxy.internal:3128`', samples: ['http://proxy.internal:3128'] };

const advancedSettings = {
  description: 'a YAML mapping',
  samples: ['operator:\n  logLevel: debug\n'],
  check: settingsProblem,
};

/** How a configuration refers to the environment's configuration, in the notes on sets. */
const CONFIGURATION = 'vdb_accounts_hybrid_cloud_environment.example.configuration[0]';

const declaredConfigurationFields = {
  namespace: attr.string({
    required: true,
    replace: true,
    validate: apiRules(`${CONFIGURATION_FIELD}.namespace`, {
      what: 'a Kubernetes namespace name (lower-case letters, digits and `-`)',
      samples: ['vdb', 'vector-db'],
    }),
    description: "The Kubernetes namespace the platform's components run in. Changing it creates a new environment.",
  }),
  last_modified_at: attr.string({
    computed: true,
    volatile: true,
    description: 'When the configuration last changed (RFC 3339).',
  }),
  http_proxy_url: attr.string({
    optional: true,
    description: 'HTTP proxy the components use.',
  }),
  https_proxy_url: attr.string({
    optional: true,
    description: 'HTTPS proxy the components use.',
  }),
  no_proxy_configs: attr.stringSet({
    optional: true,
    description:
      'Hosts and domains reached without the proxy. ' +
      `${setNote(`${CONFIGURATION}.no_proxy_configs`, `contains(${CONFIGURATION}.no_proxy_configs, ".internal")`)}`,
  }),
  container_registry_url: attr.string({
    optional: true,
    description: 'Container registry to pull images from (`host[:port][/path]`).',
  }),
  chart_repository_url: attr.string({
    optional: true,
    description: 'Helm chart repository to install from (`scheme://host[:port][/path]`).',
  }),
  registry_secret_name: attr.string({
    optional: true,
    description: 'Kubernetes secret with the registry credentials.',
  }),
  ca_certificates: attr.string({
    optional: true,
    description: 'Additional CA certificates (PEM) the components trust.',
  }),
  database_storage_class: attr.string({
    optional: true,
    description: 'Default storage class for database volumes.',
  }),
  snapshot_storage_class: attr.string({
    optional: true,
    description: 'Default storage class for snapshots.',
  }),
  volume_snapshot_storage_class: attr.string({
    optional: true,
    description: 'Default volume snapshot class.',
  }),
  log_level: attr.string({
    optional: true,
    validate: [LOG_LEVEL],
    description: `Log level of the components: ${LOG_LEVEL.description}.`,
  }),
  advanced_operator_settings: attr.string({
    optional: true,
    validate: [advancedSettings],
    equal: sameSettings,
    description:
      "Advanced settings of the platform's operator, as a YAML mapping (YAML 1.2, core schema). Formatting, key " +
      'order and comments are no change. Anchors and aliases are expanded; merge keys (`<<`), other tags and ' +
      'numbers the platform cannot hold exactly are refused.',
  }),
  node_selector: keyValueSet(
    'Kubernetes node selector of the control-plane components.',
    'node selector',
    `${CONFIGURATION_FIELD}.node_selector`,
    `${CONFIGURATION}.node_selector`,
  ),
  tolerations: tolerationSet(
    'Kubernetes tolerations of the control-plane components.',
    `${CONFIGURATION_FIELD}.tolerations`,
    `${CONFIGURATION}.tolerations`,
  ),
  control_plane_labels: keyValueSet(
    'Additional labels of the control-plane components.',
    'label',
    `${CONFIGURATION_FIELD}.control_plane_labels`,
    `${CONFIGURATION}.control_plane_labels`,
  ),
};

/** The configuration's fields that are the API's as they are: their checks, sending and reading (./wired-fields.ts). */
const wiredConfiguration = wireMessage(CONFIGURATION_FIELD, declaredConfigurationFields, {
  http_proxy_url: { field: 'http_proxy_url', ...PROXY_URL },
  https_proxy_url: { field: 'https_proxy_url', ...PROXY_URL },
  no_proxy_configs: 'no_proxy_configs',
  container_registry_url: {
    field: 'container_registry_url',
    what: 'a registry address such as `registry.example.com[:port][/path]`',
    samples: ['registry.example.com', 'registry.example.com:5000/mirror'],
  },
  chart_repository_url: {
    field: 'chart_repository_url',
    what: 'a URL such as `https://charts.example.com/stable`',
    samples: ['https://charts.example.com/stable', 'oci://registry.example.com/charts'],
  },
  registry_secret_name: 'registry_secret_name',
  ca_certificates: 'ca_certificates',
  database_storage_class: 'database_storage_class',
  snapshot_storage_class: 'snapshot_storage_class',
  volume_snapshot_storage_class: 'volume_snapshot_storage_class',
});

const statusType = t.object({
  last_modified_at: t.string,
  phase: t.string,
  kubernetes_version: t.string,
  number_of_nodes: t.number,
  cluster_creation_readiness: t.string,
  kubernetes_distribution: t.string,
  message: t.string,
  capabilities: t.list(t.object({ volume_snapshot: t.bool, volume_expansion: t.bool })),
  component_statuses: t.list(
    t.object({ name: t.string, version: t.string, phase: t.string, message: t.string, namespace: t.string }),
  ),
  storage_classes: t.list(
    t.object({
      name: t.string,
      default: t.bool,
      provisioner: t.string,
      allow_volume_expansion: t.bool,
      reclaim_policy: t.string,
      parameters: t.map(t.string),
    }),
  ),
  volume_snapshot_classes: t.list(t.object({ name: t.string, driver: t.string })),
});

const declared = {
  id: attr.computedId('The environment id (a UUID); clusters in it use it as their `cloud_region`.'),
  account_id: accountIdField(),
  name: attr.string({ required: true, description: 'Name of the environment.' }),
  configuration: block.one(wiredConfiguration.fields, {
    required: true,
    description: 'The configuration of the environment.',
  }),
  created_at: attr.string({ computed: true, description: 'When the environment was created (RFC 3339).' }),
  last_modified_at: attr.string({
    computed: true,
    volatile: true,
    description: 'When the environment last changed (RFC 3339).',
  }),
  created_by_email: attr.string({
    computed: true,
    description:
      'The e-mail address of the member who created the environment; for one made with a management key (as by this ' +
      'provider), the member the key belongs to.',
  }),
  bootstrap_commands_generated: attr.bool({
    computed: true,
    changesWith: ['bootstrap_commands_version'],
    description: "The platform's flag: whether bootstrap commands were ever generated for the environment.",
  }),
  status: attr.of(t.list(statusType))({
    computed: true,
    volatile: true,
    description:
      "What the platform's agent reports about the Kubernetes cluster: `phase`, `kubernetes_version`, " +
      '`kubernetes_distribution`, `number_of_nodes`, `cluster_creation_readiness`, `message`, `capabilities`, ' +
      '`component_statuses`, `storage_classes` and `volume_snapshot_classes`.',
  }),
  bootstrap_commands: attr.stringList({
    computed: true,
    sensitive: true,
    changesWith: ['bootstrap_commands_version'],
    description:
      "Shell commands (kubectl, helm) that install the platform's agent into the Kubernetes cluster. They contain " +
      'credentials.',
  }),
  bootstrap_commands_version: attr.number({
    optional: true,
    computed: true,
    validate: [validators.intBetween(-1, INT32_MAX)],
    onImport:
      'An import sets it to `0` (idle), with no `bootstrap_commands`: the platform does not say which version ' +
      'made the commands it holds, and an import never generates them. A configuration that sets a positive ' +
      'number then generates the bootstrap commands again at the first apply after the import, with new ' +
      'credentials. To import without that, set it to `0` in the configuration first, and raise it when you ' +
      'want new commands.',
    description:
      'Controls the bootstrap commands: `-1` never generates them, `0` is idle (nothing is generated or ' +
      'regenerated), and a number greater than 0 generates them; raising it to another positive number regenerates ' +
      'them with new credentials. Unset at creation means `1`. Changing it to `0` or `-1` removes the commands from ' +
      'the state.',
  }),
};

/**
 * The environment's own fields that are the API's as they are (./wired-fields.ts): checked, sent, compared by
 * an update and read back from their wiring alone, so a field the `.proto` gains on the environment is its
 * attribute and its entry here. The configuration has its own wiring; the rest is the server's or the provider's.
 */
const wired = wireMessage('hybrid.v1.HybridCloudEnvironment', declared, {
  name: { field: 'name', what: 'letters, digits, `-` and `_`' },
});
const fields = wired.fields;

/** The environment as sent, by a create or a whole replacement. */
const toApi = (plan: Model, accountId: string) => ({
  ...(wired.send(plan) as { name: string }),
  accountId,
  configuration: configurationToApi(plan.configuration[0]!),
});

heldBySchema('hybrid.v1.HybridCloudEnvironment.configuration#required', {
  type: 'vdb_accounts_hybrid_cloud_environment',
  attribute: 'configuration',
  as: 'required',
});

const schema = resourceSchema(fields, {
  description:
    'A hybrid cloud environment: a Kubernetes cluster of yours in which the platform runs database clusters.',
});
type Model = ModelOf<typeof fields>;
type ConfigurationModel = ModelOf<typeof wiredConfiguration.fields>;

// ---------------------------------------------------------------------------------------------------

function configurationToApi(c: ConfigurationModel): HybridEnvironmentConfigurationInput {
  const settings = c.advanced_operator_settings ? parseSettings(c.advanced_operator_settings) : null;
  return {
    namespace: c.namespace,
    ...wiredConfiguration.send(c),
    ...(c.log_level ? { logLevel: c.log_level as HybridLogLevel } : {}),
    tolerations: c.tolerations.map(tolerationToApi),
    nodeSelector: keyValuesToApi(c.node_selector),
    ...(settings && typeof settings === 'object' && !Array.isArray(settings) && Object.keys(settings).length > 0
      ? { advancedOperatorSettings: settings as SettingsObject }
      : {}),
    controlPlaneLabels: keyValuesToApi(c.control_plane_labels),
  };
}

function configurationFromApi(
  c: HybridEnvironmentConfiguration | undefined,
  prior: ConfigurationModel | undefined,
): ConfigurationModel {
  const settings =
    c?.advancedOperatorSettings && Object.keys(c.advancedOperatorSettings).length > 0
      ? printSettings(c.advancedOperatorSettings as SettingsObject)
      : null;
  return {
    namespace: c?.namespace ?? prior?.namespace ?? '',
    last_modified_at: formatTimestamp(c?.lastModifiedAt),
    ...wiredConfiguration.read(c, prior),
    log_level: c?.logLevel && !c.logLevel.endsWith('_UNSPECIFIED') ? c.logLevel : null,
    // An empty mapping is what an absent one means; a configured empty document stays as written.
    advanced_operator_settings:
      settings ??
      (prior?.advanced_operator_settings && sameSettings(prior.advanced_operator_settings, '{}')
        ? prior.advanced_operator_settings
        : null),
    node_selector: keyValuesFromApi(c?.nodeSelector),
    tolerations: (c?.tolerations ?? []).map(tolerationFromApi),
    control_plane_labels: keyValuesFromApi(c?.controlPlaneLabels),
  };
}

function statusFromApi(e: HybridEnvironment): NonNullable<Model['status']> {
  const s = e.status;
  if (!s) return [];
  return [
    {
      last_modified_at: formatTimestamp(s.lastModifiedAt),
      phase: s.phase,
      kubernetes_version: s.kubernetesVersion,
      number_of_nodes: s.numberOfNodes,
      cluster_creation_readiness: s.clusterCreationReadiness,
      kubernetes_distribution: s.kubernetesDistribution ?? 'KUBERNETES_DISTRIBUTION_UNSPECIFIED',
      message: s.message ?? '',
      capabilities: s.capabilities
        ? [{ volume_snapshot: s.capabilities.volumeSnapshot, volume_expansion: s.capabilities.volumeExpansion }]
        : [],
      component_statuses: s.componentStatuses.map((c) => ({
        name: c.name,
        version: c.version ?? '',
        phase: c.phase,
        message: c.message ?? '',
        namespace: c.namespace,
      })),
      storage_classes: s.storageClasses.map((c) => ({
        name: c.name,
        default: c.default,
        provisioner: c.provisioner,
        allow_volume_expansion: c.allowVolumeExpansion,
        reclaim_policy: c.reclaimPolicy,
        parameters: c.parameters.length > 0 ? Object.fromEntries(c.parameters.map((p) => [p.key, p.value])) : null,
      })),
      volume_snapshot_classes: s.volumeSnapshotClasses.map((c) => ({ name: c.name, driver: c.driver })),
    },
  ];
}

/**
 * The environment as the resource shows it; the bootstrap fields are the caller's (the API never returns the commands).
 */
/** What a read reports: never generated, the commands and the knob stay as they are (0 and empty after an import). */
function readFromApi(e: HybridEnvironment, prior: Model): Partial<Model> {
  return {
    ...fromApi(e, prior),
    bootstrap_commands_version: prior.bootstrap_commands_version ?? 0,
    bootstrap_commands: prior.bootstrap_commands ?? [],
  };
}

function fromApi(e: HybridEnvironment, prior: Model | null): Partial<Model> {
  return {
    ...wired.read(e, prior ?? undefined),
    id: e.id,
    account_id: e.accountId,
    configuration: [configurationFromApi(e.configuration, prior?.configuration[0])],
    created_at: formatTimestamp(e.createdAt),
    last_modified_at: formatTimestamp(e.lastModifiedAt),
    created_by_email: e.createdByEmail,
    bootstrap_commands_generated: e.bootstrapCommandsGenerated,
    status: statusFromApi(e),
  };
}

function validateConfiguration(config: ConfigModelOf<typeof fields>, diags: Diagnostics): void {
  checkTolerations(
    config.configuration?.[0]?.tolerations,
    [attrStep('configuration'), indexStep(0), attrStep('tolerations')],
    diags,
  );
}

/**
 * Generates the bootstrap commands. The platform refuses while the environment cannot take them
 * (failed precondition) or the key lacks the permissions; that is a warning, not a failure
 * (docs/api/vdb.md, "Generating bootstrap commands"): the commands stay empty and a later change of
 * the knob retries. A lost answer is treated the same: each call mints new credentials, so it is
 * not repeated blindly.
 */
async function generate(request: EnvironmentRequest, ctx: OpContext<VdbContext>): Promise<string[]> {
  try {
    const res = await ctx.client.api.hybridEnvironments.generateBootstrapCommands(request, { signal: ctx.signal });
    return [...res.commands];
  } catch (err) {
    if (isApiError(err, 'invalid') || isApiError(err, 'forbidden') || isApiError(err, 'outcome_unknown')) {
      ctx.diags.warning(
        'Bootstrap commands not available',
        `The platform did not generate bootstrap commands for ` +
          `environment ${request.hybridCloudEnvironmentId}: ${err.message}. Change bootstrap_commands_version to try ` +
          `again.`,
        [attrStep('bootstrap_commands')],
      );
      return [];
    }
    throw err;
  }
}

type EnvironmentRequest = { accountId: string; hybridCloudEnvironmentId: string };

/**
 * The environment as just created: unset `bootstrap_commands_version` means 1 (generate); 0 stays idle, -1 never
 * generates.
 */
const asCreated = (e: HybridEnvironment, plan: Model): Partial<Model> => ({
  ...fromApi(e, plan),
  bootstrap_commands_version: plan.bootstrap_commands_version ?? 1,
  bootstrap_commands: [],
});

/** What a create does once the environment exists: generate the bootstrap commands. */
async function settle(created: Partial<Model>, plan: Model, ctx: OpContext<VdbContext>): Promise<Partial<Model>> {
  const version = created.bootstrap_commands_version ?? 1;
  if (version <= 0) return created;
  const request = {
    accountId: created.account_id ?? accountIdOf(plan.account_id, ctx),
    hybridCloudEnvironmentId: created.id!,
  };
  const commands = await generate(request, ctx);
  // Generation sets the platform's flag: read the environment again.
  const env = await ctx.client.api.hybridEnvironments.get(request, { signal: ctx.signal });
  return { ...fromApi(env, plan), bootstrap_commands_version: version, bootstrap_commands: commands };
}

const environmentFilters = resourceSchema(
  { account_id: accountFilter('hybrid cloud environments') },
  { description: 'Lists the hybrid cloud environments of an account.' },
);

export const hybridCloudEnvironment = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_hybrid_cloud_environment',
  schema,
  importIdDescription: 'the environment id',
  importState: async (id) => ({ id }),
  identity: accountScopedIdentity({ id: 'The environment id.' }),
  list: listResource<typeof fields, typeof environmentFilters.fields, VdbContext>({
    schema: environmentFilters,
    async list(f, ctx) {
      const environments = await ctx.client.api.hybridEnvironments.list(
        { accountId: accountIdOf(f.account_id, ctx) },
        { signal: ctx.signal },
      );
      // As a read after an import: no bootstrap commands (a read never generates them).
      return environments.map((e) => ({ ...fromApi(e, null), bootstrap_commands_version: 0, bootstrap_commands: [] }));
    },
    displayName: (m) => m.name,
  }),
  validate: validateConfiguration,
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const env = await ctx.client.api.hybridEnvironments.create(toApi(plan, accountId), { signal: ctx.signal });
    return asCreated(env, plan);
  },
  settle,
  // An environment is known by its name, which is not unique on the platform.
  findCreated: {
    key: 'its name',
    uniqueKey: false,
    describe: (plan) => `the hybrid cloud environment named ${JSON.stringify(plan.name)}`,
    list: async (plan, ctx) =>
      (
        await ctx.client.api.hybridEnvironments.list(
          { accountId: accountIdOf(plan.account_id, ctx) },
          { signal: ctx.signal },
        )
      ).map((e) => asCreated(e, plan)),
    scope: (plan) => plan.account_id ?? '',
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.id ?? '',
    madeAt: madeAtFrom('created_at'),
  },
  async read(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    const env = await ctx.client.api.hybridEnvironments.get(
      { accountId, hybridCloudEnvironmentId: prior.id! },
      { signal: ctx.signal },
    );
    return readFromApi(env, prior);
  },
  readsByListing: {
    scope: (prior, ctx) => accountIdOf(prior.account_id, ctx),
    pages: listedInOneCall((ctx, prior: Model) =>
      ctx.client.api.hybridEnvironments.list({ accountId: accountIdOf(prior.account_id, ctx) }, { signal: ctx.signal }),
    ),
    idOf: (env) => env.id,
    read: readFromApi,
  },
  async update(plan, prior, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const request = { accountId, hybridCloudEnvironmentId: prior.id! };
    const configChanged =
      JSON.stringify(wired.send(plan)) !== JSON.stringify(wired.send(prior)) ||
      JSON.stringify(plan.configuration) !== JSON.stringify(prior.configuration);
    let env = configChanged
      ? await ctx.client.api.hybridEnvironments.update(
          { ...toApi(plan, accountId), id: prior.id! },
          { signal: ctx.signal },
        )
      : await ctx.client.api.hybridEnvironments.get(request, { signal: ctx.signal });
    const version = plan.bootstrap_commands_version ?? prior.bootstrap_commands_version ?? 0;
    let commands = prior.bootstrap_commands ?? [];
    if (version !== (prior.bootstrap_commands_version ?? 0)) {
      // No partial state here: if generation fails, the prior state (old knob) stays, so the next
      // apply retries; a refresh picks up the configuration change made above.
      // Rotation: a new positive version regenerates; 0 or -1 forgets the commands (nothing is revoked).
      commands = version > 0 ? await generate(request, ctx) : [];
      if (version > 0) env = await ctx.client.api.hybridEnvironments.get(request, { signal: ctx.signal });
    }
    return { ...fromApi(env, plan), bootstrap_commands_version: version, bootstrap_commands: commands };
  },
  async delete(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    await deleteIgnoringNotFound(() =>
      ctx.client.api.hybridEnvironments.delete(
        { accountId, hybridCloudEnvironmentId: prior.id! },
        { signal: ctx.signal },
      ),
    );
  },
});
