/**
 * grpc.health.v1.Health, which go-plugin's client calls (Check "plugin") right after it connects.
 * It is served from the protocol descriptor rather than with grpc-health-check, whose module
 * parses its .proto with a second copy of protobufjs when it is loaded: about 26 ms of every
 * provider start (docs/benchmarks.md). The Terraform-side client in src/tfclient still uses it.
 */
import { StatusError, Status, type GrpcServer } from '../wire/grpc-server.js';
import { goPluginCodecs } from './go-plugin-proto.js';
import { SERVICE_NAMES } from './rpcs.js';

export type ServingStatus = 'SERVING' | 'NOT_SERVING';

interface HealthCheckRequest {
  service: string;
}

/** Serves fixed statuses: a provider is serving from its first byte to its last. */
export function addHealthService(server: GrpcServer, statuses: Readonly<Record<string, ServingStatus>>): void {
  const statusOf = (service: string): ServingStatus | undefined =>
    Object.hasOwn(statuses, service) ? statuses[service] : undefined;
  const methods = goPluginCodecs.serviceCodecs(SERVICE_NAMES.health);
  const check = methods.get('Check')!;
  server.unary(check.path, check.request, check.response, (request: HealthCheckRequest) => {
    const status = statusOf(request.service);
    if (status === undefined) throw new StatusError(Status.NOT_FOUND, `unknown service "${request.service}"`);
    return { status };
  });
  // Statuses never change, so a watcher gets the one answer and the stream stays open until cancelled.
  const watch = methods.get('Watch')!;
  server.serverStream(watch.path, watch.request, watch.response, async function* (request: HealthCheckRequest, call) {
    yield { status: statusOf(request.service) ?? 'SERVICE_UNKNOWN' };
    await untilAborted(call.signal);
  });
}

/** Resolves when the call ends (the client cancels or goes away). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
