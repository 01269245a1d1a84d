/**
 * What every operation a definition supplies is given (OpContext), and the forms its results take.
 */
import type { ConfigModelOf, Fields } from '../../schema/define.js';
import type { Diagnostics, Logger } from '../diagnostics/index.js';

export interface OpContext<C> {
  /** The configured API client. */
  readonly client: C;
  /** Aborted when Terraform calls StopProvider. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Warnings to show the user (errors are thrown). */
  readonly diags: Diagnostics;
  /** Private state kept by Terraform between plan, apply and read. */
  readonly private: Record<string, unknown>;
  /**
   * Reports that the object exists in this form although the operation may yet fail, so the engine
   * keeps it in state (Terraform marks a created one tainted) instead of orphaning it; undefined
   * reports that it is gone again (e.g. removed after a failed test).
   */
  partial(model: object | undefined): void;
}

export type Partial2<T> = { [K in keyof T]?: T[K] };

/** A check of a configuration whose unknown values are `undefined` (see ConfigModelOf). */
export type ConfigCheck<F extends Fields> = (config: ConfigModelOf<F>, diags: Diagnostics) => void;
