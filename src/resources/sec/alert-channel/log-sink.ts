import { attr, block, validators } from '@keel/provider-framework';
import { alertChannel } from './family.js';
import { requiredText } from './fields.js';
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
    channel: attr.string({ optional: true, description: 'Channel name of the event collector, when it requires one.' }),
    host: requiredText('Host name of the event collector.'),
    port: attr.number({ required: true, description: 'Port of the event collector.' }),
    ssl: attr.bool({ optional: true, default: false, description: 'Whether to connect with TLS.' }),
    event_data: block.one(
      {
        index: requiredText('Index the events are stored in.'),
        source: requiredText('Source name given to the events.'),
      },
      { required: true, description: 'Where the collector files the events.' },
    ),
  },
  wire: { channel: 'channel', host: 'host', port: 'port' },
  toData: (m) => ({
    ingestToken: sentSecret(m.ingest_token),
    ssl: m.ssl === true,
    eventData: { index: m.event_data[0]!.index, source: m.event_data[0]!.source },
  }),
  fromData: (data) => ({
    ingest_token: data.ingestToken,
    ssl: data.ssl ?? false,
    event_data: [{ index: data.eventData.index, source: data.eventData.source }],
  }),
});
