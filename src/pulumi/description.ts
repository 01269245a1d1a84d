/**
 * What the Pulumi mapping needs to know about a provider: its Terraform schemas (exactly what
 * GetProviderSchema serves) plus the few mapping decisions that are not in the Terraform schema.
 */
import type { Schema } from '../schema/block.js';
import { loadProviderDef } from '../providers/describe.js';

export interface PulumiMappingOptions {
  /** Terraform resource types whose `name` must not be auto-named (it stays a required input). */
  autoNameOff?: string[];
  /** Terraform resource types whose string `name` input is auto-named even where the default rule would not apply. */
  autoNameOn?: string[];
  /**
   * Explicit nested type names. Key: `<terraform resource type>.<field path, dotted>` (for example
   * `sec_alert_channel_cloud_a_object_store.credentials`), or `data.<terraform data source type>.<path>`
   * for a data source. Value: the type name (without package or module), e.g.
   * `AlertChannelObjectStoreCredentials`. Nested types below it are named after it.
   */
  typeNameOverrides?: Record<string, string>;
  /**
   * Provider settings shown as required configuration although the Terraform schema serves them
   * Optional: the provider demands them at configure time, with an environment-variable fallback
   * that an Optional argument leaves room for (vdb `api_key`, as the vdb seed shows it).
   */
  requiredConfig?: string[];
}

export interface ProviderDescription {
  /** Provider (and Pulumi package) name, e.g. 'sec'. */
  name: string;
  /** Provider version, e.g. '2.2.0'. */
  version: string;
  /** Provider configuration schema. */
  provider: Schema;
  /** Terraform resource type name → schema. */
  resources: Record<string, Schema>;
  /** Terraform data source type name → schema. */
  dataSources: Record<string, Schema>;
  pulumi?: PulumiMappingOptions;
}

export async function describeProvider(name: string): Promise<ProviderDescription> {
  const def = await loadProviderDef(name);
  return {
    name: def.name,
    version: def.version,
    provider: def.schema,
    resources: Object.fromEntries(def.resources.map((r) => [r.typeName, r.schema])),
    dataSources: Object.fromEntries(def.dataSources.map((d) => [d.typeName, d.schema])),
    ...(def.pulumi ? { pulumi: def.pulumi } : {}),
  };
}
