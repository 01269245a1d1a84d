/**
 * The start-up part of both provider executables: the go-plugin server (../server/main.ts), which
 * makes the provider's service (../framework/service.ts) on the first call that needs it. Terraform starts a
 * provider three to five times per command, and one of those processes only shakes hands and asks for
 * the schema: it answers from the schema answers built into the executable (./prebuilt-schemas.ts)
 * and never loads the service, which the executables keep in a second bundle (scripts/bundle.mjs).
 */
import {
  createLogger,
  PROVIDER_SERVICE_RPCS,
  type ProviderService,
  type RpcName,
  runProviderMain,
} from '@keel/provider-framework/server';
import type { Logger, ProviderIdentity } from '@keel/provider-framework';
import { PREBUILT_SCHEMA_RESPONSES } from './prebuilt-schemas.js';

/** Makes the provider's service (../framework/service.ts); it checks that it serves the provider `identity` names. */
export type CreateService = (log: Logger, identity: ProviderIdentity) => ProviderService;

/**
 * Starts the provider. Not awaited by the entry modules (no top-level await), so that they can be
 * bundled as CommonJS for a fast start; a failure to start is reported on stderr with exit code 1.
 */
export function serve(provider: ProviderIdentity, createService: CreateService): void {
  const log = createLogger(provider.name);
  runProviderMain({
    name: provider.name,
    namespace: provider.namespace,
    version: provider.version,
    serves: PROVIDER_SERVICE_RPCS,
    loadService: () => createService(log, provider),
    answers: prebuiltAnswers(),
  }).catch((error: unknown) => {
    process.stderr.write(
      `terraform-provider-${provider.name}: cannot start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  });
}

/** The schema answers built into the executable (./prebuilt-schemas.ts); none when run from dist/src. */
function prebuiltAnswers(): Partial<Record<RpcName, Buffer>> | undefined {
  const prebuilt = PREBUILT_SCHEMA_RESPONSES;
  if (prebuilt === undefined) return undefined;
  return {
    GetProviderSchema: Buffer.from(prebuilt.schema, 'base64'),
    GetResourceIdentitySchemas: Buffer.from(prebuilt.identitySchemas, 'base64'),
  };
}
