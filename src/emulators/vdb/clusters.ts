/**
 * ClusterService: clusters with provisioning phases (vdb.md §4.1). A create, a configuration
 * update, a suspend or a resume starts a transition that ends `provisioningMs` later; the state
 * is brought up to date whenever a cluster is read. Halfway through a create the endpoint URL
 * appears; at the end the cluster is HEALTHY, or FAILED_TO_CREATE with the platform's reason
 * when a failure was queued (failNextProvisioning, or the label `vdb-emulator/fail-provisioning`).
 */
import { VDB_SERVICES } from '../../wire/vdb-proto.js';
import {
  BOOKABLE,
  HYBRID_PROVIDER,
  packagesFor,
  requireProvider,
  requireRegion,
  type StoredPackage,
} from './catalog.js';
import {
  checkAccount,
  newId,
  nowTimestamp,
  removeStored,
  type ClusterTransition,
  type StoredKind,
  type VdbContext,
} from './context.js';
import { Violations, failedPrecondition, invalidArgument, notFound, quoted } from './errors.js';
import { LIMITS } from './limits.js';
import * as rule from './rules.js';
import type {
  Cluster,
  ClusterConfiguration,
  ClusterNodeResources,
  ClusterPhase,
  ClusterState,
  DatabaseConfiguration,
  HybridEnvironment,
} from './records.js';
import { HYBRID_ENVIRONMENTS } from './hybrid.js';
import type { HandlerCall, ServiceRegistration } from './server.js';
import type { WireObject } from './wire-codec.js';

/** A label whose value becomes the failure reason of the cluster's provisioning (tests, examples). */
export const FAIL_PROVISIONING_LABEL = 'vdb-emulator/fail-provisioning';
export const DEFAULT_DATABASE_VERSION = 'v1.13.2';
const JWT_RBAC_METADATA = 'vdb-jwt-rbac';
const REST_PORT = 443;
const GRPC_PORT = 8443;
const NAME = /^[a-zA-Z0-9-_]+$/;
const VERSION = /^(v\d+\.\d+\.\d+|latest)$/;

export const CLUSTERS: StoredKind<'clusters', Cluster> = {
  name: 'clusters',
  label: 'cluster',
  refersTo: [
    // A hybrid cluster runs in an environment, which cannot be deleted under it.
    {
      to: HYBRID_ENVIRONMENTS.name,
      field: 'cloudProviderRegionId',
      whenDeleted: 'refuse',
      applies: (cluster) => cluster.cloudProviderId === HYBRID_PROVIDER,
    },
  ],
  refresh: refreshCluster,
  forget: (ctx, id) => ctx.transitions.delete(id),
};

export const CLUSTER_MODULE = { services: clusterServices, storage: [CLUSTERS] } as const;

