import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { checkedBy } from '../../rules.js';
import { requiredIdList, optionalText, roleCredentials, serverToken, unlessBlank, trimmedList } from './fields.js';

// The regions' minItems (1) is requiredIdList's nonEmpty, which says it as "must not be empty".
const regions = requiredIdList('The regions the scanner is deployed in.');
checkedBy('CloudAccounts:CloudADspm.regions', 'minItems', { checks: regions.options.validate!, sent: trimmedList });

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_dspm',
  apiType: 'CloudADspm',
  status: 'dspm',
  description:
    'Data security posture management for a CloudA account: a scanner deployed in the account classifies ' +
    'the data in its stores and reports to the platform with `server_token`.',
  fields: {
    account_id: attr.string({ optional: true, description: 'Id of the account the scanner is deployed in.' }),
    storage_bucket_arn: attr.string({
      required: true,
      description: 'ARN of the bucket the scanner writes its results and state to.',
    }),
    credentials: roleCredentials({
      required: true,
      description: 'The cross-account role the platform assumes to run the scanner.',
    }),
    regions,
    server_token: serverToken(),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    const accountId = unlessBlank(m.account_id);
    return {
      ...(accountId ? { cloudAAccountId: accountId } : {}),
      bucketArn: m.storage_bucket_arn,
      crossAccountCredentials: { roleArn: c.role_arn, externalId: c.external_id },
      regions: m.regions.map((region) => region.trim()),
    };
  },
  fromData: (data, own) => ({
    account_id: optionalText(data.cloudAAccountId, own?.account_id),
    storage_bucket_arn: data.bucketArn,
    credentials: [
      { role_arn: data.crossAccountCredentials.roleArn, external_id: data.crossAccountCredentials.externalId },
    ],
    regions: data.regions,
  }),
});
