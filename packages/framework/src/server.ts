/**
 * The package's third entry point, `@keel/provider-framework/server`: the go-plugin server alone, for an
 * executable that starts faster than `serve()` allows. Terraform starts a provider three to five times per
 * command, and one of those processes only shakes hands and asks for the schema. An executable built on
 * this entry answers that process from schema answers built into it and loads the provider's service
 * (`providerServiceOf` in the main entry, usually kept in a second bundle) on the first call that needs it.
 *
 *   runProviderMain({ name, namespace, version, serves: PROVIDER_SERVICE_RPCS,
 *                     loadService: () => providerServiceOf(definition, log, identity), answers });
 *
 * Nothing here loads the engine or the value system.
 */
export { runProviderMain, type ProviderMainOptions, type ProviderService, type RpcName } from './server/main.js';
export { createLogger, Logger } from './server/log.js';
export { PROVIDER_SERVICE_RPCS } from './server/rpcs.js';
