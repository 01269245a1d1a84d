import type { ContractBodies } from './language.js';

/** The request bodies of container-registries (to be moved here from src/emulators/sec). */
export const CONTAINER_REGISTRY_BODIES: ContractBodies = {};
