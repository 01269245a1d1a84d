/**
 * The gRPC side of the vdb emulator: every service of the vdb protos, request decoding into the
 * plain camelCase objects of src/clients/vdb/api.ts (unknown enum numbers rejected), API-key
 * authentication, a `vdb-trace-id` in the headers and trailers of every answer, a request log and
 * fault injection.
 */
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { CodecError, decodePlain, encodePlain, type Plain } from '../../clients/vdb/codec.js';
import { vdbMethod, vdbProtoRoot } from '../../clients/vdb/proto.js';
import { RpcError } from './errors.js';

export const TRACE_ID_METADATA = 'vdb-trace-id';

export interface HandlerCall {
  /** Request metadata (lower-case keys). */
  readonly metadata: grpc.Metadata;
}

export type MethodHandler = (request: Plain, call: HandlerCall) => Plain | Promise<Plain>;

export interface ServiceRegistration {
  /** Full service name, e.g. vdb.cloud.cluster.v1.ClusterService. */
  readonly service: string;
  readonly handlers: Readonly<Record<string, MethodHandler>>;
  /** Methods that need no API key (the platform's global lists). */
  readonly public?: ReadonlySet<string>;
}

/** One call as the emulator received it. The API key is masked. */
export interface VdbLoggedRequest {
  readonly service: string;
  readonly method: string;
  /** Request metadata, `authorization` masked as `apikey ***`. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The decoded request (camelCase), undefined when it did not decode. */
  readonly request: Plain | undefined;
  /** The gRPC status code answered (0 = OK). */
  code: number;
  /** The client's address, e.g. `ipv4:127.0.0.1:53412` (one per connection). */
  readonly peer: string;
  readonly traceId: string;
}

/** A canned answer for the next matching call(s). */
export interface VdbFault {
  /** Method name (`GetCluster`), `Service/Method`, or a pattern tested against the full path. */
  readonly method: string | RegExp;
  /** Answer with this status (with `message`); absent: after `delayMs`, answer normally. */
  readonly code?: grpc.status;
  readonly message?: string;
  /** Wait this long first (deadline tests). */
  readonly delayMs?: number;
  /** How many calls it applies to; default 1, Infinity for all. */
  readonly times?: number;
}

export interface GrpcServerOptions {
  readonly port: number;
  readonly apiKey: string;
  readonly services: readonly ServiceRegistration[];
  readonly log: VdbLoggedRequest[];
  readonly faults: FaultQueue;
  /** PEM certificate and key: serve TLS instead of plaintext. */
  readonly tls?: { readonly certPem: string; readonly keyPem: string } | undefined;
}

export class FaultQueue {
  private readonly pending: Array<{ fault: VdbFault; remaining: number }> = [];

  add(fault: VdbFault): void {
    this.pending.push({ fault, remaining: fault.times ?? 1 });
  }

  clear(): void {
    this.pending.length = 0;
  }

  take(path: string): VdbFault | undefined {
    const index = this.pending.findIndex(({ fault }) => faultMatches(fault.method, path));
    if (index < 0) return undefined;
    const entry = this.pending[index]!;
    if (--entry.remaining <= 0) this.pending.splice(index, 1);
    return entry.fault;
  }
}

function faultMatches(pattern: string | RegExp, path: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(path);
  const [service = '', method = ''] = path.slice(1).split('/');
  const shortService = service.split('.').pop();
  return pattern === method || pattern === `${shortService}/${method}` || pattern === path;
}

