/**
 * The platform's built-in policy catalogue: the policies every account has, with the ids, titles,
 * severities, types and query ids the public record gives them, in neutral words (policy ids
 * `lacework-global-N` → `platform-global-N`, AWS/GCP/Azure → Cloud A/B/C, vendor product names →
 * what they are). Data only; policies.ts serves it.
 *
 * It holds every built-in policy that upstream's examples, tests and docs name (1, 2, 10 in the
 * managed-policies docs and test; 39 and 46 in the policy-exception example and test; 73 in the
 * policy-exception docs; 87 in the platform's exception-configuration docs), and around them the
 * Cloud A benchmark set and a few Cloud B and Cloud C benchmark policies, so that a list of the
 * policies looks like an account's.
 *
 * Where each fact comes from (the letter after an entry's title says where its title comes from):
 * - D: the platform's documentation (the policy catalogue pages and the custom-policy examples:
 *   1 with its title, severity, query, alert template, description and remediation; 75 with its
 *   title, severity, and that it ships disabled with alerting off; 87 with its constraints).
 * - B: the benchmark recommendation the policy implements, in the benchmark's wording (neutral);
 *   which recommendation each id implements is the SDK's migration table from the platform's
 *   earlier benchmark ids to these ids.
 * - U: named by upstream's examples or by the SDK (2 and 10; 10's query and title from the
 *   platform's query of the same name); the title of 2 is not published: a stand-in.
 * - Constraints (what exceptions may constrain): the platform's answers kept in the SDK's tests,
 *   except 39 (upstream's acceptance test quotes the platform's error, which lists
 *   `accountIds, arns, resourceNames, resourceTags`) and 87 (the docs). Violation and manual
 *   policies take no exceptions ("Manual policies cannot have exceptions applied to them").
 * - Severities and default states are published only for 1 (medium, enabled, alerting) and 75
 *   (low, disabled, alerting off); the others are assigned here by the weight of the
 *   recommendation. Compliance policies ship disabled with alerting off, as 75 does; violation
 *   policies enabled and alerting, as 1 does.
 */
export type CatalogueSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';
export type CataloguePolicyType = 'Violation' | 'Compliance' | 'Manual';

/** `String`: plain values; `Number`: numeric ids; `KVTagPair`: `{key, value}` objects. */
export type ConstraintDataType = 'String' | 'Number' | 'KVTagPair';

export interface CatalogueConstraint {
  readonly fieldKey: string;
  readonly dataType: ConstraintDataType;
  readonly multiValue: boolean;
}

export interface CataloguePolicy {
  /** The N of `platform-global-N`. */
  readonly number: number;
  readonly title: string;
  readonly policyType: CataloguePolicyType;
  readonly severity: CatalogueSeverity;
  /** "" for manual policies, which run no query. */
  readonly queryId: string;
  readonly evalFrequency: 'Hourly' | 'Daily';
  readonly enabled: boolean;
  readonly alertEnabled: boolean;
  /** `<profile>.<template>`, or "" for manual policies. */
  readonly alertProfile: string;
  readonly description: string;
  readonly remediation: string;
  readonly tags: readonly string[];
  readonly constraints: readonly CatalogueConstraint[];
}

// ---------------------------------------------------------------------------------------------
// Constraint sets (each built-in policy has one of these)

const plain = (fieldKey: string, multiValue = true): CatalogueConstraint => ({
  fieldKey,
  dataType: 'String',
  multiValue,
});
const pairs = (fieldKey: string): CatalogueConstraint => ({ fieldKey, dataType: 'KVTagPair', multiValue: true });

