import { attr, block, validators } from '@keel/provider-framework';
import { alertChannel } from './family.js';
import { port, requiredText } from './fields.js';
import { sentSecret } from '../../shared/secrets.js';

export default alertChannel({
  typeName: 'sec_alert_channel_log_sink',
  apiType: 'LogSink',
  description: 'Sends platform alerts to a LogSink HTTP event collector.',
  fields: {
    // A credential, so sensitive (upstream left it unflagged; the seed does not show this resource).
    // The platform returns it, so changes outside Terraform are detected; a blank answer keeps it.
    ingest_token: attr.string({
      optional: true,
      sensitive: true,
      writeOnlyTwin: { required: true },
      masked: true,
      sensitiveUnlikeUpstream: true,
      validate: [validators.nonEmpty()],
      description: 'Token of the event collector.',
    }),
    // Empty would be dropped from the request and never read back: refuse it rather than diff forever.
    channel: attr.string({
      optional: true,
      validate: [validators.nonEmpty()],
      description: 'Channel name of the event collector, when it requires one.',
    }),
    host: requiredText('Host name of the event collector.'),
    port: port(true, 'AlertChannels:LogSink.port', 'Port of the event collector (1–65535).'),
    ssl: attr.bool({ optional: true, default: false, description: 'Whether to connect with TLS.' }),
    event_data: block.one(
      {
        index: requiredText('Index the events are stored in.'),
        source: requiredText('Source name given to the events.'),
      },
      { required: true, description: 'Where the collector files the events.' },
    ),
  },
  toData: (m) => ({
    ingestToken: sentSecret(m.ingest_token),
    ...(m.channel ? { channel: m.channel } : {}),
    host: m.host,
    port: m.port,
    ssl: m.ssl === true,
    eventData: { index: m.event_data[0]!.index, source: m.event_data[0]!.source },
  }),
  fromData: (data) => ({
    ingest_token: data.ingestToken,
    channel: data.channel || null,
    host: data.host,
    port: data.port,
    ssl: data.ssl ?? false,
    event_data: [{ index: data.eventData.index, source: data.eventData.source }],
  }),
});
