import type { ContractBodies } from './language.js';

/** The request bodies of metrics (to be moved here from src/emulators/sec). */
export const METRICS_BODIES: ContractBodies = {};
