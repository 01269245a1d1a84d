import { delay, type SignalLike } from '../cancellation.js';
import {
  ApiError,
  codeForStatus,
  OUTCOME_UNKNOWN_NOTE,
  requestIdsOf,
  notePlatformDate,
  timeApiExchange,
} from '@keel/provider-framework/client';
import type { CallSignal } from './call-signal.js';
import type { HttpPool } from './http-pool.js';
import { messageFromErrorBody } from './error-body.js';
import type { Redactor } from './redactor.js';
import { graceAfter, graceOverNote } from '../stop.js';
import { isNotTlsAnswer, notTlsMessage } from '../not-tls.js';
import { ADD_THE_CA } from '../trust.js';
import { HostGate } from '../host-gate.js';
import {
  DECLINED_STATUSES,
  RETRYABLE_STATUSES,
  UNANSWERED_STATUSES,
  isNotSentError,
  isRetryableNetworkError,
  isUnreadableAnswer,
  retryDelayMs,
  type RetryPolicy,
} from './retry.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  readonly method: HttpMethod;
  /** Path from /api/v2 on, ids already escaped. */
  readonly path: string;
  /** Template for errors and logs, e.g. "GET /api/v2/AlertChannels/{intgGuid}". */
  readonly operation: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /**
   * Safe to repeat: retried on 429/502/503/504 and lost connections. Other requests (creates) are
   * repeated only when the API declined them (429, 503) or the connection was never made; when
   * their answer is lost they fail with 'outcome_unknown'.
   */
  readonly idempotent: boolean;
  /** Total attempts for this request; the client's retry policy when absent. */
  readonly attempts?: number | undefined;
  /**
   * Whether the request changes something on the platform, so that once sent it is let finish
   * after a stop (src/clients/stop.ts). Default: every method but GET.
   */
  readonly changes?: boolean;
}

export interface TransportResponse {
  readonly status: number;
  readonly text: string;
  readonly requestId?: string;
}

export interface SecLogger {
  debug(message: string, fields?: object): void;
  /** Whether debug lines are written; absent = assume they are. */
  enabled?(level: 'debug'): boolean;
}

export interface TransportOptions {
  /** scheme://host[:port] of the API, for messages about the server itself. */
  readonly origin: string;
  readonly pathPrefix: string;
  /** Sent on every request (User-Agent, Accept, account selection). */
  readonly commonHeaders: Readonly<Record<string, string>>;
  readonly retry: RetryPolicy;
  readonly redactor: Redactor;
  readonly logger?: SecLogger;
  /** How long a changing request already sent may finish after a stop (DEFAULT_STOP_GRACE_MS). */
  readonly stopGraceMs: number;
  /** Where the trusted certificate authorities come from, for a certificate that cannot be verified. */
  readonly trustSources?: () => readonly string[];
  /** The back-off every call of this client waits on; default a gate of its own for `origin`. */
  readonly gate?: HostGate;
}

/** Answers by which the API asks every caller to slow down (a 503 only when it says for how long). */
function isSlowDown(status: number, retryAfter: string | undefined): boolean {
  return status === 429 || (status === 503 && retryAfter !== undefined);
}

/**
 * One HTTP exchange over the pool, with retries where they are safe. A non-2xx answer becomes an
 * ApiError carrying the API's (redacted) message; the caller's signal covers retries and waits.
 */
export class Transport {
  /** The request summaries' logger, when it writes them: the level is set at start-up. */
  private readonly logger: SecLogger | undefined;
  private readonly gate: HostGate;

  constructor(
    private readonly pool: Pick<HttpPool, 'request'>,
    private readonly options: TransportOptions,
  ) {
    const logger = options.logger;
    this.logger = logger?.enabled?.('debug') === false ? undefined : logger;
    this.gate = options.gate ?? new HostGate(options.origin);
  }

