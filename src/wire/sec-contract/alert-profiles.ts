import type { ContractBodies } from './language.js';

/** The request bodies of alert-profiles (to be moved here from src/emulators/sec). */
export const ALERT_PROFILE_BODIES: ContractBodies = {};
