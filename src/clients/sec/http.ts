import type { z } from 'zod';
import { ApiError, isApiError } from '@keel/provider-framework/client';
import type { TokenSource } from './auth.js';
import type { ApiEndpoint } from './base-url.js';
import { callSignal, type CallSignal } from './call-signal.js';
import type { HttpMethod, Transport, TransportRequest, TransportResponse } from './transport.js';

/** Per-call options every client method accepts. */
export interface CallOptions {
  /** Cancels the call (ApiError 'cancelled'). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Deadline for the whole call including retries (ApiError 'timeout'; 'outcome_unknown' when it
   * passes while a create is out); default: the client's.
   */
  readonly timeoutMs?: number | undefined;
  /** Total attempts (the first included) where a repeat is safe; default: the client's retry policy. */
  readonly attempts?: number | undefined;
}

export interface ApiCall {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operation: string;
  readonly body?: unknown;
  /**
   * Default: GET, PATCH and DELETE are idempotent, POST is not (it is repeated only when the API
   * declined it, and fails with 'outcome_unknown' when its answer is lost).
   */
  readonly idempotent?: boolean;
  /** Whether the call changes something (a query sent as POST does not); default: every method but GET. */
  readonly changes?: boolean;
}

/** ./decode.ts, which loads zod: with the first answer to check, not when the client is made. */
let decoder: typeof import('./decode.js') | undefined;
async function loadDecoder(): Promise<typeof import('./decode.js')> {
  decoder ??= await import('./decode.js');
  return decoder;
}

/**
 * Authenticated calls: adds the bearer token, renews it once when the API answers 401, applies
 * the deadline and cancellation, and validates response bodies.
 */
export class SecHttp {
  private authorized: { readonly token: string; readonly headers: Readonly<Record<string, string>> } | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly tokens: TokenSource,
    private readonly defaultTimeoutMs: number,
    /** Where the calls go: what a URL the API answers with must be on to be followed (./search.ts). */
    readonly endpoint: ApiEndpoint,
  ) {}

  /** A call whose answer is checked against `schema`. */
  async json<S extends z.ZodType>(call: ApiCall, schema: S, options: CallOptions = {}): Promise<z.output<S>> {
    const response = await this.exchange(call, options);
    const { decodeBody } = decoder ?? (await loadDecoder());
    return decodeBody(response.text, schema, {
      operation: call.operation,
      status: response.status,
      ...(response.requestId === undefined ? {} : { requestId: response.requestId }),
    });
  }

  /** A call whose answer carries no data (204 or an ignored body). */
  async empty(call: ApiCall, options: CallOptions = {}): Promise<void> {
    await this.exchange(call, options);
  }

  /** The call's exchange (its attempts, a token renewed), within its deadline and cancellation. */
  private async exchange(call: ApiCall, options: CallOptions): Promise<TransportResponse> {
    const signal = callSignal(options.timeoutMs ?? this.defaultTimeoutMs, options.signal);
    try {
      return await this.send(call, signal, options);
    } catch (error) {
      if (!(error instanceof ApiError) && signal.signal.aborted) throw signal.abortError(call.operation) ?? error;
      throw error;
    } finally {
      signal.dispose();
    }
  }

  private async send(call: ApiCall, signal: CallSignal, options: CallOptions): Promise<TransportResponse> {
    // The usual call has its token at hand, and waits for nothing before it is sent.
    const token = this.tokens.current() ?? (await this.tokens.token(signal.signal));
    try {
      return await this.transport.send(this.request(call, token, options), signal);
    } catch (error) {
      // A token can be revoked or expire early: renew once and repeat the request.
      if (!isApiError(error, 'unauthenticated') || error.status !== 401 || !this.tokens.canRenew) throw error;
      this.tokens.invalidate(token);
      const renewed = await this.tokens.token(signal.signal);
      return this.transport.send(this.request(call, renewed, options), signal);
    }
  }

  private request(call: ApiCall, token: string, options: CallOptions): TransportRequest {
    return {
      method: call.method,
      path: call.path,
      operation: call.operation,
      headers: this.authorization(token),
      body: call.body,
      idempotent: call.idempotent ?? call.method !== 'POST',
      changes: call.changes ?? call.method !== 'GET',
      attempts: options.attempts,
    };
  }

  /** The Authorization header of `token`, made once per token. */
  private authorization(token: string): Readonly<Record<string, string>> {
    if (this.authorized?.token !== token) this.authorized = { token, headers: { Authorization: `Bearer ${token}` } };
    return this.authorized.headers;
  }
}

/** Escapes one path segment (ids may contain reserved characters). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
