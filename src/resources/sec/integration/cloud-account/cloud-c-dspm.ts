import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { checkedBy } from '../../rules.js';
import {
  cloudCCredentials,
  cloudCCredentialsFromWire,
  cloudCCredentialsToWire,
  httpsUrl,
  requiredIdList,
  optionalText,
  serverToken,
  unlessBlank,
  trimmedList,
} from './fields.js';

// The regions' minItems (1) is requiredIdList's nonEmpty, which says it as "must not be empty".
const regions = requiredIdList('The regions the scanner is deployed in.');
checkedBy('CloudAccounts:CloudCDspm.regions', 'minItems', { checks: regions.options.validate!, sent: trimmedList });

export default cloudAccount({
  typeName: 'sec_integration_cloud_c_dspm',
  apiType: 'CloudCDspm',
  status: 'dspm',
  description:
    'Data security posture management for a CloudC tenant: a scanner deployed in the tenant classifies ' +
    'the data in its stores, keeps its results in a blob container and reports to the platform with ' +
    '`server_token`.',
  fields: {
    tenant_id: attr.string({ optional: true, description: 'Id of the tenant (directory) the scanner is deployed in.' }),
    storage_account_url: attr.string({
      required: true,
      validate: [httpsUrl('CloudAccounts:CloudCDspm.storageAccountUrl')],
      description: 'URL of the storage account the scanner writes its results and state to.',
    }),
    blob_container_name: attr.string({
      required: true,
      description: 'Name of the blob container the scanner writes its results and state to.',
    }),
    credentials: cloudCCredentials({ sensitiveUnlikeUpstream: true }),
    regions,
    server_token: serverToken(),
  },
  toData: (m) => {
    const tenantId = unlessBlank(m.tenant_id);
    return {
      ...(tenantId ? { tenantId } : {}),
      storageAccountUrl: m.storage_account_url,
      blobContainerName: m.blob_container_name,
      credentials: cloudCCredentialsToWire(m.credentials[0]!),
      regions: m.regions.map((region) => region.trim()),
    };
  },
  fromData: (data, own) => ({
    tenant_id: optionalText(data.tenantId, own?.tenant_id),
    storage_account_url: data.storageAccountUrl,
    blob_container_name: data.blobContainerName,
    credentials: [cloudCCredentialsFromWire(data.credentials, own?.credentials[0])],
    regions: data.regions,
  }),
});
