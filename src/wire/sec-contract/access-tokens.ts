import type { ContractBodies } from './language.js';

/** The request bodies of access-tokens (to be moved here from src/emulators/sec). */
export const ACCESS_TOKEN_BODIES: ContractBodies = {};
