import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import {
  cloudBCredentials,
  cloudBCredentialsFromWire,
  cloudBCredentialsToWire,
  cloudBScope,
  upperScope,
} from './fields.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_b_at',
  apiType: 'CloudBAtSes',
  status: 'standard',
  description:
    "Feeds the platform with a CloudB project's or organisation's audit trail: the audit logs are " +
    'exported to a topic, and the platform reads them from a subscription with a service-account key.',
  fields: {
    credentials: cloudBCredentials({ privateKeyIdSecret: false, type: 'CloudBAtSes' }),
    resource_level: cloudBScope({
      field: 'CloudAccounts:CloudBAtSes.idType',
      required: false,
      description: 'What `resource_id` names: `PROJECT` (default) or `ORGANIZATION`, in any letter case.',
    }),
    resource_id: attr.string({
      required: true,
      description: 'Id of the project or organisation whose audit trail is read.',
    }),
    subscription: attr.string({
      required: true,
      description: 'Name of the subscription the platform reads the audit logs from.',
    }),
  },
  toData: (m) => ({
    credentials: cloudBCredentialsToWire(m.credentials[0]!),
    idType: upperScope(m.resource_level, 'PROJECT'),
    id: m.resource_id,
    subscriptionName: m.subscription,
  }),
  fromData: (data, own) => ({
    credentials: [cloudBCredentialsFromWire(data.credentials, own?.credentials[0])],
    resource_level: data.idType,
    resource_id: data.id,
    subscription: data.subscriptionName,
  }),
});
