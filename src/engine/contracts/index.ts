/**
 * The contracts part: what resource, data-source, ephemeral, list, action and provider modules declare.
 * The engine owns the lifecycle; modules supply a schema, the mapping to the API and one-line operations.
 */
export {
  action,
  type ActionContext,
  type ActionDef,
  type ConfigCheck,
  type CreateLookup,
  dataSource,
  type DataSourceDef,
  type EphemeralDef,
  ephemeralResource,
  type IdentityAttributeDef,
  type IdentityDef,
  type IdentityModel,
  listResource,
  type OpContext,
  type Partial2,
  provider,
  type ProviderDef,
  resource,
  type ResourceDef,
} from './resource.js';
