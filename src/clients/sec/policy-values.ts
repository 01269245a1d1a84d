// Policy constants the resource definitions need at start-up, apart from the client's zod schemas
// (./policies.ts), which load only once the provider is configured.

/** The platform's severities, in the lower-case form it stores. */
export const POLICY_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type PolicySeverity = (typeof POLICY_SEVERITIES)[number];

/** How often a policy's query is evaluated. */
export const EVALUATION_FREQUENCIES = ['Hourly', 'Daily'] as const;
export type EvaluationFrequency = (typeof EVALUATION_FREQUENCIES)[number];

/** Prefix of the ids of the platform's built-in policies. */
export const BUILT_IN_POLICY_PREFIX = 'platform-global';

/** Ids of the platform's own queries (those its built-in policies evaluate) start with this; they cannot be changed. */
export const BUILT_IN_QUERY_PREFIX = 'SEC_Global_';
