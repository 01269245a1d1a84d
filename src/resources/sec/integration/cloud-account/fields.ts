/**
 * Field declarations and wire helpers the cloud-account integrations share, so each rule (the
 * credential shapes and which parts are secret, the scan settings and their defaults, the
 * account-mapping block, value normalisation) is written once.
 */
import {
  attr,
  attrStep,
  block,
  type Diagnostics,
  indexStep,
  type Validator,
  validators,
} from '@keel/provider-framework';
import {
  decodeAccountMappings,
  encodeAccountMappings,
  joinWireList,
  splitWireList,
  WIRE_LIST_SEPARATOR,
} from '../../../../clients/sec/account-mappings.js';
import { sentSecret } from '../../../shared/secrets.js';
import { notBlankEntries, sameTrimmedList } from '../../governance-values.js';
import * as forms from '../../../../schema/forms.js';
import { SEC_LIMITS } from '../../limits.js';
import { checkedBy, secRules } from '../../rules.js';
import { CLOUD_B_SCOPES } from '../../../../wire/sec-contract/cloud-accounts.js';

// ---------------------------------------------------------------------------------------------
// Validators and equalities

/**
 * An https URL for the contract's URL field `field`: stricter than the platform's http(s) on purpose,
 * as every endpoint these integrations name (queues, storage, token endpoints) is served over https.
 */
export function httpsUrl(field: string): Validator<string> {
  const check = forms.url('https');
  checkedBy(field, 'format', { checks: [check], stricter: 'an https URL: every endpoint they name is served so' });
  return check;
}

/** A list of texts as the platform is sent it, each trimmed (the id lists). */
export const trimmedList = (value: unknown): unknown =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item.trim() : item)) : value;

/** A text as the platform is sent it, upper-cased (anyCaseOneOf's values). */
export const upperCased = (value: unknown): unknown => (typeof value === 'string' ? value.toUpperCase() : value);

/** Upper-case values accepted in any case (the platform stores them upper-case). */
export function anyCaseOneOf(...allowed: string[]): Validator<string> {
  const shown = allowed.map((value) => `\`${value}\``).join(', ');
  return {
    description: `one of ${shown} (any letter case)`,
    // Another letter case too: the configured spelling must survive the platform's upper case.
    samples: [...allowed, allowed[0]!.toLowerCase()],
    check: (value) =>
      allowed.includes(value.toUpperCase())
        ? undefined
        : `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')} (any letter case), got ` +
          `${JSON.stringify(value)}`,
  };
}

export const sameIgnoringCase = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase();

// ---------------------------------------------------------------------------------------------
// Reading what the platform returns

/** A secret the platform answers blank: the model's own value (plan or prior state) or, after an import, null. */
export const keptSecret = (wire: string | undefined, own: string | null | undefined): string | null =>
  wire ? wire : (own ?? null);

/**
 * An optional value the platform omits when it is blank: absent reads as null, unless the
 * configuration said "" (then "" stays, so the plan remains empty).
 */
export const optionalText = (wire: string | undefined, own: string | null | undefined): string | null =>
  wire ? wire : own === '' ? '' : null;

/** An optional list kept as one joined string; absent reads as null unless the configuration said []. */
export function optionalJoinedList(wire: string | undefined, own: string[] | null | undefined): string[] | null {
  const items = splitWireList(wire);
  if (items.length > 0) return items;
  return own !== null && own !== undefined && own.length === 0 ? [] : null;
}

/** An optional string sent only when it says something. */
export const unlessBlank = (value: string | null | undefined): string | undefined => (value ? value : undefined);

/** An optional list sent joined, only when it has items. */
export const joinedUnlessEmpty = (items: string[] | null | undefined): string | undefined =>
  items && items.length > 0 ? joinWireList(items) : undefined;

// ---------------------------------------------------------------------------------------------
// Shared attributes

/** Cross-account role credentials (CloudA). */
export function roleCredentials(options: { required: boolean; description?: string }) {
  return block.one(
    {
      role_arn: attr.string({
        required: true,
        description: 'ARN of the cross-account role the platform assumes in the account.',
      }),
      external_id: attr.string({
        required: true,
        description: "External id the role's trust policy requires of the platform.",
      }),
    },
    { required: options.required, description: options.description ?? 'The cross-account role the platform assumes.' },
  );
}

