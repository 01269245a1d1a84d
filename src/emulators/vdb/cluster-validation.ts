/**
 * What ClusterService checks in a cluster it is asked to create or change (./clusters.ts) beyond the
 * API's rules, which held before the handler ran (request-rules.ts): that its provider, region (or
 * hybrid environment) and package exist and fit together.
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
import { invalidArgument } from './errors.js';
import { HYBRID_ENVIRONMENTS } from './hybrid.js';
import type { Cluster, HybridEnvironment } from './records.js';

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
