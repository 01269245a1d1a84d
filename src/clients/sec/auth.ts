import { ApiError, timeApiExchange } from '@keel/provider-framework/client';
import type { SignalLike } from '../cancellation.js';
import { callSignal, raceSignal } from './call-signal.js';
import type { Redactor } from './redactor.js';
import type { Transport } from './transport.js';

export const TOKEN_OPERATION = 'POST /api/v2/access/tokens';
const TOKEN_PATH = '/api/v2/access/tokens';
/** Requested token lifetime (the platform's default). */
const TOKEN_LIFETIME_SECONDS = 3600;
/** Renew this long before expiry so a token never dies mid-request. */
const RENEW_MARGIN_MS = 60_000;

export interface TokenCredentials {
  readonly apiKey?: string;
  readonly apiSecret?: string;
  /** A pre-issued token, used as is until rejected or (with key+secret) an hour old. */
  readonly apiToken?: string;
}

/**
 * Supplies access tokens: fetched lazily with key+secret, cached until shortly before expiry,
 * shared by concurrent callers (one request in flight), dropped when the API rejects them.
 */
export class TokenSource {
  private cached: { token: string; renewAt: number } | undefined;
  private inflight: Promise<string> | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly credentials: TokenCredentials,
    private readonly redactor: Redactor,
    private readonly requestTimeoutMs: number,
  ) {
    if (credentials.apiToken) {
      // Assume a pre-issued token lives as long as one we would request; without key+secret we
      // cannot renew it anyway, so keep it until the API says otherwise.
      const renewAt = this.canRenew ? Date.now() + TOKEN_LIFETIME_SECONDS * 1000 - RENEW_MARGIN_MS : Infinity;
      this.cached = { token: credentials.apiToken, renewAt };
    }
  }

  /** Whether a rejected or expired token can be replaced. */
  get canRenew(): boolean {
    return Boolean(this.credentials.apiKey && this.credentials.apiSecret);
  }

  /** The token at hand while it is believed valid, without waiting; undefined when token() must get one. */
  current(): string | undefined {
    const cached = this.cached;
    return cached && Date.now() < cached.renewAt ? cached.token : undefined;
  }

  /** A token believed valid; `signal` only stops this caller's wait, not a shared request. */
  async token(signal: SignalLike): Promise<string> {
    const current = this.current();
    if (current !== undefined) return current;
    if (!this.canRenew) {
      throw new ApiError('no API key and secret are configured to obtain an access token', {
        code: 'unauthenticated',
        operation: TOKEN_OPERATION,
      });
    }
    const pending = (this.inflight ??= this.requestToken().finally(() => {
      this.inflight = undefined;
    }));
    // Waiting for a token another call is fetching is API time for this caller too.
    return timeApiExchange(() => raceSignal(pending, signal));
  }

  /** Forgets `token` after the API rejected it (unless another caller already replaced it). */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async requestToken(): Promise<string> {
    const issued = await this.issue(TOKEN_LIFETIME_SECONDS);
    this.cached = { token: issued.token, renewAt: issued.expiresAt.getTime() - RENEW_MARGIN_MS };
    return issued.token;
  }

  /**
   * A new access token from the key and secret, for `lifetimeSeconds` (the platform caps it). The
   * provider's own calls use `token()`; this one is for handing a token out (the ephemeral
   * `sec_access_token`). The token is known to the redactor from here on.
   */
  async issue(lifetimeSeconds: number, signal?: AbortSignal): Promise<{ token: string; expiresAt: Date }> {
    if (!this.canRenew) {
      throw new ApiError('an access token can only be issued with an API key and secret (api_key, api_secret)', {
        code: 'unauthenticated',
        operation: TOKEN_OPERATION,
      });
    }
    const call = callSignal(this.requestTimeoutMs, signal);
    try {
      const response = await this.transport.send(
        {
          method: 'POST',
          path: TOKEN_PATH,
          operation: TOKEN_OPERATION,
          headers: { 'X-SEC-UAKS': this.credentials.apiSecret! },
          body: { keyId: this.credentials.apiKey, expiryTime: lifetimeSeconds },
          // Asking for a token twice is harmless, and changes nothing a stop should wait for.
          idempotent: true,
          changes: false,
        },
        call,
      );
      // Its schema's module loads here, with zod: see ../load-on-first-call.ts.
      const [{ tokenResponseSchema }, { decodeBody }] = await Promise.all([
        import('./token-response.js'),
        import('./decode.js'),
      ]);
      const body = decodeBody(response.text, tokenResponseSchema, {
        operation: TOKEN_OPERATION,
        status: response.status,
        ...(response.requestId === undefined ? {} : { requestId: response.requestId }),
      });
      this.redactor.add(body.token);
      return { token: body.token, expiresAt: new Date(Date.parse(body.expiresAt)) };
    } finally {
      call.dispose();
    }
  }
}
