/**
 * Reads of objects the platform can only list (database API keys: there is no call that gets one)
 * share listings, so that refreshing N keys of one cluster, ten reads at a time as Terraform makes
 * them, costs about N/5 listings rather than N.
 * docs/decisions.md, "Reads the platform can only list share listings".
 *
 * The rule: a read is answered by a listing of its scope that began after the read began, never by
 * an older one, so a read sees every change made before it, by this process or anyone else. A read
 * that arrives while a listing is out waits for the next one, which starts when that one ends and
 * answers every read that arrived meanwhile: at most one listing per scope is out, and one waits.
 */

interface Scope<T> {
  /** True while a listing is out. */
  out: boolean;
  /** The listing that starts when the one out ends, for the reads that arrived after it began. */
  next?: { readonly items: Promise<readonly T[]>; start(): void };
}

export class SharedListings<T extends { readonly id: string }> {
  private readonly scopes = new Map<string, Scope<T>>();

  /** The object with this id in the scope, or undefined when a listing begun after this call does not hold it. */
  async find(scope: string, id: string, list: () => Promise<readonly T[]>): Promise<T | undefined> {
    return (await this.read(scope, list)).find((item) => item.id === id);
  }

  /** The scope's items, from a listing begun after this call: `list`'s own, or one shared with other reads. */
  read(scope: string, list: () => Promise<readonly T[]>): Promise<readonly T[]> {
    let state = this.scopes.get(scope);
    if (!state) {
      state = { out: false };
      this.scopes.set(scope, state);
    }
    if (!state.out) return this.send(scope, state, list);
    if (!state.next) {
      let start!: () => void;
      const items = new Promise<readonly T[]>((resolve, reject) => {
        start = () => this.send(scope, state, list).then(resolve, reject);
      });
      state.next = { items, start };
    }
    return state.next.items;
  }

  private send(scope: string, state: Scope<T>, list: () => Promise<readonly T[]>): Promise<readonly T[]> {
    state.out = true;
    const items = list();
    const ended = () => {
      state.out = false;
      const next = state.next;
      state.next = undefined;
      if (next) next.start();
      else this.scopes.delete(scope);
    };
    items.then(ended, ended);
    return items;
  }
}
