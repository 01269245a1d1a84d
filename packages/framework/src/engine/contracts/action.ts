/** What an action module declares, and what its run is given. */
import type { ConfigModelOf, Fields, ModelOf, ResourceSchema } from '../../schema/define.js';
import type { CatalogueContext } from './catalogue.js';
import type { Diagnostics, Logger } from '../diagnostics/index.js';

/**
 * An action (Terraform 1.14 and later): a one-shot operation a configuration declares in an
 * `action` block and runs on its own (`terraform apply -invoke=action.<type>.<name>`) or when a
 * resource changes (`action_trigger` in its `lifecycle`). It has a configuration and no state.
 * Terraform validates the configuration (ValidateActionConfig), plans it (PlanAction: nothing is
 * sent then) and invokes it (InvokeAction), showing each progress line as it comes; the engine
 * owns those steps (packages/framework/src/engine/entry/actions.ts), the module says what the action does.
 */
export interface ActionDef<F extends Fields, C> {
  readonly typeName: string;
  /** The arguments of the `config` block: required or optional, never computed (an action keeps no state). */
  readonly schema: ResourceSchema<F>;
  /**
   * Rules across arguments, as for resources: at validation (values not known yet are `undefined`),
   * again at plan time and before the action runs, when more or all of it is known.
   */
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
  /** Rules that need the configured provider (its defaults), at plan time and before the action runs. */
  validateWithProvider?(config: ConfigModelOf<F>, client: C, diags: Diagnostics): void;
  /**
   * Rules the platform's catalogue decides, judged at plan against its listings
   * (engine/catalogue/catalogue-checks.ts).
   */
  checkAgainstCatalogue?(config: ConfigModelOf<F>, ctx: CatalogueContext<C>): Promise<void>;
  /**
   * Runs the action on a wholly known configuration. Progress goes to `ctx.progress`, warnings to
   * `ctx.diags`; a failure is thrown (an ApiError, or a DiagnosticError that says what to do). When
   * `ctx.signal` aborts (Terraform's StopProvider, the call's deadline) it sends nothing more, ends
   * its waits at once, and throws; what it set going on the platform before, it has named with
   * `ctx.started`, so that the engine's message says what keeps running.
   */
  invoke(config: ModelOf<F>, ctx: ActionContext<C>): Promise<void>;
  /** For the docs: what an interrupted or failed run leaves on the platform, and what running it again does. */
  readonly interruption: string;
}

/** What an action's run is given. */
export interface ActionContext<C> {
  /** The configured API client. */
  readonly client: C;
  /** Aborted when Terraform calls StopProvider, or the call ends (its deadline, Terraform gone). */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Warnings to show the user with the result (errors are thrown). */
  readonly diags: Diagnostics;
  /** A line Terraform shows while the action runs (an InvokeAction progress event). */
  progress(message: string): void;
  /**
   * Records what the action has set going on the platform (e.g. 'backup 1234 of cluster 5678'), which
   * is neither undone nor requested again if the run is cut short: the engine's message names it then.
   */
  started(what: string): void;
}

/** Returns the definition as it is, typed, so that a module needs no annotations. */
export const action = <F extends Fields, C>(def: ActionDef<F, C>): ActionDef<F, C> => def;
