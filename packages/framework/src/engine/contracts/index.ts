/**
 * The contracts part: what resource, data-source, ephemeral, list, action and provider modules declare,
 * one file per kind, with what their catalogue checks are given (catalogue.ts), how a provider lists
 * the objects arguments name (references.ts) and the create settings it gives (create-settings.ts).
 * The engine owns the lifecycle; modules supply a schema, the mapping to the API and one-line operations.
 */
export { action, type ActionContext, type ActionDef } from './action.js';
export type { CatalogueContext } from './catalogue.js';
export {
  type CreateSettings,
  type MissingReferences,
  UNTRACKED_BESIDE,
  untrackedBeside,
  type UntrackedObjects,
} from './create-settings.js';
export { dataSource, type DataSourceDef } from './data-source.js';
export { type EphemeralDef, type EphemeralOpened, ephemeralResource } from './ephemeral.js';
export type { IdentityAttributeDef, IdentityDef, IdentityModel } from './identity.js';
export { type ListDef, listResource } from './list.js';
export type { ConfigCheck, OpContext, Partial2 } from './operation.js';
export { type ConfigureContext, declarationProblems, provider, type ProviderDef } from './provider.js';
export type { MoveSource, StateMover } from './move.js';
export type { AttributeName, PlanContext } from './plan-context.js';
export type { ReferenceKinds } from './references.js';
export {
  type CreateLookup,
  type ListingPage,
  listedInOneCall,
  type ReadListing,
  resource,
  type ResourceDef,
} from './resource.js';
export {
  deadline,
  lateCreate,
  operationLimit,
  OperationTimedOut,
  type TimedOperation,
  type TimeoutDefaults,
  timeoutsAttribute,
} from './timeouts.js';
