// Policy constants the resource definitions need at start-up, apart from the client's zod schemas
// (./policies.ts), which load only once the provider is configured.

import { EVALUATION_FREQUENCIES, POLICY_SEVERITIES } from '../../wire/sec-contract/policies.js';

/** The platform's severities (in the lower-case form it stores) and evaluation frequencies, from its contract. */
export { EVALUATION_FREQUENCIES, POLICY_SEVERITIES };
export type PolicySeverity = (typeof POLICY_SEVERITIES)[number];

export type EvaluationFrequency = (typeof EVALUATION_FREQUENCIES)[number];

/** Prefix of the ids of the platform's built-in policies. */
export const BUILT_IN_POLICY_PREFIX = 'platform-global';

/** Ids of the platform's own queries (those its built-in policies evaluate) start with this; they cannot be changed. */
export const BUILT_IN_QUERY_PREFIX = 'SEC_Global_';
