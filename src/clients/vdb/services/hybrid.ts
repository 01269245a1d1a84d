/** HybridCloudService (hybrid.v1): hybrid cloud environments, the customer's Kubernetes clusters. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import { type Answered, type Sent, VDB_ENUMS, type VdbEnum, type VdbJson } from '../messages.js';

export const HYBRID_LOG_LEVELS = VDB_ENUMS['hybrid.v1.HybridCloudEnvironmentConfigurationLogLevel'];
export type HybridLogLevel = VdbEnum<'hybrid.v1.HybridCloudEnvironmentConfigurationLogLevel'>;
export const HYBRID_STATUS_PHASES = VDB_ENUMS['hybrid.v1.HybridCloudEnvironmentStatusPhase'];
export type HybridStatusPhase = VdbEnum<'hybrid.v1.HybridCloudEnvironmentStatusPhase'>;
export const HYBRID_COMPONENT_PHASES = VDB_ENUMS['hybrid.v1.HybridCloudEnvironmentComponentStatusPhase'];
export type HybridComponentPhase = VdbEnum<'hybrid.v1.HybridCloudEnvironmentComponentStatusPhase'>;
/** The neutral name of the vendor's cluster-creation-status enum (docs/decisions.md, "Enum names"). */
export const CLUSTER_CREATION_STATUSES = VDB_ENUMS['hybrid.v1.ClusterCreationStatus'];
export type ClusterCreationStatus = VdbEnum<'hybrid.v1.ClusterCreationStatus'>;
export const KUBERNETES_DISTRIBUTIONS = VDB_ENUMS['hybrid.v1.KubernetesDistribution'];
export type KubernetesDistribution = VdbEnum<'hybrid.v1.KubernetesDistribution'>;

/** JSON data (google.protobuf.Struct): objects, arrays, strings, numbers, booleans, null. */
export type JsonValue = VdbJson;

/** What a caller sends: the namespace at least; `lastModifiedAt` is server-set. */
export type HybridEnvironmentConfigurationInput = Omit<
  Sent<'hybrid.v1.HybridCloudEnvironmentConfiguration', 'namespace'>,
  'lastModifiedAt'
>;
export type HybridEnvironmentConfiguration = Answered<'hybrid.v1.HybridCloudEnvironmentConfiguration'>;
export type HybridComponentStatus = Answered<'hybrid.v1.HybridCloudEnvironmentComponentStatus'>;
export type HybridStorageClass = Answered<'hybrid.v1.HybridCloudEnvironmentStorageClass'>;
export type HybridEnvironmentStatus = Answered<'hybrid.v1.HybridCloudEnvironmentStatus'>;

/** Every field of an environment a client sets, so a field the `.proto` gains is sent with no line here. */
export type HybridEnvironmentInput = Omit<
  Sent<'hybrid.v1.HybridCloudEnvironment', 'accountId' | 'name'>,
  'id' | 'createdAt' | 'lastModifiedAt' | 'createdByEmail' | 'bootstrapCommandsGenerated' | 'configuration' | 'status'
> & { readonly configuration: HybridEnvironmentConfigurationInput };
export type HybridEnvironmentUpdate = HybridEnvironmentInput & { readonly id: string };

/** `bootstrapCommandsGenerated`: the server's flag that GenerateBootstrapCommands has been called once. */
export type HybridEnvironment = Answered<'hybrid.v1.HybridCloudEnvironment'>;

/** Every call mints a new access key and new registry credentials. */
export type BootstrapCommands = Answered<'hybrid.v1.GenerateBootstrapCommandsResponse'>;

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
      request: (input) => ({ hybridCloudEnvironment: { ...input } }),
      answer: one('hybridCloudEnvironment', ['id']),
    }),

    update: calls.unary<HybridEnvironmentUpdate, HybridEnvironment>({
      method: 'UpdateHybridCloudEnvironment',
      safety: 'idempotent',
      request: (input) => {
        const { lastModifiedAt: _serverSet, ...configuration } = input.configuration as { lastModifiedAt?: string };
        return { hybridCloudEnvironment: { ...input, configuration } };
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