/** Access-key credentials (CloudA gov regions, where roles cannot be assumed across partitions). */
export function accessKeyCredentials() {
  return block.one(
    {
      access_key_id: attr.string({
        required: true,
        description: 'Id of the access key of the user the platform acts as.',
      }),
      secret_access_key: attr.string({
        optional: true,
        sensitive: true,
        writeOnlyTwin: { required: true },
        masked: true,
        description:
          'Secret of the access key. The platform never returns it, so a change made outside this configuration ' +
          'is not detected.',
      }),
    },
    { required: true, description: 'The access key the platform reads the account with.' },
  );
}

const privateKeyDescription =
  'Private key of the service-account key (PEM). The platform never returns it, so a change made outside ' +
  'this configuration is not detected.';

/** The key's fields; `type` is the API type whose `data.credentials` they are sent as. */
const cloudBKeyFields = (privateKeyIdSecret: boolean, type: string) => ({
  client_id: attr.string({
    required: true,
    description: 'Client id of the service account (`client_id` in the key file).',
  }),
  client_email: attr.string({
    required: true,
    validate: secRules(`CloudAccounts:${type}.credentials.clientEmail`),
    description: 'E-mail address of the service account (`client_email` in the key file).',
  }),
  private_key_id: privateKeyIdSecret
    ? attr.string({
        optional: true,
        sensitive: true,
        writeOnlyTwin: { required: true },
        masked: true,
        description: 'Id of the service-account key (`private_key_id` in the key file).',
      })
    : attr.string({
        required: true,
        masked: true,
        description: 'Id of the service-account key (`private_key_id` in the key file).',
      }),
  private_key: attr.string({
    optional: true,
    sensitive: true,
    writeOnlyTwin: { required: true },
    masked: true,
    validate: secRules(`CloudAccounts:${type}.credentials.privateKey`),
    description: privateKeyDescription,
  }),
});

const cloudBKeyDescription = 'The service-account key the platform reads with (the fields of its JSON key file).';

/**
 * A CloudB service-account key. Whether the key id is secret differs by type (the seed's types:
 * configuration and audit trail show it, the log integrations hide it); the platform may leave it
 * out of reads either way, so it is kept from the prior state when blank.
 */
export const cloudBCredentials = (options: { privateKeyIdSecret: boolean; type: string }) =>
  block.one(cloudBKeyFields(options.privateKeyIdSecret, options.type), {
    required: true,
    description: cloudBKeyDescription,
  });

/** The agentless scanner's key also names its token endpoint. */
export const cloudBScannerCredentials = () =>
  block.one(
    {
      ...cloudBKeyFields(false, 'CloudBAgentless'),
      token_uri: attr.string({
        optional: true,
        computed: true,
        validate: [httpsUrl('CloudAccounts:CloudBAgentless.credentials.tokenUri')],
        description:
          'Token endpoint of the key (`token_uri` in the key file). When unset, the platform uses the ' +
          "cloud's standard endpoint.",
      }),
    },
    { required: true, description: cloudBKeyDescription },
  );

/**
 * A CloudC application registration. The secret is sensitive for every type, also where the seed
 * does not flag it (agentless scanning and DSPM; docs/decisions.md, "Credentials are sensitive");
 * the platform never returns it.
 */
export function cloudCCredentials(options: { sensitiveUnlikeUpstream?: boolean } = {}) {
  return block.one(
    {
      client_id: attr.string({
        required: true,
        description: 'Application (client) id of the registration the platform signs in as.',
      }),
      client_secret: attr.string({
        optional: true,
        sensitive: true,
        writeOnlyTwin: { required: true },
        masked: true,
        ...options,
        description:
          'Client secret of the registration. The platform never returns it, so a change made outside ' +
          'this configuration is not detected.',
      }),
    },
    { required: true, description: 'The application registration the platform signs in as.' },
  );
}

