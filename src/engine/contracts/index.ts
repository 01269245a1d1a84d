/**
 * The contracts part: what resource, data-source, ephemeral, list, action and provider modules declare,
 * one file per kind. The engine owns the lifecycle; modules supply a schema, the mapping to the API and
 * one-line operations.
 */
export { action, type ActionContext, type ActionDef } from './action.js';
export { dataSource, type DataSourceDef } from './data-source.js';
export { ephemeralResource, type EphemeralDef } from './ephemeral.js';
export type { IdentityAttributeDef, IdentityDef, IdentityModel } from './identity.js';
export { listResource } from './list.js';
export type { ConfigCheck, OpContext, Partial2 } from './operation.js';
export { provider, type ProviderDef } from './provider.js';
export { type CreateLookup, resource, type ResourceDef } from './resource.js';
