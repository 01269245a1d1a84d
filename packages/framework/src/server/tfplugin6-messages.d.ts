// Declaration of dist/packages/framework/src/server/tfplugin6-messages.js, which scripts/build-proto.mjs generates
// (scripts/proto-codegen.mjs): an encoder and a decoder for every message of tfplugin6.proto. Its twin
// for go-plugin's own services is ./go-plugin-messages.d.ts.

/** One message's codec, in the plain-object form of ./codecs.ts. */
export interface MessageCodec {
  /** The message's bytes, from its plain object (protobufjs' fromObject rules). */
  encode(value: unknown): Buffer;
  /** The plain object of the message's bytes (protobufjs' toObject rules, defaults filled). */
  decode(bytes: Uint8Array): any;
}

export interface MethodEntry {
  name: string;
  /** Full proto names of the message types, without the leading dot. */
  requestType: string;
  responseType: string;
  requestStream: boolean;
  responseStream: boolean;
}

/** Each message's codec by full proto name, e.g. `tfplugin6.GetProviderSchema.Response`. */
export declare const messages: Readonly<Record<string, MessageCodec>>;
/** Each service's methods, by full service name (e.g. `tfplugin6.Provider`), in proto order. */
export declare const services: Record<string, MethodEntry[]>;
