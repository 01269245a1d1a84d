import type { Clock } from '../core/index.js';
import { secretValue } from '../core/index.js';

export interface IssuedToken {
  readonly token: string;
  /** RFC3339. */
  readonly expiresAt: string;
}

/** What the emulator knows of a token it issued (tests use it as a witness). */
export interface TokenRecord {
  readonly token: string;
  /** The lifetime the client asked for, in seconds. */
  readonly requestedSeconds: number;
  /** Requests it authorized. */
  readonly uses: number;
}

/**
 * Tokens kept at once. A provider process logs in once, so a CI farm's day is a few thousand; a
 * client that logs in without end makes the emulator let go of expired tokens, then of the oldest,
 * instead of growing (a dropped token is refused as an expired one would be).
 */
const MAX_TOKENS = 10_000;

/** Access tokens issued by POST /api/v2/access/tokens, with expiry measured on the emulator clock. */
export class TokenRegistry {
  private readonly records = new Map<string, { expiresAtMs: number; requestedSeconds: number; uses: number }>();
  /** When set, every token lives this long whatever the request asks (tests of client-side expiry). */
  lifetimeOverrideSeconds: number | undefined;

  constructor(private readonly clock: Clock) {}

  issue(requestedSeconds: number): IssuedToken {
    const lifetime = this.lifetimeOverrideSeconds ?? requestedSeconds;
    const token = secretValue(28);
    const expiresAtMs = this.clock.now() + lifetime * 1000;
    this.records.set(token, { expiresAtMs, requestedSeconds, uses: 0 });
    if (this.records.size > MAX_TOKENS) this.letGo();
    return { token, expiresAt: new Date(expiresAtMs).toISOString() };
  }

  /** Whether the token is valid now; a valid one counts the request it authorizes. */
  authorize(token: string): boolean {
    const record = this.records.get(token);
    if (record === undefined || record.expiresAtMs <= this.clock.now()) return false;
    record.uses++;
    return true;
  }

  /** Drops the expired tokens, then the oldest, down to 90% of the bound. */
  private letGo(): void {
    const now = this.clock.now();
    for (const [token, record] of this.records) if (record.expiresAtMs <= now) this.records.delete(token);
    for (const token of this.records.keys()) {
      if (this.records.size <= MAX_TOKENS * 0.9) break;
      this.records.delete(token);
    }
  }

  /** Invalidates every token issued so far, as if they had all expired. */
  expireAll(): void {
    for (const record of this.records.values()) record.expiresAtMs = -Infinity;
  }

  /** Every token issued so far, valid or not. */
  issued(): TokenRecord[] {
    return [...this.records].map(([token, r]) => ({ token, requestedSeconds: r.requestedSeconds, uses: r.uses }));
  }
}
