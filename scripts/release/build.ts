/**
 * `npm run release`: everything a registry or a mirror needs to install the repository's providers
 * (src/providers/project.ts: sec and vdb) with `terraform init` on darwin_amd64, darwin_arm64,
 * linux_amd64, linux_arm64 and windows_amd64 (or the platforms named: `--platform`), with no Node on
 * the machine (docs/releases.md). Under the output directory:
 *
 * - terraform-provider-<name>_<version>_<platform>.zip per platform, holding the executable Terraform
 *   runs and what it runs: that platform's Node runtime (./runtimes.ts, pinned, with Node's licence),
 *   the provider's three bundles (start-up part, service and API client), their V8 code caches where
 *   they can be made (below), and assets, at the same relative paths as in a checkout (so
 *   bin/start-bundle.cjs and src/proto-location.ts work unchanged) with the provider's releaseAssets,
 *   and the bundled packages' licences.
 *   On macOS and Linux the executable terraform-provider-<name>_v<version> is a /bin/sh launcher
 *   beside runtime/node (./launchers.ts); on Windows, terraform-provider-<name>_v<version>.exe is a
 *   Node single executable application of Node's node.exe (./windows.ts);
 * - terraform-provider-<name>_<version>_SHA256SUMS over every platform's archive, its detached GPG
 *   signature …_SHA256SUMS.sig when KEEL_RELEASE_GPG_KEY names a key (gpg honours GNUPGHOME), and
 *   …_manifest.json: the registry's upload set;
 * - mirror/: a filesystem mirror in the packed layout; network-mirror/: the Provider Network Mirror
 *   Protocol's index.json and <version>.json (every platform, with its h1: and zh: hashes) with the
 *   archives beside them;
 * - <name>-emulator_<version>_<platform>.zip (the launcher <name>-emulator, or <name>-emulator.exe,
 *   the runtime and the emulators' bundle) with their own SHA256SUMS (and .sig), kept out of the
 *   provider's, which registries read;
 * - release-manifest.json: the commit (and whether the tree had changes: ./source.ts), the runtime
 *   packages, the platforms, which carry code caches, and every archive's SHA-256.
 *
 * Code caches. V8's code cache is specific to a platform's build of Node, not only to its version
 * and flags: the caches Node 22.23.2 makes on linux_amd64, linux_arm64 and windows_amd64 for one
 * script differ in V8's flag hash and each of the three rejects the other two (seen here; Node's
 * documentation says a cache or snapshot made on another platform may even crash the executable).
 * So each platform's caches are made by its own runtime: natively, under qemu (linux_arm64) or Wine
 * (windows_amd64) on a linux_amd64 build machine (./runners.ts), and the build stops, saying what to
 * install, when it cannot run one. No darwin runtime runs on Linux, so the darwin archives carry no
 * caches: their bundles are compiled at each start (the loader runs without caches, the tests prove
 * it for every platform they can run), which the manifest states.
 *
 * Reproducible: the zip entries are written in a fixed order with fixed times and modes
 * (./zip.ts); the code caches, which V8 makes differently on each run, are made by a warm-up run under
 * `--predictable --random-seed=1`, which V8 leaves out of the flag hash a cache is checked against
 * ("to allow predictable code caching"), with the scripts named by their place in the package rather
 * than the staging path (bin/start-bundle.cjs), so the caches are the same bytes each time and are
 * still accepted by the runtime as the launchers start it, without those flags. The build checks that.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ProviderEngine } from '../../src/engine/entry/index.js';
import type { Logger } from '../../src/engine/diagnostics/index.js';
import { PROJECT_PROVIDERS, type ProjectProvider } from '../../src/providers/project.js';
import { impliedType } from '../../src/schema/block.js';
import { encodeMsgpack } from '../../src/schema/msgpack.js';
import { launchProvider } from '../../src/tfclient/launch.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { packageHashV1, zipHash, type NamedContent } from './hashes.js';
import { emulatorLauncher, launcherNodeOptions, providerLauncher } from './launchers.js';
import { REPO_ROOT } from './paths.js';
import { hostPlatform, runnerFor, runnerProblem, type Runner } from './runners.js';
import { NODE_VERSION, PLATFORMS, RUNTIME_PINS, loadRuntime, type Platform, type Runtime } from './runtimes.js';
import { sourceState, type SourceState } from './source.js';
import { windowsExecutable } from './windows.js';
import { writeZip, type ZipEntry } from './zip.js';

export { REPO_ROOT };
/** Where the providers are published, each at its source address `<namespace>/<name>` (keel/sec). */
export const REGISTRY_HOST = 'registry.terraform.io';
/** The providers released, with their emulators: every provider of the repository (src/providers/project.ts). */
export const RELEASED: readonly ProjectProvider[] = PROJECT_PROVIDERS;

