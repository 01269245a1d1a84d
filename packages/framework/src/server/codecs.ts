// Codecs over the generated message codecs (scripts/build-proto.mjs, scripts/proto-codegen.mjs), for
// the server and the test client's grpc-js service definitions (./proto.ts).
//
// Messages cross this boundary as plain objects, in protobufjs' conversion rules (the codecs were
// protobufjs' static code before, and a test holds them to its reflection over the .proto sources):
// snake_case field names as in the .proto, bytes as Buffer, enums as numbers, int64 as JS numbers,
// every field present on decode (unset sub-messages are null, repeated [], maps {}), oneof members
// present only when set (plus a virtual property naming the member, e.g. `selector:
// 'attribute_name'`); proto3 `optional` fields are absent unless set. On encode: enum names or
// numbers, Buffer/Uint8Array for bytes (a *string* in a bytes field is read as base64),
// null/undefined = unset.
import type { MessageCodec, MethodEntry } from './tfplugin6-messages.js';

export type { MessageCodec as MessageType, MethodEntry } from './tfplugin6-messages.js';

/** One generated module: its messages by full proto name, and its services' methods. */
export interface GeneratedMessages {
  readonly messages: Readonly<Record<string, MessageCodec>>;
  readonly services: Readonly<Record<string, MethodEntry[]>>;
}

export function encodeMessage(type: MessageCodec, value: unknown): Buffer {
  return type.encode(value);
}

export function decodeMessage(type: MessageCodec, bytes: Uint8Array): any {
  return type.decode(bytes);
}

/**
 * A response encoded ahead of time and sent as these bytes: for answers that are the same on every
 * call (the provider schema), so that protobuf encoding is paid once per process.
 */
export class PreEncoded {
  constructor(readonly bytes: Buffer) {}
}

/** How one method's messages cross the wire, for the server (../wire/grpc-server.ts). */
export interface MethodCodecs {
  readonly name: string;
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  readonly request: { decode(bytes: Buffer): any; encode(value: unknown): Buffer };
  readonly response: { decode(bytes: Buffer): any; encode(value: unknown): Buffer };
}

/** Message types and service codecs of one or more generated modules. */
export class ProtoCodecs {
  private readonly typesByName = new Map<string, MessageCodec>();

  constructor(private readonly generated: readonly GeneratedMessages[]) {}

  /** A message type by full name, e.g. `tfplugin6.GetProviderSchema.Response`. */
  messageType(fullName: string): MessageCodec {
    let type = this.typesByName.get(fullName);
    if (!type) {
      type = this.generated.find(({ messages }) => Object.hasOwn(messages, fullName))?.messages[fullName];
      if (!type) throw new Error(`no message type ${fullName}`);
      this.typesByName.set(fullName, type);
    }
    return type;
  }

  /** The methods of a service, in proto order. */
  serviceMethods(serviceName: string): readonly MethodEntry[] {
    const methods = this.generated.find(({ services }) => Object.hasOwn(services, serviceName))?.services[serviceName];
    if (!methods) throw new Error(`no service ${serviceName}`);
    return methods;
  }

  /** The methods of a service with codecs in the plain-object form above; responses may be PreEncoded. */
  serviceCodecs(serviceName: string): Map<string, MethodCodecs> {
    const out = new Map<string, MethodCodecs>();
    for (const method of this.serviceMethods(serviceName)) {
      const request = this.messageType(method.requestType);
      const response = this.messageType(method.responseType);
      out.set(method.name, {
        name: method.name,
        path: `/${serviceName}/${method.name}`,
        requestStream: method.requestStream,
        responseStream: method.responseStream,
        request,
        response: {
          decode: (bytes) => response.decode(bytes),
          encode: (value) => (value instanceof PreEncoded ? value.bytes : response.encode(value)),
        },
      });
    }
    return out;
  }
}
