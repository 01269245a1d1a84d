// Protobuf messages and grpc-js service definitions for tfplugin6 and go-plugin's
// side services (protocol.md §1.5, §2.1).
//
// Messages cross this boundary as plain objects: snake_case field names as in
// the .proto, bytes as Buffer, enums as numbers, int64 as JS numbers, every
// field present on decode (unset sub-messages are null, repeated [], maps {}),
// oneof members present only when set (plus a virtual property naming the
// member, e.g. `selector: 'attribute_name'`); proto3 `optional` fields are
// absent unless set. On encode, plain objects go
// through Type.fromObject: enum names or numbers, Buffer/Uint8Array for bytes
// (a *string* in a bytes field is read as base64), null/undefined = unset.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { builtDescriptorPath, findProtoSourceDir } from '../proto-location.js';
import type { MethodDefinition, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';

/** The tfplugin6.Provider RPCs, in proto order (checked against the descriptor in tests). */
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

/** RPCs with a streamed request or response: always UNIMPLEMENTED here. */
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

/** Must match the list in scripts/build-proto.mjs. */
export const PROTO_FILES = [
  'tfplugin6.proto',
  'plugin/grpc_controller.proto',
  'plugin/grpc_stdio.proto',
  'plugin/grpc_broker.proto',
  'grpc/health/v1/health.proto',
];

/** Decoding options (bytes stay Buffers: protobufjs' default under Node). */
export const TO_OBJECT_OPTIONS: protobuf.IConversionOptions = {
  defaults: true,
  longs: Number,
  enums: Number,
  oneofs: true,
};

/** dist/proto/descriptor.json, written by scripts/build-proto.mjs. */
export const DEFAULT_DESCRIPTOR_PATH = builtDescriptorPath('descriptor.json');

/** Nearest `proto/` folder holding tfplugin6.proto, searching upward from each start. */
export function findProtoDir(starts?: string[]): string | undefined {
  return findProtoSourceDir('tfplugin6.proto', starts);
}

export function loadRootFromProtoDir(protoDir: string): protobuf.Root {
  const root = new protobuf.Root();
  root.loadSync(
    PROTO_FILES.map((f) => join(protoDir, f)),
    { keepCase: true },
  );
  root.resolveAll();
  return root;
}

export function loadRootFromDescriptor(path: string): protobuf.Root {
  const root = protobuf.Root.fromJSON(JSON.parse(readFileSync(path, 'utf8')));
  root.resolveAll();
  return root;
}

let cachedRoot: protobuf.Root | undefined;

/**
 * The protocol's protobuf root: the prebuilt JSON descriptor when present,
 * otherwise the .proto sources (running from source, or a partial build).
 */
export function protoRoot(): protobuf.Root {
  if (cachedRoot) return cachedRoot;
  if (existsSync(DEFAULT_DESCRIPTOR_PATH)) {
    cachedRoot = loadRootFromDescriptor(DEFAULT_DESCRIPTOR_PATH);
  } else {
    const dir = findProtoDir();
    if (!dir) throw new Error(`${DEFAULT_DESCRIPTOR_PATH} not found and no proto/ folder above it or the cwd`);
    cachedRoot = loadRootFromProtoDir(dir);
  }
  return cachedRoot;
}

/** A message type by full name, e.g. `tfplugin6.GetProviderSchema.Response`. */
export function messageType(fullName: string): protobuf.Type {
  return protoRoot().lookupType(fullName);
}

export function encodeMessage(type: protobuf.Type, value: unknown): Buffer {
  const message = type.fromObject((value ?? {}) as Record<string, unknown>);
  const bytes = type.encode(message).finish();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function decodeMessage(type: protobuf.Type, bytes: Uint8Array): any {
  return type.toObject(type.decode(bytes), TO_OBJECT_OPTIONS);
}

/** Request/response message types of one RPC, for client code and tests. */
export function rpcTypes(serviceName: string, method: string): { request: protobuf.Type; response: protobuf.Type } {
  const m = protoRoot().lookupService(serviceName).methods[method];
  if (!m) throw new Error(`no method ${method} in ${serviceName}`);
  m.resolve();
  return { request: m.resolvedRequestType!, response: m.resolvedResponseType! };
}

/**
 * A response encoded ahead of time and sent as these bytes: for answers that are the same on every
 * call (the provider schema), so that protobuf encoding is paid once per process.
 */
export class PreEncoded {
  constructor(readonly bytes: Buffer) {}
}

/** A grpc-js ServiceDefinition (server and client) whose (de)serializers use the plain-object form above. */
export function serviceDefinition(serviceName: string): ServiceDefinition<UntypedServiceImplementation> {
  const service = protoRoot().lookupService(serviceName);
  const definition: Record<string, MethodDefinition<any, any>> = {};
  for (const method of service.methodsArray) {
    const { request, response } = rpcTypes(serviceName, method.name);
    definition[method.name] = {
      path: `/${serviceName}/${method.name}`,
      requestStream: method.requestStream === true,
      responseStream: method.responseStream === true,
      requestSerialize: (value: unknown) => encodeMessage(request, value),
      requestDeserialize: (bytes: Buffer) => decodeMessage(request, bytes),
      responseSerialize: (value: unknown) => (value instanceof PreEncoded ? value.bytes : encodeMessage(response, value)),
      responseDeserialize: (bytes: Buffer) => decodeMessage(response, bytes),
      originalName: method.name,
    };
  }
  return definition;
}
