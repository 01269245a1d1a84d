/**
 * The gRPC side of the vdb emulator: every service of the vdb protos, request decoding into the
 * emulator's own objects (./wire-codec.ts, ./records.ts; unknown enum numbers rejected), API-key
 * authentication, a `vdb-trace-id` in the headers and trailers of every answer, a request log and
 * fault injection.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { GrpcServer, StatusError, type CallContext } from '../../../packages/framework/src/wire/grpc-server.js';
import { vdbMethod, vdbProtoRoot } from '../../wire/vdb-proto.js';
import { requestViolations } from './request-rules.js';
import type { BoundedLog } from '../core/request-log.js';
import type { FaultDecision, FaultKind, SeededFaults } from '../core/fault-profile.js';
import type { Caller } from './context.js';
import { RpcError } from './errors.js';
import { LIMITS } from './limits.js';
import type { RequestQuota } from '../core/quota.js';
import { WireDecodeError, decodeMessage, encodeMessage, type WireObject } from './wire-codec.js';

export const TRACE_ID_METADATA = 'vdb-trace-id';
/** Trailing metadata of a rate-limited answer: whole seconds to wait before retrying. */
export const RETRY_AFTER_METADATA = 'retry-after';

/** A request's metadata: every value of a key (lower-case), as grpc-js's Metadata.get gives them. */
export interface RequestMetadata {
  get(key: string): string[];
}

export interface HandlerCall {
  /** Request metadata (lower-case keys). */
  readonly metadata: RequestMetadata;
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
  readonly log: BoundedLog<VdbLoggedRequest>;
  /** One-shot faults; they win over the seeded profile (which then does not see the call). */
  readonly faults: FaultQueue;
  /** The seeded fault profile, when the emulator has one. Create* methods are the creates. */
  readonly seededFaults?: SeededFaults;
  /** The account's rate limit, when the emulator keeps one: calls over it get RESOURCE_EXHAUSTED with retry-after. */
  readonly rateLimit?: RequestQuota;
  /** PEM certificate and key: serve TLS instead of plaintext. */
  readonly tls?: { readonly certPem: string; readonly keyPem: string } | undefined;
  /** The platform's clock, which every answer's `date` gives, as the proxy in front of a platform does. */
  readonly now?: () => number;
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

/**
 * Connections the emulator keeps at once: a provider process opens one, so this is a CI farm of
 * providers against one emulator. Past it, a connection not yet serving, or the idlest, is let go.
 */
const MAX_CONNECTIONS = 256;
/** The largest answer sent: a page of 250 clusters is well under 1 MiB. */
const MAX_SEND_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The emulator handles the bytes itself (./wire-codec.ts), to answer a bad request as the platform does. */
const BYTES = { decode: (bytes: Buffer) => bytes, encode: (bytes: unknown) => bytes as Buffer };

export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  // The server the providers serve Terraform on (packages/framework/src/wire/grpc-server.ts): node:http2 with its
  // limits
  // against hostile peers (header blocks, stream floods, half-open connections, request bytes held).
  const server = new GrpcServer({
    maxReceiveMessageBytes: LIMITS.messageBytes,
    maxSendMessageBytes: MAX_SEND_MESSAGE_BYTES,
    maxConnections: MAX_CONNECTIONS,
    ...(options.tls ? { tls: { keyPem: options.tls.keyPem, certPem: options.tls.certPem } } : {}),
  });
  const root = vdbProtoRoot();
  const services = allServices(root);
  const registrations = registrationsByService(options.services, services);
  for (const service of services) {
    const serviceName = service.fullName.replace(/^\./, '');
    const registration = registrations.get(serviceName);
    for (const method of service.methodsArray) {
      const info = vdbMethod(serviceName, method.name);
      const methodInfo: MethodInfo = {
        serviceName,
        methodName: method.name,
        path: info.path,
        isPublic: registration?.public?.has(method.name) ?? false,
        handler: registration?.handlers[method.name],
        info,
      };
      server.unary(info.path, BYTES, BYTES, (request: Buffer, call: CallContext) =>
        serve(options, methodInfo, request, call),
      );
    }
  }
  const port = await server.listen('127.0.0.1', options.port);
  return {
    port,
    close: async () => server.close(),
  };
}

/**
 * Each service answered by one registration, and only with methods the protos give it: a second
 * registration of a service would otherwise replace the first without a word (and its methods
 * answer UNIMPLEMENTED), and a handler under a name the service lacks would never be called.
 */
