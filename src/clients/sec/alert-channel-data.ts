import { z } from 'zod';
import {
  ISSUE_GROUPINGS,
  METRICS_SITES,
  METRICS_TYPES,
  SIEM_COMMUNICATION_TYPES,
  TRACKER_CONFIGURATIONS,
  TRACKER_TYPES,
} from '../../wire/sec-contract/alert-channels.js';

/**
 * `data` of each alert channel type in the neutral wire format (docs/api/sec.md, "Alert channel types";
 * docs/decisions.md, "Neutral names"). Secret fields are optional: the API returns them blank or
 * not at all, so callers keep their own copy; on create/update they must be sent. The enums are sec's
 * contract's (src/wire/sec-contract/alert-channels.ts).
 */
const issueGrouping = z.enum(ISSUE_GROUPINGS);
const secret = z.string().optional();

/** Some servers return the recipients comma-joined; always hand out an array. */
const recipients = z.union([z.array(z.string()), z.string()]).transform((value) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    : value,
);

export const ALERT_CHANNEL_DATA_SCHEMAS = {
  EmailUser: z.object({ channelProps: z.object({ recipients }) }),
  CloudAEventBus: z.object({ eventBusArn: z.string(), issueGrouping: issueGrouping.optional() }),
  CloudAObjectStore: z.object({
    objectStoreCredentials: z.object({ bucketArn: z.string(), externalId: z.string(), roleArn: z.string() }),
  }),
  TeamsA: z.object({ webhook: z.string() }),
  TeamsB: z.object({ webhookUrl: z.string() }),
  Chat: z.object({ webhookUrl: z.string() }),
  Webhook: z.object({ webhookUrl: z.string() }),
  OnCall: z.object({ intgUrl: z.string() }),
  Metrics: z.object({
    apiKey: secret,
    metricsSite: z.enum(METRICS_SITES).optional(),
    metricsType: z.enum(METRICS_TYPES).optional(),
  }),
  CloudBPubSub: z.object({
    projectId: z.string(),
    topicId: z.string(),
    issueGrouping: issueGrouping.optional(),
    credentials: z.object({
      clientId: z.string(),
      clientEmail: z.string(),
      privateKey: secret,
      privateKeyId: secret,
    }),
  }),
  Tracker: z.object({
    trackerType: z.enum(TRACKER_TYPES),
    trackerUrl: z.string(),
    issueType: z.string(),
    /** The project key. */
    projectId: z.string(),
    username: z.string(),
    /** TRACKER_CLOUD only. */
    apiToken: secret,
    /** TRACKER_SERVER only. */
    password: secret,
    /** A JSON data URL, see encodeJsonDataUrl. */
    customTemplateFile: z.string().optional(),
    bidirectionalConfig: z.enum(TRACKER_CONFIGURATIONS).optional(),
    issueGrouping: issueGrouping.optional(),
  }),
  // Read back by the platform; a request may leave it out (src/resources/shared/secrets.ts).
  Observ: z.object({ accountId: z.number().int(), insertKey: z.string().optional() }),
  Pager: z.object({ apiIntgKey: secret }),
  Siem: z.object({
    hostUrl: z.string(),
    hostPort: z.number().int().optional(),
    commType: z.enum(SIEM_COMMUNICATION_TYPES).optional(),
  }),
  Ticketing: z.object({
    instanceUrl: z.string(),
    userName: z.string(),
    password: secret,
    customTemplateFile: z.string().optional(),
    issueGrouping: issueGrouping.optional(),
  }),
  LogSink: z.object({
    ingestToken: z.string().optional(),
    channel: z.string().optional(),
    host: z.string(),
    port: z.number().int(),
    ssl: z.boolean().optional(),
    eventData: z.object({ index: z.string(), source: z.string() }),
  }),
} as const;

export type AlertChannelType = keyof typeof ALERT_CHANNEL_DATA_SCHEMAS;

export const ALERT_CHANNEL_TYPES = Object.keys(ALERT_CHANNEL_DATA_SCHEMAS) as AlertChannelType[];

export type AlertChannelData<T extends AlertChannelType> = z.output<(typeof ALERT_CHANNEL_DATA_SCHEMAS)[T]>;
