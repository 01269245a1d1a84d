import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { checkedBy } from '../../rules.js';
import {
  httpsUrl,
  mappingsFromWire,
  mappingsToWire,
  orgAccountMappingsOne,
  roleCredentials,
  validateOrgAccountMappings,
} from './fields.js';

checkedBy('CloudAccounts:CloudACtSqs', 'check', { inCode: 'validateOrgAccountMappings' });

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_ct',
  apiType: 'CloudACtSqs',
  status: 'standard',
  description:
    "Feeds the platform with a CloudA account's activity trail: the platform reads the trail's " +
    'notification queue through a cross-account role. For an organisation trail, ' +
    '`org_account_mappings` spreads the member accounts over platform accounts.',
  fields: {
    queue_url: attr.string({
      required: true,
      validate: [httpsUrl('CloudAccounts:CloudACtSqs.queueUrl')],
      description: 'URL of the queue that receives the notifications of new trail files.',
    }),
    credentials: roleCredentials({ required: true }),
    org_account_mappings: orgAccountMappingsOne(),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    const accountMappingFile = mappingsToWire(m.org_account_mappings);
    return {
      queueUrl: m.queue_url,
      crossAccountCredentials: { roleArn: c.role_arn, externalId: c.external_id },
      ...(accountMappingFile ? { accountMappingFile } : {}),
    };
  },
  fromData: (data) => ({
    queue_url: data.queueUrl,
    credentials: [
      { role_arn: data.crossAccountCredentials.roleArn, external_id: data.crossAccountCredentials.externalId },
    ],
    org_account_mappings: mappingsFromWire(data.accountMappingFile),
  }),
  validate: (config, diags) => validateOrgAccountMappings(config.org_account_mappings, diags),
});
