import { z } from 'zod';
import { CLOUD_B_SCOPES, CLOUD_C_INTEGRATION_LEVELS } from '../../wire/sec-contract/cloud-accounts.js';
import { segment, type CallOptions, type SecHttp } from './http.js';
import {
  integrationBody,
  integrationModelled,
  readingDeclaredData,
  integrationSchema,
  type Integration,
  type IntegrationInput,
} from './integration.js';
import { replaceKeeping } from './replace.js';
import { envelope } from './wire.js';
import { isOwnKey, ownEntry } from '@keel/provider-framework/client';

/**
 * Cloud-account integrations (`/api/v2/CloudAccounts`): the platform's view into the customer's
 * cloud accounts. `data` of each type in the neutral wire format (docs/api/sec.md, "Cloud account types";
 * docs/decisions.md, "Neutral names").
 *
 * Secret fields are optional: the platform returns them blank or not at all, so callers keep their
 * own copy; on create and update they must be sent. Lists the platform keeps as one comma-joined
 * string (`monitoredAccounts`, `filterList`, `subscriptionsList`) stay strings here: see
 * `joinWireList` / `splitWireList`.
 */
const secret = z.string().optional();
const optionalText = z.string().optional();

const roleCredentials = z.object({ roleArn: z.string(), externalId: z.string() });
const accessKeyCredentials = z.object({ accountId: z.string(), accessKeyId: z.string(), secretAccessKey: secret });
const cloudBCredentials = z.object({
  clientId: z.string(),
  clientEmail: z.string(),
  privateKeyId: secret,
  privateKey: secret,
});
const cloudCCredentials = z.object({ clientId: z.string(), clientSecret: secret });
const cloudBScope = z.enum(CLOUD_B_SCOPES);

/** The agentless scanners' shared schedule and scope settings. */
const scanSettings = {
  scanFrequency: z.number().int(),
  scanContainers: z.boolean(),
  scanHostVulnerabilities: z.boolean(),
  scanMultiVolume: z.boolean(),
  scanStoppedInstances: z.boolean(),
  queryText: optionalText,
};

const cloudAAgentless = {
  ...scanSettings,
  cloudAAccountId: optionalText,
  bucketArn: optionalText,
  crossAccountCredentials: z.object({ roleArn: optionalText, externalId: optionalText }).optional(),
};

/**
 * What the provider models of each type's `data`: what its resource maps. The platform holds more
 * (the account id of a configuration or trail integration, which the console sets and upstream never
 * sent); an update keeps what is not named here (replace.ts).
 */
export const CLOUD_ACCOUNT_DATA_SCHEMAS = readingDeclaredData('CloudAccounts', {
  CloudACfg: z.object({ crossAccountCredentials: roleCredentials }),
  CloudACtSqs: z.object({
    crossAccountCredentials: roleCredentials,
    queueUrl: z.string(),
    /** A JSON data URL, see encodeAccountMappings. */
    accountMappingFile: optionalText,
  }),
  CloudAEksAudit: z.object({ crossAccountCredentials: roleCredentials, topicArn: z.string(), bucketArn: optionalText }),
  CloudAGovCfg: z.object({ accessKeyCredentials }),
  CloudAGovCtSqs: z.object({ accessKeyCredentials, queueUrl: z.string() }),
  CloudAAgentless: z.object(cloudAAgentless),
  CloudAAgentlessOrg: z.object({
    ...cloudAAgentless,
    /** May be blank, and the platform may then leave it out. */
    scanningAccount: optionalText,
    /** Account ids or organisational units, joined with ", "; may be blank. */
    monitoredAccounts: optionalText,
    managementAccount: optionalText,
    accountMappingFile: optionalText,
  }),
  CloudADspm: z.object({
    cloudAAccountId: optionalText,
    bucketArn: z.string(),
    crossAccountCredentials: roleCredentials,
    regions: z.array(z.string()),
  }),
  CloudBCfg: z.object({ credentials: cloudBCredentials, idType: cloudBScope, id: z.string() }),
  CloudBAtSes: z.object({
    credentials: cloudBCredentials,
    idType: cloudBScope,
    id: z.string(),
    subscriptionName: z.string(),
  }),
  CloudBAlPubSub: z.object({
    credentials: cloudBCredentials,
    integrationType: cloudBScope,
    organizationId: optionalText,
    projectId: z.string(),
    subscriptionName: z.string(),
    topicId: z.string(),
  }),
  CloudBGkeAudit: z.object({
    credentials: cloudBCredentials,
    integrationType: cloudBScope,
    organizationId: optionalText,
    projectId: z.string(),
    subscriptionName: z.string(),
  }),
  CloudBAgentless: z.object({
    ...scanSettings,
    credentials: cloudBCredentials.extend({ tokenUri: optionalText }),
    idType: cloudBScope,
    id: z.string(),
    sharedBucketName: z.string(),
    scanningProjectId: z.string(),
    /** Projects to include or exclude, joined with ", ". */
    filterList: optionalText,
  }),
  CloudCCfg: z.object({ credentials: cloudCCredentials, tenantId: z.string() }),
  CloudCAlSeq: z.object({ credentials: cloudCCredentials, tenantId: z.string(), queueUrl: z.string() }),
  CloudCAdAl: z.object({
    credentials: cloudCCredentials,
    tenantId: z.string(),
    eventStreamNamespace: z.string(),
    eventStreamName: z.string(),
  }),
  CloudCAgentless: z.object({
    ...scanSettings,
    credentials: cloudCCredentials,
    integrationLevel: z.enum(CLOUD_C_INTEGRATION_LEVELS),
    scanningSubscriptionId: z.string(),
    tenantId: z.string(),
    blobContainerName: z.string(),
    scanningResourceGroupName: z.string(),
    storageAccountUrl: z.string(),
    /** Subscriptions to include or exclude, joined with ", ". */
    subscriptionsList: optionalText,
  }),
  CloudCDspm: z.object({
    tenantId: optionalText,
    storageAccountUrl: z.string(),
    blobContainerName: z.string(),
    credentials: cloudCCredentials,
    regions: z.array(z.string()),
  }),
  CloudDCfg: z.object({
    credentials: z.object({ fingerprint: z.string(), privateKey: secret }),
    homeRegion: z.string(),
    tenantId: z.string(),
    tenantName: z.string(),
    userId: z.string(),
  }),
} as const);

