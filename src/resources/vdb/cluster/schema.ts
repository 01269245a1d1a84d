/**
 * The cluster's fields (docs/api/vdb.md, "Cluster fields"), declared once: the resource uses them
 * as blocks, the data sources and the manual backup's `cluster_info` use their read-only twin
 * (`computedShape`).
 */
import { attr, block, type ModelOf, t, validators } from '@keel/provider-framework';
import { computedShape } from '../../shared/shape.js';
import { UINT32_MAX, cloudProviderId, cloudRegionId, uuid } from '../formats.js';
import { ACCOUNT_ID, keyValueSet, secretRefBlock, setNote, tolerationSet } from '../common.js';
import { apiItems, apiRule, apiRules } from '../rules.js';
import { wireMessage } from '../wired-fields.js';

// The API's rules of each field (src/resources/vdb/rules.ts); enums are named to show their values.
const CONFIGURATION_FIELD = 'cluster.v1.ClusterConfiguration';
export const SERVICE_TYPE = apiRule(`${CONFIGURATION_FIELD}.service_type`);
export const GPU_TYPE = apiRule(`${CONFIGURATION_FIELD}.gpu_type`);
export const RESTART_POLICY = apiRule(`${CONFIGURATION_FIELD}.restart_policy`);
export const REBALANCE_STRATEGY = apiRule(`${CONFIGURATION_FIELD}.rebalance_strategy`);
export const DATABASE_LOG_LEVEL = apiRule('cluster.v1.DatabaseConfiguration.log_level');
const WHEN_UNSATISFIABLE = apiRule('common.v1.TopologySpreadConstraint.when_unsatisfiable');

const RESOURCE_TYPES = ['cpu', 'ram', 'disk', 'complimentary_disk', 'snapshot'] as const;
const RESOURCE_UNITS = ['m', 'Gi'] as const;

/** The database's settings that are the API's fields as they are: checked, sent and read so (../wired-fields.ts). */
export const wiredVectors = wireMessage(
  'cluster.v1.DatabaseConfigurationCollectionVectors',
  {
    on_disk: attr.bool({
      optional: true,
      description: 'Whether vectors of new collections are stored on disk by default.',
    }),
  },
  { on_disk: 'on_disk' },
);

export const wiredCollection = wireMessage(
  'cluster.v1.DatabaseConfigurationCollection',
  {
    replication_factor: attr.number({
      optional: true,
      description: 'Default replication factor of new collections.',
    }),
    write_consistency_factor: attr.number({
      optional: true,
      description: 'Default write consistency factor of new collections.',
    }),
    vectors: block.one(wiredVectors.fields, { description: 'Default vector storage of new collections.' }),
  },
  { replication_factor: 'replication_factor', write_consistency_factor: 'write_consistency_factor' },
);

export const wiredPerformance = wireMessage(
  'cluster.v1.DatabaseConfigurationStoragePerformance',
  {
    optimizer_cpu_budget: attr.number({
      optional: true,
      description:
        'CPU threads the optimizer may use: 0 chooses automatically, a negative number leaves that many CPUs free.',
    }),
    async_scorer: attr.bool({
      optional: true,
      description: 'Whether the asynchronous (io_uring) scorer is used.',
    }),
  },
  { optimizer_cpu_budget: 'optimizer_cpu_budget', async_scorer: 'async_scorer' },
);

export const databaseConfigurationFields = {
  collection: block.one(wiredCollection.fields, { description: 'Default parameters of new collections.' }),
  storage: block.one(
    {
      performance: block.one(wiredPerformance.fields, { description: 'Performance tuning of the storage.' }),
    },
    { description: 'Storage settings of the database.' },
  ),
  service: block.one(
    {
      api_key: secretRefBlock('The Kubernetes secret holding the database API key (hybrid cloud).'),
      read_only_api_key: secretRefBlock('The Kubernetes secret holding the read-only database API key (hybrid cloud).'),
      jwt_rbac: attr.bool({
        optional: true,
        computed: true,
        // JWT RBAC is one-way (docs/api/vdb.md, "JWT RBAC"): refused at plan, where the cluster's
        // value is known.
        refusedChange: {
          refuses: (prior, planned) => prior && !planned,
          summary: 'JWT RBAC cannot be disabled',
          detail:
            'The platform can enable JWT role-based access control on a cluster but not disable it again. ' +
            'Set `jwt_rbac = true` (or remove it), or replace the cluster.',
        },
        description:
          'Whether JWT role-based access control is enabled. The platform can enable it but not disable it again; ' +
          "the value read back is the cluster's actual state.",
      }),
      force_include_jwt_rbac: attr.bool({
        optional: true,
        // How a create sends jwt_rbac: the platform never holds it (docs/api/vdb.md, "JWT RBAC").
        providerOnly: true,
        deprecated: 'For test purposes only, and will be removed: leave it out. Nothing replaces it.',
        description: 'Sends the `jwt_rbac` value to the platform even when it is `false`.',
      }),
      enable_tls: attr.bool({
        optional: true,
        computed: true,
        description: 'Whether the database serves its API over TLS.',
      }),
    },
    { description: 'Settings of the database service.' },
  ),
  log_level: attr.string({
    optional: true,
    validate: [DATABASE_LOG_LEVEL],
    description: `Log level of the database: ${DATABASE_LOG_LEVEL.description}.`,
  }),
  tls: block.one(
    {
      cert: secretRefBlock('The Kubernetes secret holding the TLS certificate.'),
      key: secretRefBlock('The Kubernetes secret holding the TLS private key.'),
    },
    {
      description:
        'The TLS certificate and key the database uses (hybrid cloud). Both are required when the block is present.',
    },
  ),
  inference: block.one(
    {
      enabled: attr.bool({
        optional: true,
        computed: true,
        description: 'Whether inference (embedding models) is enabled on the cluster.',
      }),
    },
    { description: 'Inference settings of the cluster.' },
  ),
};

