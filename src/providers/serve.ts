/** Shared entry for both provider executables: engine + service table + go-plugin server. */
import { runProviderMain } from '../server/main.js';
import { createLogger } from '../server/log.js';
import { ProviderEngine } from '../engine/provider-engine.js';
import { providerService } from '../server/provider-service.js';
import type { ProviderDef } from '../engine/contracts.js';

export async function serve(def: ProviderDef<any, any>): Promise<void> {
  const log = createLogger(def.name);
  const engine = new ProviderEngine(def, log);
  await runProviderMain({ name: def.name, version: def.version, handlers: providerService(engine, log) });
}
