import { attr } from '@keel/provider-framework';
import { splitWireList } from '../../../../clients/sec/account-mappings.js';
import { cloudAccount } from './family.js';
import { checkedBy } from '../../rules.js';
import { cloudAAgentlessFields, cloudAAgentlessFromWire, cloudAAgentlessToWire } from './cloud-a-agentless-scanning.js';
import {
  requiredIdList,
  joinedUnlessEmpty,
  mappingsFromWire,
  mappingsToWire,
  optionalText,
  orgAccountMappingsList,
  unlessBlank,
  validateOrgAccountMappings,
} from './fields.js';

checkedBy('CloudAccounts:CloudAAgentlessOrg', 'check', { inCode: 'validateOrgAccountMappings' });

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_org_agentless_scanning',
  apiType: 'CloudAAgentlessOrg',
  status: 'standard',
  description:
    'Scans the hosts of many accounts of a CloudA organisation for vulnerabilities without agents: a ' +
    'scanner deployed in one scanning account reaches the monitored accounts and reports to the ' +
    'platform with `server_token`.',
  fields: {
    ...cloudAAgentlessFields('CloudAAgentlessOrg'),
    scanning_account: attr.string({
      optional: true,
      description:
        'Id of the account the scanner is deployed in. The platform accepts the integration without it: ' +
        'unset or `""` sends an empty scanning account, which can be set once the scanner is deployed.',
    }),
    monitored_accounts: requiredIdList(
      'Ids of the accounts, or organisational units, to scan. Surrounding whitespace is ignored. The ' +
        'platform accepts an empty list (`[]`): the integration then names no account yet.',
      { mayBeEmpty: true, joined: true },
    ),
    management_account: attr.string({
      optional: true,
      description: 'Id of the management account of the organisation.',
    }),
    org_account_mappings: orgAccountMappingsList(),
  },
  toData: (m) => {
    const managementAccount = unlessBlank(m.management_account);
    const accountMappingFile = mappingsToWire(m.org_account_mappings);
    return {
      ...cloudAAgentlessToWire(m),
      scanningAccount: m.scanning_account ?? '',
      monitoredAccounts: joinedUnlessEmpty(m.monitored_accounts) ?? '',
      ...(managementAccount ? { managementAccount } : {}),
      ...(accountMappingFile ? { accountMappingFile } : {}),
    };
  },
  fromData: (data, own) => ({
    ...cloudAAgentlessFromWire(data, own),
    scanning_account: optionalText(data.scanningAccount, own?.scanning_account),
    monitored_accounts: splitWireList(data.monitoredAccounts),
    management_account: optionalText(data.managementAccount, own?.management_account),
    org_account_mappings: mappingsFromWire(data.accountMappingFile),
  }),
  validate: (config, diags) => validateOrgAccountMappings(config.org_account_mappings, diags),
});
