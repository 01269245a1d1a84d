/**
 * ClusterService: clusters with provisioning phases (docs/api/vdb.md, "Clusters"). A create, a configuration
 * update, a suspend or a resume starts a transition that ends `provisioningMs` later; the state
 * is brought up to date whenever a cluster is read. Halfway through a create the endpoint URL
 * appears; at the end the cluster is HEALTHY, or FAILED_TO_CREATE with the platform's reason
 * when a failure was queued (failNextProvisioning, or the label `vdb-emulator/fail-provisioning`).
 * What a request must hold is in ./cluster-validation.ts; what the state is at a time, in
 * ./cluster-state.ts.
 */
import { VDB_SERVICES } from '../../wire/vdb-proto.js';
import { HYBRID_PROVIDER } from './catalog.js';
import {
  normalized,
  resolvedVersion,
  resourcesSummary,
  serverFilledConfiguration,
  transitionState,
} from './cluster-state.js';
import { checkPlacement } from './cluster-validation.js';
import {
  checkAccount,
  newId,
  nowTimestamp,
  removeStored,
  replacedBy,
  sentFields,
  type StoredKind,
  type VdbContext,
} from './context.js';
import { failedPrecondition, invalidArgument, notFound, quoted } from './errors.js';
import { HYBRID_ENVIRONMENTS } from './hybrid.js';
import { paginate } from './paging.js';
import type { Cluster, ClusterConfiguration, ClusterState } from './records.js';
import type { HandlerCall, ServiceRegistration } from './server.js';
import type { WireObject } from './wire-codec.js';

/** A label whose value becomes the failure reason of the cluster's provisioning (tests, examples). */
export const FAIL_PROVISIONING_LABEL = 'vdb-emulator/fail-provisioning';
const JWT_RBAC_METADATA = 'vdb-jwt-rbac';

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
          checkAccount(ctx, request.accountId);
          return { cluster: requireCluster(ctx, request.clusterId as string) };
        },
        CreateCluster: (request, call) => ({
          cluster: createCluster(ctx, request.cluster as Cluster | undefined, call),
        }),
        UpdateCluster: (request) => ({ cluster: updateCluster(ctx, request.cluster as Cluster | undefined) }),
        DeleteCluster: (request) => {
          checkAccount(ctx, request.accountId);
          deleteCluster(ctx, request.clusterId as string, request.deleteBackups === true);
          return {};
        },
        EnableClusterJwtRbac: (request) => {
          checkAccount(ctx, request.accountId);
          const cluster = requireCluster(ctx, request.clusterId as string);
          ctx.store.put(CLUSTERS.name, cluster.id, { ...cluster, state: { ...cluster.state!, jwtRbac: true } });
          return {};
        },
        SuspendCluster: (request) => {
          checkAccount(ctx, request.accountId);
          changePower(ctx, request.clusterId as string, 'suspend');
          return {};
        },
        UnsuspendCluster: (request) => {
          checkAccount(ctx, request.accountId);
          changePower(ctx, request.clusterId as string, 'resume');
          return {};
        },
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------

function listClusters(ctx: VdbContext, request: WireObject): WireObject {
  checkAccount(ctx, request.accountId);
  const provider = request.cloudProviderId as string | undefined;
  const region = request.cloudProviderRegionId as string | undefined;
  const items = refreshAllClusters(ctx).filter(
    (cluster) =>
      (provider === undefined || cluster.cloudProviderId === provider) &&
      (region === undefined || cluster.cloudProviderRegionId === region),
  );
  return paginate(ctx, items, request);
}

export function requireCluster(ctx: VdbContext, clusterId: string): Cluster {
  const cluster = refreshCluster(ctx, clusterId);
  if (!cluster) throw notFound(`cluster ${clusterId}`);
  return cluster;
}

/** What the server sets of a cluster; every other field is kept as the client sent it (the configuration filled in). */
const CLUSTER_SERVER_FIELDS = ['id', 'createdAt', 'deletedAt', 'state', 'configuration'] as const;

function createCluster(ctx: VdbContext, input: Cluster | undefined, call: HandlerCall): Cluster {
  // The API's rules held (request-rules.ts): a cluster is given, its fields in bounds, none the server sets.
  const cluster = input!;
  checkAccount(ctx, cluster.accountId);
  const pkg = checkPlacement(ctx, cluster);

  const jwtRbac = jwtRbacMetadata(call);
  const now = ctx.clock.now();
  const id = newId();
  const failLabel = cluster.labels.find((label) => label.key === FAIL_PROVISIONING_LABEL);
  const failReason = failLabel ? failLabel.value || 'provisioning failed' : ctx.provisioningFailures.shift();
  const configuration = serverFilledConfiguration(cluster.configuration, nowTimestamp(ctx));
  const stored: Cluster = {
    ...sentFields(cluster, CLUSTER_SERVER_FIELDS),
    id,
    createdAt: nowTimestamp(ctx),
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
  // The API's rules held (request-rules.ts): a cluster with an id is given, its fields in bounds.
  const cluster = input!;
  checkAccount(ctx, cluster.accountId);
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
    ...replacedBy(current, cluster, CLUSTER_SERVER_FIELDS),
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
