/**
 * What ClusterService checks in a cluster it is asked to create or change (./clusters.ts): the
 * fields' own rules (names, versions, sizes, Kubernetes entries, the database configuration), then
 * that its provider, region (or hybrid environment) and package exist and fit together.
 */
import {
  BOOKABLE,
  HYBRID_PROVIDER,
  packagesFor,
  requireProvider,
  requireRegion,
  type StoredPackage,
} from './catalog.js';
import type { VdbContext } from './context.js';
import { invalidArgument, type Violations } from './errors.js';
import { HYBRID_ENVIRONMENTS } from './hybrid.js';
import { LIMITS } from './limits.js';
import type { Cluster, ClusterConfiguration, DatabaseConfiguration, HybridEnvironment } from './records.js';
import * as rule from './rules.js';

const NAME = /^[a-zA-Z0-9-_]+$/;
const VERSION = /^(v\d+\.\d+\.\d+|latest)$/;

export function validateClusterFields(v: Violations, cluster: Cluster): void {
  if (cluster.name === '') v.add('cluster.name', 'value length must be at least 2 characters', 'string.min_len');
  else {
    rule.length(v, 'cluster.name', cluster.name, 2, LIMITS.clusterName);
    rule.pattern(v, 'cluster.name', cluster.name, NAME);
  }
  rule.length(v, 'cluster.cloud_provider_id', cluster.cloudProviderId, 3, LIMITS.placementId);
  if (cluster.cloudProviderRegionId === '')
    v.add('cluster.cloud_provider_region_id', 'value length must be at least 1 characters', 'string.min_len');
  else if ([...cluster.cloudProviderRegionId].length > LIMITS.placementId)
    rule.length(v, 'cluster.cloud_provider_region_id', cluster.cloudProviderRegionId, 1, LIMITS.placementId);
  else if (cluster.cloudProviderId === HYBRID_PROVIDER && !rule.isUuid(cluster.cloudProviderRegionId)) {
    v.add(
      'cluster.cloud_provider_region_id',
      'value must be a valid UUID (a hybrid cloud environment id) when cloud_provider_id is hybrid',
      'cluster.hybrid_region_uuid',
    );
  }
  rule.keyValues(v, 'cluster.labels', cluster.labels, LIMITS.kubernetesEntries);
  if (rule.required(v, 'cluster.configuration', cluster.configuration))
    validateConfiguration(v, 'cluster.configuration', cluster.configuration);
}

function validateConfiguration(v: Violations, path: string, c: ClusterConfiguration): void {
  rule.range(v, `${path}.number_of_nodes`, c.numberOfNodes, 1, LIMITS.nodes);
  if (c.version !== undefined) {
    if ([...c.version].length > LIMITS.version) rule.length(v, `${path}.version`, c.version, 1, LIMITS.version);
    else if (!VERSION.test(c.version))
      v.add(`${path}.version`, 'value must be a version such as v1.13.2, or latest', 'string.pattern');
  }
  rule.uuid(v, `${path}.package_id`, c.packageId);
  rule.range(v, `${path}.additional_resources.disk`, c.additionalResources?.disk, 0, LIMITS.additionalDiskGib);
  rule.keyValues(v, `${path}.node_selector`, c.nodeSelector, LIMITS.kubernetesEntries);
  rule.tolerations(v, `${path}.tolerations`, c.tolerations);
  rule.keyValues(v, `${path}.annotations`, c.annotations, LIMITS.kubernetesEntries);
  rule.ipv4Cidrs(v, `${path}.allowed_ip_source_ranges`, c.allowedIpSourceRanges, LIMITS.ipSourceRanges);
  rule.enumSet(v, `${path}.service_type`, c.serviceType);
  rule.keyValues(v, `${path}.service_annotations`, c.serviceAnnotations, LIMITS.serviceAnnotations);
  rule.keyValues(v, `${path}.pod_labels`, c.podLabels, LIMITS.kubernetesEntries);
  rule.range(v, `${path}.reserved_cpu_percentage`, c.reservedCpuPercentage, 1, LIMITS.reservedPercentage);
  rule.range(v, `${path}.reserved_memory_percentage`, c.reservedMemoryPercentage, 1, LIMITS.reservedPercentage);
  rule.enumSet(v, `${path}.gpu_type`, c.gpuType);
  rule.enumSet(v, `${path}.restart_policy`, c.restartPolicy);
  rule.enumSet(v, `${path}.rebalance_strategy`, c.rebalanceStrategy);
  rule.topologySpreadConstraints(v, `${path}.topology_spread_constraints`, c.topologySpreadConstraints);
  rule.enumSet(
    v,
    `${path}.cluster_storage_configuration.storage_tier_type`,
    c.clusterStorageConfiguration?.storageTierType,
  );
  if (c.databaseConfiguration)
    validateDatabaseConfiguration(v, `${path}.database_configuration`, c.databaseConfiguration);
}

