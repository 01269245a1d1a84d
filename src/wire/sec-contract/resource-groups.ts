import type { ContractBodies } from './language.js';

/** The request bodies of resource-groups (to be moved here from src/emulators/sec). */
export const RESOURCE_GROUP_BODIES: ContractBodies = {};
