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

checkedBy('CloudAccounts:CloudBGkeAudit', 'check', { inCode: 'validateOrganizationScope' });

export default cloudAccount({
  typeName: 'sec_integration_cloud_b_gke_audit_log',
  apiType: 'CloudBGkeAudit',
  status: 'isOrgUntyped',
  description:
    "Feeds the platform with the audit logs of a CloudB project's or organisation's managed Kubernetes " +
    'clusters, read from a pub/sub subscription with a service-account key.',
  fields: {
    credentials: cloudBCredentials({ privateKeyIdSecret: true, type: 'CloudBGkeAudit' }),
    integration_type: cloudBScope({
      field: 'CloudAccounts:CloudBGkeAudit.integrationType',
      required: true,
      description:
        'Whether the clusters of one `PROJECT` or of a whole `ORGANIZATION` are covered, in any letter case.',
    }),
    organization_id: attr.string({
      optional: true,
      description: 'Id of the organisation; required when `integration_type` is `ORGANIZATION`.',
    }),
    project_id: attr.string({ required: true, description: 'Id of the project that holds the subscription.' }),
    subscription: attr.string({
      required: true,
      description: 'Name of the subscription the platform reads the logs from.',
    }),
  },
  toData: (m) => {
    const organizationId = unlessBlank(m.organization_id);
    return {
      credentials: cloudBCredentialsToWire(m.credentials[0]!),
      integrationType: upperScope(m.integration_type, 'PROJECT'),
      ...(organizationId ? { organizationId } : {}),
      projectId: m.project_id,
      subscriptionName: m.subscription,
    };
  },
  fromData: (data, own) => ({
    credentials: [cloudBCredentialsFromWire(data.credentials, own?.credentials[0])],
    integration_type: data.integrationType,
    organization_id: optionalText(data.organizationId, own?.organization_id),
    project_id: data.projectId,
    subscription: data.subscriptionName,
  }),
  validate: (config, diags) => validateOrganizationScope(config.integration_type, config.organization_id, diags),
});