/**
 * The CloudB scope (`PROJECT` or `ORGANIZATION`), any case; upper-cased for the platform. `field` is the
 * contract field it is sent as, whose values these are (in the platform's case).
 */
export function cloudBScope(options: { field: string; description: string; required: boolean }) {
  const checks = [anyCaseOneOf(...CLOUD_B_SCOPES)];
  checkedBy(options.field, 'oneOf', { checks, sent: upperCased });
  const common = {
    validate: checks,
    equal: sameIgnoringCase,
    description: options.description,
  };
  return options.required
    ? attr.string({ required: true, ...common })
    : attr.string({ optional: true, default: 'PROJECT', ...common });
}

/**
 * Schedule and scope of an agentless scanner of the API type `type`; CloudA states its own defaults (and
 * requires the frequency).
 */
export function scanSettings(
  type: string,
  defaults: {
    frequency?: number;
    containers: boolean;
    hostVulnerabilities: boolean;
    queryText?: string;
  },
) {
  const frequency = {
    validate: secRules<number>(`CloudAccounts:${type}.scanFrequency`),
    description: 'How often a scan runs, in hours.',
  };
  return {
    scan_frequency:
      defaults.frequency === undefined
        ? attr.number({ required: true, ...frequency })
        : attr.number({ optional: true, default: defaults.frequency, ...frequency }),
    scan_containers: attr.bool({
      optional: true,
      default: defaults.containers,
      description: 'Whether container images found on the hosts are scanned.',
    }),
    scan_host_vulnerabilities: attr.bool({
      optional: true,
      default: defaults.hostVulnerabilities,
      description: 'Whether hosts are scanned for vulnerabilities.',
    }),
    scan_multi_volume: attr.bool({
      optional: true,
      default: false,
      description: 'Whether secondary volumes are scanned too (`false`: root volumes only).',
    }),
    scan_stopped_instances: attr.bool({
      optional: true,
      default: true,
      description: 'Whether stopped instances are scanned.',
    }),
    query_text: attr.string({
      optional: true,
      ...(defaults.queryText === undefined ? {} : { default: defaults.queryText }),
      description: 'A platform query that selects the instances to scan; empty or unset scans all.',
    }),
  };
}

type ScanModel = {
  scan_frequency: number | null;
  scan_containers: boolean | null;
  scan_host_vulnerabilities: boolean | null;
  scan_multi_volume: boolean | null;
  scan_stopped_instances: boolean | null;
  query_text: string | null;
};

interface ScanWire {
  scanFrequency: number;
  scanContainers: boolean;
  scanHostVulnerabilities: boolean;
  scanMultiVolume: boolean;
  scanStoppedInstances: boolean;
  queryText?: string | undefined;
}

/** The planned scan settings (defaults already applied at plan time) in wire form. */
export function scanToWire(m: ScanModel): ScanWire {
  return {
    scanFrequency: m.scan_frequency ?? 24,
    scanContainers: m.scan_containers === true,
    scanHostVulnerabilities: m.scan_host_vulnerabilities === true,
    scanMultiVolume: m.scan_multi_volume === true,
    scanStoppedInstances: m.scan_stopped_instances !== false,
    ...(m.query_text ? { queryText: m.query_text } : {}),
  };
}

export function scanFromWire(d: ScanWire, own: ScanModel | null): ScanModel {
  return {
    scan_frequency: d.scanFrequency,
    scan_containers: d.scanContainers,
    scan_host_vulnerabilities: d.scanHostVulnerabilities,
    scan_multi_volume: d.scanMultiVolume,
    scan_stopped_instances: d.scanStoppedInstances,
    query_text: optionalText(d.queryText, own?.query_text),
  };
}

/** Computed outputs of the scanners. */
export const serverToken = () =>
  // Upstream did not mark it sensitive (docs/api/sec.md, "Where we differ from the upstream provider").
  attr.string({
    computed: true,
    sensitive: true,
    sensitiveUnlikeUpstream: true,
    description: 'The token the scanner authenticates to the platform with.',
  });
export const serverUri = () =>
  attr.string({ computed: true, description: 'The platform endpoint the scanner reports to.' });

