/**
 * The vdb provider. This slice serves the provider configuration; resources and data sources arrive
 * with the gRPC management client (issue 4).
 */
import { attr, resourceSchema } from '../../schema/define.js';
import { provider } from '../../engine/contracts.js';
import { DiagnosticError } from '../../engine/diagnostics.js';

export const VDB_VERSION = '1.19.2';

export interface VdbSettings {
  apiKey: string;
  apiUrl: string;
  accountId: string | null;
  insecure: boolean;
}

const schema = resourceSchema(
  {
    api_key: attr.string({ optional: true, sensitive: true, description: 'The API key for the management API. Environment: `VDB_API_KEY`.' }),
    api_url: attr.string({ optional: true, description: 'The URL of the management API. Environment: `VDB_API_URL`; default `grpc.vdb-cloud.example:443`.' }),
    account_id: attr.string({ optional: true, description: 'The default account used by resources that do not set their own. Environment: `VDB_ACCOUNT_ID`.' }),
    insecure: attr.bool({ optional: true, description: 'Skip TLS certificate verification (never plaintext; only loopback `http://` URLs are plaintext). Environment: `VDB_INSECURE`.' }),
  },
  { description: 'Configuration of the managed vector-database cloud provider.' },
);

export default provider<typeof schema.fields, VdbSettings>({
  name: 'vdb',
  version: VDB_VERSION,
  schema,
  async configure(config, ctx) {
    const apiKey = config.api_key ?? ctx.env.VDB_API_KEY;
    if (!apiKey) throw new DiagnosticError('Missing API key', 'Set `api_key` in the provider block or the VDB_API_KEY environment variable.');
    return {
      apiKey,
      apiUrl: config.api_url ?? ctx.env.VDB_API_URL ?? 'grpc.vdb-cloud.example:443',
      accountId: config.account_id ?? ctx.env.VDB_ACCOUNT_ID ?? null,
      insecure: config.insecure ?? /^(1|t|true)$/i.test(ctx.env.VDB_INSECURE ?? ''),
    };
  },
  resources: [],
  dataSources: [],
});
