/**
 * The emulator's own view of the platform's objects, written from the .proto files (proto/vdb)
 * and nothing else: the shapes its handlers receive, store and answer, as ./wire-codec.ts reads and
 * writes them. They do not come from the client (src/clients/vdb/api.ts) on purpose: a field the
 * client maps wrongly must meet a server that reads the contract its own way.
 *
 * Conventions (./wire-codec.ts): field names are the proto's JSON names; timestamps are RFC 3339
 * text in UTC; durations { seconds, nanos }; enums their value names; repeated fields always arrays;
 * proto3 `optional` fields and sub-messages absent when unset.
 */

/** google.protobuf.Timestamp, as RFC 3339 text. */
export type Timestamp = string;

/** google.protobuf.Duration, exact: nanos 0–999 999 999 with the sign of seconds. */
export interface Duration {
  readonly seconds: number;
  readonly nanos: number;
}

/** google.protobuf.Struct, as the JSON object it holds. */
export type JsonObject = { readonly [key: string]: unknown };

// ---------------------------------------------------------------------------------------------
// common.v1

export interface KeyValue {
  readonly key: string;
  readonly value: string;
}

export interface SecretKeyRef {
  readonly name: string;
  readonly key: string;
}

export interface Toleration {
  readonly key?: string;
  readonly operator?: `TOLERATION_OPERATOR_${string}`;
  readonly value?: string;
  readonly effect?: `TOLERATION_EFFECT_${string}`;
  readonly tolerationSeconds?: number;
}

export interface TopologySpreadConstraint {
  readonly maxSkew?: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable?: `TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_${string}`;
}

// ---------------------------------------------------------------------------------------------
// cluster.v1

export interface DatabaseConfiguration {
  readonly collection?: {
    readonly replicationFactor?: number;
    readonly writeConsistencyFactor?: number;
    readonly vectors?: { readonly onDisk?: boolean };
  };
  readonly storage?: {
    readonly performance?: { readonly optimizerCpuBudget?: number; readonly asyncScorer?: boolean };
  };
  readonly service?: {
    readonly apiKey?: SecretKeyRef;
    readonly readOnlyApiKey?: SecretKeyRef;
    readonly enableTls?: boolean;
  };
  readonly logLevel?: `DATABASE_CONFIGURATION_LOG_LEVEL_${string}`;
  readonly tls?: { readonly cert?: SecretKeyRef; readonly key?: SecretKeyRef };
  readonly inference?: { readonly enabled: boolean };
}

export interface ClusterConfiguration {
  readonly lastModifiedAt?: Timestamp;
  readonly numberOfNodes: number;
  readonly version?: string;
  readonly packageId: string;
  readonly additionalResources?: { readonly disk: number };
  readonly databaseConfiguration?: DatabaseConfiguration;
  readonly nodeSelector: readonly KeyValue[];
  readonly tolerations: readonly Toleration[];
  readonly annotations: readonly KeyValue[];
  readonly allowedIpSourceRanges: readonly string[];
  readonly serviceType?: `CLUSTER_SERVICE_TYPE_${string}`;
  readonly serviceAnnotations: readonly KeyValue[];
  readonly podLabels: readonly KeyValue[];
  readonly reservedCpuPercentage?: number;
  readonly reservedMemoryPercentage?: number;
  readonly gpuType?: `CLUSTER_CONFIGURATION_GPU_TYPE_${string}`;
  readonly restartPolicy?: `CLUSTER_CONFIGURATION_RESTART_POLICY_${string}`;
  readonly rebalanceStrategy?: `CLUSTER_CONFIGURATION_REBALANCE_STRATEGY_${string}`;
  readonly topologySpreadConstraints: readonly TopologySpreadConstraint[];
  readonly clusterStorageConfiguration?: { readonly storageTierType: StorageTierType };
}

export type ClusterPhase = `CLUSTER_PHASE_${string}`;
export type ClusterNodeState = `CLUSTER_NODE_STATE_${string}`;

export interface ClusterNodeResources {
  readonly base: number;
  readonly complimentary: number;
  readonly additional: number;
  readonly reserved: number;
  readonly available: number;
}

