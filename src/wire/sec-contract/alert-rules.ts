import type { ContractBodies } from './language.js';

/** The request bodies of alert-rules (to be moved here from src/emulators/sec). */
export const ALERT_RULE_BODIES: ContractBodies = {};
