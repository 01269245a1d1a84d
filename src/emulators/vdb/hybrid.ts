/**
 * HybridCloudService (docs/api/vdb.md, "Hybrid cloud environments"). An environment is NOT_READY
 * until bootstrap commands have been generated (the agent "installs" itself) and `provisioningMs`
 * has passed; every GenerateBootstrapCommands call mints a new access key and new registry
 * credentials.
 */
import type { HybridEnvironment, HybridEnvironmentConfiguration, HybridEnvironmentStatus } from './records.js';
import type { WireObject } from './wire-codec.js';
import { VDB_SERVICES } from '../../wire/vdb-proto.js';
import { secretValue } from '../core/index.js';
import {
  checkAccount,
  createdByEmail,
  newId,
  nowTimestamp,
  removeStored,
  replacedBy,
  sentFields,
  type StoredKind,
  type VdbContext,
} from './context.js';
import { failedPrecondition, invalidArgument, notFound, permissionDenied } from './errors.js';
import type { HandlerCall, ServiceRegistration } from './server.js';

export const REGISTRY_HOST = 'registry.vdb-cloud.example';
export const CHART_REPOSITORY = 'oci://registry.vdb-cloud.example/charts';
export const AGENT_API_URL = 'grpc.vdb-cloud.example:443';

export interface BootstrapCredentials {
  readonly environmentId: string;
  readonly accessKey: string;
  readonly registryUsername: string;
  readonly registryPassword: string;
  /** 1 for the first generation, then counting. */
  readonly generation: number;
}

/** Clusters refuse its deletion while they run in it (see CLUSTERS). */
export const HYBRID_ENVIRONMENTS: StoredKind<'hybridEnvironments', HybridEnvironment> = {
  name: 'hybridEnvironments',
  label: 'hybrid cloud environment',
  refresh: refreshEnvironment,
  forget: (ctx, id) => ctx.environmentReadyAt.delete(id),
};

/** The latest bootstrap credentials of an environment, keyed by its id (tests check rotation). */
export const BOOTSTRAP_CREDENTIALS: StoredKind<'bootstrapCredentials', BootstrapCredentials> = {
  name: 'bootstrapCredentials',
  label: 'bootstrap credentials',
  refersTo: [{ to: HYBRID_ENVIRONMENTS.name, field: 'environmentId', whenDeleted: 'remove' }],
};

export const HYBRID_MODULE = {
  services: hybridServices,
  storage: [HYBRID_ENVIRONMENTS, BOOTSTRAP_CREDENTIALS],
} as const;

function hybridServices(ctx: VdbContext): ServiceRegistration[] {
  return [
    {
      service: VDB_SERVICES.hybrid,
      handlers: {
        ListHybridCloudEnvironments: (request) => {
          checkAccount(ctx, request.accountId);
          return {
            items: ctx.store
              .list<HybridEnvironment>(HYBRID_ENVIRONMENTS.name)
              .map((env) => refreshEnvironment(ctx, env.id)!),
          };
        },
        GetHybridCloudEnvironment: (request) => {
          checkAccount(ctx, request.accountId);
          return { hybridCloudEnvironment: requireEnvironment(ctx, request.hybridCloudEnvironmentId as string) };
        },
        CreateHybridCloudEnvironment: (request, call) => ({
          hybridCloudEnvironment: createEnvironment(
            ctx,
            request.hybridCloudEnvironment as HybridEnvironment | undefined,
            call,
          ),
        }),
        UpdateHybridCloudEnvironment: (request) => ({
          hybridCloudEnvironment: updateEnvironment(
            ctx,
            request.hybridCloudEnvironment as HybridEnvironment | undefined,
          ),
        }),
        DeleteHybridCloudEnvironment: (request) => {
          checkAccount(ctx, request.accountId);
          const environment = requireEnvironment(ctx, request.hybridCloudEnvironmentId as string);
          // Refused while a cluster runs in it (as CLUSTERS declares); its credentials go with it.
          removeStored(ctx, HYBRID_ENVIRONMENTS, environment.id);
          return {};
        },
        GenerateBootstrapCommands: (request) => {
          checkAccount(ctx, request.accountId);
          return generateBootstrapCommands(ctx, request.hybridCloudEnvironmentId as string);
        },
      },
    },
  ];
}

