import type { ContractBodies } from './language.js';

/** The request bodies of integrations (to be moved here from src/emulators/sec). */
export const INTEGRATION_BODIES: ContractBodies = {};