/** The registry manifest: tfplugin6 only. */
export const MANIFEST = '{"version":1,"metadata":{"protocol_versions":["6.0"]}}\n';
/** The environment variable naming the signing key (a key id, fingerprint or user id in the keyring). */
export const SIGNING_KEY_VARIABLE = 'KEEL_RELEASE_GPG_KEY';
/** The release's own manifest (what it was built from), beside the archives. */
export const RELEASE_MANIFEST = 'release-manifest.json';
/** The platforms whose archives carry V8 code caches, made by their own runtime (see the header). */
export const CODE_CACHE_PLATFORMS: readonly Platform[] = ['linux_amd64', 'linux_arm64', 'windows_amd64'];

/** Terraform's names for this machine's platform, e.g. linux_amd64. */
export function currentPlatform(): Platform {
  const platform = hostPlatform();
  if (!platform) throw new Error(`no release is built for ${process.platform}/${process.arch}`);
  return platform;
}

const isWindows = (platform: string) => platform.startsWith('windows_');
export const providerArchiveName = (name: string, version: string, platform: string) =>
  `terraform-provider-${name}_${version}_${platform}.zip`;
/** The file Terraform runs: terraform-provider-<name>_v<version>, with .exe on Windows. */
export const providerExecutableName = (name: string, version: string, platform = '') =>
  `terraform-provider-${name}_v${version}${isWindows(platform) ? '.exe' : ''}`;
export const emulatorArchiveName = (name: string, version: string, platform: string) =>
  `${name}-emulator_${version}_${platform}.zip`;
export const emulatorExecutableName = (name: string, platform = '') =>
  `${name}-emulator${isWindows(platform) ? '.exe' : ''}`;
export const providerSumsName = (name: string, version: string) => `terraform-provider-${name}_${version}_SHA256SUMS`;
export const emulatorSumsName = (name: string, version: string) => `${name}-emulator_${version}_SHA256SUMS`;

export interface ReleaseOptions {
  /** Emptied first. */
  readonly outDir: string;
  /** Default: every platform (PLATFORMS). */
  readonly platforms?: readonly Platform[];
  /** The key to sign SHA256SUMS with; default: KEEL_RELEASE_GPG_KEY. Empty: no signature. */
  readonly signingKey?: string;
  /** The environment gpg and npm run in (GNUPGHOME, npm's settings); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Progress lines; default: stdout. */
  readonly log?: (line: string) => void;
  /** Where the runtime packages are kept (./runtimes.ts); default ~/.cache/keel-runtimes. */
  readonly runtimeCache?: string;
}

export interface ReleasedArchive {
  readonly name: string;
  readonly version: string;
  readonly platform: Platform;
  /** Absolute path of the .zip. */
  readonly archive: string;
  readonly archiveBytes: number;
  /** The executable inside. */
  readonly executable: string;
  readonly unpackedBytes: number;
  readonly zh: string;
  readonly h1: string;
}

/** One provider's (or emulator's) archives of every platform, with their SHA256SUMS. */
export interface ReleasedSet {
  readonly name: string;
  readonly version: string;
  readonly archives: readonly ReleasedArchive[];
  readonly sums: string;
  readonly signature?: string;
}

export interface ReleaseResult {
  readonly outDir: string;
  readonly platforms: readonly Platform[];
  readonly providers: readonly ReleasedSet[];
  readonly emulators: readonly ReleasedSet[];
  /** Per platform: whether its archives carry code caches. */
  readonly codeCaches: Readonly<Partial<Record<Platform, boolean>>>;
  readonly source: SourceState;
  readonly manifest: string;
  readonly seconds: number;
}

/** A file of a package, with `/` names, for the zip and the `h1:` hash. */
type PackageFile = ZipEntry & NamedContent;

