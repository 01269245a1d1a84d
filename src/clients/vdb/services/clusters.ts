/** ClusterService (cluster.v1): clusters, and the tolerations hybrid environments use too. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { nothing, one, items, ServiceCalls, type Sender } from '../calls.js';
import type { KeyValue, SecretKeyRef, StorageTierType, TopologySpreadConstraint } from '../common.js';
import type { VdbCallOptions } from '../config.js';
import { JWT_RBAC_METADATA } from '../metadata.js';

export const CLUSTER_PHASES = [
  'CLUSTER_PHASE_UNSPECIFIED',
  'CLUSTER_PHASE_CREATING',
  'CLUSTER_PHASE_FAILED_TO_CREATE',
  'CLUSTER_PHASE_UPDATING',
  'CLUSTER_PHASE_FAILED_TO_UPDATE',
  'CLUSTER_PHASE_SCALING',
  'CLUSTER_PHASE_UPGRADING',
  'CLUSTER_PHASE_SUSPENDING',
  'CLUSTER_PHASE_SUSPENDED',
  'CLUSTER_PHASE_FAILED_TO_SUSPEND',
  'CLUSTER_PHASE_RESUMING',
  'CLUSTER_PHASE_FAILED_TO_RESUME',
  'CLUSTER_PHASE_HEALTHY',
  'CLUSTER_PHASE_NOT_READY',
  'CLUSTER_PHASE_RECOVERY_MODE',
  'CLUSTER_PHASE_MANUAL_MAINTENANCE',
  'CLUSTER_PHASE_FAILED_TO_SYNC',
  'CLUSTER_PHASE_NOT_FOUND',
  'CLUSTER_PHASE_DELETING',
] as const;
export type ClusterPhase = (typeof CLUSTER_PHASES)[number];

export const CLUSTER_NODE_STATES = [
  'CLUSTER_NODE_STATE_UNSPECIFIED',
  'CLUSTER_NODE_STATE_STARTING',
  'CLUSTER_NODE_STATE_HEALTHY',
  'CLUSTER_NODE_STATE_UNHEALTHY',
  'CLUSTER_NODE_STATE_SUSPENDED',
  'CLUSTER_NODE_STATE_RECOVERING',
] as const;
export type ClusterNodeState = (typeof CLUSTER_NODE_STATES)[number];

export const CLUSTER_SCALABILITY_STATUSES = [
  'CLUSTER_SCALABILITY_STATUS_UNSPECIFIED',
  'CLUSTER_SCALABILITY_STATUS_NOT_SCALABLE',
  'CLUSTER_SCALABILITY_STATUS_SCALABLE',
] as const;
export type ClusterScalabilityStatus = (typeof CLUSTER_SCALABILITY_STATUSES)[number];

export const CLUSTER_SERVICE_TYPES = [
  'CLUSTER_SERVICE_TYPE_UNSPECIFIED',
  'CLUSTER_SERVICE_TYPE_CLUSTER_IP',
  'CLUSTER_SERVICE_TYPE_NODE_PORT',
  'CLUSTER_SERVICE_TYPE_LOAD_BALANCER',
] as const;
export type ClusterServiceType = (typeof CLUSTER_SERVICE_TYPES)[number];

export const CLUSTER_GPU_TYPES = [
  'CLUSTER_CONFIGURATION_GPU_TYPE_UNSPECIFIED',
  'CLUSTER_CONFIGURATION_GPU_TYPE_NVIDIA',
  'CLUSTER_CONFIGURATION_GPU_TYPE_AMD',
] as const;
export type ClusterGpuType = (typeof CLUSTER_GPU_TYPES)[number];

export const CLUSTER_RESTART_POLICIES = [
  'CLUSTER_CONFIGURATION_RESTART_POLICY_UNSPECIFIED',
  'CLUSTER_CONFIGURATION_RESTART_POLICY_ROLLING',
  'CLUSTER_CONFIGURATION_RESTART_POLICY_PARALLEL',
  'CLUSTER_CONFIGURATION_RESTART_POLICY_AUTOMATIC',
] as const;
export type ClusterRestartPolicy = (typeof CLUSTER_RESTART_POLICIES)[number];

export const CLUSTER_REBALANCE_STRATEGIES = [
  'CLUSTER_CONFIGURATION_REBALANCE_STRATEGY_UNSPECIFIED',
  'CLUSTER_CONFIGURATION_REBALANCE_STRATEGY_BY_COUNT',
  'CLUSTER_CONFIGURATION_REBALANCE_STRATEGY_BY_SIZE',
  'CLUSTER_CONFIGURATION_REBALANCE_STRATEGY_BY_COUNT_AND_SIZE',
] as const;
export type ClusterRebalanceStrategy = (typeof CLUSTER_REBALANCE_STRATEGIES)[number];

export const DATABASE_LOG_LEVELS = [
  'DATABASE_CONFIGURATION_LOG_LEVEL_UNSPECIFIED',
  'DATABASE_CONFIGURATION_LOG_LEVEL_TRACE',
  'DATABASE_CONFIGURATION_LOG_LEVEL_DEBUG',
  'DATABASE_CONFIGURATION_LOG_LEVEL_INFO',
  'DATABASE_CONFIGURATION_LOG_LEVEL_WARN',
  'DATABASE_CONFIGURATION_LOG_LEVEL_ERROR',
  'DATABASE_CONFIGURATION_LOG_LEVEL_OFF',
] as const;
export type DatabaseLogLevel = (typeof DATABASE_LOG_LEVELS)[number];

export const TOLERATION_OPERATORS = [
  'TOLERATION_OPERATOR_UNSPECIFIED',
  'TOLERATION_OPERATOR_EXISTS',
  'TOLERATION_OPERATOR_EQUAL',
] as const;
export type TolerationOperator = (typeof TOLERATION_OPERATORS)[number];

export const TOLERATION_EFFECTS = [
  'TOLERATION_EFFECT_UNSPECIFIED',
  'TOLERATION_EFFECT_NO_SCHEDULE',
  'TOLERATION_EFFECT_PREFER_NO_SCHEDULE',
  'TOLERATION_EFFECT_NO_EXECUTE',
] as const;
export type TolerationEffect = (typeof TOLERATION_EFFECTS)[number];

export interface Toleration {
  readonly key?: string | undefined;
  readonly operator?: TolerationOperator | undefined;
  readonly value?: string | undefined;
  readonly effect?: TolerationEffect | undefined;
  readonly tolerationSeconds?: number | undefined;
}

export interface DatabaseConfiguration {
  readonly collection?:
    | {
        readonly replicationFactor?: number | undefined;
        readonly writeConsistencyFactor?: number | undefined;
        readonly vectors?: { readonly onDisk?: boolean | undefined } | undefined;
      }
    | undefined;
  readonly storage?:
    | {
        readonly performance?:
          | { readonly optimizerCpuBudget?: number | undefined; readonly asyncScorer?: boolean | undefined }
          | undefined;
      }
    | undefined;
  readonly service?:
    | {
        readonly apiKey?: SecretKeyRef | undefined;
        readonly readOnlyApiKey?: SecretKeyRef | undefined;
        readonly enableTls?: boolean | undefined;
      }
    | undefined;
  readonly logLevel?: DatabaseLogLevel | undefined;
  readonly tls?: { readonly cert: SecretKeyRef; readonly key: SecretKeyRef } | undefined;
  readonly inference?: { readonly enabled: boolean } | undefined;
}

/** What a caller sends: repeated fields may be omitted; `lastModifiedAt` is server-set. */
export interface ClusterConfigurationInput {
  readonly numberOfNodes: number;
  /** `vX.Y.Z` or `latest`. */
  readonly version?: string | undefined;
  /** A booking package id (UUID). */
  readonly packageId: string;
  /** Extra disk in GiB. */
  readonly additionalResources?: { readonly disk: number } | undefined;
  readonly databaseConfiguration?: DatabaseConfiguration | undefined;
  readonly nodeSelector?: readonly KeyValue[] | undefined;
  readonly tolerations?: readonly Toleration[] | undefined;
  readonly annotations?: readonly KeyValue[] | undefined;
  readonly allowedIpSourceRanges?: readonly string[] | undefined;
  readonly serviceType?: ClusterServiceType | undefined;
  readonly serviceAnnotations?: readonly KeyValue[] | undefined;
  readonly podLabels?: readonly KeyValue[] | undefined;
  readonly reservedCpuPercentage?: number | undefined;
  readonly reservedMemoryPercentage?: number | undefined;
  readonly gpuType?: ClusterGpuType | undefined;
  readonly restartPolicy?: ClusterRestartPolicy | undefined;
  readonly rebalanceStrategy?: ClusterRebalanceStrategy | undefined;
  readonly topologySpreadConstraints?: readonly TopologySpreadConstraint[] | undefined;
  readonly clusterStorageConfiguration?: { readonly storageTierType: StorageTierType } | undefined;
}