/**
 * How a list of ids reaches the platform: as a list, or `joined` into one string (joinWireList), where an
 * id holding the separator would come back as two, so it is refused at plan.
 */
interface IdListOptions {
  readonly mayBeEmpty?: boolean;
  readonly joined?: boolean;
}

const joinedItems = validators.each(
  validators.excludes(WIRE_LIST_SEPARATOR, 'the platform keeps the list as one text joined with it'),
);

/** The one text the list becomes must fit the platform's limit for a text. */
const joinedLength: Validator<string[]> = {
  description: `at most ${SEC_LIMITS.characters} characters once joined`,
  check: (items) => {
    const length = [...joinWireList(items)].length;
    return length > SEC_LIMITS.characters
      ? `must be at most ${SEC_LIMITS.characters} characters once joined into the one text the platform keeps ` +
          `(items trimmed, joined with ", "), got ${length}`
      : undefined;
  },
};

const joinable = [joinedItems, joinedLength];

/** A list of ids the platform needs at least one of; trimmed for the platform, blank entries refused. */
export const requiredIdList = (description: string, options: IdListOptions = {}) =>
  attr.stringList({
    required: true,
    validate: [
      ...(options.mayBeEmpty ? [] : [validators.nonEmpty<string[]>()]),
      notBlankEntries,
      ...(options.joined ? joinable : []),
    ],
    equal: sameTrimmedList,
    unordered: true,
    description,
  });

/** An optional list of ids; trimmed for the platform, blank entries refused. */
export const optionalIdList = (description: string, options: IdListOptions = {}) =>
  attr.stringList({
    optional: true,
    validate: [notBlankEntries, ...(options.joined ? joinable : [])],
    equal: sameTrimmedList,
    unordered: true,
    description,
  });

// ---------------------------------------------------------------------------------------------
// Organisation account mappings (CloudA trail and org agentless scanning,
// docs/api/sec.md, "Organisation account mappings")

const mappingFields = {
  default_platform_account: attr.string({
    required: true,
    description: 'The platform account that receives every cloud account no mapping names.',
  }),
  mapping: block.set(
    {
      platform_account: attr.string({
        required: true,
        description: 'The platform account that receives the cloud accounts below.',
      }),
      cloud_a_accounts: attr.stringSet({
        required: true,
        validate: [validators.nonEmpty()],
        description: 'Ids of the cloud accounts mapped to this platform account.',
      }),
    },
    {
      min: 1,
      description: 'Cloud accounts mapped to one platform account; repeat the block for each platform account.',
    },
  ),
};

const mappingDescription =
  'How the cloud accounts of the organisation are spread over the platform accounts of a platform organisation.';

/** The trail's mapping: one block at most (a LIST with max_items 1). */
export const orgAccountMappingsOne = () => block.one(mappingFields, { description: mappingDescription });

/**
 * Org agentless scanning declares the block without a limit; only one is meaningful (checked in
 * `validateOrgAccountMappings`).
 */
export const orgAccountMappingsList = () =>
  block.list(mappingFields, { description: `${mappingDescription} At most one block.` });

type MappingModel = {
  default_platform_account: string;
  mapping: { platform_account: string; cloud_a_accounts: string[] }[];
};
/** The same, as validation sees it: values not known yet are `undefined`. */
type MappingConfig = {
  default_platform_account?: string | undefined;
  mapping?: { platform_account?: string | undefined; cloud_a_accounts?: string[] | null | undefined }[] | undefined;
};

export function mappingsToWire(blocks: MappingModel[]): string | undefined {
  const first = blocks[0];
  if (!first) return undefined;
  const sorted = [...first.mapping].sort((a, b) => a.platform_account.localeCompare(b.platform_account));
  return encodeAccountMappings({
    defaultPlatformAccount: first.default_platform_account,
    mappings: Object.fromEntries(sorted.map((m) => [m.platform_account, [...m.cloud_a_accounts].sort()])),
  });
}

export function mappingsFromWire(file: string | undefined): MappingModel[] {
  const decoded = decodeAccountMappings(file);
  if (!decoded) return [];
  return [
    {
      default_platform_account: decoded.defaultPlatformAccount,
      mapping: Object.entries(decoded.mappings).map(([platformAccount, ids]) => ({
        platform_account: platformAccount,
        cloud_a_accounts: [...ids],
      })),
    },
  ];
}

