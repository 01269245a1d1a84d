/**
 * The entry part: ProviderEngine (provider-engine.ts), the façade the server calls, one method per RPC,
 * each handed to the part that serves its family. The families that are one file each are here: the
 * provider's own configuration (provider-config.ts), data sources (data-sources.ts), ephemeral
 * resources (ephemeral-resources.ts) and actions (actions.ts); managed resources are the resources
 * part's, functions the functions part's.
 */
export { ProviderEngine } from './provider-engine.js';
