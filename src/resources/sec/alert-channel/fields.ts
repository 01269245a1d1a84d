/**
 * Field declarations several alert channels share, so each rule (allowed values, the platform's
 * defaults, secret handling, the template encoding) is written once.
 */
import { attr, type Fields, type ModelOf, type Validator, validators } from '@keel/provider-framework';
import { alertChannel, type DeepPartial, type ReadModel } from './family.js';
import type { AlertChannelData, AlertChannelType } from '../../../clients/sec/alert-channel-data.js';
import { decodeJsonDataUrl, encodeJsonDataUrl } from '../../../clients/sec/data-url.js';
import { sentSecret } from '../../shared/secrets.js';
import * as forms from '../../../schema/forms.js';
import type { ISSUE_GROUPINGS } from '../../../wire/sec-contract/alert-channels.js';
import { secRules } from '../rules.js';

type IssueGrouping = (typeof ISSUE_GROUPINGS)[number];

/** The planned grouping (validated, defaulted) in its wire type. */
export const grouping = (value: string | null): IssueGrouping => (value ?? 'Events') as IssueGrouping;

/**
 * How alerts are grouped: one issue/event per event type, or one per resource; `type` is the channel's
 * API type, whose `data.issueGrouping` it is.
 */
export function issueGrouping(what: string, type: AlertChannelType) {
  return attr.string({
    optional: true,
    default: 'Events',
    validate: secRules(`AlertChannels:${type}.issueGrouping`),
    description:
      `How alerts are grouped: \`Events\` creates one ${what} for compliance events of the ` +
      `same type from different resources; \`Resources\` creates one ${what} per resource that generates ` +
      `the same compliance event.`,
  });
}

/** A required string; the platform refuses empty ones, so they are refused at plan time already. */
export function requiredText(description: string, ...validate: Validator<string>[]) {
  return attr.string({ required: true, validate: [validators.nonEmpty(), ...validate], description });
}

/**
 * A credential the platform never returns (it answers blank): sensitive, and kept from the prior
 * state on read so plans stay empty. Only checks that never quote the value.
 */
export function secret(description: string) {
  return attr.string({
    optional: true,
    sensitive: true,
    writeOnlyTwin: { required: true },
    masked: true,
    validate: [validators.nonEmpty()],
    description,
  });
}

/**
 * A credential the platform returns on read (a webhook URL that carries the channel's secret, an
 * insert key): sensitive, but read back like any value while the state holds it, so a change made
 * outside Terraform shows (given write-only, it stays out of the state).
 */
export function readableSecret(
  description: string,
  validate: Validator<string>[] = [],
  more: { sensitiveUnlikeUpstream?: boolean } = {},
) {
  return attr.string({
    optional: true,
    sensitive: true,
    writeOnlyTwin: { required: true },
    validate: [validators.nonEmpty(), ...validate],
    description,
    ...more,
  });
}

/** A masked secret as the platform returns it: blank means "not shown", which the model says as null. */
export const unlessBlank = (value: string | undefined): string | null => (value ? value : null);

const validJson: Validator<string> = {
  description: 'a JSON document',
  samples: ['{"priority": "high"}', '{"labels": ["sec", "alert"]}'],
  check: (value) => {
    try {
      JSON.parse(value);
      return undefined;
    } catch (err) {
      return `must be a JSON document (${err instanceof Error ? err.message : String(err)})`;
    }
  },
};

/** Two JSON texts that parse to the same document (whitespace, key order and number forms aside). */
export function sameJson(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b));
  } catch {
    return false;
  }
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A custom template (JSON text). The platform stores it as a JSON data URL; reads decode it, the
 * configured text is kept while the document is the same, and a platform that does not return it
 * keeps the prior value.
 */
export function customTemplate(description: string) {
  // Sent as a base64 data URL, which the platform's 1 MiB body must hold.
  return attr.string({
    optional: true,
    masked: true,
    equal: sameJson,
    maxCharacters: 768 * 1024,
    validate: [validJson],
    description,
  });
}

/** The template as the platform stores it: a JSON data URL. */
export const templateToWire = (text: string | null): string | undefined =>
  text === null ? undefined : encodeJsonDataUrl(text);

/** The platform's data URL decoded back to the JSON text (kept as is if it is not one). */
export const templateFromWire = (value: string | undefined): string | null =>
  value ? (decodeJsonDataUrl(value) ?? value) : null;

/** The `data` fields of type `T` that hold text: where a channel's URL can be kept. */
type TextField<T extends AlertChannelType> = {
  [K in keyof AlertChannelData<T> & string]: NonNullable<AlertChannelData<T>[K]> extends string ? K : never;
}[keyof AlertChannelData<T> & string];

/**
 * A channel around an incoming webhook URL, of any type: `wireField` is where the platform keeps the
 * URL in `data` for that type (its contract field says which URLs the platform takes), `schemes` a
 * stricter choice of schemes where a type wants one, and `more` the type's other fields with how they
 * go to and come from `data`. The URL is the channel's secret (whoever has it can post), so it is
 * sensitive although the seed does not flag it (docs/decisions.md, "Credentials are sensitive").
 */
export function webhookChannel<T extends AlertChannelType, F extends Fields = Record<never, never>>(options: {
  typeName: string;
  apiType: T;
  wireField: TextField<T>;
  description: string;
  urlDescription: string;
  schemes?: readonly ('http' | 'https')[];
  more?: {
    fields: F;
    toData(model: ModelOf<F>): Partial<AlertChannelData<T>>;
    fromData(data: AlertChannelData<T>): ReadModel<F>;
  };
}) {
  const url = options.schemes
    ? [forms.url(...options.schemes)]
    : secRules(`AlertChannels:${options.apiType}.${options.wireField}`);
  const fields = {
    ...options.more?.fields,
    webhook_url: readableSecret(options.urlDescription, url, { sensitiveUnlikeUpstream: true }),
  } as F & { webhook_url: ReturnType<typeof readableSecret> };
  return alertChannel({
    typeName: options.typeName,
    apiType: options.apiType,
    description: options.description,
    fields,
    toData: (m) =>
      ({
        ...options.more?.toData(m as unknown as ModelOf<F>),
        [options.wireField]: sentSecret(m.webhook_url as string | null),
      }) as DeepPartial<AlertChannelData<T>>,
    fromData: (data) =>
      ({
        ...options.more?.fromData(data),
        webhook_url: String(data[options.wireField] ?? ''),
      }) as ReadModel<typeof fields>,
  });
}
