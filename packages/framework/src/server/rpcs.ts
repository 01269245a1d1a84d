// The plugin protocol's services and the tfplugin6.Provider RPCs by name
// (docs/protocol.md, "The gRPC services"): names only, no codecs, so that the start-up part of a
// provider (packages/framework/src/server/main.ts) knows what it serves without the tfplugin6 messages
// (packages/framework/src/server/proto.ts), which it loads on first use.

/** The tfplugin6.Provider RPCs, in proto order (checked against the .proto sources in tests). */
export const PROVIDER_RPC_NAMES = [
  'GetMetadata',
  'GetProviderSchema',
  'ValidateProviderConfig',
  'ValidateResourceConfig',
  'ValidateDataResourceConfig',
  'UpgradeResourceState',
  'GetResourceIdentitySchemas',
  'UpgradeResourceIdentity',
  'ConfigureProvider',
  'ReadResource',
  'PlanResourceChange',
  'ApplyResourceChange',
  'ImportResourceState',
  'MoveResourceState',
  'ReadDataSource',
  'GenerateResourceConfig',
  'ValidateEphemeralResourceConfig',
  'OpenEphemeralResource',
  'RenewEphemeralResource',
  'CloseEphemeralResource',
  'ListResource',
  'ValidateListResourceConfig',
  'GetFunctions',
  'CallFunction',
  'ValidateStateStoreConfig',
  'ConfigureStateStore',
  'ReadStateBytes',
  'WriteStateBytes',
  'LockState',
  'UnlockState',
  'GetStates',
  'DeleteState',
  'PlanAction',
  'InvokeAction',
  'ValidateActionConfig',
  'StopProvider',
] as const;

export type RpcName = (typeof PROVIDER_RPC_NAMES)[number];

/**
 * RPCs with a streamed request or response: not callable as unary RPCs; served only through stream handlers
 * (ListResource, InvokeAction).
 */
export const STREAMING_RPC_NAMES: ReadonlySet<RpcName> = new Set<RpcName>([
  'ListResource',
  'ReadStateBytes',
  'WriteStateBytes',
  'InvokeAction',
]);

export const SERVICE_NAMES = {
  provider: 'tfplugin6.Provider',
  controller: 'plugin.GRPCController',
  stdio: 'plugin.GRPCStdio',
  broker: 'plugin.GRPCBroker',
  health: 'grpc.health.v1.Health',
} as const;

/** The path of a tfplugin6.Provider RPC on the wire. */
export const providerRpcPath = (rpc: RpcName): string => `/${SERVICE_NAMES.provider}/${rpc}`;

/**
 * The RPCs the providers' service serves (packages/framework/src/server/provider-service.ts, whose handler tables are
 * typed by these lists): the start-up part registers them before it loads the service, and the
 * others answer UNIMPLEMENTED.
 */
export const PROVIDER_SERVICE_RPCS = {
  unary: [
    'GetMetadata',
    'GetProviderSchema',
    'GetResourceIdentitySchemas',
    'GetFunctions',
    'ValidateProviderConfig',
    'ConfigureProvider',
    'ValidateResourceConfig',
    'ValidateDataResourceConfig',
    'UpgradeResourceState',
    'ReadResource',
    'PlanResourceChange',
    'ApplyResourceChange',
    'ImportResourceState',
    'GenerateResourceConfig',
    'ReadDataSource',
    'StopProvider',
    'MoveResourceState',
    'UpgradeResourceIdentity',
    'CallFunction',
    'ValidateEphemeralResourceConfig',
    'OpenEphemeralResource',
    'RenewEphemeralResource',
    'CloseEphemeralResource',
    'ValidateListResourceConfig',
    'ValidateActionConfig',
    'PlanAction',
  ],
  streams: ['ListResource', 'InvokeAction'],
} as const satisfies { unary: readonly RpcName[]; streams: readonly RpcName[] };

export type ServedUnaryRpc = (typeof PROVIDER_SERVICE_RPCS.unary)[number];
export type ServedStreamRpc = (typeof PROVIDER_SERVICE_RPCS.streams)[number];
