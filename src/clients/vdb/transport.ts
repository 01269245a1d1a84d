/**
 * One gRPC channel to the management API and the call discipline around it: the API key as
 * `authorization: apikey <key>` metadata, a deadline on every call, retries with backoff and
 * jitter (or the server's `retry-after`) on UNAVAILABLE / RESOURCE_EXHAUSTED for calls that are
 * safe to repeat (on RESOURCE_EXHAUSTED alone, where the server declined, for creates),
 * 'outcome_unknown' for a create whose answer was lost, cancellation by AbortSignal, and gRPC
 * failures turned into ApiErrors that carry the `vdb-trace-id`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { backoffMs } from '../backoff.js';
import { HostGate } from '../host-gate.js';
import {
  ApiError,
  type ApiErrorCode,
  OUTCOME_UNKNOWN_NOTE,
  requestIdsOf,
  notePlatformDate,
  timeApiExchange,
} from '@keel/provider-framework/client';
import type { SignalLike } from '../cancellation.js';
import { NOT_SENT_NOTE, graceAfter, graceOverNote } from '../stop.js';
import { isNotTlsAnswer, notTlsMessage } from '../not-tls.js';
import { grpcTrust, type Trust } from '../trust.js';
import { type ProxyChoice, proxyOrigin } from '../proxy.js';
import { connectionFailure, nameDoesNotExist, refusedAnswer, type ConnectionContext } from './connection.js';
import type { VdbLogger, VdbRetryPolicy } from './config.js';
import { CodecError, decodePlain, encodePlain, type Plain } from './codec.js';
import type { VdbEndpoint } from './endpoint.js';
import { vdbMethod } from '../../wire/vdb-proto.js';
import { RETRY_AFTER_METADATA, TRACE_ID_METADATA } from './metadata.js';

/**
 * The largest answer message read (grpc's own default, made explicit): a page of 250 clusters is
 * far under it. A larger one is refused by its length prefix, before any of it is held.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Statuses after which a call that is safe to repeat is sent again. */
const RETRYABLE = new Set<grpc.status>([grpc.status.UNAVAILABLE, grpc.status.RESOURCE_EXHAUSTED]);

/** The server declined the call without carrying it out: even a create may be sent again. */
const DECLINED = new Set<grpc.status>([grpc.status.RESOURCE_EXHAUSTED]);

/**
 * The call may have been carried out before its answer was lost (a dropped connection surfaces as
 * UNAVAILABLE, a deadline as DEADLINE_EXCEEDED): a create so answered has an unknown outcome.
 */
const UNANSWERED = new Set<grpc.status>([grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED]);

export interface TransportOptions {
  readonly endpoint: VdbEndpoint;
  /** Where the trust's variables are read (../trust.ts). */
  readonly environment: NodeJS.ProcessEnv;
  /** The http:// proxy the channel tunnels through (./client.ts: channelProxy), if any. */
  readonly proxy?: ProxyChoice | undefined;
  readonly apiKey: string;
  readonly insecure: boolean;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly retry: VdbRetryPolicy;
  readonly logger?: VdbLogger | undefined;
  /** How long a changing call already sent may finish after a stop (DEFAULT_STOP_GRACE_MS). */
  readonly stopGraceMs: number;
  /** The back-off every call of this client waits on; default a gate of its own for the endpoint. */
  readonly gate?: HostGate;
}

export interface UnaryCall {
  readonly service: string;
  readonly method: string;
  readonly request: Plain;
  /**
   * Safe to send twice: retried on UNAVAILABLE and RESOURCE_EXHAUSTED. Other calls (creates) are
   * retried on RESOURCE_EXHAUSTED only and fail with 'outcome_unknown' when their answer is lost.
   */
  readonly idempotent: boolean;
  /** Whether the call changes something, so that once sent it is let finish after a stop (src/clients/stop.ts). */
  readonly changes: boolean;
  /** Extra request metadata (e.g. vdb-jwt-rbac). */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

interface AttemptFailure {
  readonly error: grpc.ServiceError;
  readonly traceId?: string;
}

export class VdbTransport {
  private readonly client: grpc.Client;
  private readonly connection: ConnectionContext;
  private closed = false;
  private readonly gate: HostGate;

