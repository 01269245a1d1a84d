/**
 * A rate limit as the platform keeps one per account: a token bucket that refills `perSecond`
 * calls each second up to `burst`. Unlike a seeded rate-limit fault, which refuses a share of calls
 * whatever their pace, a quota refuses only what comes too fast, so a client that slows down when
 * told is refused less: what the soak measures (scripts/soak).
 */

export interface QuotaOptions {
  /** Calls per second the account may make, on average. */
  readonly perSecond: number;
  /** Calls it may make at once after a quiet spell. Default: one second's worth. */
  readonly burst?: number;
}

export interface QuotaStats {
  readonly admitted: number;
  readonly refused: number;
  /** When the first and the last call were refused (the quota's clock, ms); absent before any. */
  readonly firstRefusedAt?: number;
  readonly lastRefusedAt?: number;
}

const MAX_PER_SECOND = 1_000_000;

/** The first problem with these options, if any, reading after the option's name. */
export function quotaProblem(options: QuotaOptions): string | undefined {
  const { perSecond, burst } = options;
  if (!(Number.isFinite(perSecond) && perSecond > 0 && perSecond <= MAX_PER_SECOND)) {
    return `perSecond must be a number above 0 and at most ${MAX_PER_SECOND}, got ${perSecond}`;
  }
  if (burst !== undefined && !(Number.isInteger(burst) && burst >= 1 && burst <= MAX_PER_SECOND)) {
    return `burst must be a whole number from 1 to ${MAX_PER_SECOND}, got ${burst}`;
  }
  return undefined;
}

export class RequestQuota {
  private tokens: number;
  private refilledAt: number;
  private admitted = 0;
  private refused = 0;
  private firstRefusedAt: number | undefined;
  private lastRefusedAt: number | undefined;
  readonly perSecond: number;
  readonly burst: number;

  constructor(
    options: QuotaOptions,
    private readonly clock: () => number = Date.now,
  ) {
    const problem = quotaProblem(options);
    if (problem) throw new RangeError(`quota: ${problem}`);
    this.perSecond = options.perSecond;
    this.burst = options.burst ?? Math.max(1, Math.ceil(options.perSecond));
    this.tokens = this.burst;
    this.refilledAt = clock();
  }

  /**
   * Takes one call from the quota. Undefined when the call may go; otherwise the whole seconds after
   * which a call would be let through (Retry-After carries whole seconds, so at least 1).
   */
  take(): number | undefined {
    const now = this.clock();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.admitted++;
      return undefined;
    }
    this.refused++;
    this.firstRefusedAt ??= now;
    this.lastRefusedAt = now;
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }

  stats(): QuotaStats {
    const { admitted, refused, firstRefusedAt, lastRefusedAt } = this;
    return firstRefusedAt === undefined
      ? { admitted, refused }
      : { admitted, refused, firstRefusedAt, lastRefusedAt: lastRefusedAt ?? firstRefusedAt };
  }
}