function clusterServices(ctx: VdbContext): ServiceRegistration[] {
  return [
    {
      service: VDB_SERVICES.cluster,
      handlers: {
        ListClusters: (request) => listClusters(ctx, request),
        GetCluster: (request) => {
          checkAccount(ctx, 'account_id', request.accountId);
          return { cluster: requireCluster(ctx, request.clusterId as string) };
        },
        CreateCluster: (request, call) => ({
          cluster: createCluster(ctx, request.cluster as Cluster | undefined, call),
        }),
        UpdateCluster: (request) => ({ cluster: updateCluster(ctx, request.cluster as Cluster | undefined) }),
        DeleteCluster: (request) => {
          checkAccount(ctx, 'account_id', request.accountId);
          deleteCluster(ctx, request.clusterId as string, request.deleteBackups === true);
          return {};
        },
        EnableClusterJwtRbac: (request) => {
          checkAccount(ctx, 'account_id', request.accountId);
          const cluster = requireCluster(ctx, request.clusterId as string);
          ctx.store.put(CLUSTERS.name, cluster.id, { ...cluster, state: { ...cluster.state!, jwtRbac: true } });
          return {};
        },
        SuspendCluster: (request) => {
          checkAccount(ctx, 'account_id', request.accountId);
          changePower(ctx, request.clusterId as string, 'suspend');
          return {};
        },
        UnsuspendCluster: (request) => {
          checkAccount(ctx, 'account_id', request.accountId);
          changePower(ctx, request.clusterId as string, 'resume');
          return {};
        },
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------

function listClusters(ctx: VdbContext, request: WireObject): WireObject {
  checkAccount(ctx, 'account_id', request.accountId);
  const provider = request.cloudProviderId as string | undefined;
  const region = request.cloudProviderRegionId as string | undefined;
  const items = refreshAllClusters(ctx).filter(
    (cluster) =>
      (provider === undefined || cluster.cloudProviderId === provider) &&
      (region === undefined || cluster.cloudProviderRegionId === region),
  );
  return paginate(ctx, items, request);
}

/** page_size 1–250 and an offset token; no page size means the emulator's default (all by default). */
export function paginate(ctx: VdbContext, items: readonly unknown[], request: WireObject): WireObject {
  const pageSize =
    (request.pageSize as number | undefined) ?? (ctx.defaultPageSize > 0 ? ctx.defaultPageSize : undefined);
  if (request.pageSize !== undefined) {
    const v = new Violations();
    rule.range(v, 'page_size', request.pageSize as number, 1, LIMITS.pageSize, 'int32');
    v.throwIfAny();
  }
  const token = request.pageToken as string | undefined;
  let offset = 0;
  if (token !== undefined && token !== '') {
    offset = /^offset:\d+$/.test(token) ? Number(token.slice('offset:'.length)) : NaN;
    if (!Number.isInteger(offset) || offset > items.length)
      throw invalidArgument(`invalid page_token ${quoted(token)}`);
  }
  const end = pageSize === undefined ? items.length : Math.min(items.length, offset + pageSize);
  return {
    items: items.slice(offset, end),
    totalSize: items.length,
    ...(end < items.length ? { nextPageToken: `offset:${end}` } : {}),
  };
}

export function requireCluster(ctx: VdbContext, clusterId: string): Cluster {
  const cluster = refreshCluster(ctx, clusterId);
  if (!cluster) throw notFound(`cluster ${clusterId}`);
  return cluster;
}

function createCluster(ctx: VdbContext, input: Cluster | undefined, call: HandlerCall): Cluster {
  const v = new Violations();
  if (!rule.required(v, 'cluster', input)) v.throwIfAny();
  const cluster = input!;
  rule.mustBeEmpty(v, 'cluster.id', cluster.id);
  rule.mustBeEmpty(v, 'cluster.created_at', cluster.createdAt);
  rule.mustBeEmpty(v, 'cluster.deleted_at', cluster.deletedAt);
  if (cluster.state !== undefined)
    v.add('cluster.state', 'value must be empty: the field is set by the server', 'read_only');
  validateClusterFields(v, cluster);
  v.throwIfAny();
  checkAccount(ctx, 'cluster.account_id', cluster.accountId);
  const pkg = checkPlacement(ctx, cluster);

  const jwtRbac = jwtRbacMetadata(call);
  const now = ctx.clock.now();
  const id = newId();
  const failLabel = cluster.labels.find((label) => label.key === FAIL_PROVISIONING_LABEL);
  const failReason = failLabel ? failLabel.value || 'provisioning failed' : ctx.provisioningFailures.shift();
  const configuration = serverFilledConfiguration(cluster.configuration, nowTimestamp(ctx));
  const stored: Cluster = {
    id,
    createdAt: nowTimestamp(ctx),
    accountId: cluster.accountId,
    name: cluster.name,
    cloudProviderId: cluster.cloudProviderId,
    cloudProviderRegionId: cluster.cloudProviderRegionId,
    labels: cluster.labels,
    configuration,
    state: {
      version: resolvedVersion(configuration),
      nodesUp: 0,
      phase: 'CLUSTER_PHASE_CREATING',
      reason: '',
      resources: resourcesSummary(pkg, configuration),
      scalabilityInfo: { status: 'CLUSTER_SCALABILITY_STATUS_NOT_SCALABLE', reason: 'the cluster is being created' },
      nodes: [],
      jwtRbac: jwtRbac ?? false,
    },
  };
  ctx.store.put(CLUSTERS.name, id, stored);
  ctx.transitions.set(id, { kind: 'create', startedAt: now, endsAt: now + ctx.provisioningMs, failReason });
  return refreshCluster(ctx, id)!;
}

function updateCluster(ctx: VdbContext, input: Cluster | undefined): Cluster {
  const v = new Violations();
  if (!rule.required(v, 'cluster', input)) v.throwIfAny();
  const cluster = input!;
  if (cluster.id === '') v.add('cluster.id', 'value is empty, which is not a valid UUID', 'string.uuid_empty');
  validateClusterFields(v, cluster);
  v.throwIfAny();
  checkAccount(ctx, 'cluster.account_id', cluster.accountId);
  const current = requireCluster(ctx, cluster.id);
  if (cluster.cloudProviderId !== current.cloudProviderId) {
    throw invalidArgument(
      `cluster.cloud_provider_id cannot be changed (is ${current.cloudProviderId}); create a new cluster instead`,
    );
  }
  if (cluster.cloudProviderRegionId !== current.cloudProviderRegionId) {
    throw invalidArgument(
      `cluster.cloud_provider_region_id cannot be changed (is ${current.cloudProviderRegionId}); create a new ` +
        `cluster instead`,
    );
  }
  if (current.state?.phase === 'CLUSTER_PHASE_SUSPENDED' || current.state?.phase === 'CLUSTER_PHASE_SUSPENDING') {
    throw failedPrecondition(`cluster ${current.id} is suspended; resume it before changing it`);
  }
  const pkg = checkPlacement(ctx, cluster);

  const { lastModifiedAt: _previous, ...before } = current.configuration;
  const requested = serverFilledConfiguration(
    cluster.configuration,
    current.configuration.lastModifiedAt ?? nowTimestamp(ctx),
  );
  const { lastModifiedAt: _same, ...after } = requested;
  const configurationChanged = JSON.stringify(normalized(before)) !== JSON.stringify(normalized(after));
  const configuration: ClusterConfiguration = configurationChanged
    ? { ...requested, lastModifiedAt: nowTimestamp(ctx) }
    : current.configuration;
  const state: ClusterState = {
    ...current.state!,
    version: resolvedVersion(configuration),
    resources: resourcesSummary(pkg, configuration),
  };
  ctx.store.put(CLUSTERS.name, current.id, {
    ...current,
    name: cluster.name,
    labels: cluster.labels,
    configuration,
    state,
  });
  if (configurationChanged) {
    const now = ctx.clock.now();
    const failLabel = cluster.labels.find((label) => label.key === FAIL_PROVISIONING_LABEL);
    const failReason = failLabel ? failLabel.value || 'update failed' : ctx.provisioningFailures.shift();
    ctx.transitions.set(current.id, { kind: 'update', startedAt: now, endsAt: now + ctx.provisioningMs, failReason });
  }
  return refreshCluster(ctx, current.id)!;
}

/** What refers to the cluster goes with it as its kind declares (backups only when asked). */
function deleteCluster(ctx: VdbContext, clusterId: string, deleteBackups: boolean): void {
  requireCluster(ctx, clusterId);
  removeStored(ctx, CLUSTERS, clusterId, { deleteBackups });
}

function changePower(ctx: VdbContext, clusterId: string, kind: 'suspend' | 'resume'): void {
  const cluster = requireCluster(ctx, clusterId);
  const phase = cluster.state?.phase;
  if (kind === 'suspend' && phase !== 'CLUSTER_PHASE_HEALTHY') {
    throw failedPrecondition(`only a healthy cluster can be suspended (phase ${phase})`);
  }
  if (kind === 'resume' && phase !== 'CLUSTER_PHASE_SUSPENDED') {
    throw failedPrecondition(`only a suspended cluster can be resumed (phase ${phase})`);
  }
  const now = ctx.clock.now();
  ctx.transitions.set(clusterId, { kind, startedAt: now, endsAt: now + ctx.provisioningMs });
  refreshCluster(ctx, clusterId);
}

function jwtRbacMetadata(call: HandlerCall): boolean | undefined {
  const values = call.metadata.get(JWT_RBAC_METADATA);
  if (values.length === 0) return undefined;
  const value = String(values[0]).toLowerCase();
  if (value !== 'true' && value !== 'false') {
    throw invalidArgument(`metadata ${JWT_RBAC_METADATA} must be "true" or "false" (got ${quoted(String(values[0]))})`);
  }
  return value === 'true';
}

// ---------------------------------------------------------------------------------------------
// validation

function validateClusterFields(v: Violations, cluster: Cluster): void {
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

export function validateConfiguration(v: Violations, path: string, c: ClusterConfiguration): void {
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
function checkPlacement(ctx: VdbContext, cluster: Cluster): StoredPackage {
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

// ---------------------------------------------------------------------------------------------
// state

/** What the server fills in: the version when none was asked for, and the modification time. */
function serverFilledConfiguration(input: ClusterConfiguration, lastModifiedAt: string): ClusterConfiguration {
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

function normalized(value: unknown): unknown {
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

function resolvedVersion(configuration: ClusterConfiguration): string {
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

function resourcesSummary(pkg: StoredPackage, configuration: ClusterConfiguration): ClusterState['resources'] {
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

export function refreshAllClusters(ctx: VdbContext): Cluster[] {
  return ctx.store.list<Cluster>(CLUSTERS.name).map((cluster) => refreshCluster(ctx, cluster.id)!);
}

/** Brings a cluster's state up to date with its transition; undefined when it does not exist. */
export function refreshCluster(ctx: VdbContext, clusterId: string): Cluster | undefined {
  const cluster = ctx.store.get<Cluster>(CLUSTERS.name, clusterId);
  if (!cluster) return undefined;
  const transition = ctx.transitions.get(clusterId);
  if (!transition) return cluster;
  const now = ctx.clock.now();
  const done = now >= transition.endsAt;
  const state = transitionState(ctx, cluster, transition, now);
  const updated: Cluster = { ...cluster, state };
  ctx.store.put(CLUSTERS.name, clusterId, updated);
  if (done) ctx.transitions.delete(clusterId);
  return updated;
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

function transitionState(ctx: VdbContext, cluster: Cluster, transition: ClusterTransition, now: number): ClusterState {
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
