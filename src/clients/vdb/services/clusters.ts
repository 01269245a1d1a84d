/** ClusterService (cluster.v1): clusters, and the tolerations hybrid environments use too. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { nothing, one, items, ServiceCalls, type Sender } from '../calls.js';
import type { VdbCallOptions } from '../config.js';
import { type Answered, type Sent, VDB_ENUMS, type VdbEnum } from '../messages.js';
import { JWT_RBAC_METADATA } from '../metadata.js';

export const CLUSTER_PHASES = VDB_ENUMS['cluster.v1.ClusterPhase'];
export type ClusterPhase = VdbEnum<'cluster.v1.ClusterPhase'>;
export const CLUSTER_NODE_STATES = VDB_ENUMS['cluster.v1.ClusterNodeState'];
export type ClusterNodeState = VdbEnum<'cluster.v1.ClusterNodeState'>;
export const CLUSTER_SCALABILITY_STATUSES = VDB_ENUMS['cluster.v1.ClusterScalabilityStatus'];
export type ClusterScalabilityStatus = VdbEnum<'cluster.v1.ClusterScalabilityStatus'>;
export const CLUSTER_SERVICE_TYPES = VDB_ENUMS['cluster.v1.ClusterServiceType'];
export type ClusterServiceType = VdbEnum<'cluster.v1.ClusterServiceType'>;
export const CLUSTER_GPU_TYPES = VDB_ENUMS['cluster.v1.ClusterConfigurationGpuType'];
export type ClusterGpuType = VdbEnum<'cluster.v1.ClusterConfigurationGpuType'>;
export const CLUSTER_RESTART_POLICIES = VDB_ENUMS['cluster.v1.ClusterConfigurationRestartPolicy'];
export type ClusterRestartPolicy = VdbEnum<'cluster.v1.ClusterConfigurationRestartPolicy'>;
export const CLUSTER_REBALANCE_STRATEGIES = VDB_ENUMS['cluster.v1.ClusterConfigurationRebalanceStrategy'];
export type ClusterRebalanceStrategy = VdbEnum<'cluster.v1.ClusterConfigurationRebalanceStrategy'>;
export const DATABASE_LOG_LEVELS = VDB_ENUMS['cluster.v1.DatabaseConfigurationLogLevel'];
export type DatabaseLogLevel = VdbEnum<'cluster.v1.DatabaseConfigurationLogLevel'>;
export const TOLERATION_OPERATORS = VDB_ENUMS['cluster.v1.TolerationOperator'];
export type TolerationOperator = VdbEnum<'cluster.v1.TolerationOperator'>;
export const TOLERATION_EFFECTS = VDB_ENUMS['cluster.v1.TolerationEffect'];
export type TolerationEffect = VdbEnum<'cluster.v1.TolerationEffect'>;

export type Toleration = Answered<'cluster.v1.Toleration'>;
export type DatabaseConfiguration = Answered<'cluster.v1.DatabaseConfiguration'>;
export type DatabaseConfigurationInput = Sent<'cluster.v1.DatabaseConfiguration'>;

/** What a caller sends: the size and the package; `lastModifiedAt` is server-set. */
export type ClusterConfigurationInput = Omit<
  Sent<'cluster.v1.ClusterConfiguration', 'numberOfNodes' | 'packageId'>,
  'lastModifiedAt'
>;
export type ClusterConfiguration = Answered<'cluster.v1.ClusterConfiguration'>;
export type ClusterNodeResources = Answered<'cluster.v1.ClusterNodeResources'>;
export type ClusterNodeInfo = Answered<'cluster.v1.ClusterNodeInfo'>;
export type ClusterState = Answered<'cluster.v1.ClusterState'>;

/**
 * CreateCluster's object: every field of a cluster a client sets (id, timestamps and state are the server's), so
 * a field the `.proto` gains is sent with no line here.
 */
export type ClusterInput = Omit<
  Sent<'cluster.v1.Cluster', 'accountId' | 'name' | 'cloudProviderId' | 'cloudProviderRegionId'>,
  'id' | 'createdAt' | 'deletedAt' | 'state' | 'configuration'
> & { readonly configuration: ClusterConfigurationInput };

/** UpdateCluster's object: the whole cluster (no field mask), state left out. */
export type ClusterUpdate = ClusterInput & Pick<Sent<'cluster.v1.Cluster', 'id'>, 'id' | 'createdAt' | 'deletedAt'>;

export type Cluster = Answered<'cluster.v1.Cluster', (typeof CLUSTER)[number]>;

/** A cluster answer is found by its id and is of no use without its configuration. */
const CLUSTER = ['id', 'configuration'] as const;

/** Of one account, by id. */
interface ClusterRef {
  accountId: string;
  clusterId: string;
}

export type ClustersApi = ReturnType<typeof clustersApi>;

export function clustersApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.cluster);
  return {
    /** Every cluster of the account (all pages), optionally filtered by provider/region. */
    list: calls.allPages<
      { accountId: string; cloudProviderId?: string | undefined; cloudProviderRegionId?: string | undefined },
      Cluster
    >({ method: 'ListClusters', items: items(CLUSTER) }),

    get: calls.unary<ClusterRef, Cluster>({ method: 'GetCluster', safety: 'read', answer: one('cluster', CLUSTER) }),

    /**
     * Retried only when declined (a blind retry could create a second cluster; see Errors in ../api.ts). `jwtRbac`,
     * when given, is sent as the `vdb-jwt-rbac` request metadata (`true`/`false`).
     */
    create: calls.unary<ClusterInput, Cluster, VdbCallOptions & { readonly jwtRbac?: boolean | undefined }>({
      method: 'CreateCluster',
      safety: 'once',
      request: (cluster) => ({ cluster: { ...cluster } }),
      metadata: (options) =>
        options?.jwtRbac === undefined ? undefined : { [JWT_RBAC_METADATA]: String(options.jwtRbac) },
      answer: one('cluster', CLUSTER),
    }),

    /** A full replacement of the mutable fields; retried (same object, same result). */
    update: calls.unary<ClusterUpdate, Cluster>({
      method: 'UpdateCluster',
      safety: 'idempotent',
      request: (cluster) => {
        const { lastModifiedAt: _serverSet, ...configuration } = cluster.configuration as Cluster['configuration'];
        return { cluster: { ...cluster, configuration } };
      },
      answer: one('cluster', CLUSTER),
    }),

    delete: calls.unary<ClusterRef & { deleteBackups?: boolean | undefined }, void>({
      method: 'DeleteCluster',
      safety: 'idempotent',
      answer: nothing,
    }),

    /** One-way: JWT RBAC cannot be disabled again. */
    enableJwtRbac: calls.unary<ClusterRef, void>({
      method: 'EnableClusterJwtRbac',
      safety: 'idempotent',
      answer: nothing,
    }),

    suspend: calls.unary<ClusterRef, void>({ method: 'SuspendCluster', safety: 'idempotent', answer: nothing }),

    unsuspend: calls.unary<ClusterRef, void>({ method: 'UnsuspendCluster', safety: 'idempotent', answer: nothing }),
  };
}
