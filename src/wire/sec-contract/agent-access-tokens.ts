import type { ContractBodies } from './language.js';

/** The request bodies of agent-access-tokens (to be moved here from src/emulators/sec). */
export const AGENT_ACCESS_TOKEN_BODIES: ContractBodies = {};
