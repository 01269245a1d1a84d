// Protobuf messages and codecs of the whole plugin protocol: tfplugin6 and go-plugin's side services
// (docs/protocol.md, "The gRPC services"), for the provider's service (./provider-service.ts) and
// the test client's grpc-js service definitions (src/tfclient/service-definitions.ts). The plain-object
// form of messages is described in ./codecs.ts; the names of services and RPCs are in ./rpcs.ts
// (re-exported here).
import { messages as goPluginMessages, services as goPluginServices } from './go-plugin-messages.js';
import { messages as tfplugin6Messages, services as tfplugin6Services } from './tfplugin6-messages.js';
import { ProtoCodecs, type MessageType, type MethodCodecs } from './codecs.js';

export { PROVIDER_RPC_NAMES, SERVICE_NAMES, STREAMING_RPC_NAMES, type RpcName } from './rpcs.js';
export {
  PreEncoded,
  decodeMessage,
  encodeMessage,
  type MessageType,
  type MethodCodecs,
  type MethodEntry,
} from './codecs.js';

/** The .proto files of the generated messages (scripts/build-proto.mjs lists the same). */
export const PROTO_FILES = [
  'tfplugin6.proto',
  'plugin/grpc_controller.proto',
  'plugin/grpc_stdio.proto',
  'plugin/grpc_broker.proto',
  'grpc/health/v1/health.proto',
];

const codecs = new ProtoCodecs([
  { messages: tfplugin6Messages, services: tfplugin6Services },
  { messages: goPluginMessages, services: goPluginServices },
]);

/** A message type by full name, e.g. `tfplugin6.GetProviderSchema.Response`. */
export const messageType = (fullName: string): MessageType => codecs.messageType(fullName);

/** The methods of a service, in proto order. */
export const serviceMethods = (serviceName: string) => codecs.serviceMethods(serviceName);

/** The methods of a service with codecs in the plain-object form; responses may be PreEncoded. */
export const serviceCodecs = (serviceName: string): Map<string, MethodCodecs> => codecs.serviceCodecs(serviceName);

/** Request/response message types of one RPC, for client code and tests. */
export function rpcTypes(serviceName: string, method: string): { request: MessageType; response: MessageType } {
  const m = serviceMethods(serviceName).find((entry) => entry.name === method);
  if (!m) throw new Error(`no method ${method} in ${serviceName}`);
  return { request: messageType(m.requestType), response: messageType(m.responseType) };
}