export function registrationsByService(
  registrations: readonly ServiceRegistration[],
  services: readonly protobuf.Service[],
): Map<string, ServiceRegistration> {
  const methodsOf = new Map(
    services.map((service) => [service.fullName.replace(/^\./, ''), new Set(service.methodsArray.map((m) => m.name))]),
  );
  const byService = new Map<string, ServiceRegistration>();
  for (const registration of registrations) {
    const { service } = registration;
    const methods = methodsOf.get(service);
    if (!methods) throw new Error(`vdb emulator: ${service} is not a service of the vdb protos (proto/vdb)`);
    const first = byService.get(service);
    if (first) {
      const again = Object.keys(registration.handlers).filter((name) => name in first.handlers);
      const twice = again.length > 0 ? `; methods answered twice: ${again.join(', ')}` : '';
      throw new Error(
        `vdb emulator: ${service} is registered twice${twice}. One registration answers all of a service's ` +
          'methods: add the new handlers to the module that already registers it',
      );
    }
    const named = [...Object.keys(registration.handlers), ...(registration.public ?? [])];
    const unknown = [...new Set(named.filter((name) => !methods.has(name)))];
    if (unknown.length > 0) {
      throw new Error(
        `vdb emulator: ${service} has no method ${unknown.join(', ')} in the vdb protos; ` +
          'add it to the .proto (proto/vdb) first',
      );
    }
    byService.set(service, registration);
  }
  return byService;
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

/** One call: logged, then a fault, the rate limit or the handler decides the answer. */
async function serve(
  options: GrpcServerOptions,
  method: MethodInfo,
  bytes: Buffer,
  call: CallContext,
): Promise<Buffer> {
  const trace = { [TRACE_ID_METADATA]: randomBytes(16).toString('hex') };
  let request: WireObject | undefined;
  let decodeError: WireDecodeError | undefined;
  try {
    request = decodeMessage(method.info.request, bytes);
  } catch (error) {
    // A message nested past the stack (RangeError) is as undecodable as a malformed one.
    decodeError =
      error instanceof WireDecodeError
        ? error
        : new WireDecodeError(method.info.request.name, `not a readable message (${errorText(error)})`);
  }
  const metadata = requestMetadata(call.headers);
  const entry: VdbLoggedRequest = {
    service: method.serviceName,
    method: method.methodName,
    metadata: maskedMetadata(call.headers),
    request,
    code: grpc.status.OK,
    peer: call.peer,
    traceId: trace[TRACE_ID_METADATA],
  };
  options.log.push(entry, bytes.length);

  const fail = (code: grpc.status, message: string, trailers: Record<string, string> = {}): never => {
    entry.code = code;
    throw new StatusError(code, message, { ...trace, ...trailers });
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

  call.sendMetadata({ ...trace, date: new Date(options.now?.() ?? Date.now()).toUTCString() });
  if (plan.delayMs) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  if (plan.outcome === 'fail') return fail(plan.code, plan.message, plan.trailers);
  let outcome: Awaited<ReturnType<typeof handleNormally>>;
  try {
    outcome = await handleNormally(options, method, metadata, { request, bytes, decodeError });
  } catch (error) {
    process.stderr.write(`vdb emulator: ${method.path} failed: ${errorText(error)}\n`);
    return fail(grpc.status.INTERNAL, `internal error: ${errorText(error)}`);
  }
  // Whatever the handler answered (a create has taken effect), the client never sees it.
  if (plan.outcome === 'handle-then-lose-answer') return fail(grpc.status.UNAVAILABLE, plan.message);
  if ('code' in outcome) return fail(outcome.code, outcome.message);
  try {
    const answer = encodeMessage(method.info.response, outcome.response);
    call.addTrailers(trace);
    return answer;
  } catch (error) {
    return fail(grpc.status.INTERNAL, `internal error: ${errorText(error)}`);
  }
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Authentication, request decoding, the API's request rules, then the handler; RpcErrors become the
 * failure to answer.
 */
async function handleNormally(
  options: GrpcServerOptions,
  method: MethodInfo,
  metadata: RequestMetadata,
  { request, bytes, decodeError }: { request?: WireObject; bytes: Buffer; decodeError?: WireDecodeError },
): Promise<{ response: WireObject } | { code: grpc.status; message: string }> {
  const caller = authenticate(metadata, options);
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
  const violations = requestViolations(method.info.request.fullName.slice(1), bytes);
  if (violations) return { code: grpc.status.INVALID_ARGUMENT, message: violations.text() };
  if (!method.handler)
    return { code: grpc.status.UNIMPLEMENTED, message: `${method.methodName} is not implemented by the emulator` };
  try {
    return { response: await method.handler(request!, { metadata, caller }) };
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
function authenticate(metadata: RequestMetadata, options: GrpcServerOptions): Caller {
  const values = metadata.get('authorization');
  if (values.length !== 1) return { kind: 'anonymous' };
  const value = values[0]!;
  if (value === `apikey ${options.apiKey}`) return { kind: 'management_key', ownerEmail: options.managementKeyOwner };
  const session = /^bearer (\S+)$/i.exec(value);
  const user = session ? options.userForSession?.(session[1]!) : undefined;
  return user ? { kind: 'user', userId: user.id, email: user.email } : { kind: 'anonymous' };
}

/** The headers of the gRPC protocol itself, which grpc-js keeps out of a call's metadata. */
const TRANSPORT_HEADERS = new Set(['content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding']);

function requestMetadata(headers: IncomingHttpHeaders): RequestMetadata {
  return {
    get: (key) => {
      const value = headers[key.toLowerCase()];
      return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
    },
  };
}

function maskedMetadata(headers: IncomingHttpHeaders): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined || key.startsWith(':') || TRANSPORT_HEADERS.has(key)) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    const scheme = /^(apikey|bearer)\s/i.exec(text)?.[1];
    masked[key] = key === 'authorization' ? (scheme ? `${scheme} ***` : '***') : text;
  }
  return masked;
}
