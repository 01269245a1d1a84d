import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import { cloudCCredentials, cloudCCredentialsFromWire, cloudCCredentialsToWire } from './fields.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_c_ad_al',
  apiType: 'CloudCAdAl',
  status: 'standard',
  description:
    "Feeds the platform with a CloudC tenant's directory activity log (sign-ins and directory changes), " +
    'which the tenant streams to an event stream.',
  fields: {
    tenant_id: attr.string({ required: true, description: 'Id of the tenant (directory).' }),
    event_stream_namespace: attr.string({
      required: true,
      description: 'Namespace of the event stream that receives the directory activity log.',
    }),
    event_stream_name: attr.string({
      required: true,
      description: 'Name of the event stream that receives the directory activity log.',
    }),
    credentials: cloudCCredentials(),
  },
  toData: (m) => ({
    tenantId: m.tenant_id,
    eventStreamNamespace: m.event_stream_namespace,
    eventStreamName: m.event_stream_name,
    credentials: cloudCCredentialsToWire(m.credentials[0]!),
  }),
  fromData: (data, own) => ({
    tenant_id: data.tenantId,
    event_stream_namespace: data.eventStreamNamespace,
    event_stream_name: data.eventStreamName,
    credentials: [cloudCCredentialsFromWire(data.credentials, own?.credentials[0])],
  }),
});
