import { alertChannel } from './family.js';
import { secret, unlessBlank } from './fields.js';
import { sentSecret } from '../../shared/secrets.js';

export default alertChannel({
  typeName: 'sec_alert_channel_pager',
  apiType: 'Pager',
  description:
    'Forwards platform alerts one way to a Pager service, where each event opens an incident or is ' +
    'grouped as an alert into an existing one.',
  fields: {
    integration_key: secret(
      'The integration key of the Pager service. The platform never returns it, so changes made outside ' +
        'this configuration are not detected.',
    ),
  },
  toData: (m) => ({ apiIntgKey: sentSecret(m.integration_key) }),
  fromData: (data) => ({ integration_key: unlessBlank(data.apiIntgKey) }),
});
