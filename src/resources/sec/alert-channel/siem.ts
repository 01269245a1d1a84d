import { attr } from '@keel/provider-framework';
import type { SIEM_COMMUNICATION_TYPES } from '../../../wire/sec-contract/alert-channels.js';
import { secRules } from '../rules.js';
import { alertChannel } from './family.js';
import { requiredText } from './fields.js';

export default alertChannel({
  typeName: 'sec_alert_channel_siem',
  apiType: 'Siem',
  description: 'Sends platform alerts to a SIEM listener over HTTPS.',
  fields: {
    host_url: requiredText('Domain name or IP address of the SIEM host.'),
    host_port: attr.number({
      optional: true,
      description: "Port the SIEM listens on. When unset, the SIEM's default port is used.",
    }),
    communication_type: attr.string({
      optional: true,
      default: 'HTTPS',
      validate: secRules('AlertChannels:Siem.commType'),
      description:
        'How to connect: `HTTPS`, or `HTTPS Self Signed Cert` when the SIEM presents a self-signed certificate.',
    }),
  },
  wire: { host_url: 'hostUrl', host_port: 'hostPort' },
  toData: (m) => ({ commType: (m.communication_type ?? 'HTTPS') as (typeof SIEM_COMMUNICATION_TYPES)[number] }),
  fromData: (data) => ({ communication_type: data.commType ?? 'HTTPS' }),
});
