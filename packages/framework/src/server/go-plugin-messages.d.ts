// Declaration of dist/packages/framework/src/server/go-plugin-messages.js, which scripts/build-proto.mjs generates
// (scripts/proto-codegen.mjs): codecs of go-plugin's own services (GRPCController, GRPCStdio,
// GRPCBroker) and grpc.health.v1. The types are those of ./tfplugin6-messages.d.ts.
import type { MessageCodec, MethodEntry } from './tfplugin6-messages.js';

/** Each message's codec by full proto name, e.g. `plugin.Empty`. */
export declare const messages: Readonly<Record<string, MessageCodec>>;
/** Each service's methods, by full service name (e.g. `plugin.GRPCController`), in proto order. */
export declare const services: Record<string, MethodEntry[]>;