/** How a configuration refers to the cluster and its configuration, in the notes on sets. */
const CLUSTER = 'vdb_accounts_cluster.example';
const CONFIGURATION = `${CLUSTER}.configuration[0]`;

const declaredConfigurationFields = {
  version: attr.string({
    optional: true,
    computed: true,
    validate: apiRules(`${CONFIGURATION_FIELD}.version`, {
      what: 'a version such as `v1.13.0`, or `latest`',
      samples: ['latest', 'v1.13.0'],
    }),
    description:
      'Version of the database engine, `vX.Y.Z` or `latest`. When unset the platform chooses; `latest` stays ' +
      '`latest` in the state while the cluster reports the version it resolved to.',
  }),
  last_modified_at: attr.string({
    computed: true,
    volatile: true,
    description: 'When the configuration last changed (RFC 3339).',
  }),
  number_of_nodes: attr.number({
    required: true,
    validate: apiRules(`${CONFIGURATION_FIELD}.number_of_nodes`),
    description:
      "Number of database nodes. The platform also caps it by the account's node quota, which it checks when the " +
      'cluster is created or changed.',
  }),
  node_configuration: block.one(
    {
      package_id: attr.string({
        required: true,
        refersTo: 'a booking package offered in the region',
        validate: apiRules(`${CONFIGURATION_FIELD}.package_id`),
        description:
          'The booking package (see the `vdb_booking_packages` data source) that fixes the CPU, memory and disk of ' +
          'each node.',
      }),
      resource_configurations: block.list(
        {
          // Their sum has the API's bound of the extra disk (resource.ts); one alone has its wire type's.
          amount: attr.number({
            required: true,
            validate: [validators.intBetween(1, UINT32_MAX, [1, 20])],
            description: 'Amount of the resource.',
          }),
          resource_type: attr.string({
            required: true,
            validate: [
              {
                description: RESOURCE_TYPES.map((r) => `\`${r}\``).join(', '),
                samples: RESOURCE_TYPES,
                check: (v) =>
                  RESOURCE_TYPES.includes(v as never)
                    ? undefined
                    : `must be one of ${RESOURCE_TYPES.join(', ')}, got ${JSON.stringify(v)}`,
              },
            ],
            description:
              'Resource type. Only `disk` (with unit `Gi`) adds resources; the other types are accepted for ' +
              'compatibility and have no effect.',
          }),
          resource_unit: attr.string({
            required: true,
            validate: [
              {
                description: RESOURCE_UNITS.map((r) => `\`${r}\``).join(', '),
                samples: RESOURCE_UNITS,
                check: (v) =>
                  RESOURCE_UNITS.includes(v as never)
                    ? undefined
                    : `must be one of ${RESOURCE_UNITS.join(', ')}, got ${JSON.stringify(v)}`,
              },
            ],
            description: 'Unit of the amount: `Gi` (gibibytes) or `m` (milli-CPUs).',
          }),
        },
        {
          description:
            'Additional resources on top of the package. Disk amounts in `Gi` are added up into the extra disk per ' +
            'node.',
        },
      ),
    },
    { required: true, description: 'The size of each node.' },
  ),
  node_selector: keyValueSet(
    'Kubernetes node selector of the database pods (hybrid cloud).',
    'node selector',
    `${CONFIGURATION_FIELD}.node_selector`,
    `${CONFIGURATION}.node_selector`,
  ),
  tolerations: tolerationSet(
    'Kubernetes tolerations of the database pods (hybrid cloud).',
    `${CONFIGURATION_FIELD}.tolerations`,
    `${CONFIGURATION}.tolerations`,
  ),
  topology_spread_constraints: block.set(
    {
      max_skew: attr.number({
        required: true,
        validate: apiRules('common.v1.TopologySpreadConstraint.max_skew'),
        description: 'The largest allowed difference in the number of pods between topology domains.',
      }),
      topology_key: attr.string({
        required: true,
        validate: apiRules('common.v1.TopologySpreadConstraint.topology_key'),
        description: 'The node label that defines topology domains, e.g. `topology.kubernetes.io/zone`.',
      }),
      when_unsatisfiable: attr.string({
        required: true,
        validate: [WHEN_UNSATISFIABLE],
        description: `What happens when the constraint cannot be met: ${WHEN_UNSATISFIABLE.description}.`,
      }),
    },
    {
      description:
        'How database pods spread across topology domains (hybrid cloud). ' +
        setNote(
          `${CONFIGURATION}.topology_spread_constraints`,
          `[for c in ${CONFIGURATION}.topology_spread_constraints : c if c.topology_key == ` +
            `"topology.kubernetes.io/zone"]`,
        ),
      max: apiItems(`${CONFIGURATION_FIELD}.topology_spread_constraints`).max,
    },
  ),
  annotations: keyValueSet(
    'Kubernetes annotations of the database pods (hybrid cloud).',
    'annotation',
    `${CONFIGURATION_FIELD}.annotations`,
    `${CONFIGURATION}.annotations`,
  ),
  allowed_ip_source_ranges: attr.stringSet({
    optional: true,
    description:
      'IPv4 ranges (CIDR) allowed to reach the cluster; empty allows all. ' +
      setNote(
        `${CONFIGURATION}.allowed_ip_source_ranges`,
        `contains(${CONFIGURATION}.allowed_ip_source_ranges, "10.0.0.0/8")`,
      ),
  }),
  service_type: attr.string({
    optional: true,
    validate: [SERVICE_TYPE],
    description: `Kubernetes service type of the database (hybrid cloud): ${SERVICE_TYPE.description}.`,
  }),
  service_annotations: keyValueSet(
    'Annotations of the Kubernetes service of the database (hybrid cloud).',
    'service annotation',
    `${CONFIGURATION_FIELD}.service_annotations`,
    `${CONFIGURATION}.service_annotations`,
  ),
  pod_labels: keyValueSet(
    'Labels of the database pods.',
    'pod label',
    `${CONFIGURATION_FIELD}.pod_labels`,
    `${CONFIGURATION}.pod_labels`,
  ),
  database_configuration: block.one(databaseConfigurationFields, {
    description: 'Settings of the database engine itself (mainly for hybrid cloud).',
  }),
  reserved_cpu_percentage: attr.number({
    optional: true,
    description: "Percentage of CPU reserved for system components (the platform's default is 20).",
  }),
  reserved_memory_percentage: attr.number({
    optional: true,
    description: "Percentage of memory reserved for system components (the platform's default is 20).",
  }),
  gpu_type: attr.string({
    optional: true,
    validate: [GPU_TYPE],
    description: `GPU type of the nodes: ${GPU_TYPE.description}.`,
  }),
  restart_policy: attr.string({
    optional: true,
    validate: [RESTART_POLICY],
    description: `How the database is restarted after a change: ${RESTART_POLICY.description}.`,
  }),
  rebalance_strategy: attr.string({
    optional: true,
    validate: [REBALANCE_STRATEGY],
    description: `How shards are rebalanced automatically: ${REBALANCE_STRATEGY.description}.`,
  }),
};

