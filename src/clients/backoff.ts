/** The delay between attempts, shared by the sec (HTTP) and vdb (gRPC) clients. */
export interface BackoffPolicy {
  /** Delay ceiling before the second attempt; doubles each time. */
  readonly baseDelayMs: number;
  /** Cap for one delay. */
  readonly maxDelayMs: number;
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1): exponential backoff with equal
 * jitter, half the ceiling fixed and half random, so concurrent clients spread out.
 */
export function backoffMs(policy: BackoffPolicy, attempt: number): number {
  const ceiling = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
