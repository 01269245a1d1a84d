import { attr, block } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { keptSecret } from './fields.js';
import { secRules } from '../../rules.js';
import { sentSecret } from '../../../shared/secrets.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_d_cfg',
  apiType: 'CloudDCfg',
  status: 'standard',
  description:
    'Lets the platform assess the configuration of a CloudD tenancy (compliance and posture), signing ' +
    "API requests as a tenancy user with that user's API signing key.",
  fields: {
    credentials: block.one(
      {
        fingerprint: attr.string({
          required: true,
          validate: secRules('CloudAccounts:CloudDCfg.credentials.fingerprint', {
            samples: ['12:34:56:78:90:ab:cd:ef:12:34:56:78:90:ab:cd:ef'],
          }),
          description:
            'Fingerprint of the public half of the API signing key, e.g. ' +
            '`12:34:56:78:90:ab:cd:ef:12:34:56:78:90:ab:cd:ef`.',
        }),
        private_key: attr.string({
          optional: true,
          sensitive: true,
          writeOnlyTwin: { required: true },
          masked: true,
          validate: secRules('CloudAccounts:CloudDCfg.credentials.privateKey'),
          description:
            'Private half of the API signing key (PEM). The platform never returns it, so a change made ' +
            'outside this configuration is not detected.',
        }),
      },
      { required: true, description: "The user's API signing key." },
    ),
    home_region: attr.string({ required: true, description: 'Home region of the tenancy.' }),
    tenant_id: attr.string({ required: true, description: 'Id of the tenancy.' }),
    tenant_name: attr.string({ required: true, description: 'Name of the tenancy.' }),
    user_id: attr.string({ required: true, description: 'Id of the user the platform signs requests as.' }),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    return {
      credentials: { fingerprint: c.fingerprint, privateKey: sentSecret(c.private_key) },
      homeRegion: m.home_region,
      tenantId: m.tenant_id,
      tenantName: m.tenant_name,
      userId: m.user_id,
    };
  },
  fromData: (data, own) => ({
    credentials: [
      {
        fingerprint: data.credentials.fingerprint,
        private_key: keptSecret(data.credentials.privateKey, own?.credentials[0]?.private_key),
      },
    ],
    home_region: data.homeRegion,
    tenant_id: data.tenantId,
    tenant_name: data.tenantName,
    user_id: data.userId,
  }),
});