/** The configuration's fields that are the API's as they are: checked, sent and read so (../wired-fields.ts). */
export const wiredConfiguration = wireMessage(CONFIGURATION_FIELD, declaredConfigurationFields, {
  allowed_ip_source_ranges: 'allowed_ip_source_ranges',
  reserved_cpu_percentage: 'reserved_cpu_percentage',
  reserved_memory_percentage: 'reserved_memory_percentage',
});
export const configurationFields = wiredConfiguration.fields;

export type ConfigurationModel = ModelOf<typeof configurationFields>;
export type DatabaseConfigurationModel = ModelOf<typeof databaseConfigurationFields>;

const nodeResources = t.list(
  t.object({ base: t.number, complimentary: t.number, additional: t.number, reserved: t.number, available: t.number }),
);

export const statusType = t.object({
  version: t.string,
  nodes_up: t.number,
  restarted_at: t.string,
  phase: t.string,
  reason: t.string,
  resources: t.list(t.object({ disk: nodeResources, ram: nodeResources, cpu: nodeResources })),
  scalability_info: t.list(t.object({ status: t.string, reason: t.string })),
});

const statusDescription =
  'What the platform reports about the running cluster: engine `version`, `nodes_up`, `restarted_at`, `phase` (e.g. ' +
  '`CLUSTER_PHASE_HEALTHY`), `reason`, per-node `resources` (disk, ram, cpu: base, complimentary, additional, ' +
  'reserved and available amounts) and `scalability_info`.';

