/**
 * grpc.health.v1.Health, which go-plugin's client calls (Check "plugin") right after it connects.
 * It is served from the protocol descriptor rather than with grpc-health-check, whose module
 * parses its .proto with a second copy of protobufjs when it is loaded: about 26 ms of every
 * provider start (README, "Benchmarks"). The Terraform-side client in src/tfclient still uses it.
 */
import * as grpc from '@grpc/grpc-js';
import { SERVICE_NAMES, serviceDefinition } from './proto.js';

export type ServingStatus = 'SERVING' | 'NOT_SERVING';

interface HealthCheckRequest {
  service: string;
}

/** Serves fixed statuses: a provider is serving from its first byte to its last. */
export function addHealthService(server: grpc.Server, statuses: Readonly<Record<string, ServingStatus>>): void {
  const statusOf = (service: string): ServingStatus | undefined =>
    Object.hasOwn(statuses, service) ? statuses[service] : undefined;
  server.addService(serviceDefinition(SERVICE_NAMES.health), {
    Check: (call: grpc.ServerUnaryCall<HealthCheckRequest, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const status = statusOf(call.request.service);
      if (status === undefined) callback({ code: grpc.status.NOT_FOUND, details: `unknown service "${call.request.service}"` });
      else callback(null, { status });
    },
    // Statuses never change, so a watcher gets the one answer and the stream stays open until cancelled.
    Watch: (call: grpc.ServerWritableStream<HealthCheckRequest, unknown>) => {
      call.write({ status: statusOf(call.request.service) ?? 'SERVICE_UNKNOWN' });
      call.on('error', () => undefined);
    },
  });
}
