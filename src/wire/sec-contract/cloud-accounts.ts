import { bodiesByType } from './integrations.js';
import { type ContractBodies, field, invalid, type ObjectSpec } from './language.js';

/**
 * Cloud-account integrations: the `data` object of every type in the neutral wire format
 * (docs/api/sec.md, "Cloud account types"; docs/decisions.md, "Neutral names"). `secret` fields are
 * blanked on reads, as the platform does with private keys and client secrets. Adding a type is one
 * entry in the table. Each is named `CloudAccounts:<type>` in the contract.
 */
const text = (options: { optional?: boolean } = {}) => field.string(options);
/** Free text the platform stores as given, blank included. */
const optionalFreeText = field.string({ optional: true, allowEmpty: true });

const roleCredentials = field.object({ roleArn: text(), externalId: text() });
const accessKeyCredentials = field.object({
  accountId: text(),
  accessKeyId: text(),
  secretAccessKey: field.string({ secret: true }),
});
const cloudBCredentialFields = {
  clientId: text(),
  clientEmail: field.string({ format: 'email' }),
  privateKey: field.string({ secret: true, format: 'pem-private-key' }),
};
/** Cfg, audit trail and agentless show the key id back; pub/sub and cluster audit logs treat it as a secret. */
const cloudBCredentials = (keyIdSecret: boolean) =>
  field.object({ ...cloudBCredentialFields, privateKeyId: field.string({ secret: keyIdSecret }) });
const cloudCCredentials = field.object({ clientId: text(), clientSecret: field.string({ secret: true }) });
/** What a CloudB integration's id names. */
export const CLOUD_B_SCOPES = ['PROJECT', 'ORGANIZATION'] as const;
const cloudBScope = field.string({ oneOf: CLOUD_B_SCOPES });
/** Where a CloudC scanner works. */
export const CLOUD_C_INTEGRATION_LEVELS = ['SUBSCRIPTION', 'TENANT'] as const;

const scanSettings = {
  // Hours between scans. The platform publishes no maximum; a year (chosen) is beyond any use.
  scanFrequency: field.integer({ min: 1, max: 8760 }),
  scanContainers: field.boolean(),
  scanHostVulnerabilities: field.boolean(),
  scanMultiVolume: field.boolean(),
  scanStoppedInstances: field.boolean(),
  queryText: optionalFreeText,
};

/** The account-mapping document inside `accountMappingFile` (a JSON data URL). */
const accountMappingFile = field.string({ optional: true, format: 'json-data-url' });

const ACCOUNT_MAPPINGS_RULE =
  'accountMappingFile holds a JSON object with defaultPlatformAccountCloudA and, optionally, integration_mappings';
const ORGANIZATION_RULE = 'organizationId is required when integrationType is ORGANIZATION';

function checkAccountMappings(data: Record<string, unknown>, path: string): void {
  const value = data.accountMappingFile;
  if (typeof value !== 'string') return;
  const where = `${path}.accountMappingFile`;
  const document = JSON.parse(Buffer.from(value.slice(value.indexOf(',') + 1), 'base64').toString('utf8')) as unknown;
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw invalid(`${where} must hold a JSON object`);
  const { defaultPlatformAccountCloudA: fallback, integration_mappings: mappings } = document as Record<
    string,
    unknown
  >;
  if (typeof fallback !== 'string' || fallback === '') {
    throw invalid(
      `${where}: defaultPlatformAccountCloudA is required (the platform account that receives unmapped accounts)`,
    );
  }
  if (mappings === undefined) return;
  if (typeof mappings !== 'object' || mappings === null || Array.isArray(mappings)) {
    throw invalid(`${where}: integration_mappings must be an object keyed by platform account`);
  }
  const seen = new Map<string, string>();
  for (const [platformAccount, entry] of Object.entries(mappings as Record<string, unknown>)) {
    const ids = (entry as { cloud_a_accounts?: unknown } | null)?.cloud_a_accounts;
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string' && id !== '')) {
      throw invalid(
        `${where}: integration_mappings.${platformAccount}.cloud_a_accounts must be a non-empty array of account ids`,
      );
    }
    for (const id of ids as string[]) {
      const other = seen.get(id);
      if (other !== undefined)
        throw invalid(`${where}: account ${id} is mapped to both ${other} and ${platformAccount}`);
      seen.set(id, platformAccount);
    }
  }
}

/** An organisation-level scope needs the organisation. */
function checkOrganization(scopeField: string) {
  return (data: Record<string, unknown>, path: string): void => {
    if (data[scopeField] === 'ORGANIZATION' && !data.organizationId) {
      throw invalid(`${path}.organizationId is required when ${scopeField} is ORGANIZATION`);
    }
  };
}

const cloudAAgentless = {
  ...scanSettings,
  cloudAAccountId: text({ optional: true }),
  bucketArn: text({ optional: true }),
  crossAccountCredentials: field.object({ roleArn: text(), externalId: text() }, { optional: true }),
};