export interface ClusterState {
  readonly version: string;
  readonly nodesUp: number;
  readonly restartedAt?: Timestamp;
  readonly phase: ClusterPhase;
  readonly reason: string;
  readonly endpoint?: { readonly url: string; readonly restPort: number; readonly grpcPort: number };
  readonly resources?: {
    readonly disk?: ClusterNodeResources;
    readonly ram?: ClusterNodeResources;
    readonly cpu?: ClusterNodeResources;
  };
  readonly scalabilityInfo?: { readonly status: `CLUSTER_SCALABILITY_STATUS_${string}`; readonly reason?: string };
  readonly nodes: readonly {
    readonly name: string;
    readonly startedAt?: Timestamp;
    readonly version: string;
    readonly endpoint: string;
    readonly state: ClusterNodeState;
  }[];
  readonly jwtRbac: boolean;
}

export interface Cluster {
  readonly id: string;
  readonly createdAt?: Timestamp;
  readonly accountId: string;
  readonly name: string;
  readonly deletedAt?: Timestamp;
  readonly cloudProviderId: string;
  readonly cloudProviderRegionId: string;
  readonly labels: readonly KeyValue[];
  readonly configuration: ClusterConfiguration;
  readonly state?: ClusterState;
}

// ---------------------------------------------------------------------------------------------
// cluster.auth.v2 and cluster.auth.v1

/** The oneof `scope`: one of the two is set. */
export interface AccessRule {
  readonly globalAccess?: { readonly accessType: `GLOBAL_ACCESS_RULE_ACCESS_TYPE_${string}` };
  readonly collectionAccess?: {
    readonly collectionName: string;
    readonly accessType: `COLLECTION_ACCESS_RULE_ACCESS_TYPE_${string}`;
  };
}

export interface DatabaseApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt?: Timestamp;
  readonly clusterId: string;
  readonly name: string;
  readonly expiresAt?: Timestamp;
  readonly accessRules: readonly AccessRule[];
  readonly createdByEmail: string;
  readonly postfix: string;
  /** The secret; the store keeps it, lists answer it blank. */
  readonly key: string;
}

/** A legacy (v1) key. */
export interface AuthKey {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt?: Timestamp;
  readonly clusterIds: readonly string[];
  readonly prefix: string;
  readonly key: string;
}

// ---------------------------------------------------------------------------------------------
// cluster.backup.v1

export interface BackupSchedule {
  readonly id: string;
  readonly createdAt?: Timestamp;
  readonly accountId: string;
  readonly clusterId: string;
  readonly schedule: string;
  readonly retentionPeriod?: Duration;
  readonly deletedAt?: Timestamp;
  readonly status: `BACKUP_SCHEDULE_STATUS_${string}`;
}

export interface ResourceQuantity {
  readonly amount: number;
  readonly unit: string;
}

export interface Backup {
  readonly id: string;
  readonly createdAt?: Timestamp;
  readonly accountId: string;
  readonly clusterId: string;
  readonly name: string;
  readonly status: `BACKUP_STATUS_${string}`;
  readonly deletedAt?: Timestamp;
  readonly backupDuration?: Duration;
  readonly backupScheduleId?: string;
  readonly retentionPeriod?: Duration;
  readonly clusterInfo?: {
    readonly name: string;
    readonly cloudProviderId: string;
    readonly cloudProviderRegionId: string;
    readonly configuration?: ClusterConfiguration;
    readonly resourcesSummary?: {
      readonly cpu?: ResourceQuantity;
      readonly ram?: ResourceQuantity;
      readonly disk?: ResourceQuantity;
    };
    readonly restorePackageId?: string;
  };
}

// ---------------------------------------------------------------------------------------------
// hybrid.v1

export interface HybridEnvironmentConfiguration {
  readonly lastModifiedAt?: Timestamp;
  readonly namespace: string;
  readonly httpProxyUrl?: string;
  readonly httpsProxyUrl?: string;
  readonly noProxyConfigs: readonly string[];
  readonly containerRegistryUrl?: string;
  readonly chartRepositoryUrl?: string;
  readonly registrySecretName?: string;
  readonly caCertificates?: string;
  readonly databaseStorageClass?: string;
  readonly snapshotStorageClass?: string;
  readonly volumeSnapshotStorageClass?: string;
  readonly logLevel?: `HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_${string}`;
  readonly tolerations: readonly Toleration[];
  readonly nodeSelector: readonly KeyValue[];
  readonly advancedOperatorSettings?: JsonObject;
  readonly controlPlaneLabels: readonly KeyValue[];
}

