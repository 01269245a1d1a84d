import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { optionalText, roleCredentials, unlessBlank } from './fields.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_eks_audit_log',
  apiType: 'CloudAEksAudit',
  status: 'isOrg',
  description:
    "Feeds the platform with the audit logs of a CloudA account's managed Kubernetes clusters: the logs " +
    'are delivered to a bucket, and a notification topic announces each new file.',
  fields: {
    topic_arn: attr.string({
      required: true,
      description: 'ARN of the notification topic that announces new audit log files.',
    }),
    bucket_arn: attr.string({ optional: true, description: 'ARN of the bucket that receives the audit log files.' }),
    credentials: roleCredentials({ required: true }),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    const bucketArn = unlessBlank(m.bucket_arn);
    return {
      topicArn: m.topic_arn,
      ...(bucketArn ? { bucketArn } : {}),
      crossAccountCredentials: { roleArn: c.role_arn, externalId: c.external_id },
    };
  },
  fromData: (data, own) => ({
    topic_arn: data.topicArn,
    bucket_arn: optionalText(data.bucketArn, own?.bucket_arn),
    credentials: [
      { role_arn: data.crossAccountCredentials.roleArn, external_id: data.crossAccountCredentials.externalId },
    ],
  }),
});
