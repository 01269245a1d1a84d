/**
 * The functions part: what a provider-defined function declares (function-contracts.ts) and how the
 * engine serves it (functions.ts: GetFunctions, CallFunction). A function is pure: it needs nothing else
 * of the engine.
 */
export {
  FunctionArgumentError,
  type FunctionDef,
  type FunctionExample,
  FunctionFailure,
  type FunctionParameter,
  providerFunction,
} from './function-contracts.js';
export { Functions } from './functions.js';