  async send(request: TransportRequest, call: CallSignal): Promise<TransportResponse> {
    const { retry } = this.options;
    const attempts = Math.max(1, request.attempts ?? retry.maxAttempts);
    const changes = request.changes ?? request.method !== 'GET';
    // An earlier attempt went out and its answer was lost: a stop now leaves the outcome unknown.
    let mayHaveTakenEffect = false;
    // Every attempt's request id: an error names all of them, so each can be found in the platform's logs.
    const requestIds: string[] = [];
    for (let attempt = 1; ; attempt++) {
      if (call.stop?.aborted) {
        if (changes && mayHaveTakenEffect) {
          const why =
            "an earlier attempt's answer was lost and Terraform asked the provider to stop before it could be " +
            'sent again';
          throw this.unanswered(request, why, requestIds);
        }
        throw call.abortError(request.operation)!;
      }
      if (!(await this.admitted(request, call))) continue;
      const started = Date.now();
      // A changing request on the wire outlives the stop by the grace (src/clients/stop.ts), never the deadline.
      const grace = changes ? graceAfter(call.stop, this.options.stopGraceMs, call.deadline) : undefined;
      const wire = grace ? grace.signal : call.signal;
      let outcome: { response: TransportResponse; retryAfter?: string } | { networkError: unknown };
      try {
        outcome = await timeApiExchange(() => this.exchange(request, wire));
      } catch (error) {
        outcome = { networkError: error };
      } finally {
        grace?.dispose();
      }
      const canRetry = attempt < attempts;

      if ('networkError' in outcome) {
        this.log(request, attempt, started, { error: errorCode(outcome.networkError) });
        if (call.deadline.aborted) {
          // The deadline passed while the request was out: a create may have been carried out.
          if (changes && !request.idempotent) {
            throw this.unanswered(request, `no answer within ${call.timeoutMs} ms`, requestIds);
          }
          throw call.abortError(request.operation)!;
        }
        if (grace?.signal.aborted) throw this.unanswered(request, graceOverNote(this.options.stopGraceMs), requestIds);
        if (wire.aborted)
          throw new ApiError('Terraform asked the provider to stop while the request was out', {
            code: 'cancelled',
            operation: request.operation,
          });
        // A wrong URL, not a passing failure; the handshake failed, so nothing was sent.
        if (isNotTlsAnswer(outcome.networkError)) {
          throw new ApiError(notTlsMessage(this.options.origin), {
            code: 'unavailable',
            operation: request.operation,
            cause: outcome.networkError,
          });
        }
        const notSent = isNotSentError(outcome.networkError);
        // Repeated only when it may pass, and for a request that is not safe to repeat, only if it was never sent.
        const safeToRepeat = isRetryableNetworkError(outcome.networkError) && (request.idempotent || notSent);
        if (!notSent) mayHaveTakenEffect = true;
        if (canRetry && safeToRepeat) {
          await this.wait(retryDelayMs(retry, attempt, undefined), request, call);
          continue;
        }
        if (isUnreadableAnswer(outcome.networkError)) {
          const why = this.describe(outcome.networkError);
          if (!request.idempotent) throw this.unanswered(request, why, requestIds);
          throw new ApiError(why, {
            code: 'malformed_response',
            operation: request.operation,
            ...requestIdsOf(requestIds),
          });
        }
        if (request.idempotent || notSent) throw this.networkFailure(request, outcome.networkError, requestIds);
        throw this.unanswered(request, `the connection was lost (${this.describe(outcome.networkError)})`, requestIds);
      }

      const { response } = outcome;
      if (response.requestId !== undefined) requestIds.push(response.requestId);
      this.log(request, attempt, started, { status: response.status });
      if (response.status >= 200 && response.status < 300) return response;
      const waitMs = retryDelayMs(retry, attempt, outcome.retryAfter);
      if (isSlowDown(response.status, outcome.retryAfter)) {
        this.gate.refused({ sentAt: started, waitMs, answer: `HTTP ${response.status}` }, this.logger);
      }
      const repeatable = request.idempotent ? RETRYABLE_STATUSES : DECLINED_STATUSES;
      if (canRetry && repeatable.has(response.status)) {
        if (UNANSWERED_STATUSES.has(response.status)) mayHaveTakenEffect = true;
        await this.wait(waitMs, request, call);
        continue;
      }
      if (!request.idempotent && UNANSWERED_STATUSES.has(response.status)) {
        const why = `a gateway answered HTTP ${response.status} instead of the API`;
        throw this.unanswered(request, why, requestIds, response);
      }
      throw this.statusFailure(request, response, requestIds);
    }
  }

