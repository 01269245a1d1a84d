/** What a data source module declares. */
import type { ConfigModelOf, Fields, ModelOf, ResourceSchema } from '../../schema/define.js';
import type { ArgumentRule } from '../../schema/argument-rules.js';
import type { Diagnostics } from '../diagnostics/index.js';
import type { OpContext, Partial2 } from './operation.js';

export interface DataSourceDef<F extends Fields, C> {
  readonly typeName: string;
  readonly schema: ResourceSchema<F>;
  read(config: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  /** As for resources: cross-argument rules, at validate time and again before the read. */
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
  /** As for resources: rules across its top-level arguments. */
  readonly argumentRules?: readonly ArgumentRule[];
}

/** Returns the definition as it is, typed, so that a module needs no annotations. */
export const dataSource = <F extends Fields, C>(def: DataSourceDef<F, C>): DataSourceDef<F, C> => def;
