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
  typeName: 'sec_integration_cloud_b_cfg',
  apiType: 'CloudBCfg',
  status: 'standard',
  description:
    'Lets the platform assess the configuration of a CloudB project or organisation (compliance and ' +
    'posture), reading it with a service-account key.',
  fields: {
    credentials: cloudBCredentials({ privateKeyIdSecret: false, type: 'CloudBCfg' }),
    resource_level: cloudBScope({
      field: 'CloudAccounts:CloudBCfg.idType',
      required: false,
      description: 'What `resource_id` names: `PROJECT` (default) or `ORGANIZATION`, in any letter case.',
    }),
    resource_id: attr.string({ required: true, description: 'Id of the project or organisation to assess.' }),
  },
  toData: (m) => ({
    credentials: cloudBCredentialsToWire(m.credentials[0]!),
    idType: upperScope(m.resource_level, 'PROJECT'),
    id: m.resource_id,
  }),
  fromData: (data, own) => ({
    credentials: [cloudBCredentialsFromWire(data.credentials, own?.credentials[0])],
    resource_level: data.idType,
    resource_id: data.id,
  }),
});
