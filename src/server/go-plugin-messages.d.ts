// Declaration of dist/src/server/go-plugin-messages.js, which scripts/build-proto.mjs generates with
// protobufjs-cli: static code for go-plugin's own services (GRPCController, GRPCStdio, GRPCBroker)
// and grpc.health.v1. The types are those of ./tfplugin6-messages.d.ts.
import type { MessageNamespace, MethodEntry } from './tfplugin6-messages.js';

declare const root: MessageNamespace;
export default root;
/** Each service's methods, by full service name (e.g. `plugin.GRPCController`), in proto order. */
export declare const services: Record<string, MethodEntry[]>;