/**
 * The platform keeps one mapping document: one block, each platform account once, each cloud
 * account in one mapping only.
 */
export function validateOrgAccountMappings(blocks: readonly MappingConfig[] | undefined, diags: Diagnostics): void {
  if (!blocks) return;
  const at = [attrStep('org_account_mappings')];
  if (blocks.length > 1) {
    diags.error(
      'Too many org_account_mappings blocks',
      'The platform keeps one account mapping per integration: write a single `org_account_mappings` ' +
        'block and list every mapping inside it.',
      at,
    );
  }
  blocks.forEach((b, index) => {
    const here = [...at, indexStep(index), attrStep('mapping')];
    const owners = new Map<string, string>();
    const platformAccounts = new Set<string>();
    for (const m of b.mapping ?? []) {
      if (m.platform_account) {
        if (platformAccounts.has(m.platform_account)) {
          diags.error(
            'Duplicate platform account',
            `The platform account ${JSON.stringify(m.platform_account)} appears in more than one ` +
              `\`mapping\` block; list all its cloud accounts in one block.`,
            here,
          );
        }
        platformAccounts.add(m.platform_account);
      }
      for (const id of m.cloud_a_accounts ?? []) {
        const other = owners.get(id);
        if (other !== undefined && m.platform_account !== undefined && other !== m.platform_account) {
          diags.error(
            'Cloud account mapped twice',
            `The cloud account ${JSON.stringify(id)} is mapped to both ${JSON.stringify(other)} and ` +
              `${JSON.stringify(m.platform_account)}.`,
            here,
          );
        }
        if (m.platform_account !== undefined) owners.set(id, m.platform_account);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Credential blocks ↔ wire

type CloudBCredentialModel = {
  client_id: string;
  client_email: string;
  private_key_id: string | null;
  private_key: string | null;
};
type CloudBCredentialWire = {
  clientId: string;
  clientEmail: string;
  privateKeyId?: string | undefined;
  privateKey?: string | undefined;
};

export const cloudBCredentialsToWire = (c: CloudBCredentialModel): CloudBCredentialWire => ({
  clientId: c.client_id,
  clientEmail: c.client_email,
  privateKeyId: sentSecret(c.private_key_id),
  privateKey: sentSecret(c.private_key),
});

export const cloudBCredentialsFromWire = (
  d: CloudBCredentialWire,
  own: Partial<CloudBCredentialModel> | undefined,
) => ({
  client_id: d.clientId,
  client_email: d.clientEmail,
  private_key_id: keptSecret(d.privateKeyId, own?.private_key_id),
  private_key: keptSecret(d.privateKey, own?.private_key),
});

type CloudCCredentialModel = { client_id: string; client_secret: string | null };

export const cloudCCredentialsToWire = (c: CloudCCredentialModel) => ({
  clientId: c.client_id,
  clientSecret: sentSecret(c.client_secret),
});

export const cloudCCredentialsFromWire = (
  d: { clientId: string; clientSecret?: string | undefined },
  own: Partial<CloudCCredentialModel> | undefined,
) => ({
  client_id: d.clientId,
  client_secret: keptSecret(d.clientSecret, own?.client_secret),
});

/** A CloudB scope as the platform wants it. */
export const upperScope = <T extends string>(value: string | null, fallback: T): T =>
  (value ?? fallback).toUpperCase() as T;

/**
 * An organisation-level CloudB log integration needs the organisation (the platform refuses it
 * otherwise); judged once both values are known.
 */
export function validateOrganizationScope(
  integrationType: string | null | undefined,
  organizationId: string | null | undefined,
  diags: Diagnostics,
): void {
  if (integrationType?.toUpperCase() !== 'ORGANIZATION' || organizationId === undefined) return;
  if (organizationId === null || organizationId.trim() === '') {
    diags.error(
      'Missing organization_id',
      '`organization_id` must name the organisation when `integration_type` is `ORGANIZATION`.',
      [attrStep('organization_id')],
    );
  }
}