function validateDatabaseConfiguration(v: Violations, path: string, d: DatabaseConfiguration): void {
  rule.range(v, `${path}.collection.replication_factor`, d.collection?.replicationFactor, 1, LIMITS.replicas);
  rule.range(
    v,
    `${path}.collection.write_consistency_factor`,
    d.collection?.writeConsistencyFactor,
    1,
    LIMITS.replicas,
    'int32',
  );
  const budget = LIMITS.optimizerCpuBudget;
  rule.range(
    v,
    `${path}.storage.performance.optimizer_cpu_budget`,
    d.storage?.performance?.optimizerCpuBudget,
    -budget,
    budget,
    'int32',
  );
  rule.secretKeyRef(v, `${path}.service.api_key`, d.service?.apiKey);
  rule.secretKeyRef(v, `${path}.service.read_only_api_key`, d.service?.readOnlyApiKey);
  rule.enumSet(v, `${path}.log_level`, d.logLevel);
  if (d.tls) {
    if (rule.required(v, `${path}.tls.cert`, d.tls.cert)) rule.secretKeyRef(v, `${path}.tls.cert`, d.tls.cert);
    if (rule.required(v, `${path}.tls.key`, d.tls.key)) rule.secretKeyRef(v, `${path}.tls.key`, d.tls.key);
  }
}

/** Provider, region (or hybrid environment) and package must exist and fit together. */
export function checkPlacement(ctx: VdbContext, cluster: Cluster): StoredPackage {
  requireProvider(ctx, 'cluster.cloud_provider_id', cluster.cloudProviderId);
  if (cluster.cloudProviderId === HYBRID_PROVIDER) {
    if (!ctx.store.get<HybridEnvironment>(HYBRID_ENVIRONMENTS.name, cluster.cloudProviderRegionId)) {
      throw invalidArgument(
        `validation error:\n - cluster.cloud_provider_region_id: hybrid cloud ` +
          `environment ${cluster.cloudProviderRegionId} not found [hybrid_cloud_environment.exists]`,
      );
    }
  } else {
    requireRegion(ctx, 'cluster.cloud_provider_region_id', cluster.cloudProviderId, cluster.cloudProviderRegionId);
  }
  const packageId = cluster.configuration.packageId;
  const offered = packagesFor(ctx, cluster.cloudProviderId, cluster.cloudProviderRegionId);
  const pkg = offered.find((candidate) => candidate.id === packageId);
  const where =
    cluster.cloudProviderId === HYBRID_PROVIDER
      ? 'hybrid'
      : `${cluster.cloudProviderId}/${cluster.cloudProviderRegionId}`;
  if (!pkg) {
    throw invalidArgument(
      `validation error:\n - cluster.configuration.package_id: package ${packageId} is not offered in ${where} (see ` +
        `BookingService/ListPackages) [package.exists]`,
    );
  }
  if (pkg.status !== BOOKABLE) {
    throw invalidArgument(
      `validation error:\n - cluster.configuration.package_id: package ${packageId} (${pkg.name}) is deactivated ` +
        `[package.active]`,
    );
  }
  if (pkg.type === 'free' && cluster.configuration.numberOfNodes > 1) {
    throw invalidArgument(
      `validation error:\n - cluster.configuration.number_of_nodes: the free package allows 1 node ` +
        `[package.free_single_node]`,
    );
  }
  return pkg;
}
