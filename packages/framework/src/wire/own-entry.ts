/**
 * Look-ups in a constant table by a key from outside the process: Terraform's configuration, a
 * platform's answer, a request to an emulator, an environment variable, a file. `TABLE[key]` and
 * `key in TABLE` find what every object inherits (`constructor`, `toString`, `__proto__`,
 * `hasOwnProperty`, …) for such a key; these see the table's own entries only. Every layer may use
 * them (the value system too); test/invariants/table-keys.test.ts holds each `TABLE[key]` and
 * `key in TABLE` of src/ to them, or to a reason its key is the code's own.
 */

/** The table's own entry under `key`, or undefined (never a member every object inherits). */
export function ownEntry<T extends object>(table: T, key: PropertyKey): T[keyof T] | undefined {
  return Object.hasOwn(table, key) ? (table as Record<PropertyKey, T[keyof T]>)[key] : undefined;
}

/** Whether the table holds an entry of its own under `key`, which is then one of its keys. */
export function isOwnKey<T extends object>(table: T, key: PropertyKey): key is keyof T {
  return Object.hasOwn(table, key);
}
