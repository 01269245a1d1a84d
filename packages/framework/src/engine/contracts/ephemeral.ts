/** What an ephemeral resource module declares. */
import type { ConfigModelOf, Fields, ModelOf, ResourceSchema } from '../../schema/define.js';
import type { Diagnostics } from '../diagnostics/index.js';
import type { OpContext, Partial2 } from './operation.js';

/**
 * An ephemeral resource (Terraform 1.10+): a value that exists only during a run and is never
 * stored in plan or state. Terraform opens it when a run needs it, may renew it at `renewAt`, and
 * closes it when done.
 */
export interface EphemeralDef<F extends Fields, C> {
  readonly typeName: string;
  readonly schema: ResourceSchema<F>;
  /** Makes or fetches the value. `private` is what renew and close need (never a secret the result does not hold). */
  open(config: ModelOf<F>, ctx: OpContext<C>): Promise<EphemeralOpened<F>>;
  /** Keeps the value alive past `renewAt`, when the platform allows; returns the next renewal. */
  renew?(
    priv: Record<string, unknown>,
    ctx: OpContext<C>,
  ): Promise<{ renewAt?: Date; private?: Record<string, unknown> }>;
  /** Releases what `open` made. A failure is a warning that names what was left behind. */
  close?(priv: Record<string, unknown>, ctx: OpContext<C>): Promise<void>;
  /**
   * What an opened value is, from its `private`, for the warning when Terraform never closed it and
   * the provider closes it as it shuts down: e.g. "database API key <id> of cluster <id>, expiring at
   * <time>". Never a secret.
   */
  describeOpened?(priv: Record<string, unknown>): string;
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
}

export interface EphemeralOpened<F extends Fields> {
  readonly result: Partial2<ModelOf<F>>;
  /** When Terraform should call renew, if the run still uses the value then. */
  readonly renewAt?: Date;
  readonly private?: Record<string, unknown>;
}

/** Returns the definition as it is, typed, so that a module needs no annotations. */
export const ephemeralResource = <F extends Fields, C>(def: EphemeralDef<F, C>): EphemeralDef<F, C> => def;
