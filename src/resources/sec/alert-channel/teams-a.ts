import { webhookChannel } from './fields.js';

export default webhookChannel({
  typeName: 'sec_alert_channel_teams_a',
  apiType: 'TeamsA',
  wireField: 'webhook',
  description: 'Posts platform alerts to a TeamsA space through an incoming webhook.',
  urlDescription: 'The incoming webhook URL of the TeamsA space.',
});
