// Codecs of go-plugin's own services (GRPCController, GRPCStdio, GRPCBroker) and grpc.health.v1,
// which every provider process serves from its first call: without the tfplugin6 messages, which
// only a process serving the provider's RPCs loads (./proto.ts).
import { messages, services } from './go-plugin-messages.js';
import { ProtoCodecs } from './codecs.js';

export const goPluginCodecs = new ProtoCodecs([{ messages, services }]);