function requireEnvironment(ctx: VdbContext, id: string): HybridEnvironment {
  const environment = refreshEnvironment(ctx, id);
  if (!environment) throw notFound(`hybrid cloud environment ${id}`);
  return environment;
}

function storedConfiguration(
  input: HybridEnvironmentConfiguration,
  lastModifiedAt: string,
): HybridEnvironment['configuration'] {
  return {
    ...input,
    lastModifiedAt,
    noProxyConfigs: input.noProxyConfigs ?? [],
    tolerations: input.tolerations ?? [],
    nodeSelector: input.nodeSelector ?? [],
    controlPlaneLabels: input.controlPlaneLabels ?? [],
  };
}

/** What the server sets of an environment; every other field is kept as the client sent it. */
const ENVIRONMENT_SERVER_FIELDS = [
  'id',
  'createdAt',
  'lastModifiedAt',
  'createdByEmail',
  'bootstrapCommandsGenerated',
  'configuration',
  'status',
] as const;

function createEnvironment(ctx: VdbContext, input: HybridEnvironment | undefined, call: HandlerCall): WireObject {
  // The API's rules held (request-rules.ts): an environment is given, in bounds, with nothing the server sets.
  const environment = input!;
  checkAccount(ctx, environment.accountId);
  const now = nowTimestamp(ctx);
  const stored: HybridEnvironment = {
    ...sentFields(environment, ENVIRONMENT_SERVER_FIELDS),
    id: newId(),
    createdAt: now,
    lastModifiedAt: now,
    createdByEmail: createdByEmail(call.caller, 'its owner'),
    bootstrapCommandsGenerated: false,
    configuration: storedConfiguration(environment.configuration!, now),
    status: notReadyStatus(now),
  };
  ctx.store.put(HYBRID_ENVIRONMENTS.name, stored.id, stored);
  return stored as unknown as WireObject;
}

function updateEnvironment(ctx: VdbContext, input: HybridEnvironment | undefined): WireObject {
  // The API's rules held (request-rules.ts): an environment with an id is given, in bounds.
  const environment = input!;
  checkAccount(ctx, environment.accountId);
  const current = requireEnvironment(ctx, environment.id);
  const namespace = current.configuration?.namespace;
  if (namespace !== undefined && environment.configuration!.namespace !== namespace) {
    throw invalidArgument(
      `hybrid_cloud_environment.configuration.namespace cannot be changed (is ${namespace}); create a new ` +
        `environment instead`,
    );
  }
  const now = nowTimestamp(ctx);
  const stored: HybridEnvironment = {
    ...replacedBy(current, environment, ENVIRONMENT_SERVER_FIELDS),
    lastModifiedAt: now,
    configuration: storedConfiguration(environment.configuration!, now),
  };
  ctx.store.put(HYBRID_ENVIRONMENTS.name, stored.id, stored);
  return stored as unknown as WireObject;
}

function generateBootstrapCommands(ctx: VdbContext, environmentId: string): WireObject {
  const failure = ctx.bootstrapFailure;
  if (failure) {
    if (failure.once) ctx.bootstrapFailure = undefined;
    throw failure.code === 'permission_denied'
      ? permissionDenied(failure.message)
      : failedPrecondition(failure.message);
  }
  const environment = requireEnvironment(ctx, environmentId);
  const previous = ctx.store.get<BootstrapCredentials>(BOOTSTRAP_CREDENTIALS.name, environment.id);
  const credentials: BootstrapCredentials = {
    environmentId: environment.id,
    accessKey: secretValue(24),
    registryUsername: `env-${environment.id.slice(0, 8)}-${secretValue(3)}`,
    registryPassword: secretValue(20),
    generation: (previous?.generation ?? 0) + 1,
  };
  ctx.store.put(BOOTSTRAP_CREDENTIALS.name, environment.id, credentials);
  ctx.store.put(HYBRID_ENVIRONMENTS.name, environment.id, { ...environment, bootstrapCommandsGenerated: true });
  if (!ctx.environmentReadyAt.has(environment.id))
    ctx.environmentReadyAt.set(environment.id, ctx.clock.now() + ctx.provisioningMs);
  return {
    commands: bootstrapCommands(environment, credentials),
    accessKey: credentials.accessKey,
    registryUsername: credentials.registryUsername,
    registryPassword: credentials.registryPassword,
  };
}

