import { bodiesByType } from './integrations.js';
import { type ContractBodies, field, type FieldSpec, invalid, type ObjectSpec, quote } from './language.js';

/**
 * Container registries and scanners (docs/api/sec.md, "Registry kinds"): every object has one `type`,
 * and `data.registryType` decides what `data` must hold. The contract names each kind's `data`
 * `ContainerRegistries:<registryType>` (`ContainerRegistries:REGISTRY_A`), as a body without labels:
 * the emulator judges a body with containerRegistryDataSpec, which adds the label keys it carries.
 */
/** The hosts of registry B: its regional and multi-regional artifact registries. */
export const REGISTRY_B_DOMAINS = [
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
] as const;
/** The hosts of registry C. */
export const REGISTRY_C_DOMAINS = ['gcr.io', 'us.gcr.io', 'eu.gcr.io', 'asia.gcr.io'] as const;
/** The one host of registry D, and of registry F. */
export const REGISTRY_D_DOMAIN = 'index.docker.io';
export const REGISTRY_F_DOMAIN = 'ghcr.io';

const tags = field.array(field.string(), { optional: true });
const repositories = field.array(field.string(), { optional: true });
const nonOsPackageEval = field.boolean({ optional: true });
/** How registry A authenticates: with a role it assumes, or an access key. */
export const REGISTRY_A_AUTH_TYPES = ['ROLE', 'ACCESS_KEY'] as const;

/** How many of each repository's newest images the platform assesses (checkImageCount). */
export const IMAGE_COUNTS = [5, 10, 15] as const;
// The language has no integer enum: the range publishes the bounds, checkImageCount the three values.
const limitNumImg = field.integer({ optional: true, min: IMAGE_COUNTS[0], max: IMAGE_COUNTS[2] });
/** The most scans an inline scanner may be limited to: the platform publishes none; far beyond its default of 60. */
export const MAX_INLINE_SCANS = 10_000;

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
  if (typeof value === 'number' && !(IMAGE_COUNTS as readonly number[]).includes(value))
    throw invalid(`${path}.limitNumImg must be one of ${IMAGE_COUNTS.join(', ')} (got ${value})`);
}

/**
 * `data` of the registry kind `registryType`, given the labels the body carries (the language has no
 * open maps: see keyValueList), one of REGISTRY_TYPES.
 */
export function containerRegistryDataSpec(registryType: string, data: Record<string, unknown>): ObjectSpec {
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
          authType: field.string({ oneOf: REGISTRY_A_AUTH_TYPES }),
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
        registryDomain: field.string({ oneOf: [REGISTRY_D_DOMAIN] }),
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
        registryDomain: field.string({ oneOf: [REGISTRY_F_DOMAIN] }),
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
          // The platform keeps this number as a string.
          limitNumScan: field.string({
            optional: true,
            maxLength: 16,
            pattern: '^[1-9][0-9]*$',
            patternRule: 'a positive whole number written as a string',
          }),
        },
        {
          checkRule: `limitNumScan is at most ${MAX_INLINE_SCANS}`,
          check: (value, path) => {
            const limit = value.limitNumScan;
            if (typeof limit === 'string' && Number(limit) > MAX_INLINE_SCANS)
              throw invalid(`${path}.limitNumScan must be at most ${MAX_INLINE_SCANS} (got ${limit})`);
          },
        },
      );
    default:
      throw new Error(`sec contract: there is no registry kind ${quote(registryType)}`);
  }
}

/** The kinds of registry and scanner, each with its own `data` (data.registryType). */
export const REGISTRY_TYPES: readonly string[] = [
  'REGISTRY_A',
  'REGISTRY_B',
  'REGISTRY_C',
  'REGISTRY_D',
  'REGISTRY_E',
  'REGISTRY_F',
  'PROXY_SCANNER',
  'INLINE_SCANNER',
];

/** Each kind's `data` as a body with no labels. */
export const CONTAINER_REGISTRY_DATA_SPECS: Readonly<Record<string, ObjectSpec>> = Object.fromEntries(
  REGISTRY_TYPES.map((kind) => [kind, containerRegistryDataSpec(kind, {})]),
);

export const CONTAINER_REGISTRY_BODIES: ContractBodies = bodiesByType(
  'ContainerRegistries',
  CONTAINER_REGISTRY_DATA_SPECS,
);
