/**
 * The gRPC side of the vdb emulator: every service of the vdb protos, request decoding into the
 * emulator's own objects (./wire-codec.ts, ./records.ts; unknown enum numbers rejected), API-key
 * authentication, a `vdb-trace-id` in the headers and trailers of every answer, a request log and
 * fault injection.
 */
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { vdbMethod, vdbProtoRoot } from '../../wire/vdb-proto.js';
import type { FaultDecision, FaultKind, SeededFaults } from '../core/fault-profile.js';
import type { Caller } from './context.js';
import { RpcError } from './errors.js';
import { LIMITS } from './limits.js';
import type { RequestQuota } from '../core/quota.js';
import { WireDecodeError, decodeMessage, encodeMessage, type WireObject } from './wire-codec.js';

export const TRACE_ID_METADATA = 'vdb-trace-id';
/** Trailing metadata of a rate-limited answer: whole seconds to wait before retrying. */
export const RETRY_AFTER_METADATA = 'retry-after';

export interface HandlerCall {
  /** Request metadata (lower-case keys). */
  readonly metadata: grpc.Metadata;
  /** Who the credentials say is calling. */
  readonly caller: Caller;
}

export type MethodHandler = (request: WireObject, call: HandlerCall) => WireObject | Promise<WireObject>;

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
  /** Request metadata, `authorization` masked as `apikey ***` (or `bearer ***`). */
  readonly metadata: Readonly<Record<string, string>>;
  /** The decoded request (camelCase), undefined when it did not decode. */
  readonly request: WireObject | undefined;
  /** The gRPC status code answered (0 = OK). */
  code: number;
  /** The client's address, e.g. `ipv4:127.0.0.1:53412` (one per connection). */
  readonly peer: string;
  readonly traceId: string;
  /** The seeded fault this call got (see SeededFaults); absent when none. */
  injectedFault?: FaultKind;
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
  /**
   * The call is handled as usual (a create takes effect), then answered UNAVAILABLE instead of
   * with its result, as if the connection was lost: the client cannot tell whether it worked.
   * `code` is ignored; `message` replaces the default one.
   */
  readonly ambiguous?: boolean;
  /** How many calls it applies to; default 1, Infinity for all. */
  readonly times?: number;
  /** Applies only to calls whose decoded request this accepts (asked once per matching call). */
  readonly when?: (request: WireObject | undefined) => boolean;
}

export interface GrpcServerOptions {
  readonly port: number;
  readonly apiKey: string;
  /** The e-mail address of the member who made the management key `apiKey`. */
  readonly managementKeyOwner: string;
  /** The member a console session token (`authorization: bearer <token>`) belongs to, if any. */
  readonly userForSession?: (token: string) => { readonly id: string; readonly email: string } | undefined;
  readonly services: readonly ServiceRegistration[];
  readonly log: VdbLoggedRequest[];
  /** One-shot faults; they win over the seeded profile (which then does not see the call). */
  readonly faults: FaultQueue;
  /** The seeded fault profile, when the emulator has one. Create* methods are the creates. */
  readonly seededFaults?: SeededFaults;
  /** The account's rate limit, when the emulator keeps one: calls over it get RESOURCE_EXHAUSTED with retry-after. */
  readonly rateLimit?: RequestQuota;
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

