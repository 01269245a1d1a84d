/**
 * Cluster ⇄ API mapping (docs/api/vdb.md, "Cluster fields"), shared by the resource, the cluster
 * data sources and the manual backup's `cluster_info`. Write side: zero ("UNSPECIFIED") enums and
 * empty optional values are never sent (docs/api/vdb.md, "Zero enum values"). Read side:
 * UNSPECIFIED enums read as unset, so they cause no diff.
 */
import type {
  Cluster,
  ClusterConfiguration,
  ClusterConfigurationInput,
  ClusterGpuType,
  ClusterNodeResources,
  ClusterRebalanceStrategy,
  ClusterRestartPolicy,
  ClusterServiceType,
  ClusterState,
  DatabaseConfiguration,
  DatabaseConfigurationInput,
  DatabaseLogLevel,
  SecretKeyRef,
  WhenUnsatisfiable,
} from '../../../clients/vdb/api.js';
import { formatTimestamp, HYBRID } from '../formats.js';
import { keyValuesFromApi, keyValuesToApi, tolerationFromApi, tolerationToApi } from '../common.js';
import {
  type ClusterModel,
  type ConfigurationModel,
  type DatabaseConfigurationModel,
  wiredCluster,
  wiredCollection,
  wiredConfiguration,
  wiredPerformance,
  wiredVectors,
} from './schema.js';

type StatusModel = NonNullable<ClusterModel['status']>[number];

const unspecified = (v: string | undefined): boolean => v === undefined || v === '' || v.endsWith('_UNSPECIFIED');
const enumOrNull = (v: string | undefined): string | null => (unspecified(v) ? null : v!);
const one = <T>(v: T | null | undefined): T[] => (v === null || v === undefined ? [] : [v]);

// ---------------------------------------------------------------------------------------------------
// Model → API

/** Extra disk per node: the `disk`/`Gi` amounts added up; the other legacy types have no effect. */
export function additionalDisk(
  resources: readonly { amount: number; resource_type: string; resource_unit: string }[],
): number {
  return resources
    .filter((r) => r.resource_type === 'disk' && r.resource_unit === 'Gi')
    .reduce((sum, r) => sum + r.amount, 0);
}

type SecretRefModel = { secret_name: string; secret_key: string };
type TlsModel = { cert: readonly SecretRefModel[]; key: readonly SecretRefModel[] };

const secretRefToApi = (refs: readonly SecretRefModel[]): SecretKeyRef | undefined =>
  refs[0] ? { name: refs[0].secret_name, key: refs[0].secret_key } : undefined;

/** The tls block as sent: both secrets, or nothing (the plan refuses one alone: checkTls). */
export const tlsToApi = (tls: TlsModel) =>
  tls.cert[0] && tls.key[0] ? { cert: secretRefToApi(tls.cert)!, key: secretRefToApi(tls.key)! } : undefined;

/** The tls block as it says, each secret it names: what the API's rules judge (DatabaseConfigurationTls). */
export const tlsAsWritten = (tls: TlsModel) => ({
  ...(tls.cert[0] ? { cert: secretRefToApi(tls.cert) } : {}),
  ...(tls.key[0] ? { key: secretRefToApi(tls.key) } : {}),
});

function databaseConfigurationToApi(db: DatabaseConfigurationModel): DatabaseConfigurationInput {
  const collection = db.collection[0];
  const performance = db.storage[0]?.performance[0];
  const service = db.service[0];
  const tls = db.tls[0] && tlsToApi(db.tls[0]);
  const inference = db.inference[0];
  return {
    ...(collection
      ? {
          collection: {
            ...wiredCollection.send(collection),
            ...(collection.vectors[0] ? { vectors: wiredVectors.send(collection.vectors[0]) } : {}),
          },
        }
      : {}),
    ...(db.storage[0]
      ? {
          storage: performance
            ? {
                performance: wiredPerformance.send(performance),
              }
            : {},
        }
      : {}),
    ...(service
      ? {
          service: {
            ...(secretRefToApi(service.api_key) ? { apiKey: secretRefToApi(service.api_key) } : {}),
            ...(secretRefToApi(service.read_only_api_key)
              ? { readOnlyApiKey: secretRefToApi(service.read_only_api_key) }
              : {}),
            ...(service.enable_tls !== null ? { enableTls: service.enable_tls } : {}),
          },
        }
      : {}),
    ...(db.log_level ? { logLevel: db.log_level as DatabaseLogLevel } : {}),
    ...(tls ? { tls } : {}),
    ...(inference && inference.enabled !== null ? { inference: { enabled: inference.enabled } } : {}),
  };
}

