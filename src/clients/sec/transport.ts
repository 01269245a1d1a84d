import type { Dispatcher } from 'undici';
import { ApiError, codeForStatus } from '../errors.js';
import type { CallSignal } from './call-signal.js';
import { messageFromErrorBody } from './error-body.js';
import type { Redactor } from './redactor.js';
import {
  RETRYABLE_STATUSES,
  isRetryableNetworkError,
  retryDelayMs,
  sleep,
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
  /** Safe to repeat: retried on 429/502/503/504 and lost connections. */
  readonly idempotent: boolean;
}

export interface TransportResponse {
  readonly status: number;
  readonly text: string;
  readonly requestId?: string;
}

export interface SecLogger {
  debug(message: string, fields?: object): void;
}

export interface TransportOptions {
  readonly pathPrefix: string;
  /** Sent on every request (User-Agent, Accept, account selection). */
  readonly commonHeaders: Readonly<Record<string, string>>;
  readonly retry: RetryPolicy;
  readonly redactor: Redactor;
  readonly logger?: SecLogger;
}

/**
 * One HTTP exchange over the pool, with retries for idempotent requests. A non-2xx answer becomes
 * an ApiError carrying the API's (redacted) message; the caller's signal covers retries and waits.
 */
export class Transport {
  constructor(
    private readonly pool: Dispatcher,
    private readonly options: TransportOptions,
  ) {}

  async send(request: TransportRequest, call: CallSignal): Promise<TransportResponse> {
    const { retry } = this.options;
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      let outcome: { response: TransportResponse; retryAfter?: string } | { networkError: unknown };
      try {
        outcome = await this.exchange(request, call.signal);
      } catch (error) {
        outcome = { networkError: error };
      }
      const canRetry = request.idempotent && attempt < retry.maxAttempts;

      if ('networkError' in outcome) {
        const aborted = call.abortError(request.operation);
        if (aborted) throw aborted;
        this.log(request, attempt, started, { error: errorCode(outcome.networkError) });
        if (canRetry && isRetryableNetworkError(outcome.networkError)) {
          await this.wait(retryDelayMs(retry, attempt, undefined), request, call);
          continue;
        }
        throw this.networkFailure(request, outcome.networkError);
      }

      const { response } = outcome;
      this.log(request, attempt, started, { status: response.status });
      if (response.status >= 200 && response.status < 300) return response;
      if (canRetry && RETRYABLE_STATUSES.has(response.status)) {
        await this.wait(retryDelayMs(retry, attempt, outcome.retryAfter), request, call);
        continue;
      }
      throw this.statusFailure(request, response);
    }
  }

  private async exchange(
    request: TransportRequest,
    signal: AbortSignal,
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
    const text = await result.body.text();
    const requestId = firstHeader(result.headers, 'x-request-id') ?? firstHeader(result.headers, 'request-id');
    const retryAfter = firstHeader(result.headers, 'retry-after');
    return {
      response: { status: result.statusCode, text, ...(requestId === undefined ? {} : { requestId }) },
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  }

  private async wait(ms: number, request: TransportRequest, call: CallSignal): Promise<void> {
    try {
      await sleep(ms, call.signal);
    } catch (error) {
      throw call.abortError(request.operation) ?? error;
    }
  }

  private statusFailure(request: TransportRequest, response: TransportResponse): ApiError {
    const apiMessage = messageFromErrorBody(response.text);
    const detail = apiMessage ? this.options.redactor.redact(apiMessage) : `the API answered HTTP ${response.status}`;
    return new ApiError(detail, {
      code: codeForStatus(response.status),
      operation: request.operation,
      status: response.status,
      ...(response.requestId === undefined ? {} : { requestId: response.requestId }),
    });
  }

  private networkFailure(request: TransportRequest, error: unknown): ApiError {
    const description = error instanceof Error ? error.message : String(error);
    return new ApiError(`could not reach the API: ${this.options.redactor.redact(description)}`, {
      code: 'unavailable',
      operation: request.operation,
      cause: error,
    });
  }

  private log(request: TransportRequest, attempt: number, started: number, fields: object): void {
    this.options.logger?.debug('sec API request', {
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

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
}