  constructor(private readonly options: TransportOptions) {
    this.gate = options.gate ?? new HostGate(options.endpoint.target);
    const trust = options.endpoint.tls && !options.insecure ? grpcTrust(options.environment) : undefined;
    this.connection = {
      target: options.endpoint.target,
      host: options.endpoint.host,
      trustSources: trust?.sources ?? [],
      ...(options.proxy ? { proxy: `${proxyOrigin(options.proxy)} (${options.proxy.variable})` } : {}),
    };
    // No client keepalive pings: servers commonly allow one ping per 5 minutes and answer more with GOAWAY.
    const { target, channelOptions } = channelTarget(options);
    this.client = new grpc.Client(target, channelCredentials(options, trust), {
      'grpc.primary_user_agent': options.userAgent,
      'grpc.max_receive_message_length': MAX_ANSWER_BYTES,
      ...channelOptions,
    });
  }

  close(): void {
    this.closed = true;
    this.client.close();
  }

  /** Sends one unary call (with retries) and returns the decoded camelCase response. */
  async unary(call: UnaryCall): Promise<Plain> {
    const method = vdbMethod(call.service, call.method);
    const operation = method.operation;
    if (this.closed) throw new ApiError('the client is closed', { code: 'cancelled', operation });
    let body: Buffer;
    try {
      body = encodePlain(method.request, call.request);
    } catch (error) {
      if (error instanceof CodecError)
        throw new ApiError(`bad request: ${error.message}`, { code: 'invalid', operation });
      throw error;
    }
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    const traceIds: string[] = [];
    const { retry } = this.options;

    // An earlier attempt went out and its answer was lost: a stop now leaves the outcome unknown.
    let mayHaveTakenEffect = false;
    for (let attempt = 1; ; attempt++) {
      if (call.signal?.aborted) {
        if (call.changes && mayHaveTakenEffect) {
          throw this.lostAnswer(
            operation,
            "an earlier attempt's answer was lost and Terraform asked the provider to stop before it could be sent " +
              'again',
            traceIds,
          );
        }
        throw notSent(operation, traceIds);
      }
      // The API's shared back-off (../host-gate.ts); a stop during the wait is handled above, next turn.
      const admitted = await this.gate.admit(call.signal, deadline).catch(() => undefined);
      if (admitted === undefined) continue;
      if (!admitted || Date.now() >= deadline) throw timedOut(operation, timeoutMs, traceIds);
      const started = Date.now();
      // A changing call on the wire outlives the stop by the grace (src/clients/stop.ts).
      const grace = call.changes ? graceAfter(call.signal, this.options.stopGraceMs) : undefined;
      const cancelOn = grace ? grace.signal : call.signal;
      const outcome = await timeApiExchange(() => this.attempt(method.path, body, call, deadline, cancelOn)).finally(
        () => grace?.dispose(),
      );
      const durationMs = Date.now() - started;
      if ('bytes' in outcome) {
        this.log(operation, { attempt, code: 'OK', durationMs, traceId: outcome.traceId });
        try {
          return decodePlain(method.response, outcome.bytes);
        } catch (error) {
          if (outcome.traceId !== undefined) traceIds.push(outcome.traceId);
          const why = `malformed response: ${error instanceof Error ? error.message : String(error)}`;
          throw this.unreadable(operation, call, why, traceIds);
        }
      }
      const { error, traceId } = outcome;
      if (traceId !== undefined) traceIds.push(traceId);
      this.log(operation, { attempt, code: grpc.status[error.code], durationMs, traceId });
      // grpc-js would not read the answer: nothing the API said, so no retry and no back-off.
      const refused = error.code === grpc.status.RESOURCE_EXHAUSTED ? refusedAnswer(error.details ?? '') : undefined;
      if (refused) throw this.unreadable(operation, call, refused, traceIds, error);
      if (error.code === grpc.status.CANCELLED && cancelOn?.aborted) {
        if (grace) throw this.lostAnswer(operation, graceOverNote(this.options.stopGraceMs), traceIds);
        throw new ApiError('Terraform asked the provider to stop while the request was out', {
          code: 'cancelled',
          operation,
          ...requestIdsOf(traceIds),
        });
      }
      // A wrong URL, not a passing failure; the handshake failed, so nothing was sent.
      if (error.code === grpc.status.UNAVAILABLE && isNotTlsAnswer(error.details)) {
        const ids = requestIdsOf(traceIds);
        const target = this.options.endpoint.target;
        throw new ApiError(notTlsMessage(target), { code: 'unavailable', operation, ...ids, cause: error });
      }
      // No connection: nothing was sent, whatever the call. Tried again only if it may pass.
      const unconnected =
        error.code === grpc.status.UNAVAILABLE ? connectionFailure(error.details ?? '', this.connection) : undefined;
      if (unconnected) {
        const delay = backoffMs(retry, attempt);
        const absent = unconnected.unresolvedHost !== undefined && (await nameDoesNotExist(unconnected.unresolvedHost));
        if (absent || !unconnected.passing || attempt >= retry.maxAttempts || Date.now() + delay >= deadline) {
          const ids = requestIdsOf(traceIds);
          throw new ApiError(unconnected.sentence, { code: 'unavailable', operation, ...ids, cause: error });
        }
        await sleep(delay, undefined, { signal: call.signal }).catch(() => undefined);
        continue;
      }
      if (!call.idempotent && UNANSWERED.has(error.code)) throw this.unanswered(operation, error, traceIds, timeoutMs);
      if (UNANSWERED.has(error.code)) mayHaveTakenEffect = true;
      const delay = retryAfterMs(error.metadata, retry) ?? backoffMs(retry, attempt);
      if (error.code === grpc.status.RESOURCE_EXHAUSTED) {
        this.gate.refused({ sentAt: started, waitMs: delay, answer: 'RESOURCE_EXHAUSTED' }, this.options.logger);
      }
      const retryable = (call.idempotent ? RETRYABLE : DECLINED).has(error.code) && attempt < retry.maxAttempts;
      if (!retryable) throw this.apiError(operation, error, traceIds, timeoutMs);
      if (Date.now() + delay >= deadline) throw this.apiError(operation, error, traceIds, timeoutMs);
      // A stop ends the wait early; the loop then sends nothing more.
      await sleep(delay, undefined, { signal: call.signal }).catch(() => undefined);
    }
  }