export function configurationToApi(c: ConfigurationModel): ClusterConfigurationInput {
  const node = c.node_configuration[0]!;
  const disk = additionalDisk(node.resource_configurations);
  const db = c.database_configuration[0];
  return {
    numberOfNodes: c.number_of_nodes,
    ...(c.version ? { version: c.version } : {}),
    packageId: node.package_id,
    ...(disk > 0 ? { additionalResources: { disk } } : {}),
    ...(db ? { databaseConfiguration: databaseConfigurationToApi(db) } : {}),
    nodeSelector: keyValuesToApi(c.node_selector),
    tolerations: c.tolerations.map(tolerationToApi),
    annotations: keyValuesToApi(c.annotations),
    ...wiredConfiguration.send(c),
    ...(c.service_type ? { serviceType: c.service_type as ClusterServiceType } : {}),
    serviceAnnotations: keyValuesToApi(c.service_annotations),
    podLabels: keyValuesToApi(c.pod_labels),
    ...(c.gpu_type ? { gpuType: c.gpu_type as ClusterGpuType } : {}),
    ...(c.restart_policy ? { restartPolicy: c.restart_policy as ClusterRestartPolicy } : {}),
    ...(c.rebalance_strategy ? { rebalanceStrategy: c.rebalance_strategy as ClusterRebalanceStrategy } : {}),
    topologySpreadConstraints: c.topology_spread_constraints.map((t) => ({
      maxSkew: t.max_skew,
      topologyKey: t.topology_key,
      whenUnsatisfiable: t.when_unsatisfiable as WhenUnsatisfiable,
    })),
  };
}

/**
 * The JWT RBAC request metadata of a create: sent when `jwt_rbac` is true, or when the deprecated
 * `force_include_jwt_rbac` asks for the configured value to be sent anyway (docs/api/vdb.md, "JWT RBAC").
 */
export function jwtRbacOnCreate(c: ConfigurationModel): boolean | undefined {
  const service = c.database_configuration[0]?.service[0];
  if (!service) return undefined;
  if (service.jwt_rbac === true) return true;
  if (service.force_include_jwt_rbac === true) return service.jwt_rbac ?? false;
  return undefined;
}

export const wantsJwtRbac = (c: ConfigurationModel): boolean =>
  c.database_configuration[0]?.service[0]?.jwt_rbac === true;

// ---------------------------------------------------------------------------------------------------
// API → model

const secretRefFromApi = (ref: SecretKeyRef | undefined) => one(ref && { secret_name: ref.name, secret_key: ref.key });

/**
 * The database configuration as the platform reports it. `jwt_rbac` is not part of the configuration
 * but of the cluster state; it appears inside a `service` block when the platform reports one or the
 * prior state had one (a block cannot appear from nowhere without showing as a change).
 */
function databaseConfigurationFromApi(
  db: DatabaseConfiguration | undefined,
  state: ClusterState | undefined,
  prior: DatabaseConfigurationModel | undefined,
): DatabaseConfigurationModel[] {
  if (!db && !prior) return [];
  const hadService = (prior?.service.length ?? 0) > 0;
  const service = db?.service;
  return [
    {
      collection: one(
        db?.collection && {
          ...wiredCollection.read(db.collection, undefined),
          vectors: one(db.collection.vectors && wiredVectors.read(db.collection.vectors, undefined)),
        },
      ),
      storage: one(
        db?.storage && {
          performance: one(db.storage.performance && wiredPerformance.read(db.storage.performance, undefined)),
        },
      ),
      service:
        service || hadService
          ? [
              {
                api_key: secretRefFromApi(service?.apiKey),
                read_only_api_key: secretRefFromApi(service?.readOnlyApiKey),
                jwt_rbac: state ? state.jwtRbac : (prior?.service[0]?.jwt_rbac ?? null),
                // Never reported by the platform: the configured value stays.
                force_include_jwt_rbac: prior?.service[0]?.force_include_jwt_rbac ?? null,
                enable_tls: service?.enableTls ?? prior?.service[0]?.enable_tls ?? false,
              },
            ]
          : [],
      log_level: enumOrNull(db?.logLevel),
      tls: one(db?.tls && { cert: secretRefFromApi(db.tls.cert), key: secretRefFromApi(db.tls.key) }),
      inference: one(db?.inference && { enabled: db.inference.enabled }),
    },
  ];
}

/**
 * `resource_configurations` as read back: the platform keeps only the added-up extra disk, so the
 * prior list stays as long as it adds up to the same disk (legacy entries without effect cause no
 * diff, docs/api/vdb.md, "Cluster fields"); otherwise one `disk`/`Gi` entry shows the platform's value.
 */
