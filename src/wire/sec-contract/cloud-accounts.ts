import type { ContractBodies } from './language.js';

/** The request bodies of cloud-accounts (to be moved here from src/emulators/sec). */
export const CLOUD_ACCOUNT_BODIES: ContractBodies = {};
