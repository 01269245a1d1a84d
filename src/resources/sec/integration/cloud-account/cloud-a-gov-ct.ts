import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { accessKeyCredentials, httpsUrl, keptSecret } from './fields.js';
import { sentSecret } from '../../../shared/secrets.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_gov_ct',
  apiType: 'CloudAGovCtSqs',
  status: 'standard',
  description:
    'Feeds the platform with the activity trail of a CloudA account in the government regions: the ' +
    "platform reads the trail's notification queue with an access key.",
  fields: {
    account_id: attr.string({ required: true, description: 'Id of the account.' }),
    queue_url: attr.string({
      required: true,
      validate: [httpsUrl('CloudAccounts:CloudAGovCtSqs.queueUrl')],
      description: 'URL of the queue that receives the notifications of new trail files.',
    }),
    credentials: accessKeyCredentials(),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    return {
      queueUrl: m.queue_url,
      accessKeyCredentials: {
        accountId: m.account_id,
        accessKeyId: c.access_key_id,
        secretAccessKey: sentSecret(c.secret_access_key),
      },
    };
  },
  fromData: (data, own) => ({
    account_id: data.accessKeyCredentials.accountId,
    queue_url: data.queueUrl,
    credentials: [
      {
        access_key_id: data.accessKeyCredentials.accessKeyId,
        secret_access_key: keptSecret(
          data.accessKeyCredentials.secretAccessKey,
          own?.credentials[0]?.secret_access_key,
        ),
      },
    ],
  }),
});
