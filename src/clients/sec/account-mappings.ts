// The organisation account-mapping document and the platform's joined lists: used by the resource
// definitions at start-up, so apart from the client's zod schemas (./cloud-accounts.ts), which load
// only once the provider is configured.
import { ApiError, setEntry } from '@keel/provider-framework/client';
import { decodeJsonDataUrl, encodeJsonDataUrl } from './data-url.js';

/**
 * How an organisation's cloud accounts are spread over platform accounts (CloudA trail and org
 * agentless scanning): unmapped cloud accounts go to `defaultPlatformAccount`.
 */
export interface AccountMappings {
  readonly defaultPlatformAccount: string;
  /** Platform account → the cloud account ids it receives. */
  readonly mappings: Readonly<Record<string, readonly string[]>>;
}

/**
 * The mapping document's shape, checked by hand rather than with zod so that the resource
 * definitions can use this module without loading zod at start-up: the first problem found, as
 * `path: message`, or undefined. Other keys are ignored, as a zod object would.
 */
function accountMappingsProblem(document: unknown): string | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(document)) return 'document: expected an object';
  if (typeof document.defaultPlatformAccountCloudA !== 'string')
    return 'defaultPlatformAccountCloudA: expected a string';
  const mappings = document.integration_mappings;
  if (mappings === undefined) return undefined;
  if (!isObject(mappings)) return 'integration_mappings: expected an object';
  for (const [account, entry] of Object.entries(mappings)) {
    const path = `integration_mappings.${account}`;
    if (!isObject(entry)) return `${path}: expected an object`;
    const ids = entry.cloud_a_accounts;
    if (!Array.isArray(ids)) return `${path}.cloud_a_accounts: expected an array`;
    const bad = ids.findIndex((id) => typeof id !== 'string');
    if (bad >= 0) return `${path}.cloud_a_accounts.${bad}: expected a string`;
  }
  return undefined;
}

interface AccountMappingsDocument {
  defaultPlatformAccountCloudA: string;
  integration_mappings?: Record<string, { cloud_a_accounts: string[] }>;
}

/** The `accountMappingFile` value: a JSON document in a data URL. */
export function encodeAccountMappings(mappings: AccountMappings): string {
  const document = {
    defaultPlatformAccountCloudA: mappings.defaultPlatformAccount,
    integration_mappings: Object.fromEntries(
      Object.entries(mappings.mappings).map(([account, ids]) => [account, { cloud_a_accounts: [...ids] }]),
    ),
  };
  return encodeJsonDataUrl(JSON.stringify(document));
}

/**
 * Decodes `accountMappingFile`; undefined when there is none (absent, blank, or a document without
 * a default account, which the platform treats as "no mapping"). ApiError 'malformed_response'
 * when the platform sent something else.
 */
export function decodeAccountMappings(value: string | undefined): AccountMappings | undefined {
  if (value === undefined || value === '') return undefined;
  const malformed = (detail: string) =>
    new ApiError(`data.accountMappingFile ${detail}`, {
      code: 'malformed_response',
      operation: 'GET /api/v2/CloudAccounts/{intgGuid}',
    });
  const json = decodeJsonDataUrl(value);
  if (json === undefined) throw malformed('is not a base64 JSON data URL');
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch {
    throw malformed('does not hold a JSON document');
  }
  const problem = accountMappingsProblem(document);
  if (problem !== undefined) throw malformed(`does not have the expected shape (${problem})`);
  const data = document as AccountMappingsDocument;
  if (data.defaultPlatformAccountCloudA === '') return undefined;
  const mappings: Record<string, string[]> = {};
  for (const [account, entry] of Object.entries(data.integration_mappings ?? {}))
    setEntry(mappings, account, [...entry.cloud_a_accounts]);
  return { defaultPlatformAccount: data.defaultPlatformAccountCloudA, mappings };
}

/**
 * What the platform joins the items of some lists with, keeping them as one string: an item holding it
 * comes back as two (docs/api/sec.md, "Lists kept as one string").
 */
export const WIRE_LIST_SEPARATOR = ',';

/** The platform keeps some lists as one string, items joined with ", ". */
export function joinWireList(items: readonly string[]): string {
  return items.map((value) => value.trim()).join(`${WIRE_LIST_SEPARATOR} `);
}

export function splitWireList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(WIRE_LIST_SEPARATOR)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