const NO_EXCEPTIONS: readonly CatalogueConstraint[] = [];
const CLOUD_A_ACCOUNT = [plain('accountIds')];
const CLOUD_A_ACCOUNT_REGION = [plain('accountIds'), plain('regionNames')];
const CLOUD_A_RESOURCE = [plain('accountIds'), plain('resourceNames'), pairs('resourceTags')];
const CLOUD_A_REGIONAL_RESOURCE = [
  plain('accountIds'),
  plain('regionNames'),
  plain('resourceNames'),
  pairs('resourceTags'),
];
const CLOUD_B_RESOURCE = [
  { fieldKey: 'organizations', dataType: 'Number', multiValue: true } as const,
  plain('projects'),
  plain('resourceName'),
];
const CLOUD_B_LABELLED_RESOURCE = [...CLOUD_B_RESOURCE, pairs('resourceLabel')];
const CLOUD_C_RESOURCE = [
  plain('tenants'),
  plain('subscriptions'),
  plain('cloudCResourceGroup'),
  plain('regionNames'),
  plain('resourceName'),
  pairs('resourceTags'),
];

// ---------------------------------------------------------------------------------------------
// Builders for the three kinds of entry

const TRAIL_PROFILE = 'SEC_CloudATrail_Alerts';

/** An activity (trail) policy of Cloud A: evaluated hourly, alerting through the trail profile. */
function trail(
  number: number,
  title: string,
  severity: CatalogueSeverity,
  query: string,
  template: string,
  description: string,
  remediation: string,
): CataloguePolicy {
  return {
    number,
    title,
    policyType: 'Violation',
    severity,
    queryId: `SEC_Global_CloudA_Trail_${query}`,
    evalFrequency: 'Hourly',
    enabled: true,
    alertEnabled: true,
    alertProfile: `${TRAIL_PROFILE}.${template}`,
    description,
    remediation,
    tags: ['domain:CloudA', 'subdomain:Trail'],
    constraints: NO_EXCEPTIONS,
  };
}

interface Cloud {
  readonly domain: string;
  readonly queryPrefix: string;
  readonly alertProfile: string;
  readonly framework: string;
}

const CLOUD_A: Cloud = {
  domain: 'CloudA',
  queryPrefix: 'SEC_Global_CloudA_Config_',
  alertProfile: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation',
  framework: 'framework:cis-cloud-a-1-4-0',
};
const CLOUD_B: Cloud = {
  domain: 'CloudB',
  queryPrefix: 'SEC_Global_CloudB_Config_',
  alertProfile: 'SEC_CFG_CLOUD_B_DEFAULT_PROFILE.Violation',
  framework: 'framework:cis-cloud-b-1-2-0',
};
const CLOUD_C: Cloud = {
  domain: 'CloudC',
  queryPrefix: 'SEC_Global_CloudC_Config_',
  alertProfile: 'SEC_CFG_CLOUD_C_DEFAULT_PROFILE.Violation',
  framework: 'framework:cis-cloud-c-1-3-1',
};

/** A configuration (compliance) policy: evaluated daily, shipped disabled with alerting off. */
function compliance(
  cloud: Cloud,
  number: number,
  title: string,
  severity: CatalogueSeverity,
  query: string,
  constraints: readonly CatalogueConstraint[],
): CataloguePolicy {
  return {
    number,
    title,
    policyType: 'Compliance',
    severity,
    queryId: `${cloud.queryPrefix}${query}`,
    evalFrequency: 'Daily',
    enabled: false,
    alertEnabled: false,
    alertProfile: cloud.alertProfile,
    description: `Checks the recommendation: ${title}.`,
    remediation: `Change the configuration so that it meets the recommendation: ${title}.`,
    tags: [`domain:${cloud.domain}`, 'security:compliance', cloud.framework],
    constraints,
  };
}

/** A recommendation the platform cannot check itself: it runs no query and takes no exceptions. */
function manual(cloud: Cloud, number: number, title: string, severity: CatalogueSeverity): CataloguePolicy {
  return {
    number,
    title,
    policyType: 'Manual',
    severity,
    queryId: '',
    evalFrequency: 'Daily',
    enabled: true,
    alertEnabled: false,
    alertProfile: '',
    description: `A recommendation to check by hand: ${title}.`,
    remediation: `Review the account and make sure that the recommendation holds: ${title}.`,
    tags: [`domain:${cloud.domain}`, 'security:compliance', cloud.framework],
    constraints: NO_EXCEPTIONS,
  };
}

