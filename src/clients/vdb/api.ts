/**
 * The vdb management API as the provider sees it: one method per RPC it uses, with plain,
 * camelCase TypeScript objects in and out (no protobuf types leak out of src/clients/vdb).
 *
 * Conventions of every object here:
 * - Timestamps are RFC 3339 strings in UTC (`2024-05-01T10:00:00Z`, fractional seconds only when
 *   the server sent them); an absent timestamp is `undefined`.
 * - Durations are {@link ProtoDuration} (seconds + nanos, exact); `src/wire/go-duration.ts` converts them to
 *   and from Go duration strings such as `72h0m0s`.
 * - Enums are the proto value names (`CLUSTER_PHASE_HEALTHY`). A number this client does not know
 *   (a newer server) decodes to the enum's `..._UNSPECIFIED` name.
 * - proto3 `optional` scalars and sub-messages are `undefined` when absent; repeated fields are
 *   always arrays (possibly empty) on output and may be omitted on input.
 * - Ids are strings (UUIDs); `accountId` is explicit on every call (the caller resolves resource
 *   account id → provider account id).
 *
 * Errors: every method throws ApiError (src/wire/api-error.ts) with codes not_found, conflict,
 * invalid, unauthenticated, forbidden, rate_limited, unavailable, timeout, cancelled,
 * outcome_unknown, malformed_response or unknown; the message carries the server's text and the
 * call's `vdb-trace-id` (as "request id …"), never the API key.
 *
 * Retries: reads and idempotent writes are repeated with backoff on UNAVAILABLE and
 * RESOURCE_EXHAUSTED. Creates (and other calls that must not happen twice) are repeated only on
 * RESOURCE_EXHAUSTED, where the server declined them; when their answer is lost (UNAVAILABLE,
 * DEADLINE_EXCEEDED) they fail with 'outcome_unknown' and the caller decides (look for the object,
 * then create again or adopt it). A RESOURCE_EXHAUSTED slows every call the process makes to the
 * API, not only the refused one (../host-gate.ts).
 */
import type { HostGate } from '../host-gate.js';

/** Per-call options every method accepts. */
export interface VdbCallOptions {
  /** Cancels the call and any pending retry (ApiError 'cancelled'). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Deadline of the whole call including retries (ApiError 'timeout'; 'outcome_unknown' when it
   * passes while a create is out); default: the client's.
   */
  readonly timeoutMs?: number | undefined;
}

/** Debug-level request summaries (method, gRPC status, attempt, duration, trace id); never metadata or bodies. */
export interface VdbLogger {
  debug(message: string, fields?: object): void;
}

export interface VdbClientConfig {
  /**
   * `host:port` or `host` (TLS, port 443), `https://host[:port]` (TLS), or `http://<loopback>:port`
   * (plaintext, emulators only). Anything else is refused with ApiError 'invalid'.
   */
  readonly apiUrl: string;
  /** The management API key, sent as `authorization: apikey <key>` on every call. */
  readonly apiKey: string;
  /** Skip certificate verification (TLS is still used). */
  readonly insecure?: boolean | undefined;
  /** Deadline of one call including retries; default 60 s. */
  readonly timeoutMs?: number | undefined;
  /** e.g. `terraform-provider-vdb/1.19.2`. */
  readonly userAgent: string;
  readonly logger?: VdbLogger | undefined;
  /** Overrides the retry budget and backoff (tests use short delays). */
  readonly retry?: Partial<VdbRetryPolicy> | undefined;
  /**
   * How long a changing call already sent may finish after Terraform asks to stop; default 30 s (src/clients/stop.ts).
   */
  readonly stopGraceMs?: number | undefined;
  /**
   * Where the proxy variables (HTTPS_PROXY, NO_PROXY, ...: ../proxy.ts) and the trust's (SSL_CERT_FILE,
   * NODE_EXTRA_CA_CERTS, GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, ...: ../trust.ts) are read; default process.env.
   */
  readonly environment?: NodeJS.ProcessEnv | undefined;
  /** The back-off every call of this client waits on (../host-gate.ts); default a gate of its own. */
  readonly gate?: HostGate | undefined;
}

