import { webhookChannel } from './fields.js';

export default webhookChannel({
  typeName: 'sec_alert_channel_on_call',
  apiType: 'OnCall',
  wireField: 'intgUrl',
  description: 'Sends platform alerts to an on-call routing service through its REST integration endpoint.',
  urlDescription: 'The REST endpoint URL of the on-call service integration, including its routing key.',
});
