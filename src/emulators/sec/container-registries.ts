import { field, invalid, quote, type FieldSpec, type ObjectSpec, type Router } from '../core/index.js';
import type { SecContext } from './context.js';
import { registerIntegrationRoutes, type IntegrationFamily } from './integrations.js';

/**
 * Container registries and scanners (docs/api/sec.md, "Registry kinds"): the generic integration routes
 * under /api/v2/ContainerRegistries. Every object has `type` ContVulnCfg; `data.registryType`
 * decides what `data` must hold. Scanners get a server token on create. Secrets are blanked on reads.
 */
export const CONTAINER_REGISTRIES_COLLECTION = 'ContainerRegistries';
export const CONTAINER_REGISTRY_TYPE = 'ContVulnCfg';

const REGISTRY_B_DOMAINS = [
  ...[
    'northamerica-northeast1',
    'us-central1',
    'us-east1',
    'us-east4',
    'us-west1',
    'us-west2',
    'us-west3',
    'us-west4',
    'southamerica-east1',
    'europe-north1',
    'europe-west1',
    'europe-west2',
    'europe-west3',
    'europe-west4',
    'europe-west6',
    'asia-east1',
    'asia-east2',
    'asia-northeast1',
    'asia-northeast2',
    'asia-northeast3',
    'asia-south1',
    'asia-southeast1',
    'asia-southeast2',
    'australia-southeast1',
  ].map((region) => `${region}-docker.pkg.dev`),
  'asia-docker.pkg.dev',
  'europe-docker.pkg.dev',
  'us-docker.pkg.dev',
];
const REGISTRY_C_DOMAINS = ['gcr.io', 'us.gcr.io', 'eu.gcr.io', 'asia.gcr.io'];

const SCANNER_TYPES = new Set(['PROXY_SCANNER', 'INLINE_SCANNER']);

const tags = field.array(field.string(), { optional: true });
const repositories = field.array(field.string(), { optional: true });
const nonOsPackageEval = field.boolean({ optional: true });
// Newest images assessed per repository: registry A allows 5, 10 or 15 (checkImageCount); for the
// others the platform publishes no maximum, so 100 (chosen) bounds it.
const limitNumImg = field.integer({ optional: true, min: 1, max: 100 });

const gcpStyleCredentials = field.object({
  clientId: field.string(),
  clientEmail: field.string({ format: 'email' }),
  // The platform returns neither the key nor its id (also where the id is not treated as a secret).
  privateKeyId: field.string({ secret: true }),
  privateKey: field.string({ secret: true, format: 'pem-private-key' }),
});
const userCredentials = (withSsl: boolean) =>
  field.object({
    username: field.string(),
    password: field.string({ secret: true }),
    ...(withSsl ? { ssl: field.boolean({ optional: true }) } : {}),
  });

/**
 * Labels and identifier tags travel as a list of single-entry maps `{<key>: <value>}`. The body-spec
 * language has no open maps, so the item spec is built from the keys the body actually uses; the
 * check then demands exactly one entry per item.
 */
function keyValueList(value: unknown, what: string): FieldSpec {
  const keys = new Set<string>();
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'object' && item !== null && !Array.isArray(item))
        for (const key of Object.keys(item)) keys.add(key);
    }
  }
  const item = field.object(
    Object.fromEntries([...keys].map((key) => [key, field.string({ optional: true, allowEmpty: true })])),
    {
      checkRule: `each item holds exactly one ${what} as {"<key>": "<value>"}, its key not blank`,
      check: (entry, path) => {
        const entries = Object.entries(entry);
        if (entries.length !== 1)
          throw invalid(
            `${path} must hold exactly one ${what} as {"<key>": "<value>"} (got ${entries.length} entries)`,
          );
        const [key, itemValue] = entries[0]!;
        if (key.trim() === '') throw invalid(`${path} must have a non-empty ${what} key`);
        if (typeof itemValue !== 'string') throw invalid(`${path}.${key} must be a string`);
      },
    },
  );
  return field.array(item, { optional: true });
}

/** The platform assesses the newest 5, 10 or 15 images of each repository. */
function checkImageCount(data: Record<string, unknown>, path: string): void {
  const value = data.limitNumImg;
  if (typeof value === 'number' && ![5, 10, 15].includes(value))
    throw invalid(`${path}.limitNumImg must be one of 5, 10, 15 (got ${value})`);
}