export interface VdbRetryPolicy {
  /** Total attempts including the first. Default 8 (the waits stay well inside the call's deadline). */
  readonly maxAttempts: number;
  /** Delay ceiling before the second attempt; doubles each time (equal jitter, ../backoff.ts). Default 250 ms. */
  readonly baseDelayMs: number;
  /** Cap for one delay, including a server's `retry-after`. Default 5 s. */
  readonly maxDelayMs: number;
}

/** 8 attempts for the same reason as the sec client's (src/clients/sec/retry.ts); waits total about 18 s. */
export const DEFAULT_RETRY_POLICY: VdbRetryPolicy = { maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 5_000 };

// ---------------------------------------------------------------------------------------------
// Enums (value names; the arrays are in proto order, UNSPECIFIED first)

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

export const WHEN_UNSATISFIABLE_VALUES = [
  'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_UNSPECIFIED',
  'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE',
  'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_SCHEDULE_ANYWAY',
] as const;
export type WhenUnsatisfiable = (typeof WHEN_UNSATISFIABLE_VALUES)[number];

export const STORAGE_TIER_TYPES = [
  'STORAGE_TIER_TYPE_UNSPECIFIED',
  'STORAGE_TIER_TYPE_COST_OPTIMISED',
  'STORAGE_TIER_TYPE_BALANCED',
  'STORAGE_TIER_TYPE_PERFORMANCE',
] as const;
export type StorageTierType = (typeof STORAGE_TIER_TYPES)[number];

export const GLOBAL_ACCESS_TYPES = [
  'GLOBAL_ACCESS_RULE_ACCESS_TYPE_UNSPECIFIED',
  'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY',
  'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE',
] as const;
export type GlobalAccessType = (typeof GLOBAL_ACCESS_TYPES)[number];

export const COLLECTION_ACCESS_TYPES = [
  'COLLECTION_ACCESS_RULE_ACCESS_TYPE_UNSPECIFIED',
  'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY',
  'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE',
] as const;
export type CollectionAccessType = (typeof COLLECTION_ACCESS_TYPES)[number];

export const BACKUP_SCHEDULE_STATUSES = [
  'BACKUP_SCHEDULE_STATUS_UNSPECIFIED',
  'BACKUP_SCHEDULE_STATUS_ACTIVE',
  'BACKUP_SCHEDULE_STATUS_FAILED_TO_SYNC',
  'BACKUP_SCHEDULE_STATUS_NOT_FOUND',
  'BACKUP_SCHEDULE_STATUS_DISABLED',
] as const;
export type BackupScheduleStatus = (typeof BACKUP_SCHEDULE_STATUSES)[number];

export const BACKUP_STATUSES = [
  'BACKUP_STATUS_UNSPECIFIED',
  'BACKUP_STATUS_RUNNING',
  'BACKUP_STATUS_SKIPPED',
  'BACKUP_STATUS_FAILED',
  'BACKUP_STATUS_SUCCEEDED',
  'BACKUP_STATUS_FAILED_TO_SYNC',
  'BACKUP_STATUS_NOT_FOUND',
] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

export const HYBRID_LOG_LEVELS = [
  'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_UNSPECIFIED',
  'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_DEBUG',
  'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_INFO',
  'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_WARN',
  'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_ERROR',
] as const;
export type HybridLogLevel = (typeof HYBRID_LOG_LEVELS)[number];

export const HYBRID_STATUS_PHASES = [
  'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_UNSPECIFIED',
  'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_READY',
  'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_NOT_READY',
  'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_FAILED_TO_SYNC',
] as const;
export type HybridStatusPhase = (typeof HYBRID_STATUS_PHASES)[number];

