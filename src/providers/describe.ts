/** The providers' definitions by name, for the tools (docs, the Pulumi mapping) that describe them. */
import type { ProviderDef } from '@keel/provider-framework';
import { projectProvider } from './project.js';

export async function loadProviderDef(name: string): Promise<ProviderDef<any, any>> {
  return projectProvider(name).definition();
}