  private async exchange(
    request: TransportRequest,
    signal: SignalLike,
  ): Promise<{ response: TransportResponse; retryAfter?: string }> {
    const headers: Record<string, string> = { ...this.options.commonHeaders, ...request.headers };
    const hasBody = request.body !== undefined;
    if (hasBody) headers['Content-Type'] = 'application/json';
    const result = await this.pool.request({
      path: `${this.options.pathPrefix}${request.path}`,
      method: request.method,
      headers,
      body: hasBody ? JSON.stringify(request.body) : null,
      signal,
    });
    const text = result.text;
    const requestId = printable(
      firstHeader(result.headers, 'x-request-id') ?? firstHeader(result.headers, 'request-id'),
    );
    const retryAfter = firstHeader(result.headers, 'retry-after');
    // The platform's clock, which its objects' times are written in (a killed create's window is measured on it).
    notePlatformDate(firstHeader(result.headers, 'date'));
    return {
      response: { status: result.statusCode, text, ...(requestId === undefined ? {} : { requestId }) },
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  }

  /**
   * Waits for the API's shared back-off (../host-gate.ts). False when a stop ended the wait (the loop
   * then sends nothing more); the deadline throws.
   */
  private async admitted(request: TransportRequest, call: CallSignal): Promise<boolean> {
    try {
      await this.gate.admit(call.signal);
      return true;
    } catch (error) {
      if (call.stop?.aborted) return false;
      throw call.abortError(request.operation) ?? error;
    }
  }

  /** Sleeps between attempts; a stop ends the wait early (the loop then sends nothing more). */
  private async wait(ms: number, request: TransportRequest, call: CallSignal): Promise<void> {
    try {
      await delay(ms, call.signal);
    } catch (error) {
      if (call.stop?.aborted) return;
      throw call.abortError(request.operation) ?? error;
    }
  }

  private statusFailure(
    request: TransportRequest,
    response: TransportResponse,
    requestIds: readonly string[],
  ): ApiError {
    const apiMessage = messageFromErrorBody(response.text);
    const detail = apiMessage ? this.options.redactor.redact(apiMessage) : `the API answered HTTP ${response.status}`;
    return new ApiError(detail, {
      code: codeForStatus(response.status),
      operation: request.operation,
      status: response.status,
      ...requestIdsOf(requestIds),
    });
  }

  private networkFailure(request: TransportRequest, error: unknown, requestIds: readonly string[]): ApiError {
    const sources = this.options.trustSources;
    const detail =
      isCertificateFailure(error) && sources
        ? `the TLS certificate of ${this.options.origin} could not be verified (${this.describe(error)}). The ` +
          `provider trusts ${sources().join(' and ')}: ${ADD_THE_CA}`
        : `could not reach the API: ${this.describe(error)}`;
    return new ApiError(detail, {
      code: 'unavailable',
      operation: request.operation,
      ...requestIdsOf(requestIds),
      cause: error,
    });
  }

  /** A request that is not safe to repeat went out and its answer was lost. */
  private unanswered(
    request: TransportRequest,
    why: string,
    requestIds: readonly string[],
    response?: TransportResponse,
  ): ApiError {
    return new ApiError(`${why}; ${OUTCOME_UNKNOWN_NOTE}`, {
      code: 'outcome_unknown',
      operation: request.operation,
      ...(response ? { status: response.status } : {}),
      ...requestIdsOf(requestIds),
    });
  }

  private describe(error: unknown): string {
    return this.options.redactor.redact(error instanceof Error ? error.message : String(error));
  }

  private log(request: TransportRequest, attempt: number, started: number, fields: object): void {
    this.logger?.debug('sec API request', {
      operation: request.operation,
      attempt,
      durationMs: Date.now() - started,
      ...fields,
    });
  }
}

function firstHeader(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A header value as messages may quote it: control and non-ASCII characters (node's parser lets a tab
 * and bytes above 0x7f through) written as \xNN, at most 200 characters. Anything else a server sent
 * could forge lines of Terraform's output.
 */
function printable(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.length > 200 ? `${value.slice(0, 200)}...` : value;
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** OpenSSL's verdicts on a certificate (node's codes for them), and node's own on its name. */
function isCertificateFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && /^(ERR_TLS_CERT_ALTNAME_INVALID|[A-Z_]*(CERT|SIGNATURE|ISSUER)[A-Z_]*)$/.test(code)
  );
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
}
