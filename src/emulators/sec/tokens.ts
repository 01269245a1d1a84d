import type { Clock } from '../core/index.js';
import { secretValue } from '../core/index.js';

export interface IssuedToken {
  readonly token: string;
  /** RFC3339. */
  readonly expiresAt: string;
}

/** Access tokens issued by POST /api/v2/access/tokens, with expiry measured on the emulator clock. */
export class TokenRegistry {
  private readonly expiries = new Map<string, number>();
  /** When set, every token lives this long whatever the request asks (tests of client-side expiry). */
  lifetimeOverrideSeconds: number | undefined;

  constructor(private readonly clock: Clock) {}

  issue(requestedSeconds: number): IssuedToken {
    const lifetime = this.lifetimeOverrideSeconds ?? requestedSeconds;
    const token = secretValue(28);
    const expiresAtMs = this.clock.now() + lifetime * 1000;
    this.expiries.set(token, expiresAtMs);
    return { token, expiresAt: new Date(expiresAtMs).toISOString() };
  }

  isValid(token: string): boolean {
    const expiresAt = this.expiries.get(token);
    return expiresAt !== undefined && expiresAt > this.clock.now();
  }

  /** Invalidates every token issued so far, as if they had all expired. */
  expireAll(): void {
    this.expiries.clear();
  }

  get count(): number {
    return this.expiries.size;
  }
}
