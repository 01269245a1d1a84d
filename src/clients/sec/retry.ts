export interface RetryPolicy {
  /** Total attempts including the first. Default 3. */
  readonly maxAttempts: number;
  /** Delay before the second attempt; doubles each time. Default 500 ms. */
  readonly baseDelayMs: number;
  /** Cap for one delay, including a server's Retry-After. Default 10 s. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 10_000 };

/** Statuses that mean "try again later" rather than "your request is wrong". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Undici/Node error codes of a connection lost or refused before an answer. */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function isRetryableNetworkError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_NETWORK_CODES.has(code);
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1): the server's Retry-After when it
 * gives one, otherwise exponential backoff with full jitter so concurrent clients spread out.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter: string | undefined): number {
  const fromServer = parseRetryAfter(retryAfter);
  if (fromServer !== undefined) return Math.min(fromServer, policy.maxDelayMs);
  const ceiling = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Waits `ms`, rejecting with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