/** kubectl/helm lines that install the environment's agent (the credentials are inside). */
function bootstrapCommands(environment: HybridEnvironment, credentials: BootstrapCredentials): string[] {
  const namespace = environment.configuration?.namespace ?? 'vdb';
  const registry = environment.configuration?.containerRegistryUrl ?? REGISTRY_HOST;
  const charts = environment.configuration?.chartRepositoryUrl ?? CHART_REPOSITORY;
  return [
    `kubectl create namespace ${namespace} --dry-run=client -o yaml | kubectl apply -f -`,
    `kubectl --namespace ${namespace} create secret docker-registry vdb-registry-credentials ` +
      `--docker-server=${registry} --docker-username='${credentials.registryUsername}' ` +
      `--docker-password='${credentials.registryPassword}' --dry-run=client -o yaml | kubectl apply -f -`,
    `kubectl --namespace ${namespace} create secret generic vdb-cloud-access-key ` +
      `--from-literal=access-key='${credentials.accessKey}' --dry-run=client -o yaml | kubectl apply -f -`,
    `helm upgrade --install vdb-cloud-agent ${charts}/vdb-cloud-agent --namespace ${namespace} ` +
      `--set environmentId=${environment.id} --set accountId=${environment.accountId} ` +
      `--set apiUrl=${AGENT_API_URL} --set imagePullSecrets[0].name=vdb-registry-credentials --wait`,
  ];
}

function notReadyStatus(now: string): HybridEnvironmentStatus {
  return {
    lastModifiedAt: now,
    phase: 'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_NOT_READY',
    kubernetesVersion: '',
    numberOfNodes: 0,
    componentStatuses: [],
    clusterCreationReadiness: 'CLUSTER_CREATION_STATUS_NOT_READY',
    message: 'waiting for the agent: run the bootstrap commands in the Kubernetes cluster',
    storageClasses: [],
    volumeSnapshotClasses: [],
  };
}

function readyStatus(environment: HybridEnvironment, at: string): HybridEnvironmentStatus {
  const namespace = environment.configuration?.namespace ?? 'vdb';
  return {
    lastModifiedAt: at,
    phase: 'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_READY',
    kubernetesVersion: 'v1.30.4',
    numberOfNodes: 3,
    capabilities: { volumeSnapshot: true, volumeExpansion: true },
    componentStatuses: [
      {
        name: 'vdb-cloud-agent',
        namespace,
        version: '1.6.0',
        phase: 'HYBRID_CLOUD_ENVIRONMENT_COMPONENT_STATUS_PHASE_READY',
      },
      {
        name: 'vdb-operator',
        namespace,
        version: '2.4.1',
        phase: 'HYBRID_CLOUD_ENVIRONMENT_COMPONENT_STATUS_PHASE_READY',
      },
    ],
    clusterCreationReadiness: 'CLUSTER_CREATION_STATUS_READY',
    kubernetesDistribution: 'KUBERNETES_DISTRIBUTION_K3S',
    storageClasses: [
      {
        name: environment.configuration?.databaseStorageClass ?? 'standard',
        default: true,
        provisioner: 'rancher.io/local-path',
        allowVolumeExpansion: true,
        reclaimPolicy: 'Delete',
        parameters: [{ key: 'type', value: 'ssd' }],
      },
    ],
    volumeSnapshotClasses: [
      { name: environment.configuration?.volumeSnapshotStorageClass ?? 'csi-snapclass', driver: 'hostpath.csi.k8s.io' },
    ],
  };
}

/** Marks the environment READY once its agent has had time to come up. */
export function refreshEnvironment(ctx: VdbContext, id: string): HybridEnvironment | undefined {
  const environment = ctx.store.get<HybridEnvironment>(HYBRID_ENVIRONMENTS.name, id);
  if (!environment) return undefined;
  const readyAt = ctx.environmentReadyAt.get(id);
  if (
    readyAt === undefined ||
    ctx.clock.now() < readyAt ||
    environment.status?.phase === 'HYBRID_CLOUD_ENVIRONMENT_STATUS_PHASE_READY'
  ) {
    return environment;
  }
  const updated = { ...environment, status: readyStatus(environment, new Date(readyAt).toISOString()) };
  ctx.store.put(HYBRID_ENVIRONMENTS.name, id, updated);
  return updated;
}
