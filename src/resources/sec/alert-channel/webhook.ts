import { webhookChannel } from './fields.js';

export default webhookChannel({
  typeName: 'sec_alert_channel_webhook',
  apiType: 'Webhook',
  wireField: 'webhookUrl',
  description: 'Posts platform alerts as JSON to any HTTP(S) endpoint.',
  urlDescription: 'The URL that receives the alerts.',
});