export type CloudAccountType = keyof typeof CLOUD_ACCOUNT_DATA_SCHEMAS;

export const CLOUD_ACCOUNT_TYPES = Object.keys(CLOUD_ACCOUNT_DATA_SCHEMAS) as CloudAccountType[];

export type CloudAccountData<T extends CloudAccountType> = z.output<(typeof CLOUD_ACCOUNT_DATA_SCHEMAS)[T]>;

/** A cloud-account integration of one of the known types; narrow on `type`. */
export type CloudAccount<T extends CloudAccountType = CloudAccountType> = {
  [K in T]: Integration<K, CloudAccountData<K>>;
}[T];

export type CloudAccountInput<T extends CloudAccountType> = IntegrationInput<T, CloudAccountData<T>>;

export interface CloudAccountsApi {
  create<T extends CloudAccountType>(input: CloudAccountInput<T>, options?: CallOptions): Promise<CloudAccount<T>>;
  /** ApiError 'not_found' when it does not exist. */
  get(intgGuid: string, options?: CallOptions): Promise<CloudAccount>;
  /** Replaces name, enabled and data; the type cannot change. */
  update<T extends CloudAccountType>(
    intgGuid: string,
    input: CloudAccountInput<T>,
    options?: CallOptions,
  ): Promise<CloudAccount<T>>;
  delete(intgGuid: string, options?: CallOptions): Promise<void>;
  /** Every cloud account of a known type (the platform may hold types this client does not model). */
  list(options?: CallOptions): Promise<CloudAccount[]>;
  /** The cloud accounts of one type. */
  listOfType<T extends CloudAccountType>(type: T, options?: CallOptions): Promise<CloudAccount<T>[]>;
}

const BASE = '/api/v2/CloudAccounts';

const isKnownType = (type: string): type is CloudAccountType => isOwnKey(CLOUD_ACCOUNT_DATA_SCHEMAS, type);

/** The generic integration, with `data` checked against the schema of its `type`. */
const cloudAccountSchema = integrationSchema.transform((account, ctx) => {
  const dataSchema = ownEntry(CLOUD_ACCOUNT_DATA_SCHEMAS, account.type) as z.ZodType | undefined;
  if (!dataSchema) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `unsupported cloud account type ${JSON.stringify(account.type)}`,
    });
    return z.NEVER;
  }
  const data = dataSchema.safeParse(account.data);
  if (!data.success) {
    for (const issue of data.error.issues)
      ctx.addIssue({ code: 'custom', path: ['data', ...issue.path], message: issue.message });
    return z.NEVER;
  }
  return { ...account, data: data.data } as CloudAccount;
});

const one = envelope(cloudAccountSchema);

/**
 * Lists are checked item by item: objects of types this client does not model are left out (so
 * one of them does not make the whole list unreadable); the others must have their type's shape.
 */
const many = envelope(
  z.array(z.unknown()).transform((items, ctx) => {
    const known: CloudAccount[] = [];
    items.forEach((item, index) => {
      const type = (item as { type?: unknown } | null)?.type;
      if (typeof type === 'string' && !isKnownType(type)) return;
      const parsed = cloudAccountSchema.safeParse(item);
      if (parsed.success) known.push(parsed.data);
      else
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', path: [index, ...issue.path], message: issue.message });
    });
    return known;
  }),
);

export function cloudAccountsApi(http: SecHttp): CloudAccountsApi {
  const item = (intgGuid: string) => `${BASE}/${segment(intgGuid)}`;
  return {
    async create(input, options) {
      const call = { method: 'POST', path: BASE, operation: `POST ${BASE}`, body: integrationBody(input) } as const;
      return (await http.json(call, one, options)).data as CloudAccount<typeof input.type>;
    },
    async get(intgGuid, options) {
      return (
        await http.json({ method: 'GET', path: item(intgGuid), operation: `GET ${BASE}/{intgGuid}` }, one, options)
      ).data;
    },
    async update(intgGuid, input, options) {
      const call = {
        method: 'PATCH',
        path: item(intgGuid),
        operation: `PATCH ${BASE}/{intgGuid}`,
        body: integrationBody(input, intgGuid),
      } as const;
      const modelled = integrationModelled(CLOUD_ACCOUNT_DATA_SCHEMAS[input.type], input.declared);
      return (await replaceKeeping(http, call, modelled, one, options)).data as CloudAccount<typeof input.type>;
    },
    async delete(intgGuid, options) {
      await http.empty({ method: 'DELETE', path: item(intgGuid), operation: `DELETE ${BASE}/{intgGuid}` }, options);
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
    async listOfType(type, options) {
      const call = { method: 'GET', path: `${BASE}/${segment(type)}`, operation: `GET ${BASE}/{type}` } as const;
      const response = await http.json(call, envelope(z.array(cloudAccountSchema)), options);
      return response.data.filter((account) => account.type === type) as CloudAccount<typeof type>[];
    },
  };
}

export {
  decodeAccountMappings,
  encodeAccountMappings,
  joinWireList,
  splitWireList,
  type AccountMappings,
} from './account-mappings.js';