export interface ClusterConfiguration extends ClusterConfigurationInput {
  readonly lastModifiedAt?: string | undefined;
  readonly nodeSelector: readonly KeyValue[];
  readonly tolerations: readonly Toleration[];
  readonly annotations: readonly KeyValue[];
  readonly allowedIpSourceRanges: readonly string[];
  readonly serviceAnnotations: readonly KeyValue[];
  readonly podLabels: readonly KeyValue[];
  readonly topologySpreadConstraints: readonly TopologySpreadConstraint[];
}

export interface ClusterNodeResources {
  readonly base: number;
  readonly complimentary: number;
  readonly additional: number;
  readonly reserved: number;
  readonly available: number;
}

export interface ClusterNodeInfo {
  readonly name: string;
  readonly startedAt?: string | undefined;
  readonly version: string;
  readonly endpoint: string;
  readonly state: ClusterNodeState;
}

export interface ClusterState {
  readonly version: string;
  readonly nodesUp: number;
  readonly restartedAt?: string | undefined;
  readonly phase: ClusterPhase;
  readonly reason: string;
  readonly endpoint?: { readonly url: string; readonly restPort: number; readonly grpcPort: number } | undefined;
  readonly resources?:
    | {
        readonly disk?: ClusterNodeResources | undefined;
        readonly ram?: ClusterNodeResources | undefined;
        readonly cpu?: ClusterNodeResources | undefined;
      }
    | undefined;
  readonly scalabilityInfo?:
    | { readonly status: ClusterScalabilityStatus; readonly reason?: string | undefined }
    | undefined;
  readonly nodes: readonly ClusterNodeInfo[];
  readonly jwtRbac: boolean;
}