/** The cluster resource's fields, before the wiring gives the wired ones their checks. */
const declaredClusterFields = {
  id: attr.computedId('The cluster id (a UUID).'),
  created_at: attr.string({ computed: true, description: 'When the cluster was created (RFC 3339).' }),
  account_id: attr.string({
    validate: ACCOUNT_ID,
    optional: true,
    computed: true,
    replace: true,
    refersTo: 'an account',
    description:
      "The account the cluster belongs to. Defaults to the provider's `account_id`. A cluster cannot move to another " +
      'account, so a change creates a new cluster.',
  }),
  name: attr.string({ required: true, description: 'Name of the cluster. Can be changed in place.' }),
  labels: keyValueSet('Labels of the cluster.', 'label', 'cluster.v1.Cluster.labels', `${CLUSTER}.labels`),
  cloud_provider: attr.string({
    required: true,
    replace: true,
    refersTo: 'a cloud provider of the platform',
    validate: [...apiRules('cluster.v1.Cluster.cloud_provider_id'), cloudProviderId],
    description:
      'The cloud provider: an id the platform service lists (e.g. `aws`, `gcp`, `azure`), or `hybrid` for a hybrid ' +
      'cloud environment. Changing it creates a new cluster.',
  }),
  cloud_region: attr.string({
    required: true,
    replace: true,
    refersTo: 'a region of the cloud provider, or a hybrid cloud environment',
    validate: [...apiRules('cluster.v1.Cluster.cloud_provider_region_id'), cloudRegionId],
    description:
      'The region: an id the platform service lists for the provider (e.g. `eu-central-1`); for `hybrid`, the id of ' +
      'the hybrid cloud environment. Changing it creates a new cluster.',
  }),
  private_region_id: attr.string({
    optional: true,
    refersTo: 'a hybrid cloud environment',
    validate: [uuid],
    deprecated: 'Use cloud_provider = "hybrid" and cloud_region instead.',
    description:
      'The hybrid cloud environment (private region) of the cluster; with `cloud_provider = "hybrid"` it takes the ' +
      'place of `cloud_region`.',
  }),
  marked_for_deletion_at: attr.string({
    computed: true,
    description: 'When the cluster was marked for deletion (RFC 3339), or empty.',
  }),
  url: attr.string({
    computed: true,
    description: 'The endpoint URL of the cluster. Create and update wait until it is published.',
  }),
  configuration: block.one(configurationFields, { required: true, description: 'The configuration of the cluster.' }),
  status: attr.of(t.list(statusType))({ computed: true, volatile: true, description: statusDescription }),
  delete_backups_on_destroy: attr.bool({
    optional: true,
    default: true,
    providerOnly: true,
    description: "Whether the cluster's backups are deleted with it.",
  }),
};

/**
 * The cluster's own fields that are the API's as they are (../wired-fields.ts): checked, sent and read back
 * from their wiring alone, and shown by both data sources, so a field the `.proto` gains on `Cluster` is its
 * attribute and its entry here. The placement (a region standing for a hybrid environment), the labels (a
 * set of pairs) and the configuration (a block of its own wiring) are mapped by hand.
 */
export const wiredCluster = wireMessage('cluster.v1.Cluster', declaredClusterFields, {
  name: { field: 'name', what: 'letters, digits, `-` and `_`' },
});
export const clusterFields = wiredCluster.fields;

export type ClusterModel = ModelOf<typeof clusterFields>;

/** The read-only shape of a cluster configuration (data sources, `cluster_info` of a backup). */
export const configurationShape = computedShape(configurationFields);

/** One cluster as data sources show it: the resource's attributes, nested objects as lists. */
export const clusterShapeFields = {
  account_id: t.string,
  name: t.string,
  labels: t.list(t.object({ key: t.string, value: t.string })),
  cloud_provider: t.string,
  cloud_region: t.string,
  private_region_id: t.string,
  created_at: t.string,
  marked_for_deletion_at: t.string,
  url: t.string,
  configuration: t.list(configurationShape),
  status: t.list(statusType),
  delete_backups_on_destroy: t.bool,
};

export { statusDescription };
