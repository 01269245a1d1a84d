/**
 * The providers this repository builds, one entry each: what the tools that build, bundle, release,
 * install, document and benchmark them take (scripts/bundle.mjs, scripts/release, scripts/install-providers.ts,
 * src/docs, scripts/bench, the tests' CLI configurations). A further provider is one more entry here
 * (and its bin/terraform-provider-<name> wrapper), not an edit in each tool.
 *
 * Nothing here is loaded by an executable: its start-up part (startModule) states its own identity, and
 * the definition is loaded only when a tool asks for it (`definition()`), so that reading this list
 * costs the two version modules. test/invariants/project.test.ts checks each entry against its
 * definition and the files it names.
 */
import type { ProviderDef } from '@keel/provider-framework';
import { SEC_VERSION } from '../resources/sec/version.js';
import { VDB_VERSION } from '../resources/vdb/version.js';

export interface ProjectProvider {
  /** Terraform's name for it: its resource types' prefix, the executable's `terraform-provider-<name>`. */
  readonly name: string;
  /** Its source address is `<namespace>/<name>` (on registry.terraform.io, or a mirror of it). */
  readonly namespace: string;
  /** The version it tells Terraform and is released as (the provider's version module). */
  readonly version: string;
  /**
   * The executable's entry, relative to the repository: its start-up part, bundled with its schema
   * answers into dist/bundle/terraform-provider-<name>.cjs (scripts/bundle.mjs).
   */
  readonly startModule: string;
  /**
   * Its service, which the start-up part loads on first use: bundled into
   * dist/bundle/terraform-provider-<name>-service.cjs (and its client bundle).
   */
  readonly serviceModule: string;
  /** Files of the build (relative to the repository) that its release archive carries beside the bundles. */
  readonly releaseAssets: readonly string[];
  /** Files of the build that its emulator's archive (`<name>-emulator`) carries beside the emulators' bundle. */
  readonly emulatorAssets: readonly string[];
  /**
   * Environment settings under which it is configured with no platform to reach (configuring calls
   * nothing): the release's warm-up runs, which make the code caches, configure it so.
   */
  readonly offlineSettings: Readonly<Record<string, string>>;
  /** Its definition (schema, resources, functions): loaded when asked, as the service loads it. */
  readonly definition: () => Promise<ProviderDef<any, any>>;
}

export const PROJECT_PROVIDERS: readonly ProjectProvider[] = [
  {
    name: 'sec',
    namespace: 'keel',
    version: SEC_VERSION,
    startModule: 'src/providers/sec.ts',
    serviceModule: 'src/providers/sec-service.ts',
    releaseAssets: [],
    emulatorAssets: [],
    offlineSettings: {
      SEC_API_URL: 'https://api.invalid',
      SEC_ACCOUNT: 'warm-up',
      SEC_API_KEY: 'WARM_UP_KEY',
      SEC_API_SECRET: '_warm_up_secret',
    },
    definition: async () => (await import('../resources/sec/index.js')).default,
  },
  {
    name: 'vdb',
    namespace: 'keel',
    version: VDB_VERSION,
    startModule: 'src/providers/vdb.ts',
    serviceModule: 'src/providers/vdb-service.ts',
    // The API's descriptors, which its gRPC transport encodes with (src/proto-location.ts).
    releaseAssets: ['dist/proto/vdb-descriptor.json'],
    // The emulator validates requests with the API's rules too (src/emulators/vdb/request-rules.ts).
    emulatorAssets: ['dist/proto/vdb-descriptor.json', 'dist/proto/vdb-rules.binpb'],
    offlineSettings: { VDB_API_URL: 'https://api.invalid', VDB_API_KEY: 'warm-up-key', VDB_ACCOUNT_ID: 'warm-up' },
    definition: async () => (await import('../resources/vdb/index.js')).default,
  },
];

/** The entry of `name`; an error naming the providers there are when there is none. */
export function projectProvider(name: string): ProjectProvider {
  const found = PROJECT_PROVIDERS.find((p) => p.name === name);
  if (!found) {
    const names = PROJECT_PROVIDERS.map((p) => p.name).join(', ');
    throw new Error(`unknown provider "${name}" (this repository builds ${names})`);
  }
  return found;
}

/** Its source address without a host: `<namespace>/<name>`, e.g. keel/sec. */
export const sourceAddress = (provider: Pick<ProjectProvider, 'namespace' | 'name'>): string =>
  `${provider.namespace}/${provider.name}`;

/** A module of the repository (startModule, serviceModule) as tsc writes it: src/x.ts → dist/src/x.js. */
export const builtModule = (module: string): string => `dist/${module.replace(/\.ts$/, '.js')}`;
