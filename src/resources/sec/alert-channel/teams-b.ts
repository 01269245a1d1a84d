import { webhookChannel } from './fields.js';

export default webhookChannel({
  typeName: 'sec_alert_channel_teams_b',
  apiType: 'TeamsB',
  wireField: 'webhookUrl',
  description: 'Posts platform alerts to a TeamsB channel through an incoming webhook.',
  urlDescription: 'The incoming webhook URL of the TeamsB channel.',
});