export interface HybridEnvironmentStatus {
  readonly lastModifiedAt?: Timestamp;
  readonly phase: `HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_${string}`;
  readonly kubernetesVersion: string;
  readonly numberOfNodes: number;
  readonly capabilities?: { readonly volumeSnapshot: boolean; readonly volumeExpansion: boolean };
  readonly componentStatuses: readonly {
    readonly name: string;
    readonly namespace: string;
    readonly version?: string;
    readonly phase: `HYBRID_CLOUD_ENVIRONMENT_COMPONENT_STATUS_PHASE_${string}`;
    readonly message?: string;
  }[];
  readonly clusterCreationReadiness: `CLUSTER_CREATION_STATUS_${string}`;
  readonly kubernetesDistribution?: `KUBERNETES_DISTRIBUTION_${string}`;
  readonly message?: string;
  readonly storageClasses: readonly {
    readonly name: string;
    readonly default: boolean;
    readonly provisioner: string;
    readonly allowVolumeExpansion: boolean;
    readonly reclaimPolicy: string;
    readonly parameters: readonly KeyValue[];
  }[];
  readonly volumeSnapshotClasses: readonly { readonly name: string; readonly driver: string }[];
}

export interface HybridEnvironment {
  readonly accountId: string;
  readonly id: string;
  readonly createdAt?: Timestamp;
  readonly lastModifiedAt?: Timestamp;
  readonly name: string;
  readonly createdByEmail: string;
  readonly bootstrapCommandsGenerated: boolean;
  readonly configuration?: HybridEnvironmentConfiguration;
  readonly status?: HybridEnvironmentStatus;
}

// ---------------------------------------------------------------------------------------------
// booking.v1 and platform.v1

export type StorageTierType = `STORAGE_TIER_TYPE_${string}`;
export type PackageStatus = `PACKAGE_STATUS_${string}`;

export interface BookingPackage {
  readonly id: string;
  readonly name: string;
  readonly type: 'free' | 'paid';
  readonly resourceConfiguration?: { readonly ram: string; readonly cpu: string; readonly disk: string };
  readonly currency: string;
  readonly unitIntPricePerHour: number;
  readonly status: PackageStatus;
  readonly availableAdditionalResources?: { readonly diskPricePerHour: number };
  /** The zero value's name really is `PACKAGE_TIER_STATUS_UNSPECIFIED`. */
  readonly tier: `PACKAGE_TIER_${string}`;
  readonly availableStorageTierConfigurations: readonly {
    readonly storageTierType: StorageTierType;
    readonly pricePerHour: number;
  }[];
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
  readonly provider: string;
  readonly countryIsoCode?: string;
  readonly geographicalSubRegion?: string;
  readonly namespace?: string;
  readonly capabilities?: { readonly volumeSnapshot: boolean; readonly volumeExpansion: boolean };
}

// ---------------------------------------------------------------------------------------------
// iam.v1 and account.v1

export interface Permission {
  readonly value: string;
  readonly category?: string;
}

export interface Role {
  readonly id: string;
  readonly createdAt?: Timestamp;
  readonly lastModifiedAt?: Timestamp;
  readonly accountId: string;
  readonly name: string;
  readonly description: string;
  readonly roleType: `ROLE_TYPE_${string}`;
  readonly permissions: readonly Permission[];
  readonly subType?: `SYSTEM_ROLE_SUB_TYPE_${string}`;
}

export interface User {
  readonly id: string;
  readonly createdAt?: Timestamp;
  readonly lastModifiedAt?: Timestamp;
  readonly email: string;
  readonly status: `USER_STATUS_${string}`;
  readonly defaultAccountId: string;
}

/** How the emulator stores a member; the wire's AccountMember calls the user `account_member`. */
export interface StoredMember {
  readonly user: User;
  readonly isOwner: boolean;
}
