/**
 * Reads of objects the platform can only list (database API keys: there is no call that gets one)
 * share listings, so that refreshing N keys of one cluster costs a few listings, not N listings of N
 * keys each (docs/decisions.md, "Reads the platform can only list share listings").
 *
 * The rule: a read may be answered by a listing of its scope that began at most FRESH_MS before the
 * read began, provided this process has changed nothing in that scope since the listing began. A
 * listing still in flight is joined on the same terms. Every create and delete in a scope marks it
 * changed, before it is sent and once it is answered, so the process always reads its own writes.
 */

/** How old a listing may be, from its start to the start of a read it answers. */
export const LISTING_FRESH_MS = 2_000;

interface Listing<T> {
  readonly startedAt: number;
  /** The scope's generation when the listing began; a change since makes it unusable. */
  readonly generation: number;
  readonly items: Promise<readonly T[]>;
}

export class SharedListings<T> {
  private readonly listings = new Map<string, Listing<T>>();
  private readonly generations = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * The scope's items from a listing that may answer a read starting now, or from `list`, which
   * then serves the reads that follow. A failed listing is never shared with later reads.
   */
  read(scope: string, list: () => Promise<readonly T[]>): Promise<readonly T[]> {
    const now = this.now();
    const generation = this.generations.get(scope) ?? 0;
    const shared = this.listings.get(scope);
    if (shared && shared.generation === generation && now - shared.startedAt <= LISTING_FRESH_MS) return shared.items;
    this.forgetStale(now);
    const listing: Listing<T> = { startedAt: now, generation, items: list() };
    this.listings.set(scope, listing);
    listing.items.catch(() => {
      if (this.listings.get(scope) === listing) this.listings.delete(scope);
    });
    return listing.items;
  }

  /** Sends a create or delete in the scope: no listing begun before it is answered serves a later read. */
  async writing<R>(scope: string, write: () => Promise<R>): Promise<R> {
    this.changed(scope);
    try {
      return await write();
    } finally {
      this.changed(scope);
    }
  }

  private changed(scope: string): void {
    this.generations.set(scope, (this.generations.get(scope) ?? 0) + 1);
    this.listings.delete(scope);
  }

  /** Listings too old to answer any read are dropped, so memory holds at most the recent ones. */
  private forgetStale(now: number): void {
    for (const [scope, listing] of this.listings) {
      if (now - listing.startedAt > LISTING_FRESH_MS) this.listings.delete(scope);
    }
  }
}
