import type { ContractBodies } from './language.js';

/** The request bodies of queries (to be moved here from src/emulators/sec). */
export const QUERY_BODIES: ContractBodies = {};