export async function buildRelease(options: ReleaseOptions): Promise<ReleaseResult> {
  const started = performance.now();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const env = options.env ?? process.env;
  const signingKey = options.signingKey ?? env[SIGNING_KEY_VARIABLE] ?? '';
  const platforms = PLATFORMS.filter((platform) => (options.platforms ?? PLATFORMS).includes(platform));
  const outDir = resolve(options.outDir);
  const runtimeOptions = { cacheDir: options.runtimeCache, env, log };
  const bundleDir = join(REPO_ROOT, 'dist', 'bundle');
  for (const file of [...RELEASED.flatMap(({ name }) => providerBundles(name)), 'emulator.cjs']) {
    if (!existsSync(join(bundleDir, file)))
      throw new Error(`${join(bundleDir, file)} is missing: run npm run build first`);
  }
  checkRunners(platforms);
  const source = sourceState(REPO_ROOT);
  if (source.dirty) {
    log(
      `  the tree differs from ${source.commit} (${source.changes.length} files): ${RELEASE_MANIFEST} says so; ` +
        'publish only releases built from a commit',
    );
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'keel-release-'));
  const nodeOptions = launcherNodeOptions(RELEASED.map(({ name }) => name));
  const archives = new Map<string, ReleasedArchive[]>();
  const add = (key: string, archive: ReleasedArchive) => archives.set(key, [...(archives.get(key) ?? []), archive]);
  const codeCaches: Partial<Record<Platform, boolean>> = {};
  try {
    const hostNode = platforms.some(isWindows) ? await stageHostNode(staging, runtimeOptions) : '';
    for (const platform of platforms) {
      const t = performance.now();
      const runtime = await loadRuntime(platform, runtimeOptions);
      const dir = join(staging, platform);
      mkdirSync(dir);
      // The program that runs the runtime here: the staged runtime/node, or node.exe for the relay.
      const node = join(dir, isWindows(platform) ? 'node.exe' : 'node');
      writeFileSync(node, runtime.node);
      chmodSync(node, 0o755);
      const windowsExe = isWindows(platform)
        ? await windowsExecutable(runtime.node, { file: hostNode, args: [], env: {} }, nodeOptions)
        : undefined;
      const runner = CODE_CACHE_PLATFORMS.includes(platform)
        ? runnerFor(platform, { scratch: dir, windowsNode: node })
        : undefined;
      codeCaches[platform] = runner !== undefined;
      try {
        for (const provider of RELEASED) {
          const { name, version } = provider;
          const files = providerPackage(provider, platform, runtime, windowsExe);
          if (runner) files.push(...(await codeCachesOf(files, join(dir, `provider-${name}`), node, provider, runner)));
          const released = pack(files, join(outDir, providerArchiveName(name, version, platform)), {
            name,
            version,
            platform,
            executable: providerExecutableName(name, version, platform),
          });
          add(`provider-${name}`, released);
          log(`  ${relative(outDir, released.archive)}: ${sizes(released)}, ${released.h1}`);
        }
        for (const provider of RELEASED) {
          const { name, version } = provider;
          const files = emulatorPackage(provider, platform, runtime, windowsExe);
          const released = pack(files, join(outDir, emulatorArchiveName(name, version, platform)), {
            name,
            version,
            platform,
            executable: emulatorExecutableName(name, platform),
          });
          add(`emulator-${name}`, released);
          log(`  ${relative(outDir, released.archive)}: ${sizes(released)}`);
        }
      } finally {
        runner?.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
      log(
        `  ${platform}: Node ${runtime.pin.version} from ${runtime.pin.package}, ` +
          `${runner ? `code caches made by its runtime ${runner.how}` : 'no code caches'} — ${seconds(t)}`,
      );
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }

  const providers: ReleasedSet[] = [];
  const emulators: ReleasedSet[] = [];
  for (const provider of RELEASED) {
    const { name, version } = provider;
    const released = archives.get(`provider-${name}`)!;
    const sums = writeSums(join(outDir, providerSumsName(name, version)), released);
    writeFileSync(join(outDir, `terraform-provider-${name}_${version}_manifest.json`), MANIFEST);
    const signature = sign(sums, signingKey, env, log);
    writeMirrors(outDir, provider, released);
    providers.push({ name, version, archives: released, sums, ...(signature ? { signature } : {}) });
  }
  for (const { name, version } of RELEASED) {
    const released = archives.get(`emulator-${name}`)!;
    const sums = writeSums(join(outDir, emulatorSumsName(name, version)), released);
    const signature = sign(sums, signingKey, env, log);
    emulators.push({ name, version, archives: released, sums, ...(signature ? { signature } : {}) });
  }
  if (!signingKey) {
    log(
      `  not signed: ${SIGNING_KEY_VARIABLE} is not set, so there is no SHA256SUMS.sig ` +
        '(a registry needs one; docs/releases.md)',
    );
  }
  const manifest = join(outDir, RELEASE_MANIFEST);
  writeFileSync(manifest, releaseManifest(source, platforms, codeCaches, [...providers, ...emulators]));
  return {
    outDir,
    platforms,
    providers,
    emulators,
    codeCaches,
    source,
    manifest,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * This machine's own Node runtime of the pinned version, which makes the Windows executable's blob;
 * the path of its node.
 */
async function stageHostNode(staging: string, options: Parameters<typeof loadRuntime>[1]): Promise<string> {
  const host = currentPlatform();
  const runtime = await loadRuntime(host, options);
  const node = join(staging, 'host-node', isWindows(host) ? 'node.exe' : 'node');
  mkdirSync(dirname(node));
  writeFileSync(node, runtime.node);
  chmodSync(node, 0o755);
  return node;
}

/** Stops before any work when a platform's code caches cannot be made here, saying what to install. */
function checkRunners(platforms: readonly Platform[]): void {
  const missing = platforms
    .filter((platform) => CODE_CACHE_PLATFORMS.includes(platform))
    .flatMap((platform) => {
      const problem = runnerProblem(platform);
      return problem ? [`  ${platform}: ${problem}`] : [];
    });
  if (missing.length > 0) {
    throw new Error(
      `this machine cannot run the runtime of every platform to make its code caches:\n${missing.join('\n')}\n` +
        '(or leave those platforms out: --platform)',
    );
  }
}

function readTree(from: string, prefix: string): PackageFile[] {
  return readdirSync(from, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) =>
      entry.isDirectory()
        ? readTree(join(from, entry.name), `${prefix}/${entry.name}`)
        : [{ name: `${prefix}/${entry.name}`, data: readFileSync(join(from, entry.name)), executable: false }],
    );
}

const file = (name: string, data: Buffer | string, executable = false): PackageFile => ({
  name,
  data: typeof data === 'string' ? Buffer.from(data) : data,
  executable,
});
const fromCheckout = (path: string): PackageFile => file(path, readFileSync(join(REPO_ROOT, ...path.split('/'))));

/**
 * A provider executable's bundles in dist/bundle: its start-up part, its service and its API client
 * (scripts/bundle.mjs).
 */
function providerBundles(name: string): string[] {
  return [
    `terraform-provider-${name}.cjs`,
    `terraform-provider-${name}-service.cjs`,
    `terraform-provider-${name}-client.cjs`,
  ];
}

/** What every package of a platform holds to start: the executable and Node's licence, and the runtime. */
function startFiles(executable: string, launcher: string, platform: Platform, runtime: Runtime, exe?: Buffer) {
  return isWindows(platform)
    ? [file(executable, exe!, true), file('runtime/LICENSE', runtime.license)]
    : [
        file(executable, launcher, true),
        file('runtime/node', runtime.node, true),
        file('runtime/LICENSE', runtime.license),
      ];
}

/**
 * The provider's package: its executable, the checkout's loader and bundles at the same relative
 * paths (bin/, dist/bundle/, and its release assets, e.g. dist/proto/), and the licences.
 */
function providerPackage(
  { name, version, releaseAssets }: ProjectProvider,
  platform: Platform,
  runtime: Runtime,
  windowsExe: Buffer | undefined,
): PackageFile[] {
  const executable = providerExecutableName(name, version, platform);
  return [
    ...startFiles(executable, providerLauncher(name), platform, runtime, windowsExe),
    fromCheckout('bin/start-bundle.cjs'),
    ...providerBundles(name).map((bundle) => fromCheckout(`dist/bundle/${bundle}`)),
    ...readTree(join(REPO_ROOT, 'dist', 'bundle', 'assets'), 'dist/bundle/assets'),
    ...releaseAssets.map(fromCheckout),
    file(
      'THIRD_PARTY_NOTICES.txt',
      thirdPartyNotices(join(REPO_ROOT, 'dist', 'bundle', `terraform-provider-${name}.cjs`)),
    ),
  ];
}

/** The emulator's package: its executable, the runtime, the emulators' bundle and its assets (vdb: the API's descriptors). */
function emulatorPackage(
  { name, emulatorAssets }: ProjectProvider,
  platform: Platform,
  runtime: Runtime,
  windowsExe: Buffer | undefined,
) {
  const bundle = join(REPO_ROOT, 'dist', 'bundle', 'emulator.cjs');
  return [
    ...startFiles(emulatorExecutableName(name, platform), emulatorLauncher(name), platform, runtime, windowsExe),
    fromCheckout('dist/bundle/emulator.cjs'),
    ...readTree(join(REPO_ROOT, 'dist', 'bundle', 'assets'), 'dist/bundle/assets'),
    ...emulatorAssets.map(fromCheckout),
    file('THIRD_PARTY_NOTICES.txt', thirdPartyNotices(bundle)),
  ];
}

/** The licence of every npm package the bundle holds (scripts/bundle.mjs lists them), in name order. */
function thirdPartyNotices(bundle: string): string {
  const packageDirs = JSON.parse(readFileSync(`${bundle}.packages.json`, 'utf8')) as string[];
  const sections = packageDirs.map((dir) => {
    const packageDir = join(REPO_ROOT, ...dir.split('/'));
    const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenseFile = readdirSync(packageDir)
      .sort()
      .find((file) => /^(licen[cs]e|copying)/i.test(file));
    const text = licenseFile
      ? readFileSync(join(packageDir, licenseFile), 'utf8').trim()
      : `(no licence file; package.json says: ${pkg.license ?? 'nothing'})`;
    return {
      key: `${pkg.name}@${pkg.version}`,
      text: `${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n\n${text}\n`,
    };
  });
  sections.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rule = `\n${'-'.repeat(78)}\n\n`;
  const preface =
    'This program bundles the following packages from npm, under these licences.\n' +
    `Node.js ${NODE_VERSION} itself: runtime/LICENSE.`;
  return `${preface}${rule}${sections.map((s) => s.text).join(rule)}`;
}

/**
 * The code caches of a provider's bundles, made by its platform's runtime (`node`, run by `runner`):
 * the package is written to `dir` and its loader run as the launcher runs it, under `--predictable
 * --random-seed=1` (see the header), through a handshake, a health check, GetProviderSchema,
 * GetMetadata (which loads the service bundle) and ConfigureProvider with settings that reach nothing
 * (its offlineSettings);
 * bin/start-bundle.cjs writes the three bundles' code caches as it exits (loading the client bundle,
 * which only a call to the platform needs, for its own). Then the same runtime, without those flags,
 * must accept them.
 */
async function codeCachesOf(
  files: readonly PackageFile[],
  dir: string,
  node: string,
  { name, offlineSettings, definition }: ProjectProvider,
  runner: Runner,
): Promise<PackageFile[]> {
  for (const { name: path, data } of files) {
    if (path === 'runtime/node' || path.endsWith('.exe')) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  const nodeOptions = launcherNodeOptions([name]);
  const loader = runner.path(join(dir, 'bin', 'start-bundle.cjs'));
  const warmUp = runner.command(node, ['--predictable', '--random-seed=1', ...nodeOptions, loader, name]);
  const provider = await launchProvider(warmUp.file, {
    args: warmUp.args,
    env: {
      ...runner.env,
      KEEL_WRITE_CODE_CACHE: '1',
      KEEL_CODE_CACHE_SCRIPT_DIR: 'dist/bundle',
      SSL_CERT_FILE: '/dev/null',
      SSL_CERT_DIR: '/dev/null',
      NODE_EXTRA_CA_CERTS: undefined,
      NODE_OPTIONS: undefined,
      ...offlineSettings,
    },
    startTimeoutMs: 180_000,
    // The caches are written as the process exits: under an emulator that takes more than go-plugin's 2 s.
    killGraceMs: 180_000,
  });
  let configured: { diagnostics: unknown[] };
  try {
    await provider.health();
    await provider.call('GetProviderSchema', {});
    await provider.call('GetMetadata', {});
    const block = new ProviderEngine(await definition(), SILENT, {}).providerSchema().block;
    const config = { msgpack: encodeMsgpack(impliedType(block), configValue(block, {})) };
    configured = await provider.call('ConfigureProvider', { terraform_version: '1.11.4', config });
  } catch (error) {
    await provider.shutdown();
    throw error;
  }
  const exit = await provider.shutdown();
  if (exit.exitCode !== 0) {
    throw new Error(
      `the warm-up of ${name} ${runner.how} exited ${exit.exitCode ?? exit.signal}: ${provider.stderrLines.join('\n')}`,
    );
  }
  if (configured.diagnostics.length > 0)
    throw new Error(`the warm-up could not configure ${name}: ${JSON.stringify(configured.diagnostics)}`);
  const bundles = providerBundles(name).map((bundle) => join(dir, 'dist', 'bundle', bundle));
  const run = (args: string[], what: string) => {
    const command = runner.command(node, [...args, ...bundles.map((bundle) => runner.path(bundle))]);
    const result = spawnSync(command.file, command.args, {
      encoding: 'utf8',
      env: { ...process.env, ...runner.env, SSL_CERT_FILE: '/dev/null', SSL_CERT_DIR: '/dev/null', NODE_OPTIONS: '' },
    });
    if (result.status !== 0) {
      throw new Error(
        `${what} of ${name}'s code caches ${runner.how} failed: ${result.error?.message ?? result.stderr}`,
      );
    }
    return result.stdout;
  };
  // V8 writes into a cache ids that count what the process compiled before (scripts, functions), and
  // the warm-up's order of events varies with timing; a fresh process that takes each cache and makes
  // it again, in a fixed order and printing nothing meanwhile, writes the same bytes every time.
  run(['--predictable', '--random-seed=1', ...nodeOptions, '-e', REMAKE_CACHES], 'remaking');
  const verdicts = run([...nodeOptions, '-e', CHECK_CACHES], 'checking');
  if (verdicts !== bundles.map(() => 'accepted').join(' ')) {
    throw new Error(
      `the code caches made for ${name}'s bundles are not all accepted by the ${runner.platform} runtime ${runner.how}: ` +
        verdicts,
    );
  }
  return bundles.map((bundle) =>
    file(`${relative(dir, bundle).split(sep).join('/')}.cache`, readFileSync(`${bundle}.cache`)),
  );
}

/**
 * Node scripts (`node -e`, the bundles' paths as arguments): each bundle's cache opens with the
 * bundle's build id (bin/start-bundle.cjs), V8's data follows. REMAKE_CACHES takes each cache and
 * writes V8's cache of the script it made anew; CHECK_CACHES says whether V8 accepts each.
 */
const CACHE_SCRIPT_PRELUDE =
  'const fs = require("fs"); const vm = require("vm"); const load = (b) => { ' +
  'const s = fs.readFileSync(b, "latin1"); const id = s.slice(0, s.indexOf("*/") + 2); ' +
  'const c = fs.readFileSync(b + ".cache"); const sameBuild = c.toString("latin1", 0, id.length) === id; ' +
  // A fresh string: one sliced from `b` would take the build's path into the cache (V8 keeps the parent).
  'const name = Buffer.from("dist/bundle/" + require("path").basename(b)).toString("latin1"); ' +
  'return { id, sameBuild, script: new vm.Script(s, { filename: name, cachedData: c.subarray(id.length) }) }; }; ';
const REMAKE_CACHES =
  `${CACHE_SCRIPT_PRELUDE}const made = process.argv.slice(1).map((b) => { const { id, script } = load(b); ` +
  'return [b, Buffer.concat([Buffer.from(id, "latin1"), script.createCachedData()])]; }); ' +
  'for (const [b, data] of made) fs.writeFileSync(b + ".cache", data);';
const CHECK_CACHES =
  `${CACHE_SCRIPT_PRELUDE}process.stdout.write(process.argv.slice(1).map((b) => { const { sameBuild, script } = load(b); ` +
  'return !sameBuild ? "made for another build" : script.cachedDataRejected ? "rejected" : "accepted"; }).join(" "));';

const SILENT: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => SILENT,
  enabled: () => false,
};

function pack(
  files: readonly PackageFile[],
  archive: string,
  about: { name: string; version: string; platform: Platform; executable: string },
): ReleasedArchive {
  writeZip(archive, files);
  const bytes = readFileSync(archive);
  return {
    ...about,
    archive,
    archiveBytes: bytes.length,
    unpackedBytes: files.reduce((sum, entry) => sum + entry.data.length, 0),
    zh: zipHash(bytes),
    h1: packageHashV1(files),
  };
}

/** `<sha256>  <archive>` for every archive, in name order. */
function writeSums(file: string, archives: readonly ReleasedArchive[]): string {
  const lines = archives
    .map((archive) => `${archive.zh.slice('zh:'.length)}  ${relativeName(archive.archive)}\n`)
    .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1));
  writeFileSync(file, lines.join(''));
  return file;
}

