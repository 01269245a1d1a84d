import { webhookChannel } from './fields.js';

export default webhookChannel({
  typeName: 'sec_alert_channel_chat',
  apiType: 'Chat',
  wireField: 'webhookUrl',
  description:
    'Forwards platform alerts to a chat channel through an incoming webhook. A channel dedicated to ' +
    'these alerts is recommended.',
  urlDescription: 'The incoming webhook URL of the chat channel.',
});
