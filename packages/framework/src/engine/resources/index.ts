/**
 * The resources part: the RPCs of managed resources, each family in a file as the façade
 * (engine/entry/provider-engine.ts) hands them on: their changes (resource-changes.ts: validate, plan,
 * apply), their stored state (resource-state.ts: upgrade, read, import; reads of many objects by listing:
 * listed-reads.ts), their identity
 * (resource-identity.ts, by the rules of identity.ts), state moved from another type
 * (resource-moves.ts), their lists (list-resources.ts) and the configuration generated from a state
 * (generate-config.ts).
 */
export { ResourceConfigGeneration } from './generate-config.js';
export { ListedReads } from './listed-reads.js';
export { type ListEvent, type ListOptions, ListResources } from './list-resources.js';
export { type PlanOutcome, ResourceChanges } from './resource-changes.js';
export { type IdentifiedOutcome, IDENTITY_VERSION, ResourceIdentity } from './resource-identity.js';
export { ResourceMoves } from './resource-moves.js';
export { ResourceState } from './resource-state.js';
