// Protobuf messages, codecs for the server and grpc-js service definitions for tfplugin6 and go-plugin's
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
import type { MethodDefinition, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { IConversionOptions } from 'protobufjs';
import generated, { services, type MethodEntry, type StaticMessageType } from './tfplugin6-messages.js';

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
 * (ListResource).
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

/** The .proto files of the generated messages (scripts/build-proto.mjs lists the same). */
export const PROTO_FILES = [
  'tfplugin6.proto',
  'plugin/grpc_controller.proto',
  'plugin/grpc_stdio.proto',
  'plugin/grpc_broker.proto',
  'grpc/health/v1/health.proto',
];

/** Decoding options (bytes stay Buffers: protobufjs' default under Node). */
export const TO_OBJECT_OPTIONS: IConversionOptions = {
  defaults: true,
  longs: Number,
  enums: Number,
  oneofs: true,
};

export type { StaticMessageType as MessageType, MethodEntry } from './tfplugin6-messages.js';

const typesByName = new Map<string, StaticMessageType>();

/** A message type by full name, e.g. `tfplugin6.GetProviderSchema.Response`. */
export function messageType(fullName: string): StaticMessageType {
  let type = typesByName.get(fullName);
  if (!type) {
    let node: Partial<StaticMessageType> & Record<string, any> = generated;
    for (const part of fullName.split('.')) node = Object.hasOwn(node, part) ? node[part] : undefined;
    if (typeof node?.decode !== 'function' || typeof node.fromObject !== 'function')
      throw new Error(`no message type ${fullName}`);
    type = node as StaticMessageType;
    typesByName.set(fullName, type);
  }
  return type;
}

export function encodeMessage(type: StaticMessageType, value: unknown): Buffer {
  const message = type.fromObject((value ?? {}) as Record<string, unknown>);
  const bytes = type.encode(message).finish();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function decodeMessage(type: StaticMessageType, bytes: Uint8Array): any {
  return type.toObject(type.decode(bytes), TO_OBJECT_OPTIONS);
}

/** The methods of a service, in proto order. */
export function serviceMethods(serviceName: string): readonly MethodEntry[] {
  const methods = Object.hasOwn(services, serviceName) ? services[serviceName] : undefined;
  if (!methods) throw new Error(`no service ${serviceName}`);
  return methods;
}

/** Request/response message types of one RPC, for client code and tests. */
export function rpcTypes(
  serviceName: string,
  method: string,
): { request: StaticMessageType; response: StaticMessageType } {
  const m = serviceMethods(serviceName).find((entry) => entry.name === method);
  if (!m) throw new Error(`no method ${method} in ${serviceName}`);
  return { request: messageType(m.requestType), response: messageType(m.responseType) };
}

/**
 * A response encoded ahead of time and sent as these bytes: for answers that are the same on every
 * call (the provider schema), so that protobuf encoding is paid once per process.
 */
export class PreEncoded {
  constructor(readonly bytes: Buffer) {}
}

/** How one method's messages cross the wire, for the server (./grpc-server.ts). */
export interface MethodCodecs {
  readonly name: string;
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  readonly request: { decode(bytes: Buffer): any; encode(value: unknown): Buffer };
  readonly response: { decode(bytes: Buffer): any; encode(value: unknown): Buffer };
}

/** The methods of a service with codecs in the plain-object form above; responses may be PreEncoded. */
export function serviceCodecs(serviceName: string): Map<string, MethodCodecs> {
  const out = new Map<string, MethodCodecs>();
  for (const method of serviceMethods(serviceName)) {
    const request = messageType(method.requestType);
    const response = messageType(method.responseType);
    out.set(method.name, {
      name: method.name,
      path: `/${serviceName}/${method.name}`,
      requestStream: method.requestStream,
      responseStream: method.responseStream,
      request: { decode: (bytes) => decodeMessage(request, bytes), encode: (value) => encodeMessage(request, value) },
      response: {
        decode: (bytes) => decodeMessage(response, bytes),
        encode: (value) => (value instanceof PreEncoded ? value.bytes : encodeMessage(response, value)),
      },
    });
  }
  return out;
}

/** A grpc-js ServiceDefinition (clients: src/tfclient) whose (de)serializers use the plain-object form above. */
export function serviceDefinition(serviceName: string): ServiceDefinition<UntypedServiceImplementation> {
  const definition: Record<string, MethodDefinition<any, any>> = {};
  for (const method of serviceMethods(serviceName)) {
    const request = messageType(method.requestType);
    const response = messageType(method.responseType);
    definition[method.name] = {
      path: `/${serviceName}/${method.name}`,
      requestStream: method.requestStream,
      responseStream: method.responseStream,
      requestSerialize: (value: unknown) => encodeMessage(request, value),
      requestDeserialize: (bytes: Buffer) => decodeMessage(request, bytes),
      responseSerialize: (value: unknown) =>
        value instanceof PreEncoded ? value.bytes : encodeMessage(response, value),
      responseDeserialize: (bytes: Buffer) => decodeMessage(response, bytes),
      originalName: method.name,
    };
  }
  return definition;
}
