/** Shared entry for both provider executables: engine + service table + go-plugin server. */
import { runProviderMain } from '../server/main.js';
import { createLogger } from '../server/log.js';
import { ProviderEngine } from '../engine/provider-engine.js';
import { providerService, providerStreamService, type SchemaResponses } from '../server/provider-service.js';
import { tuneForServing } from '../server/v8-tuning.js';
import { PREBUILT_SCHEMA_RESPONSES } from './prebuilt-schemas.js';
import type { ProviderDef } from '../engine/contracts.js';
import type { CreateRecoveryOptions } from '../engine/create-recovery.js';

/**
 * `KEEL_CREATE_LOOKUP_DELAY_MS`: the pause before looking for what a lost create made (default 1 s,
 * for platforms whose lists lag behind). Tests against the emulators, whose lists never lag, set 0.
 */
function createRecoveryFromEnv(env: NodeJS.ProcessEnv): Partial<CreateRecoveryOptions> {
  const ms = Number(env.KEEL_CREATE_LOOKUP_DELAY_MS ?? Number.NaN);
  return Number.isInteger(ms) && ms >= 0 ? { lookupDelayMs: ms } : {};
}

let decodedSchemaResponses: SchemaResponses | undefined;

/** The schema answers built into the executable (./prebuilt-schemas.ts), decoded once asked; undefined without. */
function prebuiltSchemaResponses(): SchemaResponses | undefined {
  const prebuilt = PREBUILT_SCHEMA_RESPONSES;
  if (prebuilt === undefined) return undefined;
  decodedSchemaResponses ??= {
    schema: Buffer.from(prebuilt.schema, 'base64'),
    identitySchemas: Buffer.from(prebuilt.identitySchemas, 'base64'),
  };
  return decodedSchemaResponses;
}

/**
 * Starts the provider. Not awaited by the entry modules (no top-level await), so that they can be
 * bundled as CommonJS for a fast start; a failure to start is reported on stderr with exit code 1.
 */
export function serve(def: ProviderDef<any, any>): void {
  const log = createLogger(def.name);
  const engine = new ProviderEngine(def, log, process.env, createRecoveryFromEnv(process.env));
  runProviderMain({
    name: def.name,
    version: def.version,
    // V8's flags are process-wide: only the executable changes them, never a test's in-process engine.
    handlers: providerService(engine, log, {
      afterConfigure: tuneForServing,
      schemaResponses: prebuiltSchemaResponses,
    }),
    streamHandlers: providerStreamService(engine, log),
    beforeExit: (budgetMs) => engine.closeLeftoverEphemerals(budgetMs),
  }).catch((error: unknown) => {
    process.stderr.write(
      `terraform-provider-${def.name}: cannot start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  });
}