/** `data` of each registry type, given the labels the body carries. */
function registrySpec(registryType: string, data: Record<string, unknown>): ObjectSpec {
  const registryTypeField = field.string({ oneOf: [registryType] });
  const limitByLabel = keyValueList(data.limitByLabel, 'label');
  /** The image limits every registry but RegistryE has, with the image-count rule. */
  const limited = (fields: Record<string, FieldSpec>, check?: ObjectSpec['check']): ObjectSpec =>
    field.object(
      {
        registryType: registryTypeField,
        ...fields,
        limitByTag: tags,
        limitByLabel,
        limitByRep: repositories,
        limitNumImg,
      },
      {
        checkRule: 'limitNumImg is one the registry kind takes, and the kind’s own rules',
        check: (value, path) => {
          checkImageCount(value, path);
          check?.(value, path);
        },
      },
    );
  switch (registryType) {
    case 'REGISTRY_A':
      return limited(
        {
          registryDomain: field.string(),
          authType: field.string({ oneOf: ['ROLE', 'ACCESS_KEY'] }),
          crossAccountCredentials: field.object(
            { roleArn: field.string(), externalId: field.string() },
            { optional: true },
          ),
          accessKeyCredentials: field.object(
            { accessKeyId: field.string(), secretAccessKey: field.string({ secret: true }) },
            { optional: true },
          ),
          nonOsPackageEval,
        },
        (value, path) => {
          // Each authentication kind carries exactly its own credentials object.
          const [wanted, other] =
            value.authType === 'ROLE'
              ? ['crossAccountCredentials', 'accessKeyCredentials']
              : ['accessKeyCredentials', 'crossAccountCredentials'];
          if (value[wanted] === undefined || value[wanted] === null)
            throw invalid(`${path}.${wanted} is required when authType is ${String(value.authType)}`);
          if (value[other] !== undefined && value[other] !== null)
            throw invalid(`${path}.${other} must not be sent when authType is ${String(value.authType)}`);
        },
      );
    case 'REGISTRY_B':
      return limited({
        registryDomain: field.string({ oneOf: REGISTRY_B_DOMAINS }),
        credentials: gcpStyleCredentials,
        nonOsPackageEval,
      });
    case 'REGISTRY_C':
      return limited({
        registryDomain: field.string({ oneOf: REGISTRY_C_DOMAINS }),
        credentials: gcpStyleCredentials,
        nonOsPackageEval,
      });
    case 'REGISTRY_D':
      return limited({
        registryDomain: field.string({ oneOf: ['index.docker.io'] }),
        credentials: userCredentials(false),
        nonOsPackageEval,
      });
    case 'REGISTRY_E':
      // A generic registry: no repository or image-count limits.
      return field.object({
        registryType: registryTypeField,
        registryDomain: field.string(),
        credentials: userCredentials(true),
        registryNotifications: field.boolean({ optional: true }),
        limitByTag: tags,
        limitByLabel,
        nonOsPackageEval,
      });
    case 'REGISTRY_F':
      return limited({
        registryDomain: field.string({ oneOf: ['ghcr.io'] }),
        credentials: userCredentials(true),
        registryNotifications: field.boolean({ optional: true }),
        nonOsPackageEval,
      });
    case 'PROXY_SCANNER':
      return limited({});
    case 'INLINE_SCANNER':
      return field.object(
        {
          registryType: registryTypeField,
          identifierTag: keyValueList(data.identifierTag, 'identifier tag'),
          limitNumScan: field.string({ optional: true, maxLength: 16 }),
        },
        {
          checkRule: 'limitNumScan is a whole number from 1 to 10000, written as a string',
          check: (value, path) => {
            const limit = value.limitNumScan;
            // The platform keeps this number as a string.
            if (typeof limit === 'string' && !/^[1-9][0-9]*$/.test(limit)) {
              throw invalid(
                `${path}.limitNumScan must be a positive whole number written as a string (got ${quote(limit)})`,
              );
            }
            // The platform publishes no maximum; 10,000 scans (chosen) is far beyond its default of 60.
            if (typeof limit === 'string' && Number(limit) > 10_000)
              throw invalid(`${path}.limitNumScan must be at most 10000 (got ${limit})`);
          },
        },
      );
    default:
      throw invalid(
        `data.registryType ${quote(registryType)} is not supported; supported: ${REGISTRY_TYPES.join(', ')}`,
      );
  }
}

const REGISTRY_TYPES = [
  'REGISTRY_A',
  'REGISTRY_B',
  'REGISTRY_C',
  'REGISTRY_D',
  'REGISTRY_E',
  'REGISTRY_F',
  'PROXY_SCANNER',
  'INLINE_SCANNER',
];

export const CONTAINER_REGISTRIES: IntegrationFamily = {
  collection: CONTAINER_REGISTRIES_COLLECTION,
  label: 'container registry',
  // Only the type check uses this table; the spec of `data` comes from dataSpecOf.
  dataSpecs: { [CONTAINER_REGISTRY_TYPE]: field.object({ registryType: field.string({ oneOf: REGISTRY_TYPES }) }) },
  dataSpecOf: (_type, data, existing) => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw invalid(data === undefined || data === null ? 'data is required' : 'data must be an object');
    }
    const record = data as Record<string, unknown>;
    const registryType = record.registryType;
    if (registryType === undefined || registryType === null) throw invalid('data.registryType is required');
    if (typeof registryType !== 'string') throw invalid('data.registryType must be a string');
    if (existing && existing.data.registryType !== registryType) {
      throw invalid(
        `data.registryType cannot be changed (the integration is of type ${quote(existing.data.registryType)})`,
      );
    }
    // Switching a RegistryA integration between role and access-key authentication needs a new integration.
    if (existing && registryType === 'REGISTRY_A' && existing.data.authType !== record.authType) {
      throw invalid(
        `data.authType cannot be changed (the integration uses ${quote(existing.data.authType)}); create a new ` +
          `integration instead`,
      );
    }
    return registrySpec(registryType, record);
  },
  issuesServerToken: (_type, data) => SCANNER_TYPES.has(String(data.registryType)),
};

export function registerContainerRegistryRoutes(router: Router, ctx: SecContext): void {
  registerIntegrationRoutes(router, ctx, CONTAINER_REGISTRIES);
}
