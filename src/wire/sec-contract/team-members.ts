import type { ContractBodies } from './language.js';

/** The request bodies of team-members (to be moved here from src/emulators/sec). */
export const TEAM_MEMBER_BODIES: ContractBodies = {};