export const HYBRID_COMPONENT_PHASES = [
  'HYBRID_CLOUD_ENVIRONMENT_COMPONENT_STATUS_PHASE_UNSPECIFIED',
  'HYBRID_CLOUD_ENVIRONMENT_COMPONENT_STATUS_PHASE_READY',
  'HYBRID_CLOUD_ENVIRONMENT_COMPONENT_STATUS_PHASE_NOT_READY',
  'HYBRID_CLOUD_ENVIRONMENT_COMPONENT_STATUS_PHASE_NOT_FOUND',
] as const;
export type HybridComponentPhase = (typeof HYBRID_COMPONENT_PHASES)[number];

/** The neutral name of the vendor's cluster-creation-status enum (docs/decisions.md, "Enum names"). */
export const CLUSTER_CREATION_STATUSES = [
  'CLUSTER_CREATION_STATUS_UNSPECIFIED',
  'CLUSTER_CREATION_STATUS_READY',
  'CLUSTER_CREATION_STATUS_NOT_READY',
] as const;
export type ClusterCreationStatus = (typeof CLUSTER_CREATION_STATUSES)[number];

export const KUBERNETES_DISTRIBUTIONS = [
  'KUBERNETES_DISTRIBUTION_UNSPECIFIED',
  'KUBERNETES_DISTRIBUTION_AWS',
  'KUBERNETES_DISTRIBUTION_GCP',
  'KUBERNETES_DISTRIBUTION_AZURE',
  'KUBERNETES_DISTRIBUTION_DO',
  'KUBERNETES_DISTRIBUTION_SCALEWAY',
  'KUBERNETES_DISTRIBUTION_OPENSHIFT',
  'KUBERNETES_DISTRIBUTION_LINODE',
  'KUBERNETES_DISTRIBUTION_CIVO',
  'KUBERNETES_DISTRIBUTION_OCI',
  'KUBERNETES_DISTRIBUTION_OVHCLOUD',
  'KUBERNETES_DISTRIBUTION_STACKIT',
  'KUBERNETES_DISTRIBUTION_VULTR',
  'KUBERNETES_DISTRIBUTION_K3S',
] as const;
export type KubernetesDistribution = (typeof KUBERNETES_DISTRIBUTIONS)[number];

export const PACKAGE_STATUSES = [
  'PACKAGE_STATUS_UNSPECIFIED',
  'PACKAGE_STATUS_ACTIVE',
  'PACKAGE_STATUS_DEACTIVATED',
] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** The zero value's name really is `PACKAGE_TIER_STATUS_UNSPECIFIED` (vdb.md §4.6). */
export const PACKAGE_TIERS = [
  'PACKAGE_TIER_STATUS_UNSPECIFIED',
  'PACKAGE_TIER_STANDARD',
  'PACKAGE_TIER_PREMIUM',
] as const;
export type PackageTier = (typeof PACKAGE_TIERS)[number];

export const ROLE_TYPES = ['ROLE_TYPE_UNSPECIFIED', 'ROLE_TYPE_SYSTEM', 'ROLE_TYPE_CUSTOM'] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

export const SYSTEM_ROLE_SUB_TYPES = [
  'SYSTEM_ROLE_SUB_TYPE_UNSPECIFIED',
  'SYSTEM_ROLE_SUB_TYPE_OWNER',
  'SYSTEM_ROLE_SUB_TYPE_ADMIN',
  'SYSTEM_ROLE_SUB_TYPE_BASE',
] as const;
export type SystemRoleSubType = (typeof SYSTEM_ROLE_SUB_TYPES)[number];

export const USER_STATUSES = [
  'USER_STATUS_UNSPECIFIED',
  'USER_STATUS_ACTIVE',
  'USER_STATUS_BLOCKED',
  'USER_STATUS_DELETED',
] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

// ---------------------------------------------------------------------------------------------
// Shared shapes (common.v1)

