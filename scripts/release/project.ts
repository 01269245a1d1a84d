/**
 * The repository's release of sec and vdb (src/providers/project.ts), made by the framework package's
 * own release command (`keel-provider release --config dist/scripts/release/project.js`: npm run
 * release). What sets them apart from an author's provider is given here: their bundles are made by
 * scripts/bundle.mjs (three per provider, with prebuilt schema answers), they ship files their code
 * reads at run time, an emulator of their API is released beside each, their API clients read the
 * trust store themselves (so the launchers hand it over), their warm-up configures them with settings
 * that reach nothing, and their reference pages are the repository's docs/<name>.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  NOTICES_PREFACE,
  buildRelease,
  packageFile,
  type ReleaseOptions,
  type EmulatorRelease,
  type PackageFile,
  type ProviderRelease,
} from '../../packages/framework/src/release/build.js';
import { thirdPartyNotices } from '../../packages/framework/src/release/bundle.js';
import { TRUST_HANDOVER_NODE_OPTIONS, type LaunchSettings } from '../../packages/framework/src/release/launchers.js';
import type { ReleaseConfig } from '../../packages/framework/src/release/cli.js';
import { sourceState } from '../../packages/framework/src/release/source.js';
import { PROJECT_PROVIDERS, type ProjectProvider } from '../../src/providers/project.js';
import { REPO_ROOT } from './paths.js';

/** How sec and vdb start: the trust handed over to their API clients (src/clients/trust.ts). */
export const PROJECT_LAUNCH: LaunchSettings = { handOverTrust: true, nodeOptions: TRUST_HANDOVER_NODE_OPTIONS };

/** A provider executable's bundles in dist/bundle: its start-up part, its service and its API client. */
export const projectBundles = (name: string): string[] => [
  `terraform-provider-${name}.cjs`,
  `terraform-provider-${name}-service.cjs`,
  `terraform-provider-${name}-client.cjs`,
];

const fromCheckout = (path: string): PackageFile =>
  packageFile(path, readFileSync(join(REPO_ROOT, ...path.split('/'))));

function readTree(from: string, prefix: string): PackageFile[] {
  return readdirSync(from, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) =>
      entry.isDirectory()
        ? readTree(join(from, entry.name), `${prefix}/${entry.name}`)
        : [packageFile(`${prefix}/${entry.name}`, readFileSync(join(from, entry.name)))],
    );
}

/** The licences of the npm packages a bundle holds (scripts/bundle.mjs lists their folders beside it). */
function noticesOf(bundle: string): string {
  const dirs = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'bundle', `${bundle}.packages.json`), 'utf8'));
  return thirdPartyNotices(
    (dirs as string[]).map((dir) => join(REPO_ROOT, ...dir.split('/'))),
    NOTICES_PREFACE,
  );
}

function checkBuilt(): void {
  for (const file of [...PROJECT_PROVIDERS.flatMap(({ name }) => projectBundles(name)), 'emulator.cjs'])
    if (!existsSync(join(REPO_ROOT, 'dist', 'bundle', file)))
      throw new Error(`${join(REPO_ROOT, 'dist', 'bundle', file)} is missing: run npm run build first`);
}

export function providerRelease(provider: ProjectProvider): ProviderRelease {
  const { name, namespace, version, releaseAssets, offlineSettings } = provider;
  return {
    name,
    namespace,
    version,
    files: [
      ...projectBundles(name).map((bundle) => fromCheckout(`dist/bundle/${bundle}`)),
      ...readTree(join(REPO_ROOT, 'dist', 'bundle', 'assets'), 'dist/bundle/assets'),
      ...releaseAssets.map(fromCheckout),
    ],
    launch: PROJECT_LAUNCH,
    warmUp: { env: offlineSettings, configure: true },
    notices: noticesOf(`terraform-provider-${name}.cjs`),
    pagesDir: join(REPO_ROOT, 'docs', name),
  };
}

export function emulatorRelease({ name, version, emulatorAssets }: ProjectProvider): EmulatorRelease {
  return {
    name,
    version,
    files: [
      fromCheckout('dist/bundle/emulator.cjs'),
      ...readTree(join(REPO_ROOT, 'dist', 'bundle', 'assets'), 'dist/bundle/assets'),
      ...emulatorAssets.map(fromCheckout),
    ],
    notices: noticesOf('emulator.cjs'),
  };
}

/** The release command's configuration: every provider of the repository, each with its emulator. */
export default async function release(): Promise<ReleaseConfig> {
  checkBuilt();
  return {
    providers: PROJECT_PROVIDERS.map(providerRelease),
    emulators: PROJECT_PROVIDERS.map(emulatorRelease),
    sourceDir: REPO_ROOT,
  };
}

/** The repository's release (as `npm run release` makes it), with the options given. */
export async function projectRelease(options: Omit<ReleaseOptions, 'providers' | 'emulators' | 'source'>) {
  const config = await release();
  return buildRelease({ ...config, source: sourceState(REPO_ROOT), requireCodeCaches: true, ...options });
}
