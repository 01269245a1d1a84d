/**
 * The sec provider: its configuration schema, how it builds the API client, and the list of its
 * resources and data sources (one import line each).
 */
import { attr, provider, providerSchema } from '@keel/provider-framework';
import { createSettingFields, createSettingsOf } from '../shared/create-settings.js';
import { SEC_LIMITS } from './limits.js';
import { SEC_REFERENCES } from './references.js';
import type { SecClient } from '../../clients/sec/index.js';
import agentAccessToken from './agent-access-token.js';
import { alertChannelResources } from './alert-channel/index.js';
import { cloudAccountResources } from './integration/cloud-account/index.js';
import { registryResources } from './integration/registry/index.js';
import { policyResources } from './policy/index.js';
import { queryResources } from './query.js';
import { alertRuleResources } from './alert-rule.js';
import { dataExportRuleResources } from './data-export-rule.js';
import { externalIdResources } from './external-id.js';
import { reportRuleResources } from './report-rule.js';
import { resourceGroupResources } from './resource-group.js';
import { teamMemberResources } from './team-member.js';
import { vulnerabilityExceptionResources } from './vulnerability-exception.js';
import { secDataSources } from './data-source/index.js';
import { secEphemeralResources } from './ephemeral/index.js';
import { secActions } from './actions.js';
import { SEC_VERSION } from './version.js';
import * as functions from './functions/index.js';

export { SEC_VERSION } from './version.js';

const schema = providerSchema(
  {
    account: attr.string({
      optional: true,
      description:
        'Account subdomain of the platform URL (`<account>.sec-platform.example`). Environment: `SEC_ACCOUNT`.',
    }),
    api_key: attr.string({
      optional: true,
      sensitive: true,
      description: 'API access key. Environment: `SEC_API_KEY`.',
    }),
    api_secret: attr.string({
      optional: true,
      sensitive: true,
      description: 'API access secret. Environment: `SEC_API_SECRET`.',
    }),
    api_token: attr.string({
      optional: true,
      sensitive: true,
      description: 'A pre-issued API access token. Environment: `SEC_API_TOKEN`.',
    }),
    profile: attr.string({
      optional: true,
      description: 'Profile name in the profile file `~/.sec.toml`. Environment: `SEC_PROFILE`; default `default`.',
    }),
    organization: attr.bool({
      optional: true,
      description:
        'Access organization-level data sets (organization administrators only). Environment: ' +
        '`SEC_ORGANIZATION` (`true`, `false`, `1` or `0`).',
    }),
    subaccount: attr.string({
      optional: true,
      description:
        'Sub-account inside the organization (organization administrators only). Environment: `SEC_SUBACCOUNT`.',
    }),
    ...createSettingFields('SEC'),
  },
  { description: 'Configuration of the security-posture platform provider.' },
);

export default provider<typeof schema.fields, SecClient>({
  name: 'sec',
  namespace: 'keel',
  version: SEC_VERSION,
  schema,
  async configure(config, ctx) {
    // Loaded here, not at start-up: the client (zod) and the profile reader (smol-toml) are
    // needed only once Terraform configures the provider, which several of the processes Terraform
    // starts per command never do (docs/benchmarks.md: handshake).
    const [{ resolveSecSettings }, { createSecClient }] = await Promise.all([
      import('./provider-config.js'),
      import('../../clients/sec/client.js'),
    ]);
    const s = await resolveSecSettings(config, ctx.env, ctx.diags);
    return createSecClient({
      ...s,
      userAgent: `terraform-provider-sec/${SEC_VERSION} (Terraform ${ctx.terraformVersion || 'unknown'})`,
      logger: ctx.log,
      environment: ctx.env,
    });
  },
  createSettings: (config, env) => createSettingsOf(config, env, 'SEC'),
  environmentPrefix: 'SEC',
  apiAddress: (client) => client.address,
  functions: Object.values(functions),
  resources: [
    agentAccessToken,
    ...alertChannelResources,
    ...cloudAccountResources,
    ...registryResources,
    ...policyResources,
    ...queryResources,
    ...alertRuleResources,
    ...dataExportRuleResources,
    ...externalIdResources,
    ...reportRuleResources,
    ...resourceGroupResources,
    ...teamMemberResources,
    ...vulnerabilityExceptionResources,
  ],
  dataSources: secDataSources,
  ephemeralResources: secEphemeralResources,
  actions: secActions,
  limits: SEC_LIMITS,
  references: SEC_REFERENCES,
});
