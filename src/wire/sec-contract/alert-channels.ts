import type { ContractBodies } from './language.js';

/** The request bodies of alert-channels (to be moved here from src/emulators/sec). */
export const ALERT_CHANNEL_BODIES: ContractBodies = {};
