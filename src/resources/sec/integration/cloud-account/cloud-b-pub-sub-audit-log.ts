import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { checkedBy } from '../../rules.js';
import {
  cloudBCredentials,
  cloudBCredentialsFromWire,
  cloudBCredentialsToWire,
  cloudBScope,
  optionalText,
  unlessBlank,
  upperScope,
  validateOrganizationScope,
} from './fields.js';

checkedBy('CloudAccounts:CloudBAlPubSub', 'check', { inCode: 'validateOrganizationScope' });

export default cloudAccount({
  typeName: 'sec_integration_cloud_b_pub_sub_audit_log',
  apiType: 'CloudBAlPubSub',
  status: 'isOrgUntyped',
  description:
    "Feeds the platform with a CloudB project's or organisation's audit logs through a pub/sub topic and " +
    'subscription, read with a service-account key.',
  fields: {
    credentials: cloudBCredentials({ privateKeyIdSecret: true, type: 'CloudBAlPubSub' }),
    integration_type: cloudBScope({
      field: 'CloudAccounts:CloudBAlPubSub.integrationType',
      required: true,
      description: 'Whether the logs of one `PROJECT` or of a whole `ORGANIZATION` are read, in any letter case.',
    }),
    organization_id: attr.string({
      optional: true,
      description: 'Id of the organisation; required when `integration_type` is `ORGANIZATION`.',
    }),
    project_id: attr.string({
      required: true,
      description: 'Id of the project that holds the topic and the subscription.',
    }),
    subscription_id: attr.string({
      required: true,
      description: 'Name of the subscription the platform reads the logs from.',
    }),
    topic_id: attr.string({ required: true, description: 'Id of the topic the logs are published to.' }),
  },
  toData: (m) => {
    const organizationId = unlessBlank(m.organization_id);
    return {
      credentials: cloudBCredentialsToWire(m.credentials[0]!),
      integrationType: upperScope(m.integration_type, 'PROJECT'),
      ...(organizationId ? { organizationId } : {}),
      projectId: m.project_id,
      subscriptionName: m.subscription_id,
      topicId: m.topic_id,
    };
  },
  fromData: (data, own) => ({
    credentials: [cloudBCredentialsFromWire(data.credentials, own?.credentials[0])],
    integration_type: data.integrationType,
    organization_id: optionalText(data.organizationId, own?.organization_id),
    project_id: data.projectId,
    subscription_id: data.subscriptionName,
    topic_id: data.topicId,
  }),
  validate: (config, diags) => validateOrganizationScope(config.integration_type, config.organization_id, diags),
});
