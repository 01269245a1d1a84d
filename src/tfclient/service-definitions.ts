/**
 * grpc-js service definitions of the plugin protocol, for the test client (./launch.ts): the server's
 * own codecs (../server/proto.ts) in grpc-js's shape. Here, not beside the codecs, so that the server
 * (and the framework package built from it) names no grpc-js type.
 */
import type { MethodDefinition, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  decodeMessage,
  encodeMessage,
  messageType,
  PreEncoded,
  serviceMethods,
} from '../../packages/framework/src/server/proto.js';

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
