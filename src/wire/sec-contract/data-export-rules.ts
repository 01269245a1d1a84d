import type { ContractBodies } from './language.js';

/** The request bodies of data-export-rules (to be moved here from src/emulators/sec). */
export const DATA_EXPORT_RULE_BODIES: ContractBodies = {};
