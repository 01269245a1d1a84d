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
 * OpenTofu and pulumi-terraform-bridge send no such word: their apply walks are known from their first
 * ApplyResourceChange on.
 */
import { setTimeout as delay } from 'node:timers/promises';

export class WalkView {
  /** Known to be an apply walk. */
  private apply = false;
  private lastCallAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.lastCallAt = now();
  }

  get isApply(): boolean {
    return this.apply;
  }

  /** A call of the walk arrived: `deferralAllowed` as its capabilities said, `applies` for ApplyResourceChange. */
  called(how: { deferralAllowed?: boolean; applies?: boolean } = {}): void {
    this.lastCallAt = this.now();
    if (how.deferralAllowed === true || how.applies === true) this.apply = true;
  }

  /**
   * Resolves once `pending()` is false, or once no call has come for `quietMs` (the walk has sent what
   * it could: what it tracks is shown by now), or after `maxMs` at the most.
   */
  async settled(pending: () => boolean, quietMs: number, maxMs: number): Promise<void> {
    const started = this.now();
    while (pending()) {
      const now = this.now();
      if (now - this.lastCallAt >= quietMs || now - started >= maxMs) return;
      await delay(Math.min(50, quietMs));
    }
  }
}
