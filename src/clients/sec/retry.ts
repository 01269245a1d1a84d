import { backoffMs } from '../backoff.js';
import { POOL_ERROR_CODES } from './connections.js';

export interface RetryPolicy {
  /**
   * Total attempts including the first. Default 8: at a 15% chance of a transient failure per
   * attempt, a call then fails once in 4 million (6 attempts: once in 90,000, which the
   * 20%-faults acceptance run of ~2,000 calls hit); the waits add up to about 35 s, well inside
   * the call's deadline.
   */
  readonly maxAttempts: number;
  /** Delay before the second attempt; doubles each time. Default 500 ms. */
  readonly baseDelayMs: number;
  /** Cap for one delay, including a server's Retry-After. Default 10 s. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 500, maxDelayMs: 10_000 };

/** Statuses that mean "try again later" rather than "your request is wrong": idempotent requests repeat on them. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Statuses with which the API declines a request without carrying it out (rate limited, not
 * serving): safe to repeat even for a create.
 */
export const DECLINED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Gateway statuses: the request may have reached the API and been carried out before the gateway
 * gave up on the answer. A create answered so has an unknown outcome.
 */
export const UNANSWERED_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/** Error codes of a connection that was never made, for now: nothing was sent, so any request may repeat. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'EAI_AGAIN',
  POOL_ERROR_CODES.connectTimeout,
  POOL_ERROR_CODES.proxyUnavailable,
]);

/** Error codes of a connection that was never made and will not be by trying again (the proxy refused it). */
const NEVER_SENT_CODES = new Set<string>([POOL_ERROR_CODES.proxyRefused]);

/** Error codes of a connection lost before the answer (the request may have been received). */
const LOST_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Error codes of an answer that came but cannot be read (malformed, or larger than the cap): the
 * request was received, and sending it again would bring the same answer.
 */
const UNREADABLE_ANSWER_CODES = new Set<string>([POOL_ERROR_CODES.malformed, POOL_ERROR_CODES.tooLarge]);

function networkCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The connection was never made, so the request did not go out. */
export function isNotSentError(error: unknown): boolean {
  const code = networkCode(error);
  return code !== undefined && (NOT_SENT_CODES.has(code) || NEVER_SENT_CODES.has(code));
}

/** A lost or refused connection: an idempotent request may simply be sent again. */
export function isRetryableNetworkError(error: unknown): boolean {
  const code = networkCode(error);
  return code !== undefined && (NOT_SENT_CODES.has(code) || LOST_CONNECTION_CODES.has(code));
}

/** The API answered, but not in a form this client reads (see UNREADABLE_ANSWER_CODES). */
export function isUnreadableAnswer(error: unknown): boolean {
  const code = networkCode(error);
  return code !== undefined && UNREADABLE_ANSWER_CODES.has(code);
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1): the server's Retry-After when it
 * gives one, otherwise the shared exponential backoff with jitter.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter: string | undefined): number {
  const fromServer = parseRetryAfter(retryAfter);
  if (fromServer !== undefined) return Math.min(fromServer, policy.maxDelayMs);
  return backoffMs(policy, attempt);
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