  take(path: string, request?: WireObject): VdbFault | undefined {
    const index = this.pending.findIndex(
      ({ fault }) => faultMatches(fault.method, path) && (fault.when?.(request) ?? true),
    );
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
  const server = new grpc.Server({ 'grpc.max_receive_message_length': LIMITS.messageBytes });
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
      implementation[method.name] = (
        call: grpc.ServerUnaryCall<Buffer, Buffer>,
        callback: grpc.sendUnaryData<Buffer>,
      ) => {
        void serve(
          options,
          { serviceName, methodName: method.name, path: info.path, isPublic, handler, info },
          call,
          callback,
        );
      };
    }
    server.addService(definition, implementation);
  }

  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(
        null,
        [{ cert_chain: Buffer.from(options.tls.certPem), private_key: Buffer.from(options.tls.keyPem) }],
        false,
      )
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${options.port}`, credentials, (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
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
  let request: WireObject | undefined;
  let decodeError: WireDecodeError | undefined;
  try {
    request = decodeMessage(method.info.request, call.request);
  } catch (error) {
    if (!(error instanceof WireDecodeError)) throw error;
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

  const fail = (code: grpc.status, message: string, trailers: Record<string, string> = {}): void => {
    entry.code = code;
    const metadata = traceMetadata();
    for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
    callback({ code, details: message, metadata } as grpc.ServerErrorResponse);
  };

  // Decided in arrival order, right after logging, so the n-th logged call got the n-th decision.
  const oneShot = options.faults.take(method.path, request);
  let plan: FaultPlan = { outcome: 'handle' };
  const overLimit = oneShot ? undefined : options.rateLimit?.take();
  if (oneShot) plan = oneShotPlan(oneShot);
  else if (overLimit !== undefined) {
    const message = `rate limit exceeded; retry after ${overLimit} s`;
    const trailers = { [RETRY_AFTER_METADATA]: String(overLimit) };
    plan = { outcome: 'fail', code: grpc.status.RESOURCE_EXHAUSTED, message, trailers };
  } else {
    const decision = options.seededFaults?.decide(method.methodName.startsWith('Create'));
    if (decision) {
      entry.injectedFault = decision.kind;
      plan = seededPlan(decision);
    }
  }

  try {
    call.sendMetadata(traceMetadata());
    if (plan.delayMs) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
    if (plan.outcome === 'fail') return fail(plan.code, plan.message, plan.trailers);
    const outcome = await handleNormally(options, method, call, request, decodeError);
    // Whatever the handler answered (a create has taken effect), the client never sees it.
    if (plan.outcome === 'handle-then-lose-answer') return fail(grpc.status.UNAVAILABLE, plan.message);
    if ('code' in outcome) return fail(outcome.code, outcome.message);
    callback(null, encodeMessage(method.info.response, outcome.response), traceMetadata());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`vdb emulator: ${method.path} failed: ${message}\n`);
    return fail(grpc.status.INTERNAL, `internal error: ${message}`);
  }
}

/** Authentication, request decoding, then the handler; RpcErrors become the failure to answer. */
async function handleNormally(
  options: GrpcServerOptions,
  method: MethodInfo,
  call: grpc.ServerUnaryCall<Buffer, Buffer>,
  request: WireObject | undefined,
  decodeError: WireDecodeError | undefined,
): Promise<{ response: WireObject } | { code: grpc.status; message: string }> {
  const caller = authenticate(call.metadata, options);
  if (!method.isPublic && caller.kind === 'anonymous') {
    return {
      code: grpc.status.UNAUTHENTICATED,
      message: 'missing or invalid API key: send metadata `authorization: apikey <key>`',
    };
  }
  if (decodeError) {
    const rule = decodeError.rule ? ` [${decodeError.rule}]` : '';
    return { code: grpc.status.INVALID_ARGUMENT, message: `validation error:\n - ${decodeError.message}${rule}` };
  }
  if (!method.handler)
    return { code: grpc.status.UNIMPLEMENTED, message: `${method.methodName} is not implemented by the emulator` };
  try {
    return { response: await method.handler(request!, { metadata: call.metadata, caller }) };
  } catch (error) {
    if (error instanceof RpcError) return { code: error.code, message: error.message };
    throw error;
  }
}

/** What a fault does to one call; `delayMs` comes first. */
type FaultPlan = { readonly delayMs?: number } & (
  | { readonly outcome: 'handle' }
  /** Answer with this status instead of handling the call. */
  | {
      readonly outcome: 'fail';
      readonly code: grpc.status;
      readonly message: string;
      readonly trailers?: Record<string, string>;
    }
  /** Handle the call (it takes effect), then answer UNAVAILABLE with `message` instead of the result. */
  | { readonly outcome: 'handle-then-lose-answer'; readonly message: string }
);

const LOST_ANSWER_MESSAGE = 'connection lost before the answer was sent (injected fault)';

function oneShotPlan(fault: VdbFault): FaultPlan {
  const delay = fault.delayMs ? { delayMs: fault.delayMs } : {};
  if (fault.ambiguous)
    return { ...delay, outcome: 'handle-then-lose-answer', message: fault.message ?? LOST_ANSWER_MESSAGE };
  if (fault.code === undefined) return { ...delay, outcome: 'handle' };
  return {
    ...delay,
    outcome: 'fail',
    code: fault.code,
    message: fault.message ?? `injected ${grpc.status[fault.code]}`,
  };
}

function seededPlan(decision: FaultDecision): FaultPlan {
  switch (decision.kind) {
    case 'rate-limit':
      return {
        outcome: 'fail',
        code: grpc.status.RESOURCE_EXHAUSTED,
        message: `rate limit exceeded (injected fault); retry after ${decision.retryAfterSeconds} s`,
        trailers: { [RETRY_AFTER_METADATA]: String(decision.retryAfterSeconds) },
      };
    case 'server-error':
      return { outcome: 'fail', code: grpc.status.UNAVAILABLE, message: 'service unavailable (injected fault)' };
    case 'drop':
      // grpc-js clients report a connection lost mid-call as UNAVAILABLE too.
      return { outcome: 'fail', code: grpc.status.UNAVAILABLE, message: 'connection dropped (injected fault)' };
    case 'slow':
      return { outcome: 'handle', delayMs: decision.slowMs };
    case 'ambiguous':
      return { outcome: 'handle-then-lose-answer', message: LOST_ANSWER_MESSAGE };
  }
}

/** The management key, a member's session token, or nobody. */
function authenticate(metadata: grpc.Metadata, options: GrpcServerOptions): Caller {
  const values = metadata.get('authorization');
  if (values.length !== 1) return { kind: 'anonymous' };
  const value = String(values[0]);
  if (value === `apikey ${options.apiKey}`) return { kind: 'management_key', ownerEmail: options.managementKeyOwner };
  const session = /^bearer (\S+)$/i.exec(value);
  const user = session ? options.userForSession?.(session[1]!) : undefined;
  return user ? { kind: 'user', userId: user.id, email: user.email } : { kind: 'anonymous' };
}

function maskedMetadata(metadata: grpc.Metadata): Record<string, string> {
  return Object.fromEntries(
    Object.entries(metadata.getMap()).map(([key, value]) => {
      const text = Buffer.isBuffer(value) ? value.toString('base64') : String(value);
      const scheme = /^(apikey|bearer)\s/i.exec(text)?.[1];
      return [key, key === 'authorization' ? (scheme ? `${scheme} ***` : '***') : text];
    }),
  );
}
