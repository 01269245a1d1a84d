/**
 * The platform's built-in alert profiles, as its public documentation and upstream's examples
 * show them (neutral names: `LW_` → `SEC_`, AWS/GCP/Azure/OCI → Cloud A/B/C/D, CloudTrail →
 * Cloud A trail). Data only; alert-profiles.ts serves it.
 *
 * Facts and where they come from:
 * - Every built-in profile extends a base profile that declares the fields every alert has
 *   (`_OCCURRENCE`, `_POLICY_ID`, …); its `fields` list carries those too (the platform's answer
 *   for the host-file profile lists them; the SDK's tests hold that answer).
 * - "For each platform-defined datasource, each field of that datasource is already defined as an
 *   alert profile field" (the alert-profile overview): so the configuration profiles carry the
 *   fields of their datasources, `RESOURCE_REGION` among them (the documented Cloud A profile
 *   uses it, and upstream's alert-profile example extends the Cloud B one with it).
 * - Template names: the documented Cloud A profile has `CFG_…_NewViolation` and
 *   `CFG_…_PolicyChanged`, policies name `CFG_…_Violation`; the Cloud B/C/D profiles' template is
 *   `Violation`; the host-file profile has `HE_File_Violation`, `_PolicyChanged`, `_NewViolation`;
 *   the trail profile has `CloudATrailDefaultAlert_CloudAResource` (upstream's policy docs) and
 *   `VPCChange_CloudAResource` (the platform's policy example).
 */

export interface CatalogueTemplate {
  readonly name: string;
  readonly eventName: string;
  readonly subject: string;
  readonly description: string;
}

export interface CatalogueAlertProfile {
  readonly alertProfileId: string;
  /** "" for the base profile only. */
  readonly extends: string;
  /** The profile's own fields; it also has every field of the profile it extends. */
  readonly fields: readonly string[];
  readonly alerts: readonly CatalogueTemplate[];
}

/** The profile every built-in one extends. */
export const BASE_PROFILE = 'SEC_BaseProfile';

const BASE_FIELDS = [
  '_OCCURRENCE',
  '_PRIMARY_TAG',
  '_EVENT_COUNT',
  '_POLICY_ID',
  '_POLICY_TITLE',
  '_POLICY_DESCRIPTION',
  '_POLICY_SEVERITY',
  '_SEVERITY',
  '_RISK',
];

/** Fields of the configuration datasources every cloud shares. */
const CONFIG_FIELDS = [
  'RESOURCE_ID',
  'RESOURCE_KEY',
  'RESOURCE_TYPE',
  'RESOURCE_REGION',
  'RESOURCE_CONFIG',
  'SERVICE',
  'COMPLIANCE_FAILURE_REASON',
];

/** The three templates of a configuration profile: `<prefix>Violation`, `…NewViolation`, `…PolicyChanged`. */
function configTemplates(prefix: string, cloud: string, where: string): CatalogueTemplate[] {
  const subject = `{{_OCCURRENCE}} violation detected for ${cloud} resource {{RESOURCE_TYPE}}:{{RESOURCE_ID}} ${where}`;
  const description = `{{_OCCURRENCE}} violation for ${cloud} resource {{RESOURCE_TYPE}}:{{RESOURCE_ID}} ${where}`;
  const eventName = `Platform Configuration ${cloud} Violation Alert`;
  return ['Violation', 'NewViolation', 'PolicyChanged'].map((kind) => ({
    name: `${prefix}${kind}`,
    eventName,
    subject,
    description,
  }));
}