const regions = field.array(text(), { minItems: 1 });

export const CLOUD_ACCOUNT_DATA_SPECS: Readonly<Record<string, ObjectSpec>> = {
  CloudACfg: field.object({ crossAccountCredentials: roleCredentials, cloudAAccountId: text({ optional: true }) }),
  CloudACtSqs: field.object(
    {
      crossAccountCredentials: roleCredentials,
      queueUrl: field.string({ format: 'url' }),
      cloudAAccountId: text({ optional: true }),
      accountMappingFile,
    },
    { check: checkAccountMappings, checkRule: ACCOUNT_MAPPINGS_RULE },
  ),
  CloudAEksAudit: field.object({
    crossAccountCredentials: roleCredentials,
    topicArn: text(),
    bucketArn: text({ optional: true }),
  }),
  CloudAGovCfg: field.object({ accessKeyCredentials }),
  CloudAGovCtSqs: field.object({ accessKeyCredentials, queueUrl: field.string({ format: 'url' }) }),
  CloudAAgentless: field.object(cloudAAgentless),
  CloudAAgentlessOrg: field.object(
    {
      ...cloudAAgentless,
      // Both may be blank: the platform accepts an organisation integration whose scanner and
      // monitored accounts are not named yet (upstream's acceptance test creates one so).
      scanningAccount: field.string({ allowEmpty: true }),
      monitoredAccounts: field.string({ allowEmpty: true }),
      managementAccount: text({ optional: true }),
      accountMappingFile,
    },
    { check: checkAccountMappings, checkRule: ACCOUNT_MAPPINGS_RULE },
  ),
  CloudADspm: field.object({
    cloudAAccountId: text({ optional: true }),
    bucketArn: text(),
    crossAccountCredentials: roleCredentials,
    regions,
  }),
  CloudBCfg: field.object({ credentials: cloudBCredentials(false), idType: cloudBScope, id: text() }),
  CloudBAtSes: field.object({
    credentials: cloudBCredentials(false),
    idType: cloudBScope,
    id: text(),
    subscriptionName: text(),
  }),
  CloudBAlPubSub: field.object(
    {
      credentials: cloudBCredentials(true),
      integrationType: cloudBScope,
      organizationId: text({ optional: true }),
      projectId: text(),
      subscriptionName: text(),
      topicId: text(),
    },
    { check: checkOrganization('integrationType'), checkRule: ORGANIZATION_RULE },
  ),
  CloudBGkeAudit: field.object(
    {
      credentials: cloudBCredentials(true),
      integrationType: cloudBScope,
      organizationId: text({ optional: true }),
      projectId: text(),
      subscriptionName: text(),
    },
    { check: checkOrganization('integrationType'), checkRule: ORGANIZATION_RULE },
  ),
  CloudBAgentless: field.object({
    ...scanSettings,
    credentials: field.object({
      ...cloudBCredentialFields,
      privateKeyId: text(),
      tokenUri: field.string({ optional: true, format: 'url' }),
    }),
    idType: cloudBScope,
    id: text(),
    sharedBucketName: text(),
    scanningProjectId: text(),
    filterList: optionalFreeText,
  }),
  CloudCCfg: field.object({ credentials: cloudCCredentials, tenantId: text() }),
  CloudCAlSeq: field.object({
    credentials: cloudCCredentials,
    tenantId: text(),
    queueUrl: field.string({ format: 'url' }),
  }),
  CloudCAdAl: field.object({
    credentials: cloudCCredentials,
    tenantId: text(),
    eventStreamNamespace: text(),
    eventStreamName: text(),
  }),
  CloudCAgentless: field.object({
    ...scanSettings,
    credentials: cloudCCredentials,
    integrationLevel: field.string({ oneOf: CLOUD_C_INTEGRATION_LEVELS }),
    scanningSubscriptionId: text(),
    tenantId: text(),
    blobContainerName: text(),
    scanningResourceGroupName: text(),
    storageAccountUrl: field.string({ format: 'url' }),
    subscriptionsList: optionalFreeText,
  }),
  CloudCDspm: field.object({
    tenantId: text({ optional: true }),
    storageAccountUrl: field.string({ format: 'url' }),
    blobContainerName: text(),
    credentials: cloudCCredentials,
    regions,
  }),
  CloudDCfg: field.object({
    credentials: field.object({
      // The key's MD5 fingerprint, as the cloud's console shows it.
      fingerprint: field.string({
        pattern: '^([0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2}$',
        patternRule: 'a key fingerprint of 16 colon-separated hex pairs',
      }),
      privateKey: field.string({ secret: true, format: 'pem-private-key' }),
    }),
    homeRegion: text(),
    tenantId: text(),
    tenantName: text(),
    userId: text(),
  }),
};

export const CLOUD_ACCOUNT_BODIES: ContractBodies = bodiesByType('CloudAccounts', CLOUD_ACCOUNT_DATA_SPECS);
