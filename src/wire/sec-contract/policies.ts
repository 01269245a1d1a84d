import type { ContractBodies } from './language.js';

/** The request bodies of policies (to be moved here from src/emulators/sec). */
export const POLICY_BODIES: ContractBodies = {};