export const BUILT_IN_ALERT_PROFILES: readonly CatalogueAlertProfile[] = [
  { alertProfileId: BASE_PROFILE, extends: '', fields: BASE_FIELDS, alerts: [] },
  {
    alertProfileId: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE',
    extends: BASE_PROFILE,
    fields: ['ACCOUNT_ID', 'ACCOUNT_ALIAS', 'ARN', 'RESOURCE_TAGS', ...CONFIG_FIELDS],
    alerts: configTemplates('CFG_CLOUD_A_', 'Cloud A', 'in account {{ACCOUNT_ID}} region {{RESOURCE_REGION}}'),
  },
  {
    alertProfileId: 'SEC_CFG_CLOUD_B_DEFAULT_PROFILE',
    extends: BASE_PROFILE,
    fields: ['ORGANIZATION_ID', 'PROJECT_ID', 'PROJECT_NUMBER', 'URN', 'RESOURCE_LABELS', ...CONFIG_FIELDS],
    alerts: configTemplates('', 'Cloud B', 'in project {{PROJECT_ID}} region {{RESOURCE_REGION}}'),
  },
  {
    alertProfileId: 'SEC_CFG_CLOUD_C_DEFAULT_PROFILE',
    extends: BASE_PROFILE,
    fields: [
      'TENANT_ID',
      'TENANT_NAME',
      'SUBSCRIPTION_ID',
      'SUBSCRIPTION_NAME',
      'RESOURCE_GROUP',
      'RESOURCE_TAGS',
      ...CONFIG_FIELDS,
    ],
    alerts: configTemplates('', 'Cloud C', 'in subscription {{SUBSCRIPTION_ID}} region {{RESOURCE_REGION}}'),
  },
  {
    alertProfileId: 'SEC_CFG_CLOUD_D_DEFAULT_PROFILE',
    extends: BASE_PROFILE,
    fields: ['TENANT_ID', 'TENANT_NAME', 'COMPARTMENT_ID', 'RESOURCE_TAGS', ...CONFIG_FIELDS],
    alerts: configTemplates('', 'Cloud D', 'in tenancy {{TENANT_ID}} region {{RESOURCE_REGION}}'),
  },
  {
    // Activity (trail) events of Cloud A: the fields of the raw trail events.
    alertProfileId: 'SEC_CloudATrail_Alerts',
    extends: BASE_PROFILE,
    fields: ['INSERT_ID', 'INSERT_TIME', 'EVENT_TIME', 'EVENT', 'EVENT_NAME', 'EVENT_SOURCE', 'ERROR_CODE'],
    alerts: [
      {
        name: 'CloudATrailDefaultAlert_CloudAResource',
        eventName: 'Platform Cloud A Trail Alert',
        subject: '{{_OCCURRENCE}}: {{EVENT_NAME}} on {{EVENT_SOURCE}}',
        description: '{{_POLICY_TITLE}}: {{EVENT_NAME}} was called on {{EVENT_SOURCE}} at {{EVENT_TIME}}',
      },
      {
        name: 'VPCChange_CloudAResource',
        eventName: 'Platform Cloud A VPC Change Alert',
        subject: '{{_OCCURRENCE}}: VPC changed by {{EVENT_NAME}}',
        description: 'A VPC was created, deleted or changed: {{EVENT_NAME}} at {{EVENT_TIME}}',
      },
    ],
  },
  {
    alertProfileId: 'SEC_HE_FILES_DEFAULT_PROFILE',
    extends: BASE_PROFILE,
    fields: [
      'MID',
      'PATH',
      'FILE_NAME',
      'FILE_TYPE',
      'SIZE',
      'INODE',
      'IS_LINK',
      'LINK_DEST_PATH',
      'LINK_ABS_DEST_PATH',
      'HARD_LINK_COUNT',
      'BLOCK_SIZE',
      'BLOCK_COUNT',
      'OWNER_UID',
      'OWNER_GID',
      'OWNER_USERNAME',
      'FILE_PERMISSIONS',
      'METADATA_HASH',
      'FILEDATA_HASH',
      'FILE_CREATED_TIME',
      'FILE_MODIFIED_TIME',
      'FILE_ACCESSED_TIME',
      'RECORD_CREATED_TIME',
    ],
    alerts: ['Violation', 'PolicyChanged', 'NewViolation'].map((kind) => ({
      name: `HE_File_${kind}`,
      eventName: 'Platform Host Entity File Violation Alert',
      subject: '{{_OCCURRENCE}} violation detected for file {{PATH}} on machine {{MID}}',
      description: '{{_OCCURRENCE}} violation for file {{PATH}} on machine {{MID}}',
    })),
  },
];