/** google.protobuf.Duration, exact. */
export interface ProtoDuration {
  readonly seconds: number;
  /** 0–999 999 999, same sign as seconds. */
  readonly nanos: number;
}

export interface KeyValue {
  readonly key: string;
  readonly value: string;
}

/** A key inside a Kubernetes secret. */
export interface SecretKeyRef {
  readonly name: string;
  readonly key: string;
}

export interface Toleration {
  readonly key?: string | undefined;
  readonly operator?: TolerationOperator | undefined;
  readonly value?: string | undefined;
  readonly effect?: TolerationEffect | undefined;
  readonly tolerationSeconds?: number | undefined;
}

export interface TopologySpreadConstraint {
  readonly maxSkew?: number | undefined;
  readonly topologyKey: string;
  readonly whenUnsatisfiable?: WhenUnsatisfiable | undefined;
}

// ---------------------------------------------------------------------------------------------
// Clusters (cluster.v1)

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

export interface ClustersApi {
  /** Every cluster of the account (all pages), optionally filtered by provider/region. */
  list(
    request: { accountId: string; cloudProviderId?: string | undefined; cloudProviderRegionId?: string | undefined },
    options?: VdbCallOptions,
  ): Promise<Cluster[]>;
  get(request: { accountId: string; clusterId: string }, options?: VdbCallOptions): Promise<Cluster>;
  /**
   * Retried only when declined (a blind retry could create a second cluster; see Errors above). `jwtRbac`, when given,
   * is sent as the `vdb-jwt-rbac` request metadata (`true`/`false`).
   */
  create(
    cluster: ClusterInput,
    options?: VdbCallOptions & { readonly jwtRbac?: boolean | undefined },
  ): Promise<Cluster>;
  /** A full replacement of the mutable fields; retried (same object, same result). */
  update(cluster: ClusterUpdate, options?: VdbCallOptions): Promise<Cluster>;
  delete(
    request: { accountId: string; clusterId: string; deleteBackups?: boolean | undefined },
    options?: VdbCallOptions,
  ): Promise<void>;
  /** One-way: JWT RBAC cannot be disabled again. */
  enableJwtRbac(request: { accountId: string; clusterId: string }, options?: VdbCallOptions): Promise<void>;
  suspend(request: { accountId: string; clusterId: string }, options?: VdbCallOptions): Promise<void>;
  unsuspend(request: { accountId: string; clusterId: string }, options?: VdbCallOptions): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Database API keys (cluster.auth.v2) and legacy auth keys (cluster.auth.v1)

/** Exactly one of the two members is set. */
export type AccessRule =
  | { readonly globalAccess: { readonly accessType: GlobalAccessType }; readonly collectionAccess?: undefined }
  | {
      readonly collectionAccess: { readonly collectionName: string; readonly accessType: CollectionAccessType };
      readonly globalAccess?: undefined;
    };

export interface DatabaseApiKeyInput {
  readonly accountId: string;
  readonly clusterId: string;
  readonly name: string;
  /** RFC 3339; absent = never expires. */
  readonly expiresAt?: string | undefined;
  /** One global rule, or up to 20 collection rules. */
  readonly accessRules: readonly AccessRule[];
}

export interface DatabaseApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt?: string | undefined;
  readonly clusterId: string;
  readonly name: string;
  readonly expiresAt?: string | undefined;
  readonly accessRules: readonly AccessRule[];
  /** Empty when created by a management key. */
  readonly createdByEmail: string;
  /** The last characters of the secret. */
  readonly postfix: string;
  /** The secret: only the create response carries it; "" elsewhere. */
  readonly key: string;
}

