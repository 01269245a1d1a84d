import { attr } from '@keel/provider-framework';
import type { METRICS_SITES, METRICS_TYPES } from '../../../wire/sec-contract/alert-channels.js';
import { secRules } from '../rules.js';
import { alertChannel } from './family.js';
import { secret, unlessBlank } from './fields.js';
import { sentSecret } from '../../shared/secrets.js';

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
      validate: secRules('AlertChannels:Metrics.metricsSite'),
      description: 'Where the Metrics account stores its logs: `com` or `eu`.',
    }),
    metrics_service: attr.string({
      optional: true,
      default: 'Logs Detail',
      validate: secRules('AlertChannels:Metrics.metricsType'),
      description: 'What the platform sends: `Logs Detail`, `Logs Summary` or `Events Summary`.',
    }),
  },
  toData: (m) => ({
    apiKey: sentSecret(m.api_key),
    metricsSite: (m.metrics_site ?? 'com') as (typeof METRICS_SITES)[number],
    metricsType: (m.metrics_service ?? 'Logs Detail') as (typeof METRICS_TYPES)[number],
  }),
  fromData: (data) => ({
    api_key: unlessBlank(data.apiKey),
    metrics_site: data.metricsSite ?? 'com',
    metrics_service: data.metricsType ?? 'Logs Detail',
  }),
});
