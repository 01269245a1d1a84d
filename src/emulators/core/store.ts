/**
 * In-memory object store shared by the emulators: named collections of JSON objects keyed by id.
 * Values are deep-copied on the way in and out so neither handlers nor tests can alias stored state.
 */
export class MemoryStore {
  private readonly collections = new Map<string, Map<string, unknown>>();

  /** Every object of a collection, in insertion order. */
  list<T>(collection: string): T[] {
    const items = this.collections.get(collection);
    return items ? [...items.values()].map((item) => structuredClone(item) as T) : [];
  }

  /** The ids of a collection's objects, in insertion order. */
  ids(collection: string): string[] {
    return [...(this.collections.get(collection)?.keys() ?? [])];
  }

  get<T>(collection: string, id: string): T | undefined {
    const item = this.collections.get(collection)?.get(id);
    return item === undefined ? undefined : (structuredClone(item) as T);
  }

  has(collection: string, id: string): boolean {
    return this.collections.get(collection)?.has(id) ?? false;
  }

  /** Creates or replaces; keeps the original position when replacing. */
  put<T>(collection: string, id: string, value: T): T {
    let items = this.collections.get(collection);
    if (!items) {
      items = new Map();
      this.collections.set(collection, items);
    }
    items.set(id, structuredClone(value));
    return structuredClone(value);
  }

  /** Returns whether something was removed. */
  remove(collection: string, id: string): boolean {
    return this.collections.get(collection)?.delete(id) ?? false;
  }

  clear(collection?: string): void {
    if (collection === undefined) this.collections.clear();
    else this.collections.delete(collection);
  }
}
