import { attr, validators } from '../../../schema/define.js';
import { alertChannel } from './family.js';
import { secret, unlessBlank } from './fields.js';
import { sentSecret } from '../../shared/secrets.js';

const SITES = ['com', 'eu'] as const;
const SERVICES = ['Logs Detail', 'Logs Summary', 'Events Summary'] as const;

export default alertChannel({
  typeName: 'sec_alert_channel_metrics',
  apiType: 'Metrics',
  description: 'Sends platform alerts to the Metrics service as logs or events.',
  fields: {
    api_key: secret(
      'API key of the Metrics account. The platform never returns it, so changes made outside this configuration ' +
        'are not detected.',
    ),
    metrics_site: attr.string({
      optional: true,
      default: 'com',
      validate: [validators.oneOf(...SITES)],
      description: 'Where the Metrics account stores its logs: `com` or `eu`.',
    }),
    metrics_service: attr.string({
      optional: true,
      default: 'Logs Detail',
      validate: [validators.oneOf(...SERVICES)],
      description: 'What the platform sends: `Logs Detail`, `Logs Summary` or `Events Summary`.',
    }),
  },
  toData: (m) => ({
    apiKey: sentSecret(m.api_key),
    metricsSite: (m.metrics_site ?? 'com') as (typeof SITES)[number],
    metricsType: (m.metrics_service ?? 'Logs Detail') as (typeof SERVICES)[number],
  }),
  fromData: (data) => ({
    api_key: unlessBlank(data.apiKey),
    metrics_site: data.metricsSite ?? 'com',
    metrics_service: data.metricsType ?? 'Logs Detail',
  }),
});