const a = (
  number: number,
  title: string,
  severity: CatalogueSeverity,
  query: string,
  constraints: readonly CatalogueConstraint[],
) => compliance(CLOUD_A, number, title, severity, query, constraints);
const metricAlarm = (number: number, what: string, query: string) =>
  a(number, `Ensure a log metric filter and alarm exist for ${what}`, 'low', `MetricAlarm${query}`, CLOUD_A_ACCOUNT);

// ---------------------------------------------------------------------------------------------
// The catalogue, by number

export const BUILT_IN_POLICY_CATALOGUE: readonly CataloguePolicy[] = [
  // Cloud A activity (trail) policies.
  trail(
    1,
    'Virtual Private Cloud (VPC) Change',
    'medium',
    'VPCChange',
    'VPCChange_CloudAResource',
    'A VPC was created, deleted or changed',
    'Check that the VPC change was expected. Ensure only specified users can modify VPCs.',
  ), // D
  trail(
    2,
    'Cloud A Trail Change',
    'high',
    'TrailChange',
    'CloudATrailDefaultAlert_CloudAResource',
    'A trail was created, deleted, stopped or changed',
    'Check that the trail change was expected. Ensure only specified users can change trails.',
  ), // U
  trail(
    10,
    'Object Store Bucket Deleted',
    'low',
    'ObjectStoreBucketDeleted',
    'CloudATrailDefaultAlert_CloudAResource',
    'An object store bucket was deleted',
    'Check that the bucket deletion was expected. Ensure only specified users can delete buckets.',
  ), // U

  // Cloud A benchmark, identity and access management.
  manual(CLOUD_A, 31, 'Maintain current contact details', 'low'), // B
  manual(CLOUD_A, 32, 'Ensure security contact information is registered', 'low'), // B
  manual(CLOUD_A, 33, 'Ensure security questions are registered in the Cloud A account', 'low'), // B
  a(34, "Ensure no 'root' user account access key exists", 'critical', 'RootAccessKeyExists', CLOUD_A_ACCOUNT), // D
  a(35, "Ensure MFA is enabled for the 'root' user account", 'critical', 'RootMfaNotEnabled', CLOUD_A_ACCOUNT), // B
  a(
    37,
    'Ensure IAM password policy requires minimum length of 14 or greater',
    'medium',
    'PasswordMinimumLength',
    CLOUD_A_ACCOUNT,
  ), // B
  a(38, 'Ensure IAM password policy prevents password reuse', 'medium', 'PasswordReuse', CLOUD_A_ACCOUNT), // B
  a(
    39,
    'Ensure multi-factor authentication (MFA) is enabled for all IAM users that have a console password',
    'high',
    'ConsoleUserMfaNotEnabled',
    [plain('accountIds'), plain('arns'), plain('resourceNames'), pairs('resourceTags')],
  ), // B
  a(
    40,
    'Do not setup access keys during initial user setup for all IAM users that have a console password',
    'medium',
    'AccessKeysAtUserSetup',
    CLOUD_A_RESOURCE,
  ), // B
  a(
    41,
    'Ensure credentials unused for 45 days or greater are disabled',
    'medium',
    'UnusedCredentials',
    CLOUD_A_RESOURCE,
  ), // B
  a(43, 'Ensure access keys are rotated every 90 days or less', 'medium', 'AccessKeyRotation', CLOUD_A_RESOURCE), // B
  a(
    44,
    'Ensure IAM users receive permissions only through groups',
    'low',
    'UserPermissionsNotThroughGroups',
    CLOUD_A_RESOURCE,
  ), // B
  a(
    45,
    'Ensure IAM policies that allow full "*:*" administrative privileges are not attached',
    'critical',
    'FullAdminPolicyAttached',
    CLOUD_A_RESOURCE,
  ), // B
  a(
    46,
    'Ensure a support role has been created to manage incidents with Cloud A support',
    'low',
    'SupportRoleMissing',
    CLOUD_A_ACCOUNT,
  ), // B
  a(
    69,
    "Ensure hardware MFA is enabled for the 'root' user account",
    'high',
    'RootHardwareMfaNotEnabled',
    CLOUD_A_ACCOUNT,
  ), // B
  manual(CLOUD_A, 70, 'Ensure instance roles are used for Cloud A resource access from instances', 'medium'), // B

  // Cloud A benchmark, storage.
  a(
    73,
    'Ensure the object store bucket policy is set to deny HTTP requests',
    'medium',
    'BucketAllowsHttp',
    CLOUD_A_RESOURCE,
  ), // B

  // Cloud A benchmark, logging.
  a(53, 'Ensure trail logging is enabled in all regions', 'high', 'TrailNotMultiRegion', CLOUD_A_ACCOUNT), // B
  a(
    54,
    'Ensure the object store bucket used to store trail logs is not publicly accessible',
    'critical',
    'TrailBucketPublic',
    CLOUD_A_RESOURCE,
  ), // B
  a(
    55,
    'Ensure trails are integrated with the Cloud A log service',
    'low',
    'TrailNotInLogService',
    CLOUD_A_REGIONAL_RESOURCE,
  ), // B
  a(
    56,
    'Ensure object store bucket access logging is enabled on the trail bucket',
    'low',
    'TrailBucketAccessLogging',
    CLOUD_A_RESOURCE,
  ), // B
  a(
    75,
    'Ensure trail log file validation is enabled',
    'low',
    'TrailLogFileValidationNotEnabled',
    CLOUD_A_REGIONAL_RESOURCE,
  ), // D
  a(
    76,
    'Ensure the Cloud A configuration recorder is enabled in all regions',
    'medium',
    'ConfigRecorderNotEnabled',
    CLOUD_A_ACCOUNT_REGION,
  ), // B
  a(
    77,
    'Ensure trail logs are encrypted at rest using customer-managed keys',
    'medium',
    'TrailLogsNotEncrypted',
    CLOUD_A_REGIONAL_RESOURCE,
  ), // B
  a(
    78,
    'Ensure rotation for customer created symmetric keys is enabled',
    'medium',
    'KeyRotationNotEnabled',
    CLOUD_A_REGIONAL_RESOURCE,
  ), // B
  a(
    79,
    'Ensure VPC flow logging is enabled in all VPCs',
    'medium',
    'VpcFlowLogsNotEnabled',
    CLOUD_A_REGIONAL_RESOURCE, // B
  ),

  // Cloud A benchmark, monitoring.
  metricAlarm(57, 'unauthorized API calls', 'UnauthorizedApiCalls'), // B
  metricAlarm(58, 'management console sign-in without MFA', 'ConsoleSignInWithoutMfa'), // B
  metricAlarm(59, "usage of 'root' account", 'RootUsage'), // B
  metricAlarm(60, 'IAM policy changes', 'IamPolicyChanges'), // B
  metricAlarm(61, 'trail configuration changes', 'TrailChanges'), // B
  metricAlarm(62, 'object store bucket policy changes', 'BucketPolicyChanges'), // B
  metricAlarm(63, 'changes to network gateways', 'NetworkGatewayChanges'), // B
  metricAlarm(64, 'route table changes', 'RouteTableChanges'), // B
  metricAlarm(65, 'VPC changes', 'VpcChanges'), // B
  metricAlarm(82, 'management console authentication failures', 'ConsoleAuthenticationFailures'), // B
  metricAlarm(83, 'disabling or scheduled deletion of customer created keys', 'KeyDisabledOrDeleted'), // B
  metricAlarm(84, 'configuration recorder changes', 'ConfigRecorderChanges'), // B
  metricAlarm(85, 'security group changes', 'SecurityGroupChanges'), // B
  metricAlarm(86, 'changes to Network Access Control Lists (NACL)', 'NetworkAclChanges'), // B

  // Cloud A benchmark, networking.
  a(
    68,
    'Ensure no security groups allow ingress from 0.0.0.0/0 to remote server administration ports',
    'high',
    'SecurityGroupOpenAdminPorts',
    CLOUD_A_REGIONAL_RESOURCE,
  ), // B
  a(87, "Ensure routing tables for VPC peering are 'least access'", 'medium', 'VpcPeeringRoutesNotLeastAccess', [
    plain('accountIds'),
    plain('regionNames'),
    plain('resourceNames', false),
    pairs('resourceTags'),
  ]), // B; constraints D

  // Cloud B benchmark.
  compliance(
    CLOUD_B,
    234,
    'Ensure that there are only Cloud B-managed service account keys for each service account',
    'medium',
    'UserManagedServiceAccountKeys',
    CLOUD_B_RESOURCE,
  ), // B
  compliance(
    CLOUD_B,
    235,
    'Ensure that service accounts have no admin privileges',
    'high',
    'ServiceAccountAdmin',
    CLOUD_B_RESOURCE,
  ), // B
  compliance(
    CLOUD_B,
    236,
    'Ensure that IAM users are not assigned the Service Account User or Service Account Token Creator roles at ' +
      'project level',
    'medium',
    'ServiceAccountUserRole',
    NO_EXCEPTIONS,
  ), // B
  compliance(
    CLOUD_B,
    237,
    'Ensure user-managed/external keys for service accounts are rotated every 90 days or less',
    'medium',
    'ServiceAccountKeyRotation',
    CLOUD_B_RESOURCE,
  ), // B
  compliance(
    CLOUD_B,
    245,
    'Ensure that audit logging is configured properly across all services and all users from a project',
    'medium',
    'AuditLoggingIncomplete',
    CLOUD_B_LABELLED_RESOURCE,
  ), // B
  compliance(
    CLOUD_B,
    264,
    'Ensure that instances are not configured to use the default service account',
    'medium',
    'InstanceDefaultServiceAccount',
    CLOUD_B_LABELLED_RESOURCE,
  ), // B
  compliance(
    CLOUD_B,
    270,
    'Ensure that object store buckets are not anonymously or publicly accessible',
    'critical',
    'BucketPublic',
    CLOUD_B_LABELLED_RESOURCE,
  ), // B
  compliance(
    CLOUD_B,
    300,
    'Ensure that the default network does not exist in a project',
    'low',
    'DefaultNetworkExists',
    CLOUD_B_LABELLED_RESOURCE,
  ), // B
  compliance(
    CLOUD_B,
    310,
    'Ensure that object store buckets have uniform bucket-level access enabled',
    'medium',
    'BucketUniformAccess',
    CLOUD_B_LABELLED_RESOURCE,
  ), // B

  // Cloud C benchmark.
  compliance(
    CLOUD_C,
    528,
    "Ensure that 'Secure transfer required' is set to 'Enabled' for storage accounts",
    'medium',
    'StorageSecureTransfer',
    CLOUD_C_RESOURCE,
  ), // B
  compliance(
    CLOUD_C,
    530,
    'Ensure that storage account access keys are periodically regenerated',
    'medium',
    'StorageKeysNotRegenerated',
    NO_EXCEPTIONS,
  ), // B
  compliance(
    CLOUD_C,
    532,
    "Ensure that 'Public access level' is set to Private for blob containers",
    'high',
    'BlobContainerPublic',
    CLOUD_C_RESOURCE,
  ), // B
  compliance(
    CLOUD_C,
    579,
    'Ensure the key vault is recoverable',
    'high',
    'KeyVaultNotRecoverable',
    CLOUD_C_RESOURCE, // B
  ),
  compliance(
    CLOUD_C,
    598,
    "Ensure that threat protection for servers is set to 'On'",
    'high',
    'ServerThreatProtectionOff',
    NO_EXCEPTIONS,
  ), // B
  compliance(
    CLOUD_C,
    642,
    'Ensure app service authentication is set up for apps in the Cloud C app service',
    'medium',
    'AppServiceAuthentication',
    CLOUD_C_RESOURCE,
  ), // B
];
