import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { cloudCCredentials, cloudCCredentialsFromWire, cloudCCredentialsToWire, httpsUrl } from './fields.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_c_al',
  apiType: 'CloudCAlSeq',
  status: 'standard',
  description:
    "Feeds the platform with a CloudC tenant's activity log: the log is exported to a storage account, " +
    'and a storage queue announces each new file.',
  fields: {
    tenant_id: attr.string({ required: true, description: 'Id of the tenant (directory).' }),
    queue_url: attr.string({
      required: true,
      validate: [httpsUrl('CloudAccounts:CloudCAlSeq.queueUrl')],
      description: 'URL of the storage queue that announces new activity log files.',
    }),
    credentials: cloudCCredentials(),
  },
  toData: (m) => ({
    tenantId: m.tenant_id,
    queueUrl: m.queue_url,
    credentials: cloudCCredentialsToWire(m.credentials[0]!),
  }),
  fromData: (data, own) => ({
    tenant_id: data.tenantId,
    queue_url: data.queueUrl,
    credentials: [cloudCCredentialsFromWire(data.credentials, own?.credentials[0])],
  }),
});