export interface RunningGrpcServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new grpc.Server();
  const registrations = new Map(options.services.map((registration) => [registration.service, registration]));
  const root = vdbProtoRoot();
  for (const service of allServices(root)) {
    const registration = registrations.get(service.fullName.replace(/^\./, ''));
    const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of service.methodsArray) {
      const serviceName = service.fullName.replace(/^\./, '');
      const info = vdbMethod(serviceName, method.name);
      definition[method.name] = {
        path: info.path,
        requestStream: false,
        responseStream: false,
        requestSerialize: (bytes: Buffer) => bytes,
        requestDeserialize: (bytes: Buffer) => bytes,
        responseSerialize: (bytes: Buffer) => bytes,
        responseDeserialize: (bytes: Buffer) => bytes,
        originalName: method.name,
      };
      const handler = registration?.handlers[method.name];
      const isPublic = registration?.public?.has(method.name) ?? false;
      implementation[method.name] = (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        void serve(options, { serviceName, methodName: method.name, path: info.path, isPublic, handler, info }, call, callback);
      };
    }
    server.addService(definition, implementation);
  }

  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: Buffer.from(options.tls.certPem), private_key: Buffer.from(options.tls.keyPem) }], false)
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${options.port}`, credentials, (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Give in-flight calls a moment, then cut everything (tests must not hang on a stuck client).
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 1_000);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

function allServices(root: protobuf.Root): protobuf.Service[] {
  const services: protobuf.Service[] = [];
  const visit = (namespace: protobuf.NamespaceBase): void => {
    for (const nested of namespace.nestedArray) {
      if (nested instanceof protobuf.Service) services.push(nested);
      else if (nested instanceof protobuf.Namespace) visit(nested);
    }
  };
  visit(root);
  return services.filter((service) => service.fullName.startsWith('.vdb.'));
}

interface MethodInfo {
  readonly serviceName: string;
  readonly methodName: string;
  readonly path: string;
  readonly isPublic: boolean;
  readonly handler: MethodHandler | undefined;
  readonly info: ReturnType<typeof vdbMethod>;
}

async function serve(
  options: GrpcServerOptions,
  method: MethodInfo,
  call: grpc.ServerUnaryCall<Buffer, Buffer>,
  callback: grpc.sendUnaryData<Buffer>,
): Promise<void> {
  const traceId = randomBytes(16).toString('hex');
  const traceMetadata = (): grpc.Metadata => {
    const metadata = new grpc.Metadata();
    metadata.set(TRACE_ID_METADATA, traceId);
    return metadata;
  };
  let request: Plain | undefined;
  let decodeError: CodecError | undefined;
  try {
    request = decodePlain(method.info.request, call.request, { strictEnums: true });
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    decodeError = error;
  }
  const entry: VdbLoggedRequest = {
    service: method.serviceName,
    method: method.methodName,
    metadata: maskedMetadata(call.metadata),
    request,
    code: grpc.status.OK,
    peer: call.getPeer(),
    traceId,
  };
  options.log.push(entry);

  const fail = (code: grpc.status, message: string): void => {
    entry.code = code;
    callback({ code, details: message, metadata: traceMetadata() } as grpc.ServerErrorResponse);
  };

  try {
    call.sendMetadata(traceMetadata());
    const fault = options.faults.take(method.path);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.code !== undefined) return fail(fault.code, fault.message ?? `injected ${grpc.status[fault.code]}`);
    if (!method.isPublic && !authorized(call.metadata, options.apiKey)) {
      return fail(grpc.status.UNAUTHENTICATED, 'missing or invalid API key: send metadata `authorization: apikey <key>`');
    }
    if (decodeError) return fail(grpc.status.INVALID_ARGUMENT, `validation error:\n - ${decodeError.message} [enum.defined_only]`);
    if (!method.handler) return fail(grpc.status.UNIMPLEMENTED, `${method.methodName} is not implemented by the emulator`);
    const response = await method.handler(request!, { metadata: call.metadata });
    callback(null, encodePlain(method.info.response, response), traceMetadata());
  } catch (error) {
    if (error instanceof RpcError) return fail(error.code, error.message);
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`vdb emulator: ${method.path} failed: ${message}\n`);
    return fail(grpc.status.INTERNAL, `internal error: ${message}`);
  }
}

function authorized(metadata: grpc.Metadata, apiKey: string): boolean {
  const values = metadata.get('authorization');
  return values.length === 1 && values[0] === `apikey ${apiKey}`;
}

function maskedMetadata(metadata: grpc.Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.getMap())) {
    const text = Buffer.isBuffer(value) ? value.toString('base64') : String(value);
    out[key] = key === 'authorization' ? (/^apikey\s/i.test(text) ? 'apikey ***' : '***') : text;
  }
  return out;
}
