import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { cloudCCredentials, cloudCCredentialsFromWire, cloudCCredentialsToWire } from './fields.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_c_cfg',
  apiType: 'CloudCCfg',
  status: 'standard',
  description:
    "Lets the platform assess the configuration of a CloudC tenant's subscriptions (compliance and " +
    'posture), signing in with an application registration.',
  fields: {
    tenant_id: attr.string({ required: true, description: 'Id of the tenant (directory).' }),
    credentials: cloudCCredentials(),
  },
  toData: (m) => ({ tenantId: m.tenant_id, credentials: cloudCCredentialsToWire(m.credentials[0]!) }),
  fromData: (data, own) => ({
    tenant_id: data.tenantId,
    credentials: [cloudCCredentialsFromWire(data.credentials, own?.credentials[0])],
  }),
});
