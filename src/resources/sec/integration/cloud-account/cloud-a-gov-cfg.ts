import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { accessKeyCredentials, keptSecret } from './fields.js';
import { sentSecret } from '../../../shared/secrets.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_gov_cfg',
  apiType: 'CloudAGovCfg',
  status: 'standard',
  description:
    'Lets the platform assess the configuration of a CloudA account in the government regions, reading ' +
    'it with an access key (cross-account roles are not available there).',
  fields: {
    account_id: attr.string({ required: true, description: 'Id of the account.' }),
    credentials: accessKeyCredentials(),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    return {
      accessKeyCredentials: {
        accountId: m.account_id,
        accessKeyId: c.access_key_id,
        secretAccessKey: sentSecret(c.secret_access_key),
      },
    };
  },
  fromData: (data, own) => ({
    account_id: data.accessKeyCredentials.accountId,
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
