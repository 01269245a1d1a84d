import type { AttributePath } from '../../schema/path.js';
import type { Diagnostics } from '../diagnostics/index.js';

/** What a catalogue check is given (engine/catalogue/catalogue-checks.ts). */
export interface CatalogueContext<C> {
  readonly client: C;
  readonly signal: AbortSignal;
  /** Errors at the argument's path, naming what the platform offers instead. */
  readonly diags: Diagnostics;
  /**
   * The listing named `key` (what and where), read the first time this process asks and kept;
   * `fresh` reads it again (before naming a value missing from it: it may be newer than the listing).
   */
  listing<T>(key: string, read: (signal: AbortSignal) => Promise<T>, options?: { fresh?: boolean }): Promise<T>;
  /**
   * Whether this process planned a create making the object of this kind (a `refersTo` text) with this
   * id: it will exist by the time the reference's own create is applied.
   */
  planned(kind: string, id: string): boolean;
  /**
   * An argument names an object the platform does not hold, even in a listing read afresh. Another
   * configuration of a pipeline, or a step of this very apply, may make it before this create or update
   * is sent, so at plan this is a warning (an error where `missing_references` is "refuse"), and the
   * check before the create or update decides: an error there, and nothing is sent.
   */
  missing(summary: string, detail: string, path: AttributePath): void;
}
