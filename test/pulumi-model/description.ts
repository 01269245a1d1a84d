/**
 * What the Pulumi mapping needs to know about a provider: its Terraform schemas (exactly what
 * GetProviderSchema serves) plus, for the seed's view, the few mapping decisions that are not in the
 * Terraform schema: the hand-written overrides of the statically bridged upstream package the seeds
 * were generated from. The dynamic bridge users run (`pulumi package add terraform-provider …`) has
 * none of them; test/acceptance/pulumi.test.ts compares its real schema with this model built
 * without them.
 */
import type { Schema } from '../../packages/framework/src/schema/block.js';
import { loadProviderDef } from '../../src/providers/describe.js';

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

/** The overrides of the upstream packages the seeds show, by provider. */
export const SEED_MAPPINGS: Readonly<Record<string, PulumiMappingOptions>> = {
  sec: {
    autoNameOff: ['sec_agent_access_token'],
    // The one seed name the bridge's naming rules cannot produce.
    typeNameOverrides: { 'sec_alert_channel_cloud_a_object_store.credentials': 'AlertChannelObjectStoreCredentials' },
  },
  vdb: {
    // The seed shows `apiKey` required: the upstream package was generated from the provider started
    // without VDB_API_KEY, when its SDK served the argument Required.
    requiredConfig: ['api_key'],
  },
};

/**
 * The provider's schemas with the seed's overrides (the default), or with `mapping: 'dynamic'` as the
 * dynamic bridge sees them, with none.
 */
export async function describeProvider(
  name: string,
  options: { mapping?: 'seed' | 'dynamic' } = {},
): Promise<ProviderDescription> {
  const def = await loadProviderDef(name);
  const pulumi = options.mapping === 'dynamic' ? undefined : SEED_MAPPINGS[name];
  return {
    name: def.name,
    version: def.version,
    provider: def.schema,
    resources: Object.fromEntries(def.resources.map((r) => [r.typeName, r.schema])),
    dataSources: Object.fromEntries(def.dataSources.map((d) => [d.typeName, d.schema])),
    ...(pulumi ? { pulumi } : {}),
  };
}
