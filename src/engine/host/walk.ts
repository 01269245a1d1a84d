/**
 * What one provider process can tell of the walk it serves
 * (docs/protocol.md, "Which walk a call belongs to"). Terraform starts a process per walk: validate,
 * plan (with the refresh), apply. A plan walk shows every object its state tracks (UpgradeResourceState
 * and ReadResource, or a plan with a prior state); an apply walk shows only what changes. So what a
 * plan says of objects that no state tracks is said in the plan walk, once the walk has shown what its
 * state holds, and never again in the apply walk, which would take an object tracked at another
 * address for an untracked one.
 *
 * The apply walk is known by Terraform's own word: from 1.9 on it plans and applies with
 * `deferral_allowed` (its released plan walks never do), and any ApplyResourceChange is one.
 * OpenTofu sends no such word: its apply walk is known from its first ApplyResourceChange on.
 * pulumi-terraform-bridge neither: Pulumi plans each create right before applying it, in one process
 * that serves the whole update, so there every plan is judged as a plan (engine/entry/provider-engine.ts).
 *
 * The walk has shown what it will show once it has gone quiet: no call in flight but the ones waiting
 * for that, and none begun or ended for a moment (engine/creates/create-lookalikes.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';

export class WalkView {
  /** Known to be an apply walk. */
  private apply = false;
  private lastActivityAt: number;
  private inFlight = 0;
  private waiting = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.lastActivityAt = now();
  }

  get isApply(): boolean {
    return this.apply;
  }

  /** A call of the walk arrived: `deferralAllowed` as its capabilities said, `applies` for ApplyResourceChange. */
  called(how: { deferralAllowed?: boolean; applies?: boolean } = {}): void {
    this.lastActivityAt = this.now();
    if (how.deferralAllowed === true || how.applies === true) this.apply = true;
  }

  /** An RPC began; the function returned says it ended. Every RPC is counted (server/provider-service.ts). */
  began(): () => void {
    this.inFlight++;
    this.lastActivityAt = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      this.lastActivityAt = this.now();
    };
  }

  /**
   * Resolves once the walk is quiet: every call in flight is one waiting here, and none began or ended
   * for `quietMs`; or once `done()` holds; or after `maxMs` at the most. The caller's own call waits
   * among the others.
   */
  async quiet(quietMs: number, maxMs: number, done: () => boolean = () => false): Promise<void> {
    const started = this.now();
    this.waiting++;
    try {
      while (!done()) {
        const now = this.now();
        if (this.inFlight <= this.waiting && now - this.lastActivityAt >= quietMs) return;
        if (now - started >= maxMs) return;
        await delay(Math.min(25, quietMs));
      }
    } finally {
      this.waiting--;
    }
  }
}