/** CreateCluster's object: id, timestamps and state are server-set. */
export interface ClusterInput {
  readonly accountId: string;
  readonly name: string;
  /** A platform cloud provider id, or `hybrid`. */
  readonly cloudProviderId: string;
  /** A region id of that provider; for `hybrid`, the hybrid cloud environment id. */
  readonly cloudProviderRegionId: string;
  readonly labels?: readonly KeyValue[] | undefined;
  readonly configuration: ClusterConfigurationInput;
}

/** UpdateCluster's object: the whole cluster (no field mask), state left out. */
export interface ClusterUpdate extends ClusterInput {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly deletedAt?: string | undefined;
}

export interface Cluster {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly accountId: string;
  readonly name: string;
  /** Set once the cluster is marked for deletion. */
  readonly deletedAt?: string | undefined;
  readonly cloudProviderId: string;
  readonly cloudProviderRegionId: string;
  readonly labels: readonly KeyValue[];
  readonly configuration: ClusterConfiguration;
  readonly state?: ClusterState | undefined;
}

/** A cluster answer is found by its id and is of no use without its configuration. */
const CLUSTER = ['id', 'configuration'];

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
      request: (cluster) => ({
        cluster: {
          accountId: cluster.accountId,
          name: cluster.name,
          cloudProviderId: cluster.cloudProviderId,
          cloudProviderRegionId: cluster.cloudProviderRegionId,
          labels: cluster.labels,
          configuration: cluster.configuration,
        },
      }),
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
        return {
          cluster: {
            id: cluster.id,
            accountId: cluster.accountId,
            name: cluster.name,
            cloudProviderId: cluster.cloudProviderId,
            cloudProviderRegionId: cluster.cloudProviderRegionId,
            labels: cluster.labels,
            configuration,
            createdAt: cluster.createdAt,
            deletedAt: cluster.deletedAt,
          },
        };
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
