import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { checkedBy } from '../../rules.js';
import { CLOUD_C_INTEGRATION_LEVELS } from '../../../../wire/sec-contract/cloud-accounts.js';
import {
  anyCaseOneOf,
  upperCased,
  cloudCCredentials,
  cloudCCredentialsFromWire,
  cloudCCredentialsToWire,
  httpsUrl,
  optionalIdList,
  joinedUnlessEmpty,
  optionalJoinedList,
  sameIgnoringCase,
  scanFromWire,
  scanSettings,
  scanToWire,
  serverToken,
  serverUri,
  upperScope,
} from './fields.js';

// Any letter case, upper-cased when sent: the contract's values, not its exact-case check.
const INTEGRATION_LEVEL_CHECKS = [anyCaseOneOf(...CLOUD_C_INTEGRATION_LEVELS)];
checkedBy('CloudAccounts:CloudCAgentless.integrationLevel', 'oneOf', {
  checks: INTEGRATION_LEVEL_CHECKS,
  sent: upperCased,
});

export default cloudAccount({
  typeName: 'sec_integration_cloud_c_agentless_scanning',
  apiType: 'CloudCAgentless',
  status: 'untyped',
  description:
    'Scans the hosts of a CloudC subscription or tenant for vulnerabilities without agents: a scanner ' +
    'deployed in a scanning subscription snapshots the disks, shares its results through a blob ' +
    'container and reports to the platform with `server_token`.',
  fields: {
    credentials: cloudCCredentials({ sensitiveUnlikeUpstream: true }),
    integration_level: attr.string({
      optional: true,
      default: 'SUBSCRIPTION',
      validate: INTEGRATION_LEVEL_CHECKS,
      equal: sameIgnoringCase,
      description: 'Whether one `SUBSCRIPTION` (default) or the whole `TENANT` is scanned, in any letter case.',
    }),
    scanning_subscription_id: attr.string({
      required: true,
      description: 'Id of the subscription the scanner is deployed in.',
    }),
    tenant_id: attr.string({ required: true, description: 'Id of the tenant (directory) the scanner is deployed in.' }),
    blob_container_name: attr.string({
      required: true,
      description: 'Name of the blob container the scanner shares its results with the platform through.',
    }),
    scanning_resource_group_name: attr.string({
      required: true,
      description: 'Name of the resource group the scanner runs in.',
    }),
    storage_account_url: attr.string({
      required: true,
      validate: [httpsUrl('CloudAccounts:CloudCAgentless.storageAccountUrl')],
      description: 'URL of the storage account that holds the blob container, `https://<account>.blob.<cloud domain>`.',
    }),
    ...scanSettings('CloudCAgentless', { frequency: 24, containers: true, hostVulnerabilities: true, queryText: '' }),
    subscriptions_list: optionalIdList(
      'Subscriptions to include in or exclude from the scan; unset scans every subscription in scope. ' +
        'Surrounding whitespace is ignored.',
      { joined: true },
    ),
    server_token: serverToken(),
    uri: serverUri(),
  },
  toData: (m) => {
    const subscriptionsList = joinedUnlessEmpty(m.subscriptions_list);
    return {
      ...scanToWire(m),
      credentials: cloudCCredentialsToWire(m.credentials[0]!),
      integrationLevel: upperScope(m.integration_level, 'SUBSCRIPTION'),
      scanningSubscriptionId: m.scanning_subscription_id,
      tenantId: m.tenant_id,
      blobContainerName: m.blob_container_name,
      scanningResourceGroupName: m.scanning_resource_group_name,
      storageAccountUrl: m.storage_account_url,
      ...(subscriptionsList ? { subscriptionsList } : {}),
    };
  },
  fromData: (data, own) => ({
    ...scanFromWire(data, own),
    credentials: [cloudCCredentialsFromWire(data.credentials, own?.credentials[0])],
    integration_level: data.integrationLevel,
    scanning_subscription_id: data.scanningSubscriptionId,
    tenant_id: data.tenantId,
    blob_container_name: data.blobContainerName,
    scanning_resource_group_name: data.scanningResourceGroupName,
    storage_account_url: data.storageAccountUrl,
    subscriptions_list: optionalJoinedList(data.subscriptionsList, own?.subscriptions_list),
  }),
});
