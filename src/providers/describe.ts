/** Protocol-neutral descriptions of both providers, for the Pulumi mapping and the docs. */
import type { ProviderDef } from '../engine/contracts.js';
import type { ProviderDescription } from '../pulumi/description.js';

export async function loadProviderDef(name: string): Promise<ProviderDef<any, any>> {
  switch (name) {
    case 'sec':
      return (await import('../resources/sec/index.js')).default;
    case 'vdb':
      return (await import('../resources/vdb/index.js')).default;
    default:
      throw new Error(`unknown provider "${name}" (expected sec or vdb)`);
  }
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
