// Declaration of dist/src/server/tfplugin6-messages.js, which scripts/build-proto.mjs generates with
// protobufjs-cli: static code for every message of tfplugin6.proto. Its twin for go-plugin's own
// services is ./go-plugin-messages.d.ts.
import type { IConversionOptions, Writer } from 'protobufjs';

/** One generated message class, used through its static conversion and wire functions. */
export interface StaticMessageType {
  fromObject(object: Record<string, unknown>): object;
  toObject(message: object, options?: IConversionOptions): any;
  encode(message: object): Writer;
  decode(bytes: Uint8Array): object;
}

/** Nested namespaces and messages by proto name, e.g. `tfplugin6.GetProviderSchema.Response`. */
export interface MessageNamespace {
  [name: string]: MessageNamespace & Partial<StaticMessageType>;
}

export interface MethodEntry {
  name: string;
  /** Full proto names of the message types, without the leading dot. */
  requestType: string;
  responseType: string;
  requestStream: boolean;
  responseStream: boolean;
}

declare const root: MessageNamespace;
export default root;
/** Each service's methods, by full service name (e.g. `tfplugin6.Provider`), in proto order. */
export declare const services: Record<string, MethodEntry[]>;
