/** HybridCloudService (hybrid.v1): hybrid cloud environments, the customer's Kubernetes clusters. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import type { KeyValue } from '../common.js';
import type { Toleration } from './clusters.js';

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

/** Of one account, by id. */
interface EnvironmentRef {
  accountId: string;
  hybridCloudEnvironmentId: string;
}

export type HybridEnvironmentsApi = ReturnType<typeof hybridEnvironmentsApi>;

export function hybridEnvironmentsApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.hybrid);
  return {
    list: calls.unary<{ accountId: string }, HybridEnvironment[]>({
      method: 'ListHybridCloudEnvironments',
      safety: 'read',
      answer: many('items', ['id']),
    }),

    get: calls.unary<EnvironmentRef, HybridEnvironment>({
      method: 'GetHybridCloudEnvironment',
      safety: 'read',
      answer: one('hybridCloudEnvironment', ['id']),
    }),

    /** Retried only when declined (see Errors in ../api.ts). */
    create: calls.unary<HybridEnvironmentInput, HybridEnvironment>({
      method: 'CreateHybridCloudEnvironment',
      safety: 'once',
      request: (input) => ({
        hybridCloudEnvironment: { accountId: input.accountId, name: input.name, configuration: input.configuration },
      }),
      answer: one('hybridCloudEnvironment', ['id']),
    }),

    update: calls.unary<HybridEnvironmentUpdate, HybridEnvironment>({
      method: 'UpdateHybridCloudEnvironment',
      safety: 'idempotent',
      request: (input) => {
        const { lastModifiedAt: _serverSet, ...configuration } = input.configuration as { lastModifiedAt?: string };
        return {
          hybridCloudEnvironment: { id: input.id, accountId: input.accountId, name: input.name, configuration },
        };
      },
      answer: one('hybridCloudEnvironment', ['id']),
    }),

    delete: calls.unary<EnvironmentRef, void>({
      method: 'DeleteHybridCloudEnvironment',
      safety: 'idempotent',
      answer: nothing,
    }),

    /**
     * Retried only when declined (each call rotates credentials). FAILED_PRECONDITION → ApiError 'invalid',
     * PERMISSION_DENIED → 'forbidden' (the provider turns both into a warning).
     */
    generateBootstrapCommands: calls.unary<EnvironmentRef, BootstrapCommands>({
      method: 'GenerateBootstrapCommands',
      safety: 'once',
      answer: (response) => ({
        commands: (response.commands as string[] | undefined) ?? [],
        accessKey: (response.accessKey as string | undefined) ?? '',
        registryUsername: (response.registryUsername as string | undefined) ?? '',
        registryPassword: (response.registryPassword as string | undefined) ?? '',
      }),
    }),
  };
}