  /** One exchange; `cancelOn` cuts it off (the stop, or for a changing call the end of the stop grace). */
  private attempt(
    path: string,
    body: Buffer,
    call: UnaryCall,
    deadline: number,
    cancelOn: SignalLike | undefined,
  ): Promise<{ bytes: Buffer; traceId?: string } | AttemptFailure> {
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `apikey ${this.options.apiKey}`);
    for (const [key, value] of Object.entries(call.metadata ?? {})) metadata.set(key, value);

    return new Promise((resolve) => {
      let headerTraceId: string | undefined;
      const onAbort = (): void => unaryCall.cancel();
      const unaryCall = this.client.makeUnaryRequest<Buffer, Buffer>(
        path,
        (bytes) => bytes,
        (bytes) => bytes,
        body,
        metadata,
        { deadline },
        (error, response) => {
          cancelOn?.removeEventListener('abort', onAbort);
          if (error) {
            const traceId = traceIdOf(error.metadata) ?? headerTraceId;
            resolve(traceId === undefined ? { error } : { error, traceId });
          } else {
            resolve(
              headerTraceId === undefined
                ? { bytes: response ?? Buffer.alloc(0) }
                : { bytes: response ?? Buffer.alloc(0), traceId: headerTraceId },
            );
          }
        },
      );
      unaryCall.on('metadata', (headers: grpc.Metadata) => {
        headerTraceId = traceIdOf(headers);
        // The platform's clock, which its objects' times are written in (a killed create's window is measured on it).
        const date = headers.get('date')[0];
        notePlatformDate(typeof date === 'string' ? date : undefined);
      });
      unaryCall.on('status', (status: grpc.StatusObject) => {
        headerTraceId = traceIdOf(status.metadata) ?? headerTraceId;
      });
      if (cancelOn) {
        if (cancelOn.aborted) unaryCall.cancel();
        else cancelOn.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  private apiError(operation: string, error: grpc.ServiceError, traceIds: string[], timeoutMs: number): ApiError {
    const code = codeForGrpcStatus(error.code);
    const name = grpc.status[error.code] ?? String(error.code);
    const detail =
      code === 'timeout'
        ? `no answer within ${timeoutMs} ms (${name})`
        : `${name}: ${this.redact(error.details || error.message)}`;
    return new ApiError(detail, { code, operation, ...requestIdsOf(traceIds), cause: error });
  }

  /** An answer that could not be read: for a create, whether it took effect is unknown. */
  private unreadable(
    operation: string,
    call: UnaryCall,
    why: string,
    traceIds: string[],
    cause?: grpc.ServiceError,
  ): ApiError {
    if (!call.idempotent) return this.lostAnswer(operation, why, traceIds, cause);
    const details = { code: 'malformed_response' as const, operation, ...requestIdsOf(traceIds) };
    return new ApiError(why, cause ? { ...details, cause } : details);
  }

  /** A call that is not safe to repeat went out and its answer was lost. */
  private unanswered(operation: string, error: grpc.ServiceError, traceIds: string[], timeoutMs: number): ApiError {
    const why =
      error.code === grpc.status.DEADLINE_EXCEEDED
        ? `no answer within ${timeoutMs} ms (DEADLINE_EXCEEDED)`
        : `${grpc.status[error.code] ?? error.code}: ${this.redact(error.details || error.message)}`;
    return this.lostAnswer(operation, why, traceIds, error);
  }

  private lostAnswer(operation: string, why: string, traceIds: string[], cause?: grpc.ServiceError): ApiError {
    const ids = requestIdsOf(traceIds);
    const details = { code: 'outcome_unknown' as const, operation, ...ids, ...(cause ? { cause } : {}) };
    return new ApiError(`${why}; ${OUTCOME_UNKNOWN_NOTE}`, details);
  }

  /** Servers should never echo the key, but a message is the last place it may leak from. */
  private redact(text: string): string {
    const key = this.options.apiKey;
    return key.length >= 4 ? text.split(key).join('***') : text;
  }

  private log(
    operation: string,
    fields: { attempt: number; code: string | undefined; durationMs: number; traceId: string | undefined },
  ): void {
    this.options.logger?.debug(`vdb ${operation}`, { operation, ...fields });
  }
}

/**
 * Where the channel dials, and how. The proxy is decided by Go's rules (../proxy.ts), not grpc-js's
 * own, which reads only lower-case variables, matches NO_PROXY by suffix and proxies loopback: so
 * grpc-js's is turned off, and a proxied channel dials the proxy and tunnels to the API with CONNECT
 * (grpc-js's `grpc.http_connect_target`), keeping the API's name for TLS and `:authority`.
 */
function channelTarget(options: TransportOptions): { target: string; channelOptions: grpc.ChannelOptions } {
  const { endpoint, proxy } = options;
  if (!proxy) return { target: endpoint.target, channelOptions: { 'grpc.enable_http_proxy': 0 } };
  const { url } = proxy;
  const credentials = url.username
    ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    : undefined;
  return {
    target: `dns:${url.hostname}:${url.port || '80'}`,
    channelOptions: {
      'grpc.enable_http_proxy': 0,
      'grpc.http_connect_target': `dns:${endpoint.target}`,
      'grpc.default_authority': endpoint.target,
      ...(credentials === undefined ? {} : { 'grpc.http_connect_creds': credentials }),
    },
  };
}

function channelCredentials(options: TransportOptions, trust: Trust | undefined): grpc.ChannelCredentials {
  if (!options.endpoint.tls) return grpc.credentials.createInsecure();
  // rejectUnauthorized is explicit so NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn verification off.
  if (options.insecure || !trust)
    return grpc.credentials.createSsl(null, null, null, {
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    });
  // The roots are explicit (../trust.ts): GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, or Node's and the system's; and
  // NODE_EXTRA_CA_CERTS.
  return grpc.credentials.createSsl(Buffer.from(trust.pems.join('\n')), null, null, { rejectUnauthorized: true });
}

export function codeForGrpcStatus(code: grpc.status): ApiErrorCode {
  switch (code) {
    case grpc.status.NOT_FOUND:
      return 'not_found';
    case grpc.status.ALREADY_EXISTS:
    case grpc.status.ABORTED:
      return 'conflict';
    case grpc.status.INVALID_ARGUMENT:
    case grpc.status.FAILED_PRECONDITION:
    case grpc.status.OUT_OF_RANGE:
      return 'invalid';
    case grpc.status.UNAUTHENTICATED:
      return 'unauthenticated';
    case grpc.status.PERMISSION_DENIED:
      return 'forbidden';
    case grpc.status.RESOURCE_EXHAUSTED:
      return 'rate_limited';
    case grpc.status.UNAVAILABLE:
      return 'unavailable';
    case grpc.status.DEADLINE_EXCEEDED:
      return 'timeout';
    case grpc.status.CANCELLED:
      return 'cancelled';
    default:
      return 'unknown';
  }
}

function traceIdOf(metadata: grpc.Metadata | undefined): string | undefined {
  const value = metadata?.get(TRACE_ID_METADATA)[0];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function notSent(operation: string, traceIds: string[]): ApiError {
  return new ApiError(NOT_SENT_NOTE, { code: 'cancelled', operation, ...requestIdsOf(traceIds) });
}

function timedOut(operation: string, timeoutMs: number, traceIds: string[]): ApiError {
  return new ApiError(`no answer within ${timeoutMs} ms`, { code: 'timeout', operation, ...requestIdsOf(traceIds) });
}

/** The server's `retry-after` trailer (seconds), capped by the policy; undefined when absent or unreadable. */
export function retryAfterMs(metadata: grpc.Metadata | undefined, policy: VdbRetryPolicy): number | undefined {
  const value = metadata?.get(RETRY_AFTER_METADATA)[0];
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, policy.maxDelayMs) : undefined;
}
