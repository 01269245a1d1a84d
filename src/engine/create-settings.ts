/**
 * The provider settings the engine's creates follow, which both providers declare the same way
 * (src/resources/shared/create-settings.ts) and ConfigureProvider hands the engine.
 */

/**
 * What a plan does with an object that holds a create's key and settings but that no state the run read
 * tracks (create-lookalikes.ts): fail before anything is created, name it and create anyway, or take it
 * over as this configuration's.
 */
export type UntrackedObjects = 'refuse' | 'warn' | 'adopt';

export interface CreateSettings {
  readonly untrackedObjects: UntrackedObjects;
  /** Where the records of creates live instead of Terraform's data directory (create-journal.ts). */
  readonly recordsDir?: string;
}
