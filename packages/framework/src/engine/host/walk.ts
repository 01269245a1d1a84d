/**
 * What one provider process can tell of the walk it serves
 * (docs/protocol.md, "Which walk a call belongs to"). Terraform starts a process per walk: validate,
 * plan (with the refresh), apply. A plan walk shows every object its state tracks, in no fixed order;
 * an apply walk shows only what changes. So a plan warns of objects no fact says whose they are, and the
 * apply walk, which re-plans each change before applying it, says nothing more of them at its re-plans:
 * its ApplyResourceChange judges (engine/creates/create-lookalikes.ts).
 *
 * The apply walk is known by Terraform's own word: from 1.9 on it plans and applies with
 * `deferral_allowed` (its released plan walks never do), and any ApplyResourceChange is one. OpenTofu
 * sends no such word: its apply walk is known from its first ApplyResourceChange on, or from the start
 * when it applies a saved plan (engine/host/host-view.ts). pulumi-terraform-bridge neither: Pulumi
 * plans each create right before applying it, in one process that serves the whole update, so there
 * every plan is judged as a plan (engine/entry/provider-engine.ts).
 */
export class WalkView {
  /** Known to be an apply walk. */
  private apply = false;

  get isApply(): boolean {
    return this.apply;
  }

  /** A call of the walk arrived: `deferralAllowed` as its capabilities said, `applies` for ApplyResourceChange. */
  called(how: { deferralAllowed?: boolean; applies?: boolean } = {}): void {
    if (how.deferralAllowed === true || how.applies === true) this.apply = true;
  }
}
