/**
 * `@keel/provider-framework/release`: what the `keel-provider release` command is made of, for a
 * release script of one's own (several providers in one release, an emulator beside a provider, files
 * a provider reads at run time).
 */
export {
  buildRelease,
  packageFile,
  providerArchiveName,
  providerExecutableName,
  providerSumsName,
  registryManifestName,
  emulatorArchiveName,
  emulatorExecutableName,
  emulatorSumsName,
  CODE_CACHE_PLATFORMS,
  MANIFEST,
  NOTICES_PREFACE,
  REGISTRY_HOST,
  RELEASE_MANIFEST,
  SIGNING_KEY_VARIABLE,
  type EmulatorRelease,
  type PackageFile,
  type ProviderRelease,
  type ReleaseOptions,
  type ReleaseResult,
  type ReleasedArchive,
  type ReleasedSet,
} from './build.js';
export { authorRelease, builtEntry, type AuthorProvider } from './author.js';
export { bundleProvider, thirdPartyNotices, type BundledProvider } from './bundle.js';
export { TRUST_HANDOVER_NODE_OPTIONS, type LaunchSettings } from './launchers.js';
export { providerPages, type ExampleReader, type Page } from './pages.js';
export { writeProviderPages } from './write-pages.js';
export { NODE_VERSION, PLATFORMS, type Platform } from './runtimes.js';
export { sourceState, type SourceState } from './source.js';
