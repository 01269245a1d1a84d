/**
 * The witness of "nothing duplicated, nothing orphaned": what an emulator holds, compared with what
 * a Terraform state tracks, per resource type. The emulator's store is read directly (past any fault
 * profile), never through the provider.
 *
 * For each resource type the examples' acceptance cases name the emulator collection holding its
 * objects and the state attribute that is the object's id there. Objects the emulator held before
 * the test (its catalogue, built-in objects some types modify) are the baseline and are left out.
 */
import { expect } from 'chai';
import type { StateResource } from './terraform.js';
import { at, type Case, type EmulatorHandle } from './examples-workspace.js';

export interface TypeRecord {
  readonly collection: string;
  /** State attribute (dotted path) whose value is the object's id in the collection. */
  readonly key: string;
  /** What a destroyed object of this type looks like: gone, or (undeletable objects) these fields. */
  readonly destroyed: 'absent' | Readonly<Record<string, unknown>>;
}

/** Resource type → where its objects are, from the examples of one provider. */
export function typeRecords(cases: readonly Case[]): Map<string, TypeRecord> {
  return new Map(
    cases
      .filter((c) => !c.dataSource && !c.local)
      .map((c) => [c.type, { collection: c.collection, key: c.key, destroyed: c.destroyed ?? 'absent' }]),
  );
}

export type Baseline = ReadonlyMap<string, ReadonlySet<string>>;

/** The ids each collection holds now. */
export function baselineOf(emulator: Pick<EmulatorHandle, 'ids'>, types: ReadonlyMap<string, TypeRecord>): Baseline {
  const collections = new Set([...types.values()].map((t) => t.collection));
  return new Map([...collections].map((c) => [c, new Set(emulator.ids(c))]));
}

/** Per type: objects the state tracks, and those of them the emulator holds. */
export interface TypeCount {
  readonly type: string;
  readonly inState: number;
  readonly inEmulator: number;
}

export interface LedgerCheck {
  /**
   * Every object the state tracks exists in the emulator. Off only while an interrupted command's
   * deletes may have finished after Terraform stopped listening: a refresh then drops them.
   */
  readonly noGhosts: boolean;
}

/**
 * Asserts that the emulator holds no object the state does not track (no orphan, no duplicate)
 * beyond the baseline and the destroyed forms of undeletable types, that no two resources track one
 * object, and (by default) that every tracked object exists. Returns the counts per type.
 */
export function expectEmulatorHoldsState(
  emulator: Pick<EmulatorHandle, 'ids' | 'get'>,
  types: ReadonlyMap<string, TypeRecord>,
  baseline: Baseline,
  state: ReadonlyMap<string, StateResource>,
  what: string,
  check: LedgerCheck = { noGhosts: true },
): TypeCount[] {
  const tracked = new Map<string, Map<string, string>>(); // collection → id → address
  const counts = new Map<string, { inState: number; inEmulator: number }>();
  for (const res of state.values()) {
    if (res.mode !== 'managed') continue;
    const record = types.get(res.type);
    if (!record) continue;
    const id = at(res.values, record.key);
    expect(id, `${what}: ${res.address} has its ${record.key}`).to.be.a('string').and.not.equal('');
    const ids = tracked.get(record.collection) ?? new Map<string, string>();
    expect(ids.get(id as string), `${what}: ${res.address} tracks the same object as another resource`).to.equal(
      undefined,
    );
    ids.set(id as string, res.address);
    tracked.set(record.collection, ids);
    const count = counts.get(res.type) ?? { inState: 0, inEmulator: 0 };
    count.inState++;
    const exists = emulator.get(record.collection, id as string) !== undefined;
    if (exists) count.inEmulator++;
    else if (check.noGhosts)
      expect.fail(
        `${what}: ${res.address} tracks ${record.collection}/${String(id)}, which the emulator does not hold`,
      );
    counts.set(res.type, count);
  }

  // Objects no resource tracks: left over from before, or the destroyed form of an undeletable type.
  const destroyedForms = new Map<string, Readonly<Record<string, unknown>>[]>();
  for (const t of types.values())
    if (t.destroyed !== 'absent')
      destroyedForms.set(t.collection, [...(destroyedForms.get(t.collection) ?? []), t.destroyed]);
  const orphans: string[] = [];
  for (const [collection, before] of baseline) {
    for (const id of emulator.ids(collection)) {
      if (before.has(id) || tracked.get(collection)?.has(id)) continue;
      const stored = emulator.get(collection, id);
      const destroyed = (destroyedForms.get(collection) ?? []).some((form) =>
        Object.entries(form).every(([path, value]) => JSON.stringify(at(stored, path)) === JSON.stringify(value)),
      );
      if (!destroyed) orphans.push(`${collection}/${id} (${describeStored(stored)})`);
    }
  }
  expect(
    orphans,
    `${what}: objects in the emulator that no resource in the state tracks (orphans or duplicates)`,
  ).to.deep.equal([]);
  return [...counts].map(([type, c]) => ({ type, ...c })).sort((a, b) => a.type.localeCompare(b.type));
}

/** A short identification of a stored object for failure messages (never the whole object: it may hold secrets). */
function describeStored(stored: unknown): string {
  const o = (stored ?? {}) as Record<string, unknown>;
  const name = o.name ?? o.userName ?? o.tokenAlias ?? o.exceptionName ?? at(o, 'filters.name') ?? o.title ?? '?';
  return `${String(name)}${typeof o.type === 'string' ? `, type ${o.type}` : ''}`;
}

/** One line per type for the test's printed figures. */
export function describeCounts(counts: readonly TypeCount[]): string {
  return counts
    .map((c) => `${c.type} ${c.inState}${c.inEmulator === c.inState ? '' : ` (emulator ${c.inEmulator})`}`)
    .join(', ');
}
