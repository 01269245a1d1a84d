/**
 * What a resource's plan-modification hook (ResourceDef `modifyPlan`) is given: the plan as the engine
 * made it, typed by the resource's fields, and the ways to change it. The engine's side of the hook,
 * and the rules its changes are held to, are in plan-modification.ts.
 */
import type { BlockDef, ConfigModelOf, Fields, ModelOf } from '../../schema/define.js';
import type { AttributePath } from '../../schema/path.js';
import type { Diagnostics } from '../diagnostics/index.js';
import type { Logger } from '../diagnostics/index.js';

/** The names of a resource's top-level attributes (not its blocks). */
export type AttributeName<F extends Fields> = {
  [K in keyof F & string]: F[K] extends BlockDef<any> ? never : K;
}[keyof F & string];

/**
 * A plan as `modifyPlan` sees and changes it: PlanResourceChange of a create or an update (or a plan
 * that changes nothing), after the engine planned defaults, kept values, unknown computed values and
 * the replacements its declarations force, and judged the change. A plan sends nothing to the
 * platform: the hook is synchronous and decides from the configuration, the prior state and the
 * provider's configuration alone (what the platform's catalogue decides is `checkAgainstCatalogue`'s).
 */
export interface PlanContext<F extends Fields, C> {
  /**
   * The configured API client, for what the provider's configuration decides (its defaults, its
   * mode); undefined while that configuration holds values unknown until apply.
   */
  readonly client: C | undefined;
  /** Aborted when Terraform calls StopProvider. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Warnings and errors for the user, each at its attribute path where it has one; an error fails the plan. */
  readonly diags: Diagnostics;
  /** The private state the plan carries to apply (a copy of the prior's, which the hook may change). */
  readonly private: Record<string, unknown>;
  /** The configuration; a value not known until apply is `undefined`, as in `validate`. */
  readonly config: ConfigModelOf<F>;
  /** The prior state, as operations see it; null for a create. */
  readonly prior: ModelOf<F> | null;
  /**
   * The planned state; a value unknown until apply is `undefined`. What `setPlanned` and `setUnknown`
   * change shows here at once.
   */
  readonly planned: ConfigModelOf<F>;
  /**
   * Plans a known value for a top-level attribute: meant for a computed one the configuration does
   * not set. Terraform allows no other change; the engine refuses the plan, naming the attribute, for
   * one that breaks its rules (a configured value changed, a value for an argument left unset).
   */
  setPlanned<K extends AttributeName<F>>(name: K, value: ModelOf<F>[K]): void;
  /** Plans a top-level computed attribute as unknown until apply ("known after apply"). */
  setUnknown(name: AttributeName<F>): void;
  /**
   * A change at this attribute or block (or deeper, by path) replaces the object instead of updating
   * it. Terraform replaces only where the planned value differs from the prior state's.
   */
  requireReplace(at: (keyof F & string) | AttributePath): void;
}
