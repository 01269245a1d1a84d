import { attr } from '@keel/provider-framework';
import { alertChannel } from './family.js';
import { readableSecret } from './fields.js';
import { sentSecret } from '../../shared/secrets.js';

export default alertChannel({
  typeName: 'sec_alert_channel_observ',
  apiType: 'Observ',
  description: 'Sends platform alerts to Observ as custom events.',
  fields: {
    account_id: attr.number({
      required: true,
      description: 'The Observ account number.',
    }),
    // A credential, so sensitive although the seed does not flag it (docs/decisions.md, "Credentials are sensitive").
    insert_key: readableSecret('An insert API key of the Observ account.', [], { sensitiveUnlikeUpstream: true }),
  },
  wire: { account_id: 'accountId' },
  toData: (m) => ({ insertKey: sentSecret(m.insert_key) }),
  fromData: (data) => ({ insert_key: data.insertKey }),
});
