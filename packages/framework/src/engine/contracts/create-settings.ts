/**
 * The provider settings the engine's creates follow, which both providers declare the same way
 * (src/resources/shared/create-settings.ts) and ConfigureProvider hands the engine.
 */

/**
 * What a plan does with an object that holds a create's key and settings but that no state the run read
 * tracks (engine/creates/create-lookalikes.ts): fail before anything is created, name it and create anyway, or take it
 * over as this configuration's.
 */
export type UntrackedObjects = 'refuse' | 'create' | 'warn' | 'adopt';
// `adopt` is retired: it took objects that another state may hold, and refuses as `refuse` does.

/**
 * What a plan does when an argument names an object the platform does not hold (yet: another
 * configuration of a pipeline, or a script of this apply, may make it): warn, and let the check before
 * the create or update decide (engine/catalogue/reference-checks.ts); or refuse at plan.
 */
export type MissingReferences = 'warn' | 'refuse';

/** Where a resource's private state keeps the untracked objects its user chose to create it beside. */
export const UNTRACKED_BESIDE = 'untracked_beside';

/** The ids of the untracked objects a private state says its resource was created beside. */
export function untrackedBeside(priv: Readonly<Record<string, unknown>>): string[] {
  const held = priv[UNTRACKED_BESIDE];
  return Array.isArray(held) ? held.filter((v): v is string => typeof v === 'string') : [];
}

export interface CreateSettings {
  readonly untrackedObjects: UntrackedObjects;
  /** Absent: `warn`. */
  readonly missingReferences?: MissingReferences;
  /** Where the records of creates live instead of Terraform's data directory (engine/journal/create-journal.ts). */
  readonly recordsDir?: string;
}
