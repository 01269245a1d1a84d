/**
 * Built-in queries the platform ships that no policy of the catalogue (policies.ts) evaluates, each
 * named by upstream's examples or tests, in neutral words. Data only; queries.ts serves them beside
 * the queries of the built-in policies.
 *
 * - `SEC_Global_CloudA_Config_BucketLoggingNotEnabled`: the Cloud A configuration check for
 *   object-store buckets without access logging, on which upstream's compliance-policy example
 *   builds a policy (the platform's `…_Config_S3BucketLoggingNotEnabled`).
 */
export const BUILT_IN_QUERIES_WITHOUT_POLICY: readonly string[] = ['SEC_Global_CloudA_Config_BucketLoggingNotEnabled'];
