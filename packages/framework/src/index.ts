/**
 * The framework's face: everything an author needs to define a Terraform provider in TypeScript and
 * serve it over tfplugin6 (docs/framework/first-provider.md). Import from the package, never from the
 * modules behind it: what is not exported here may change in any release.
 *
 *   import { attr, provider, resource, resourceSchema, serve } from '@keel/provider-framework';
 *
 * The test kit is the package's second entry point, `@keel/provider-framework/testing` (./testing.ts).
 */

// Definitions: a provider, its resources, data sources, ephemeral resources, list resources, actions
// and functions. Each helper returns its argument, typed, so that a module needs no annotations.
export {
  action,
  dataSource,
  ephemeralResource,
  listResource,
  listedInOneCall,
  resource,
  timeoutsAttribute,
  OperationTimedOut,
  type TimedOperation,
  type TimeoutDefaults,
  type ActionContext,
  type ActionDef,
  type CatalogueContext,
  type ConfigCheck,
  type ConfigureContext,
  type CreateLookup,
  type DataSourceDef,
  type EphemeralDef,
  type EphemeralOpened,
  type IdentityAttributeDef,
  type IdentityDef,
  type IdentityModel,
  type ListDef,
  type ListingPage,
  type ReadListing,
  type OpContext,
  type Partial2,
  type PlanContext,
  type AttributeName,
  type MoveSource,
  type StateMover,
  type ProviderDef,
  type ResourceDef,
  type CreateSettings,
  type MissingReferences,
  type ReferenceKinds,
  type UntrackedObjects,
} from './engine/contracts/index.js';
export type { Logger } from './engine/diagnostics/index.js';
export {
  FunctionArgumentError,
  FunctionFailure,
  providerFunction,
  type FunctionDef,
  type FunctionExample,
  type FunctionParameter,
} from './engine/functions/index.js';

// Schemas: attributes (nested ones too), blocks, validators and the models they give the operations.
export {
  attr,
  block,
  providerSchema,
  resourceSchema,
  t,
  validators,
  type AttrDef,
  type AttrFields,
  type AttrOptions,
  type BlockDef,
  type BlockOptions,
  type ConfigModelOf,
  type FieldDef,
  type Fields,
  type ModelOf,
  type NestedAttributes,
  type NestedModel,
  type NestedOptions,
  type PlatformLimits,
  type ResourceSchema,
  type Exact,
  type Typed,
  type Validator,
  shown,
} from './schema/define.js';
export type { ObjectNesting } from './schema/block.js';
export { rules, type ArgumentRule } from './schema/argument-rules.js';
export {
  BOOL,
  DYNAMIC,
  NUMBER,
  STRING,
  listOf,
  mapOf,
  objectOf,
  setOf,
  tupleOf,
  type CtyType,
} from './schema/cty-type.js';
export { Decimal, UNKNOWN, Unknown, type CtyNumber } from './schema/value.js';
export { numberText, numberToJS, parseNumber } from './schema/number.js';

// What operations report, and what an API client needs: diagnostics at attribute paths, the platform's
// errors by kind (an ApiError 'not_found' from a read says the object is gone), the time an exchange takes,
// Go's durations, look-ups and entries by keys from outside. The client entry (./client.ts) is all of it.
export * from './client.js';

// Serving: the executable's entry point.
export { provider, serve, type ServedProvider, type ServeOptions } from './serve.js';
// The provider's service, for an executable that starts on the package's go-plugin server alone and
// loads its definitions on the first call that needs them (`@keel/provider-framework/server`).
export { providerServiceOf, type ProviderIdentity, type ServiceOptions } from './service.js';