export interface DatabaseApiKeysApi {
  list(
    request: { accountId: string; clusterId?: string | undefined },
    options?: VdbCallOptions,
  ): Promise<DatabaseApiKey[]>;
  /**
   * One key of a cluster, or undefined when it is gone. The platform only lists keys: reads waiting at
   * the same time share a listing begun after each of them began (./shared-listing.ts).
   */
  find(
    request: { accountId: string; clusterId: string; id: string },
    options?: VdbCallOptions,
  ): Promise<DatabaseApiKey | undefined>;
  /** Retried only when declined (see Errors above). */
  create(key: DatabaseApiKeyInput, options?: VdbCallOptions): Promise<DatabaseApiKey>;
  delete(
    request: { accountId: string; clusterId: string; databaseApiKeyId: string },
    options?: VdbCallOptions,
  ): Promise<void>;
}

/** A legacy (v1) database API key. */
export interface AuthKey {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt?: string | undefined;
  readonly clusterIds: readonly string[];
  /** The first characters of the secret. */
  readonly prefix: string;
  /** The secret: only the create response carries it; "" elsewhere. */
  readonly key: string;
}

export interface AuthKeysApi {
  /** All keys of the account, or those attached to one cluster. */
  list(request: { accountId: string; clusterId?: string | undefined }, options?: VdbCallOptions): Promise<AuthKey[]>;
  /** One key of the account, or undefined when it is gone; reads share listings as DatabaseApiKeysApi.find does. */
  find(request: { accountId: string; id: string }, options?: VdbCallOptions): Promise<AuthKey | undefined>;
  /** Retried only when declined (see Errors above). */
  create(key: { accountId: string; clusterIds: readonly string[] }, options?: VdbCallOptions): Promise<AuthKey>;
  delete(request: { accountId: string; databaseApiKeyId: string }, options?: VdbCallOptions): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Backups (cluster.backup.v1)

export interface BackupScheduleInput {
  readonly accountId: string;
  readonly clusterId: string;
  /** Cron (5–7 fields), `@daily` etc., or `@every <go duration>`. */
  readonly schedule: string;
  /** 1 day … 365 days. */
  readonly retentionPeriod?: ProtoDuration | undefined;
}

export interface BackupScheduleUpdate extends BackupScheduleInput {
  readonly id: string;
}

export interface BackupSchedule {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly accountId: string;
  readonly clusterId: string;
  readonly schedule: string;
  readonly retentionPeriod?: ProtoDuration | undefined;
  readonly deletedAt?: string | undefined;
  readonly status: BackupScheduleStatus;
}

export interface ResourceQuantity {
  readonly amount: number;
  readonly unit: string;
}

/** The cluster as it was when the backup was taken. */
export interface BackupClusterInfo {
  readonly name: string;
  readonly cloudProviderId: string;
  readonly cloudProviderRegionId: string;
  readonly configuration?: ClusterConfiguration | undefined;
  readonly resourcesSummary?:
    | {
        readonly cpu?: ResourceQuantity | undefined;
        readonly ram?: ResourceQuantity | undefined;
        readonly disk?: ResourceQuantity | undefined;
      }
    | undefined;
  readonly restorePackageId?: string | undefined;
}

export interface BackupInput {
  readonly accountId: string;
  readonly clusterId: string;
  readonly retentionPeriod?: ProtoDuration | undefined;
}

export interface Backup {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly accountId: string;
  readonly clusterId: string;
  /** Server-generated. */
  readonly name: string;
  readonly status: BackupStatus;
  readonly deletedAt?: string | undefined;
  readonly backupDuration?: ProtoDuration | undefined;
  /** Set when a schedule produced the backup. */
  readonly backupScheduleId?: string | undefined;
  readonly retentionPeriod?: ProtoDuration | undefined;
  readonly clusterInfo?: BackupClusterInfo | undefined;
}

export interface BackupSchedulesApi {
  list(
    request: { accountId: string; clusterId?: string | undefined },
    options?: VdbCallOptions,
  ): Promise<BackupSchedule[]>;
  get(
    request: { accountId: string; clusterId: string; backupScheduleId: string },
    options?: VdbCallOptions,
  ): Promise<BackupSchedule>;
  /** Retried only when declined (see Errors above). */
  create(schedule: BackupScheduleInput, options?: VdbCallOptions): Promise<BackupSchedule>;
  update(schedule: BackupScheduleUpdate, options?: VdbCallOptions): Promise<BackupSchedule>;
  delete(
    request: { accountId: string; backupScheduleId: string; deleteBackups?: boolean | undefined },
    options?: VdbCallOptions,
  ): Promise<void>;
}

export interface BackupsApi {
  list(
    request: { accountId: string; clusterId?: string | undefined; backupScheduleId?: string | undefined },
    options?: VdbCallOptions,
  ): Promise<Backup[]>;
  get(request: { accountId: string; backupId: string }, options?: VdbCallOptions): Promise<Backup>;
  /** Retried only when declined (see Errors above). Returns at once (status RUNNING); no waiting. */
  create(backup: BackupInput, options?: VdbCallOptions): Promise<Backup>;
  delete(request: { accountId: string; backupId: string }, options?: VdbCallOptions): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Hybrid cloud environments (hybrid.v1)

/** JSON data (google.protobuf.Struct): objects, arrays, strings, numbers, booleans, null. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface HybridEnvironmentConfigurationInput {
  readonly namespace: string;
  readonly httpProxyUrl?: string | undefined;
  readonly httpsProxyUrl?: string | undefined;
  readonly noProxyConfigs?: readonly string[] | undefined;
  readonly containerRegistryUrl?: string | undefined;
  readonly chartRepositoryUrl?: string | undefined;
  readonly registrySecretName?: string | undefined;
  readonly caCertificates?: string | undefined;
  readonly databaseStorageClass?: string | undefined;
  readonly snapshotStorageClass?: string | undefined;
  readonly volumeSnapshotStorageClass?: string | undefined;
  readonly logLevel?: HybridLogLevel | undefined;
  readonly tolerations?: readonly Toleration[] | undefined;
  readonly nodeSelector?: readonly KeyValue[] | undefined;
  /** Operator settings as a JSON object (a protobuf Struct on the wire). */
  readonly advancedOperatorSettings?: { readonly [key: string]: JsonValue } | undefined;
  readonly controlPlaneLabels?: readonly KeyValue[] | undefined;
}

export interface HybridEnvironmentConfiguration extends HybridEnvironmentConfigurationInput {
  readonly lastModifiedAt?: string | undefined;
  readonly noProxyConfigs: readonly string[];
  readonly tolerations: readonly Toleration[];
  readonly nodeSelector: readonly KeyValue[];
  readonly controlPlaneLabels: readonly KeyValue[];
}

export interface HybridComponentStatus {
  readonly name: string;
  readonly namespace: string;
  readonly version?: string | undefined;
  readonly phase: HybridComponentPhase;
  readonly message?: string | undefined;
}

export interface HybridStorageClass {
  readonly name: string;
  readonly default: boolean;
  readonly provisioner: string;
  readonly allowVolumeExpansion: boolean;
  readonly reclaimPolicy: string;
  readonly parameters: readonly KeyValue[];
}

export interface HybridEnvironmentStatus {
  readonly lastModifiedAt?: string | undefined;
  readonly phase: HybridStatusPhase;
  readonly kubernetesVersion: string;
  readonly numberOfNodes: number;
  readonly capabilities?: { readonly volumeSnapshot: boolean; readonly volumeExpansion: boolean } | undefined;
  readonly componentStatuses: readonly HybridComponentStatus[];
  readonly clusterCreationReadiness: ClusterCreationStatus;
  readonly kubernetesDistribution?: KubernetesDistribution | undefined;
  readonly message?: string | undefined;
  readonly storageClasses: readonly HybridStorageClass[];
  readonly volumeSnapshotClasses: readonly { readonly name: string; readonly driver: string }[];
}

export interface HybridEnvironmentInput {
  readonly accountId: string;
  readonly name: string;
  readonly configuration: HybridEnvironmentConfigurationInput;
}

export interface HybridEnvironmentUpdate extends HybridEnvironmentInput {
  readonly id: string;
}

export interface HybridEnvironment {
  readonly accountId: string;
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly lastModifiedAt?: string | undefined;
  readonly name: string;
  readonly createdByEmail: string;
  /** The server's flag: GenerateBootstrapCommands has been called at least once. */
  readonly bootstrapCommandsGenerated: boolean;
  readonly configuration?: HybridEnvironmentConfiguration | undefined;
  readonly status?: HybridEnvironmentStatus | undefined;
}

/** Every call mints a new access key and new registry credentials. */
export interface BootstrapCommands {
  readonly commands: readonly string[];
  readonly accessKey: string;
  readonly registryUsername: string;
  readonly registryPassword: string;
}

export interface HybridEnvironmentsApi {
  list(request: { accountId: string }, options?: VdbCallOptions): Promise<HybridEnvironment[]>;
  get(
    request: { accountId: string; hybridCloudEnvironmentId: string },
    options?: VdbCallOptions,
  ): Promise<HybridEnvironment>;
  /** Retried only when declined (see Errors above). */
  create(environment: HybridEnvironmentInput, options?: VdbCallOptions): Promise<HybridEnvironment>;
  update(environment: HybridEnvironmentUpdate, options?: VdbCallOptions): Promise<HybridEnvironment>;
  delete(request: { accountId: string; hybridCloudEnvironmentId: string }, options?: VdbCallOptions): Promise<void>;
  /**
   * Retried only when declined (each call rotates credentials). FAILED_PRECONDITION → ApiError 'invalid',
   * PERMISSION_DENIED → 'forbidden' (the provider turns both into a warning).
   */
  generateBootstrapCommands(
    request: { accountId: string; hybridCloudEnvironmentId: string },
    options?: VdbCallOptions,
  ): Promise<BootstrapCommands>;
}

// ---------------------------------------------------------------------------------------------
// Booking (booking.v1) and platform (platform.v1)

export interface BookingPackage {
  readonly id: string;
  readonly name: string;
  /** `free` or `paid`. */
  readonly type: string;
  /** e.g. { ram: '8Gi', cpu: '2000m', disk: '64Gi' }. */
  readonly resourceConfiguration?: { readonly ram: string; readonly cpu: string; readonly disk: string } | undefined;
  /** Three upper-case letters. */
  readonly currency: string;
  /** Price in the currency's smallest unit (e.g. millicents) per hour. */
  readonly unitIntPricePerHour: number;
  readonly status: PackageStatus;
  readonly availableAdditionalResources?: { readonly diskPricePerHour: number } | undefined;
  readonly tier: PackageTier;
  readonly availableStorageTierConfigurations: readonly {
    readonly storageTierType: StorageTierType;
    readonly pricePerHour: number;
  }[];
}

export interface BookingApi {
  /** `cloudProviderRegionId` may be "" only for the `hybrid` provider. */
  listPackages(
    request: {
      accountId: string;
      cloudProviderId: string;
      cloudProviderRegionId?: string | undefined;
      statuses?: readonly PackageStatus[] | undefined;
    },
    options?: VdbCallOptions,
  ): Promise<BookingPackage[]>;
}

export interface CloudProvider {
  readonly id: string;
  readonly name: string;
  readonly freeTier: boolean;
  readonly available: boolean;
}

export interface CloudProviderRegion {
  readonly id: string;
  readonly name: string;
  readonly freeTier: boolean;
  readonly available: boolean;
  /** The provider id. */
  readonly provider: string;
  readonly countryIsoCode?: string | undefined;
  readonly geographicalSubRegion?: string | undefined;
  readonly namespace?: string | undefined;
  readonly capabilities?: { readonly volumeSnapshot: boolean; readonly volumeExpansion: boolean } | undefined;
}

export interface PlatformApi {
  listCloudProviders(request: { accountId: string }, options?: VdbCallOptions): Promise<CloudProvider[]>;
  listCloudProviderRegions(
    request: { accountId: string; cloudProviderId: string },
    options?: VdbCallOptions,
  ): Promise<CloudProviderRegion[]>;
  getCloudProviderRegion(
    request: { accountId: string; cloudProviderId: string; regionId: string },
    options?: VdbCallOptions,
  ): Promise<CloudProviderRegion>;
}

// ---------------------------------------------------------------------------------------------
// IAM (iam.v1) and account members (account.v1)

export interface Permission {
  /** e.g. `read:backups`. */
  readonly value: string;
  /** e.g. `Cluster`, `Account`. */
  readonly category?: string | undefined;
}

export interface RoleInput {
  readonly accountId: string;
  readonly name: string;
  readonly description?: string | undefined;
  /** Only the values are sent; the server fills the categories. At least one. */
  readonly permissions: readonly string[];
}

export interface RoleUpdate extends RoleInput {
  readonly id: string;
}

export interface Role {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly lastModifiedAt?: string | undefined;
  readonly accountId: string;
  readonly name: string;
  readonly description: string;
  readonly roleType: RoleType;
  readonly permissions: readonly Permission[];
  readonly subType?: SystemRoleSubType | undefined;
}

export interface User {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly lastModifiedAt?: string | undefined;
  readonly email: string;
  readonly status: UserStatus;
  readonly defaultAccountId: string;
}

export interface AccountMember {
  readonly user: User;
  readonly isOwner: boolean;
}

export interface IamApi {
  listRoles(request: { accountId: string }, options?: VdbCallOptions): Promise<Role[]>;
  getRole(request: { accountId: string; roleId: string }, options?: VdbCallOptions): Promise<Role>;
  /** Sent with role_type CUSTOM. Retried only when declined (see Errors above). */
  createRole(role: RoleInput, options?: VdbCallOptions): Promise<Role>;
  /** Sent with role_type CUSTOM. */
  updateRole(role: RoleUpdate, options?: VdbCallOptions): Promise<Role>;
  deleteRole(request: { accountId: string; roleId: string }, options?: VdbCallOptions): Promise<void>;
  /** Every permission that can go into a custom role. */
  listPermissions(request: { accountId: string }, options?: VdbCallOptions): Promise<Permission[]>;
  /** The roles assigned to one user in the account. */
  listUserRoles(request: { accountId: string; userId: string }, options?: VdbCallOptions): Promise<Role[]>;
  /** At least one of the two lists must be non-empty. Retried (adding/removing is idempotent). */
  assignUserRoles(
    request: {
      accountId: string;
      userId: string;
      roleIdsToAdd?: readonly string[] | undefined;
      roleIdsToDelete?: readonly string[] | undefined;
    },
    options?: VdbCallOptions,
  ): Promise<void>;
}

export interface AccountsApi {
  listAccountMembers(request: { accountId: string }, options?: VdbCallOptions): Promise<AccountMember[]>;
}

// ---------------------------------------------------------------------------------------------

/**
 * A client of the vdb management API over one gRPC channel. Reads (list/get) and idempotent
 * writes (update, delete, assign) are retried on UNAVAILABLE and RESOURCE_EXHAUSTED with
 * exponential backoff and jitter; creates and bootstrap generation are not.
 */
export interface VdbClient {
  readonly clusters: ClustersApi;
  /** Database API keys (v2). */
  readonly databaseApiKeys: DatabaseApiKeysApi;
  /** Legacy database API keys (v1, deprecated service). */
  readonly authKeys: AuthKeysApi;
  readonly backupSchedules: BackupSchedulesApi;
  readonly backups: BackupsApi;
  readonly hybridEnvironments: HybridEnvironmentsApi;
  readonly booking: BookingApi;
  readonly platform: PlatformApi;
  readonly iam: IamApi;
  readonly accounts: AccountsApi;
  /** Closes the channel; calls made afterwards fail with 'cancelled'. */
  close(): void;
}
