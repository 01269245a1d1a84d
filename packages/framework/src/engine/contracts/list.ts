/** What a resource type declares to be listed (`terraform query`, Terraform 1.14 and later). */
import type { ConfigModelOf, Fields, ModelOf, ResourceSchema } from '../../schema/define.js';
import type { Diagnostics } from '../diagnostics/index.js';
import type { OpContext, Partial2 } from './operation.js';

/**
 * The list resource of a resource type (the same type name): the filters of a `list` block's
 * `config` and how to find the objects they select.
 */
export interface ListDef<F extends Fields, L extends Fields, C> {
  /** The filters, as arguments of the `config` block. */
  readonly schema: ResourceSchema<L>;
  /**
   * The objects the filters select, each in the model form `read` returns for it, so that a result's
   * state is the one an import of it would reach.
   */
  list(filters: ModelOf<L>, ctx: OpContext<C>): Promise<readonly Partial2<ModelOf<F>>[]>;
  /** What Terraform shows for a result: the name a person knows the object by. */
  displayName(object: ModelOf<F>): string;
  /** Rules across filters, as for resources. */
  validate?(config: ConfigModelOf<L>, diags: Diagnostics): void;
}

/** Returns the definition as it is, typed, so that a module needs no annotations. */
export const listResource = <F extends Fields, L extends Fields, C>(def: ListDef<F, L, C>): ListDef<F, L, C> => def;
