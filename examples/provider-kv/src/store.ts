// The platform this provider manages: a key-value store kept in a JSON file. A real provider would
// call an API here; the framework does not mind which.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ApiError } from '@keel/provider-framework';

export interface Entry {
  readonly key: string;
  readonly value: string;
  /** How many times the entry was written. */
  readonly version: number;
}

export class Store {
  constructor(readonly path: string) {}

  get(key: string): Entry | null {
    return this.entries()[key] ?? null;
  }

  /** Every entry whose key starts with `prefix`. */
  list(prefix: string): Entry[] {
    return Object.values(this.entries()).filter((entry) => entry.key.startsWith(prefix));
  }

  /** Writes a new entry; the store keeps keys unique, as most platforms keep names. */
  create(key: string, value: string): Entry {
    if (this.get(key) !== null)
      throw new ApiError(`the key ${JSON.stringify(key)} is taken`, { code: 'conflict', operation: 'create entry' });
    return this.write({ key, value, version: 1 });
  }

  update(key: string, value: string): Entry {
    const prior = this.get(key);
    if (prior === null) throw new ApiError('no such entry', { code: 'not_found', operation: 'update entry' });
    return this.write({ key, value, version: prior.version + 1 });
  }

  delete(key: string): void {
    const entries = this.entries();
    delete entries[key];
    this.save(entries);
  }

  private entries(): Record<string, Entry> {
    return existsSync(this.path) ? JSON.parse(readFileSync(this.path, 'utf8')) : {};
  }

  private write(entry: Entry): Entry {
    this.save({ ...this.entries(), [entry.key]: entry });
    return entry;
  }

  /** Replaces the file whole, so that a reader never sees half of it. */
  private save(entries: Record<string, Entry>): void {
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(entries, null, 2)}\n`);
    renameSync(temporary, this.path);
  }
}
