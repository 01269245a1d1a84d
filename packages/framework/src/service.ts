/**
 * A provider definition as the go-plugin server (../server/main.ts) takes it: the engine over the
 * definitions, its handler tables and the protocol's codecs. `serve` (./serve.ts) makes it on the first
 * call that needs it; sec's and vdb's executables keep it in a second bundle (scripts/bundle.mjs).
 */
import { ProviderEngine } from './engine/entry/index.js';
import type { ProviderDef } from './engine/contracts/index.js';
import type { Logger } from './engine/diagnostics/index.js';
import type { CreateRecoveryOptions } from './engine/creates/index.js';
import { journalPlace } from './engine/journal/index.js';
import type { ProviderService } from './server/main.js';
import { SERVICE_NAMES, serviceCodecs } from './server/proto.js';
import { providerService, providerStreamService } from './server/provider-service.js';

/** A provider as its source address and version name it: `acme/kv` 1.2.0 is namespace `acme`, name `kv`. */
export interface ProviderIdentity {
  readonly namespace: string;
  readonly name: string;
  readonly version: string;
}

export interface ServiceOptions {
  /**
   * The prefix of the variables that tune the engine (`<PREFIX>_CREATE_RECORDS=off`,
   * `<PREFIX>_CREATE_LOOKUP_DELAY_MS`); the provider's name in capitals when not given.
   */
  readonly variablePrefix?: string;
}

/** The prefix of the engine's variables for a provider: `KV` for `acme/kv`. */
export const variablePrefixOf = (name: string, options: ServiceOptions = {}): string =>
  options.variablePrefix ?? name.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * `<PREFIX>_CREATE_LOOKUP_DELAY_MS`: the pause before looking for what a lost create made (default 1 s,
 * for platforms whose lists lag behind). Tests against emulators, whose lists never lag, set 0.
 */
function createRecoveryFromEnv(env: NodeJS.ProcessEnv, prefix: string): Partial<CreateRecoveryOptions> {
  const ms = Number(env[`${prefix}_CREATE_LOOKUP_DELAY_MS`] ?? Number.NaN);
  return Number.isInteger(ms) && ms >= 0 ? { lookupDelayMs: ms } : {};
}

/** The service of a provider's definitions, for the executable that names the same provider. */
export function providerServiceOf(
  def: ProviderDef<any, any>,
  log: Logger,
  identity: ProviderIdentity,
  options: ServiceOptions = {},
): ProviderService {
  const namespace = def.namespace ?? identity.namespace;
  if (def.name !== identity.name || def.version !== identity.version || namespace !== identity.namespace)
    throw new Error(
      `the executable of ${identity.namespace}/${identity.name} ${identity.version} holds the service of ` +
        `${namespace}/${def.name} ${def.version}`,
    );
  const prefix = variablePrefixOf(def.name, options);
  // The records of creates live beside Terraform's own data, in the directory it started us in;
  // <PREFIX>_CREATE_RECORDS=off keeps none (README, "Interrupted applies and lost answers").
  const env = process.env;
  const journal = env[`${prefix}_CREATE_RECORDS`] === 'off' ? null : journalPlace(identity, env, process.cwd());
  const engine = new ProviderEngine(def, log, env, createRecoveryFromEnv(env, prefix), journal);
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

/**
 * The service of a provider whose declarations are wrong: the calls a client makes first (the schema,
 * the metadata, the provider's validation and configuration) answer with `problems` as an error
 * diagnostic, which Terraform and OpenTofu show as they show any (terraform-plugin-framework does the
 * same), instead of a process that exits before its handshake ("Failed to read any lines").
 */
export function refusingService(name: string, problems: readonly string[]): ProviderService {
  const listed = problems.map((problem) => `- ${problem}`).join('\n');
  const detail = `The provider's declarations are wrong, so it serves nothing:\n${listed}`;
  const diagnostics = [{ severity: 1, summary: `The ${name} provider cannot start`, detail }];
  const refuse = async () => ({ diagnostics });
  const first = ['GetMetadata', 'GetProviderSchema', 'GetResourceIdentitySchemas', 'GetFunctions'] as const;
  const then = ['ValidateProviderConfig', 'ConfigureProvider'] as const;
  return {
    codecs: serviceCodecs(SERVICE_NAMES.provider),
    handlers: Object.fromEntries([...first, ...then].map((rpc) => [rpc, refuse])),
  };
}
