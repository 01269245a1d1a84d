import type { ContractBodies } from './language.js';

/**
 * A policy exception's body has no table here: a constraint's values are texts or `{key, value}` pairs
 * by the policy's data type, a union the language cannot say. The emulator judges it in code
 * (src/emulators/sec/policy-exceptions.ts, with the contract's limits for any text or list), and the
 * resource checks each constraint against the policy at plan.
 */
export const POLICY_EXCEPTION_BODIES: ContractBodies = {};
