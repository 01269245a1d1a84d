import { block } from '@keel/provider-framework';
import { alertChannel } from './family.js';
import { requiredText } from './fields.js';

export default alertChannel({
  typeName: 'sec_alert_channel_cloud_a_object_store',
  apiType: 'CloudAObjectStore',
  description:
    'Exports platform data to a CloudA object store bucket every hour (beta). The bucket must exist ' +
    'before the channel is created, and the platform writes to it by assuming the role given in ' +
    '`credentials`.',
  fields: {
    bucket_arn: requiredText('Resource name of the destination bucket. The bucket must already exist.'),
    credentials: block.one(
      {
        external_id: requiredText('The external id the platform presents when it assumes the role.'),
        role_arn: requiredText('Resource name of the cross-account role the platform assumes to write to the bucket.'),
      },
      { required: true, description: 'The cross-account role the platform assumes to write to the bucket.' },
    ),
  },
  toData: (m) => ({
    objectStoreCredentials: {
      bucketArn: m.bucket_arn,
      externalId: m.credentials[0]!.external_id,
      roleArn: m.credentials[0]!.role_arn,
    },
  }),
  fromData: ({ objectStoreCredentials: c }) => ({
    bucket_arn: c.bucketArn,
    credentials: [{ external_id: c.externalId, role_arn: c.roleArn }],
  }),
});
