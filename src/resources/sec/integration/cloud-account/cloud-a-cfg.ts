import { cloudAccount } from './family.js';
import { roleCredentials } from './fields.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_cfg',
  apiType: 'CloudACfg',
  status: 'standard',
  description:
    'Lets the platform assess the configuration of a CloudA account (compliance and posture), reading it ' +
    'through a cross-account role.',
  fields: {
    credentials: roleCredentials({ required: true }),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    return { crossAccountCredentials: { roleArn: c.role_arn, externalId: c.external_id } };
  },
  fromData: (data) => ({
    credentials: [
      { role_arn: data.crossAccountCredentials.roleArn, external_id: data.crossAccountCredentials.externalId },
    ],
  }),
});