/** A detached binary signature of `file` with gpg, or nothing when no key is named. */
function sign(file: string, key: string, env: NodeJS.ProcessEnv, log: (line: string) => void): string | undefined {
  if (!key) return undefined;
  const signature = `${file}.sig`;
  const result = spawnSync(
    'gpg',
    ['--batch', '--yes', '--local-user', key, '--output', signature, '--detach-sign', file],
    { env, encoding: 'utf8' },
  );
  if (result.error) throw new Error(`cannot run gpg to sign ${file}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`gpg could not sign ${file} with ${SIGNING_KEY_VARIABLE}=${key}:\n${result.stderr.trim()}`);
  log(`  signed ${relativeName(file)} with ${key}`);
  return signature;
}

const relativeName = (file: string) => file.slice(file.lastIndexOf(sep) + 1);

/** Hard links where the file system allows them (the archives are large), copies otherwise. */
function placeCopy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * mirror/<host>/<namespace>/<name>/<archive> (the packed layout of a filesystem_mirror), and
 * network-mirror/<host>/<namespace>/<name>/{index.json,<version>.json,<archives>}: URLs in
 * <version>.json are relative to it, so the tree works wherever it is served.
 */
function writeMirrors(
  outDir: string,
  { namespace, name, version }: ProjectProvider,
  archives: readonly ReleasedArchive[],
): void {
  const network = join(outDir, 'network-mirror', REGISTRY_HOST, namespace, name);
  const listed: Record<string, { url: string; hashes: string[] }> = {};
  for (const archive of archives) {
    const archiveName = relativeName(archive.archive);
    placeCopy(archive.archive, join(outDir, 'mirror', REGISTRY_HOST, namespace, name, archiveName));
    placeCopy(archive.archive, join(network, archiveName));
    listed[archive.platform] = { url: archiveName, hashes: [archive.h1, archive.zh] };
  }
  writeFileSync(join(network, 'index.json'), `${JSON.stringify({ versions: { [version]: {} } }, null, 2)}\n`);
  writeFileSync(join(network, `${version}.json`), `${JSON.stringify({ archives: listed }, null, 2)}\n`);
}

/** What the release was built from and holds (RELEASE_MANIFEST). */
function releaseManifest(
  source: SourceState,
  platforms: readonly Platform[],
  codeCaches: Partial<Record<Platform, boolean>>,
  sets: readonly ReleasedSet[],
): string {
  const archives: Record<string, string> = {};
  for (const archive of sets.flatMap((set) => set.archives).sort((a, b) => (a.archive < b.archive ? -1 : 1)))
    archives[relativeName(archive.archive)] = archive.zh.slice('zh:'.length);
  const manifest = {
    source: {
      commit: source.commit,
      dirty: source.dirty,
      ...(source.dirty ? { changes: source.changes } : {}),
    },
    builtWith: { node: process.version, zlib: process.versions.zlib },
    runtime: {
      node: NODE_VERSION,
      packages: Object.fromEntries(
        platforms.map((platform) => {
          const pin = RUNTIME_PINS[platform];
          return [platform, { package: pin.package, version: pin.version, integrity: pin.integrity }];
        }),
      ),
    },
    platforms,
    codeCaches: Object.fromEntries(platforms.map((platform) => [platform, codeCaches[platform] === true])),
    archives,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const sizes = (released: { archiveBytes: number; unpackedBytes: number }) =>
  `${mib(released.archiveBytes)} (${mib(released.unpackedBytes)} unpacked)`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
