/**
 * The context part: what the engine's parts share, and nothing more (engine-context.ts): the provider's
 * declarations, each kind kept by type name in one registry that also answers a name the provider does
 * not declare (type-registry.ts), its configured client (or why there is none yet), the host and walk,
 * the create records, the stop signal, and the context an operation is given.
 */
export {
  decodeStored,
  EngineContext,
  idOf,
  errorsOf,
  isNotFound,
  MODEL_OPTIONS,
  type PrivateState,
  providerRuleErrors,
  type StateOutcome,
} from './engine-context.js';
export { type TypeKind, unknownTypeDetail } from './type-registry.js';