function resourceConfigurationsFromApi(
  disk: number,
  prior: ConfigurationModel['node_configuration'][number]['resource_configurations'] | undefined,
) {
  if (prior && additionalDisk(prior) === disk) return prior;
  return disk > 0 ? [{ amount: disk, resource_type: 'disk', resource_unit: 'Gi' }] : [];
}

export function configurationFromApi(
  c: ClusterConfiguration,
  state: ClusterState | undefined,
  prior: ConfigurationModel | undefined,
): ConfigurationModel {
  return {
    version: c.version || state?.version || null,
    last_modified_at: formatTimestamp(c.lastModifiedAt),
    number_of_nodes: c.numberOfNodes,
    node_configuration: [
      {
        package_id: c.packageId,
        resource_configurations: resourceConfigurationsFromApi(
          c.additionalResources?.disk ?? 0,
          prior?.node_configuration[0]?.resource_configurations,
        ),
      },
    ],
    node_selector: keyValuesFromApi(c.nodeSelector),
    tolerations: (c.tolerations ?? []).map(tolerationFromApi),
    topology_spread_constraints: (c.topologySpreadConstraints ?? []).map((t) => ({
      max_skew: t.maxSkew ?? 0,
      topology_key: t.topologyKey,
      when_unsatisfiable: t.whenUnsatisfiable ?? '',
    })),
    annotations: keyValuesFromApi(c.annotations),
    ...wiredConfiguration.read(c, prior),
    service_type: enumOrNull(c.serviceType),
    service_annotations: keyValuesFromApi(c.serviceAnnotations),
    pod_labels: keyValuesFromApi(c.podLabels),
    database_configuration: databaseConfigurationFromApi(
      c.databaseConfiguration,
      state,
      prior?.database_configuration[0],
    ),
    gpu_type: enumOrNull(c.gpuType),
    restart_policy: enumOrNull(c.restartPolicy),
    rebalance_strategy: enumOrNull(c.rebalanceStrategy),
  };
}

const resourcesFromApi = (r: ClusterNodeResources | undefined) =>
  one(
    r && {
      base: r.base,
      complimentary: r.complimentary,
      additional: r.additional,
      reserved: r.reserved,
      available: r.available,
    },
  );

export function statusFromApi(s: ClusterState | undefined): StatusModel[] {
  if (!s) return [];
  return [
    {
      version: s.version,
      nodes_up: s.nodesUp,
      restarted_at: formatTimestamp(s.restartedAt),
      phase: s.phase,
      reason: s.reason,
      resources: one(
        s.resources && {
          disk: resourcesFromApi(s.resources.disk),
          ram: resourcesFromApi(s.resources.ram),
          cpu: resourcesFromApi(s.resources.cpu),
        },
      ),
      scalability_info: one(
        s.scalabilityInfo && { status: s.scalabilityInfo.status, reason: s.scalabilityInfo.reason ?? '' },
      ),
    },
  ];
}

/**
 * The cluster as the resource shows it. `prior` carries what the platform never reports
 * (`delete_backups_on_destroy`, `force_include_jwt_rbac`) and the configured form of equivalent values.
 */
export function clusterFromApi(
  c: Cluster,
  prior: ClusterModel | null,
): Omit<ClusterModel, 'delete_backups_on_destroy'> {
  const hybrid = c.cloudProviderId === HYBRID;
  // The deprecated private_region_id is the hybrid region under another name: it reads back only where
  // it was configured, and then stands for cloud_region (docs/api/vdb.md, "Cluster fields": no
  // perpetual diff).
  const privateRegion = prior?.private_region_id ? (hybrid ? c.cloudProviderRegionId : prior.private_region_id) : null;
  const region =
    hybrid && prior?.private_region_id && privateRegion === c.cloudProviderRegionId
      ? prior.cloud_region
      : c.cloudProviderRegionId;
  return {
    ...wiredCluster.read(c, prior ?? undefined),
    id: c.id,
    created_at: formatTimestamp(c.createdAt),
    account_id: c.accountId,
    labels: keyValuesFromApi(c.labels),
    cloud_provider: c.cloudProviderId,
    cloud_region: region,
    private_region_id: privateRegion,
    marked_for_deletion_at: formatTimestamp(c.deletedAt),
    url: c.state?.endpoint?.url ?? '',
    configuration: [configurationFromApi(c.configuration, c.state, prior?.configuration[0])],
    status: statusFromApi(c.state),
  };
}
