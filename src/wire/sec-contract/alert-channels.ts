import { bodiesByType } from './integrations.js';
import { type ContractBodies, field, invalid, type ObjectSpec } from './language.js';

/**
 * The `data` object of every alert channel type, in the neutral wire format
 * (docs/api/sec.md, "Alert channel types"; docs/decisions.md, "Neutral names"), named
 * `AlertChannels:<type>`. `secret` fields are blanked on reads; they and `credential` fields are kept
 * when an update leaves them out. Adding a type is one entry here.
 */
export const ISSUE_GROUPINGS = ['Events', 'Resources'] as const;
export const TRACKER_TYPES = ['TRACKER_CLOUD', 'TRACKER_SERVER'] as const;
export const TRACKER_CONFIGURATIONS = ['Unidirectional', 'Bidirectional'] as const;
export const METRICS_SITES = ['com', 'eu'] as const;
export const METRICS_TYPES = ['Logs Detail', 'Logs Summary', 'Events Summary'] as const;
export const SIEM_COMMUNICATION_TYPES = ['HTTPS', 'HTTPS Self Signed Cert'] as const;

const issueGrouping = field.string({ optional: true, oneOf: ISSUE_GROUPINGS });
const jsonTemplate = field.string({ optional: true, format: 'json-data-url' });
const port = <const O extends boolean>(optional: O) => field.integer({ optional, min: 1, max: 65535 });

const tracker = field.object(
  {
    trackerType: field.string({ oneOf: TRACKER_TYPES }),
    // The platform adds the scheme itself; a URL here names no host it can reach.
    trackerUrl: field.string({
      pattern: '^(?![A-Za-z][A-Za-z0-9+.-]*://)\\S+$',
      patternRule: 'a host name without a scheme such as `https://`',
    }),
    issueType: field.string(),
    projectId: field.string(),
    username: field.string(),
    apiToken: field.string({ optional: true, secret: true }),
    password: field.string({ optional: true, secret: true }),
    customTemplateFile: jsonTemplate,
    bidirectionalConfig: field.string({ optional: true, oneOf: TRACKER_CONFIGURATIONS }),
    issueGrouping,
  },
  {
    // The cloud tracker authenticates with an API token, the server one with a password.
    checkRule: 'apiToken is required when trackerType is TRACKER_CLOUD, password when it is TRACKER_SERVER',
    check: (data, path) => {
      if (data.trackerType === 'TRACKER_CLOUD' && !data.apiToken) {
        throw invalid(`${path}.apiToken is required when trackerType is TRACKER_CLOUD`);
      }
      if (data.trackerType === 'TRACKER_SERVER' && !data.password) {
        throw invalid(`${path}.password is required when trackerType is TRACKER_SERVER`);
      }
    },
  },
);

/** The `data` spec of each alert channel type, by type. */
export const ALERT_CHANNEL_DATA_SPECS = {
  EmailUser: field.object({
    channelProps: field.object({
      recipients: field.array(field.string({ format: 'email' }), { minItems: 1 }),
    }),
  }),
  CloudAEventBus: field.object({ eventBusArn: field.string(), issueGrouping }),
  CloudAObjectStore: field.object({
    objectStoreCredentials: field.object({
      bucketArn: field.string(),
      externalId: field.string(),
      roleArn: field.string(),
    }),
  }),
  TeamsA: field.object({ webhook: field.string({ format: 'url', credential: true }) }),
  TeamsB: field.object({ webhookUrl: field.string({ format: 'url', credential: true }) }),
  Chat: field.object({ webhookUrl: field.string({ format: 'url', credential: true }) }),
  Webhook: field.object({ webhookUrl: field.string({ format: 'url', credential: true }) }),
  OnCall: field.object({ intgUrl: field.string({ format: 'url', credential: true }) }),
  Metrics: field.object({
    apiKey: field.string({ secret: true }),
    metricsSite: field.string({ optional: true, oneOf: METRICS_SITES }),
    metricsType: field.string({ optional: true, oneOf: METRICS_TYPES }),
  }),
  CloudBPubSub: field.object({
    projectId: field.string(),
    topicId: field.string(),
    issueGrouping,
    credentials: field.object({
      clientId: field.string(),
      clientEmail: field.string({ format: 'email' }),
      privateKey: field.string({ secret: true, format: 'pem-private-key' }),
      privateKeyId: field.string({ secret: true }),
    }),
  }),
  Tracker: tracker,
  Observ: field.object({ accountId: field.integer({ min: 1 }), insertKey: field.string({ credential: true }) }),
  Pager: field.object({ apiIntgKey: field.string({ secret: true }) }),
  Siem: field.object({
    hostUrl: field.string(),
    hostPort: port(true),
    commType: field.string({ optional: true, oneOf: SIEM_COMMUNICATION_TYPES }),
  }),
  Ticketing: field.object({
    instanceUrl: field.string(),
    userName: field.string(),
    password: field.string({ secret: true }),
    customTemplateFile: jsonTemplate,
    issueGrouping,
  }),
  LogSink: field.object({
    // Read back by the platform (not masked), unlike the other channels' credentials.
    ingestToken: field.string({ credential: true }),
    channel: field.string({ optional: true }),
    host: field.string(),
    port: port(false),
    ssl: field.boolean({ optional: true }),
    eventData: field.object({ index: field.string(), source: field.string() }),
  }),
} satisfies Readonly<Record<string, ObjectSpec>>;

export const ALERT_CHANNEL_BODIES: ContractBodies = bodiesByType('AlertChannels', ALERT_CHANNEL_DATA_SPECS);
