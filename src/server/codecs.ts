// Codecs over the generated protobuf messages (scripts/build-proto.mjs), for the server and the
// test client's grpc-js service definitions (./proto.ts).
//
// Messages cross this boundary as plain objects: snake_case field names as in
// the .proto, bytes as Buffer, enums as numbers, int64 as JS numbers, every
// field present on decode (unset sub-messages are null, repeated [], maps {}),
// oneof members present only when set (plus a virtual property naming the
// member, e.g. `selector: 'attribute_name'`); proto3 `optional` fields are
// absent unless set. On encode, plain objects go
// through Type.fromObject: enum names or numbers, Buffer/Uint8Array for bytes
// (a *string* in a bytes field is read as base64), null/undefined = unset.
import type { IConversionOptions } from 'protobufjs';
import type { MessageNamespace, MethodEntry, StaticMessageType } from './tfplugin6-messages.js';

export type { StaticMessageType as MessageType, MethodEntry } from './tfplugin6-messages.js';

/** One generated module: its messages by proto name, and its services' methods. */
export interface GeneratedMessages {
  readonly root: MessageNamespace;
  readonly services: Readonly<Record<string, MethodEntry[]>>;
}

/** Decoding options (bytes stay Buffers: protobufjs' default under Node). */
export const TO_OBJECT_OPTIONS: IConversionOptions = {
  defaults: true,
  longs: Number,
  enums: Number,
  oneofs: true,
};

export function encodeMessage(type: StaticMessageType, value: unknown): Buffer {
  const message = type.fromObject((value ?? {}) as Record<string, unknown>);
  const bytes = type.encode(message).finish();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function decodeMessage(type: StaticMessageType, bytes: Uint8Array): any {
  return type.toObject(type.decode(bytes), TO_OBJECT_OPTIONS);
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

/** Message types and service codecs of one or more generated modules. */
export class ProtoCodecs {
  private readonly typesByName = new Map<string, StaticMessageType>();

  constructor(private readonly generated: readonly GeneratedMessages[]) {}

  /** A message type by full name, e.g. `tfplugin6.GetProviderSchema.Response`. */
  messageType(fullName: string): StaticMessageType {
    let type = this.typesByName.get(fullName);
    if (!type) {
      type = this.generated.map(({ root }) => lookUp(root, fullName)).find((found) => found !== undefined);
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
        request: { decode: (bytes) => decodeMessage(request, bytes), encode: (value) => encodeMessage(request, value) },
        response: {
          decode: (bytes) => decodeMessage(response, bytes),
          encode: (value) => (value instanceof PreEncoded ? value.bytes : encodeMessage(response, value)),
        },
      });
    }
    return out;
  }
}

function lookUp(root: MessageNamespace, fullName: string): StaticMessageType | undefined {
  let node: Partial<StaticMessageType> & Record<string, any> = root;
  for (const part of fullName.split('.')) {
    node = Object.hasOwn(node, part) ? node[part] : undefined;
    if (node === undefined) return undefined;
  }
  return typeof node.decode === 'function' && typeof node.fromObject === 'function'
    ? (node as StaticMessageType)
    : undefined;
}
