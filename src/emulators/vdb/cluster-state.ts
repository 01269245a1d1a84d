/**
 * What a cluster's state is at a given time (./clusters.ts stores it): the fields the server fills
 * in on create and update, the resources its package gives it, and the phases, nodes and endpoint
 * of a transition (create, update, suspend, resume) under way or just ended.
 */
import { HYBRID_PROVIDER, type StoredPackage } from './catalog.js';
import type { ClusterTransition, VdbContext } from './context.js';
import { HYBRID_ENVIRONMENTS } from './hybrid.js';
import type {
  Cluster,
  ClusterConfiguration,
  ClusterNodeResources,
  ClusterPhase,
  ClusterState,
  HybridEnvironment,
} from './records.js';

export const DEFAULT_DATABASE_VERSION = 'v1.13.2';
const REST_PORT = 443;
const GRPC_PORT = 8443;

/** What the server fills in: the version when none was asked for, and the modification time. */
export function serverFilledConfiguration(input: ClusterConfiguration, lastModifiedAt: string): ClusterConfiguration {
  return {
    ...input,
    lastModifiedAt,
    version: input.version ?? DEFAULT_DATABASE_VERSION,
    nodeSelector: input.nodeSelector ?? [],
    tolerations: input.tolerations ?? [],
    annotations: input.annotations ?? [],
    allowedIpSourceRanges: input.allowedIpSourceRanges ?? [],
    serviceAnnotations: input.serviceAnnotations ?? [],
    podLabels: input.podLabels ?? [],
    topologySpreadConstraints: input.topologySpreadConstraints ?? [],
  };
}

export function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, item]) => [key, normalized(item)]),
    );
  }
  return value;
}

export function resolvedVersion(configuration: ClusterConfiguration): string {
  return !configuration.version || configuration.version === 'latest'
    ? DEFAULT_DATABASE_VERSION
    : configuration.version;
}

function quantity(text: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(m|Gi|Mi)?$/.exec(text ?? '');
  if (!match) return 0;
  const value = Number(match[1]);
  return match[2] === 'm' ? value / 1000 : match[2] === 'Mi' ? value / 1024 : value;
}

export function resourcesSummary(pkg: StoredPackage, configuration: ClusterConfiguration): ClusterState['resources'] {
  const node = (base: number, additional: number, reservedPercent: number | undefined): ClusterNodeResources => {
    const reserved = Math.round(base * ((reservedPercent ?? 20) / 100) * 1000) / 1000;
    return { base, complimentary: 0, additional, reserved, available: base + additional - reserved };
  };
  return {
    cpu: node(quantity(pkg.resourceConfiguration?.cpu), 0, configuration.reservedCpuPercentage),
    ram: node(quantity(pkg.resourceConfiguration?.ram), 0, configuration.reservedMemoryPercentage),
    disk: node(quantity(pkg.resourceConfiguration?.disk), configuration.additionalResources?.disk ?? 0, 0),
  };
}

function endpointUrl(ctx: VdbContext, cluster: Cluster): string {
  if (cluster.cloudProviderId === HYBRID_PROVIDER) {
    const environment = ctx.store.get<HybridEnvironment>(HYBRID_ENVIRONMENTS.name, cluster.cloudProviderRegionId);
    return `https://vdb-${cluster.id}.${environment?.configuration?.namespace ?? 'vdb'}.svc`;
  }
  if (ctx.databaseEndpoints !== undefined) return `${ctx.databaseEndpoints}/clusters/${cluster.id}`;
  return `https://${cluster.id}.${cluster.cloudProviderRegionId}.${cluster.cloudProviderId}.vdb-cloud.example`;
}

const FAILED_PHASE: Record<ClusterTransition['kind'], ClusterPhase> = {
  create: 'CLUSTER_PHASE_FAILED_TO_CREATE',
  update: 'CLUSTER_PHASE_FAILED_TO_UPDATE',
  suspend: 'CLUSTER_PHASE_FAILED_TO_SUSPEND',
  resume: 'CLUSTER_PHASE_FAILED_TO_RESUME',
};

const BUSY_PHASE: Record<ClusterTransition['kind'], ClusterPhase> = {
  create: 'CLUSTER_PHASE_CREATING',
  update: 'CLUSTER_PHASE_UPDATING',
  suspend: 'CLUSTER_PHASE_SUSPENDING',
  resume: 'CLUSTER_PHASE_RESUMING',
};

export function transitionState(
  ctx: VdbContext,
  cluster: Cluster,
  transition: ClusterTransition,
  now: number,
): ClusterState {
  const previous = cluster.state!;
  const nodes = cluster.configuration.numberOfNodes;
  const done = now >= transition.endsAt;
  const halfway = now >= transition.startedAt + (transition.endsAt - transition.startedAt) / 2;
  const endpoint = { url: endpointUrl(ctx, cluster), restPort: REST_PORT, grpcPort: GRPC_PORT };
  const nodeInfos = (
    state: 'CLUSTER_NODE_STATE_STARTING' | 'CLUSTER_NODE_STATE_HEALTHY' | 'CLUSTER_NODE_STATE_SUSPENDED',
  ) =>
    Array.from({ length: nodes }, (_, i) => ({
      name: `${cluster.name}-node-${i}`,
      startedAt: new Date(transition.startedAt).toISOString(),
      version: previous.version,
      endpoint: `${endpoint.url.replace('https://', `https://node-${i}-`)}`,
      state,
    }));

  if (!done) {
    // Halfway through a create the URL exists but the nodes are still starting.
    const showEndpoint = transition.kind !== 'create' || halfway;
    return {
      ...previous,
      phase: BUSY_PHASE[transition.kind],
      reason: '',
      ...(showEndpoint ? { endpoint } : {}),
      nodes: transition.kind === 'create' ? (halfway ? nodeInfos('CLUSTER_NODE_STATE_STARTING') : []) : previous.nodes,
    };
  }
  if (transition.failReason !== undefined) {
    return {
      ...previous,
      phase: FAILED_PHASE[transition.kind],
      reason: transition.failReason,
      nodesUp: transition.kind === 'create' ? 0 : previous.nodesUp,
      scalabilityInfo: { status: 'CLUSTER_SCALABILITY_STATUS_NOT_SCALABLE', reason: transition.failReason },
    };
  }
  if (transition.kind === 'suspend') {
    return {
      ...previous,
      phase: 'CLUSTER_PHASE_SUSPENDED',
      reason: '',
      nodesUp: 0,
      nodes: nodeInfos('CLUSTER_NODE_STATE_SUSPENDED'),
    };
  }
  return {
    ...previous,
    phase: 'CLUSTER_PHASE_HEALTHY',
    reason: '',
    nodesUp: nodes,
    endpoint,
    restartedAt: transition.kind === 'create' ? previous.restartedAt : new Date(transition.endsAt).toISOString(),
    nodes: nodeInfos('CLUSTER_NODE_STATE_HEALTHY'),
    scalabilityInfo: { status: 'CLUSTER_SCALABILITY_STATUS_SCALABLE' },
  };
}
