/** Both providers' definitions by name, for the tools (docs, the Pulumi mapping) that describe them. */
import type { ProviderDef } from '../engine/contracts/index.js';

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
