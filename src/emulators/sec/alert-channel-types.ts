import { field, invalid, type ObjectSpec } from '../core/index.js';

/**
 * The `data` object of every alert channel type, in the neutral wire format
 * (docs/api/sec.md, "Alert channel types"; docs/decisions.md, "Neutral names"). `secret` fields are
 * blanked on reads; they and `credential` fields are kept when an update leaves them out. Adding a
 * type is one entry here.
 */
const issueGrouping = field.string({ optional: true, oneOf: ['Events', 'Resources'] });
const jsonTemplate = field.string({ optional: true, format: 'json-data-url' });

const tracker: ObjectSpec = field.object(
  {
    trackerType: field.string({ oneOf: ['TRACKER_CLOUD', 'TRACKER_SERVER'] }),
    trackerUrl: field.string(),
    issueType: field.string(),
    projectId: field.string(),
    username: field.string(),
    apiToken: field.string({ optional: true, secret: true }),
    password: field.string({ optional: true, secret: true }),
    customTemplateFile: jsonTemplate,
    bidirectionalConfig: field.string({ optional: true, oneOf: ['Unidirectional', 'Bidirectional'] }),
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

export const ALERT_CHANNEL_DATA_SPECS: Readonly<Record<string, ObjectSpec>> = {
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
    metricsSite: field.string({ optional: true, oneOf: ['com', 'eu'] }),
    metricsType: field.string({ optional: true, oneOf: ['Logs Detail', 'Logs Summary', 'Events Summary'] }),
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
    hostPort: field.integer({ optional: true, min: 1, max: 65535 }),
    commType: field.string({ optional: true, oneOf: ['HTTPS', 'HTTPS Self Signed Cert'] }),
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
    port: field.integer({ min: 1, max: 65535 }),
    ssl: field.boolean({ optional: true }),
    eventData: field.object({ index: field.string(), source: field.string() }),
  }),
};
