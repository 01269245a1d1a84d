import type { ContractBodies } from './language.js';

/** The request bodies of report-rules (to be moved here from src/emulators/sec). */
export const REPORT_RULE_BODIES: ContractBodies = {};
