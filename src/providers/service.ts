/**
 * The provider's tfplugin6.Provider service, as the go-plugin server (../server/main.ts) takes it:
 * the engine over the provider's definitions, its handler tables and the protocol's codecs. The
 * executables keep this part in a second bundle (scripts/bundle.mjs), loaded on the first call
 * that needs it (./serve.ts).
 */
import { ProviderEngine } from '../engine/entry/index.js';
import type { ProviderDef } from '../engine/contracts/index.js';
import type { Logger } from '../engine/diagnostics/index.js';
import type { CreateRecoveryOptions } from '../engine/creates/index.js';
import { journalPlace } from '../engine/journal/index.js';
import type { ProviderService } from '../server/main.js';
import { SERVICE_NAMES, serviceCodecs } from '../server/proto.js';
import { providerService, providerStreamService } from '../server/provider-service.js';
import type { ProviderIdentity } from './serve.js';

/**
 * `KEEL_CREATE_LOOKUP_DELAY_MS`: the pause before looking for what a lost create made (default 1 s,
 * for platforms whose lists lag behind). Tests against the emulators, whose lists never lag, set 0.
 */
function createRecoveryFromEnv(env: NodeJS.ProcessEnv): Partial<CreateRecoveryOptions> {
  const ms = Number(env.KEEL_CREATE_LOOKUP_DELAY_MS ?? Number.NaN);
  return Number.isInteger(ms) && ms >= 0 ? { lookupDelayMs: ms } : {};
}

/** The service of a provider's definitions, for the executable that names the same provider. */
export function providerServiceOf(
  def: ProviderDef<any, any>,
  log: Logger,
  identity: ProviderIdentity,
): ProviderService {
  if (def.name !== identity.name || def.version !== identity.version)
    throw new Error(
      `the executable of ${identity.name} ${identity.version} holds the service of ${def.name} ${def.version}`,
    );
  // The records of creates live beside Terraform's own data, in the directory it started us in;
  // KEEL_CREATE_RECORDS=off keeps none (README, "Interrupted applies and lost answers").
  const journal = process.env.KEEL_CREATE_RECORDS === 'off' ? null : journalPlace(identity, process.env, process.cwd());
  const engine = new ProviderEngine(def, log, process.env, createRecoveryFromEnv(process.env), journal);
  return {
    codecs: serviceCodecs(SERVICE_NAMES.provider),
    handlers: providerService(engine, log),
    streamHandlers: providerStreamService(engine, log),
    beforeExit: async (budgetMs) => {
      await engine.closeLeftoverEphemerals(budgetMs);
      await engine.ended();
    },
    hostGone: () => engine.hostGone(),
  };
}
