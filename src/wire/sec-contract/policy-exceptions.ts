import type { ContractBodies } from './language.js';

/** The request bodies of policy-exceptions (to be moved here from src/emulators/sec). */
export const POLICY_EXCEPTION_BODIES: ContractBodies = {};
