/**
 * A release: everything a registry or a mirror needs to install providers with `terraform init` on
 * darwin_amd64, darwin_arm64, linux_amd64, linux_arm64 and windows_amd64 (or the platforms named),
 * with no Node on the machine. Under the output directory:
 *
 * - terraform-provider-<name>_<version>_<platform>.zip per platform, holding the executable Terraform
 *   runs and what it runs: that platform's Node runtime (./runtimes.ts, pinned, with Node's licence),
 *   the loader (bin/start-bundle.cjs), the provider's bundles and their V8 code caches where they can
 *   be made (below), its other files, and the bundled packages' licences. On macOS and Linux the
 *   executable terraform-provider-<name>_v<version> is a /bin/sh launcher beside runtime/node
 *   (./launchers.ts); on Windows, terraform-provider-<name>_v<version>.exe is a Node single executable
 *   application of Node's node.exe (./windows.ts);
 * - terraform-provider-<name>_<version>_manifest.json (the protocol versions) and …_SHA256SUMS over it
 *   and every platform's archive (the registry's publishing rules ask for the manifest in the sums, as
 *   goreleaser's configuration for providers puts it), with its detached GPG signature
 *   …_SHA256SUMS.sig when a signing key is named (gpg honours GNUPGHOME): the registry's upload set;
 * - mirror/: a filesystem mirror in the packed layout; network-mirror/: the Provider Network Mirror
 *   Protocol's index.json and <version>.json (every platform, with its h1: and zh: hashes) with the
 *   archives beside them;
 * - docs/<name>/: the reference pages, from the schema the provider answers (./pages.ts) unless the
 *   release names a folder of its own;
 * - for an emulator released beside a provider: <name>-emulator_<version>_<platform>.zip with its own
 *   SHA256SUMS (and .sig), kept out of the provider's, which registries read;
 * - release-manifest.json: the source (./source.ts), the runtime packages, the platforms, which carry
 *   code caches, and every archive's SHA-256.
 *
 * Code caches. V8's code cache is specific to a platform's build of Node, not only to its version and
 * flags: the caches Node 22 makes on linux_amd64, linux_arm64 and windows_amd64 for one script differ
 * in V8's flag hash and each rejects the other two. So each platform's caches are made by its own
 * runtime: natively, under qemu (linux_arm64) or Wine (windows_amd64) on a linux_amd64 build machine
 * (./runners.ts). A platform whose runtime cannot run here gets no caches (its bundles are compiled at
 * each start), which the manifest and the build's output say; `requireCodeCaches` makes that an error.
 *
 * Reproducible: the zip entries are written in a fixed order with fixed times and modes (./zip.ts);
 * the code caches, which V8 makes differently on each run, are made by a warm-up run under
 * `--predictable --random-seed=1`, which V8 leaves out of the flag hash a cache is checked against,
 * with the scripts named by their place in the package rather than the staging path, so the caches
 * are the same bytes each time and are still accepted by the runtime as the launchers start it,
 * without those flags. The build checks that.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { packageHashV1, sha256Hex, zipHash, type NamedContent } from './hashes.js';
import { bundleLoader, emulatorLauncher, shellLauncher, windowsMain, type LaunchSettings } from './launchers.js';
import { currentPlatform, runnerFor, runnerProblem, type Runner } from './runners.js';
import { NODE_VERSION, PLATFORMS, RUNTIME_PINS, loadRuntime, type Platform, type Runtime } from './runtimes.js';
import type { SourceState } from './source.js';
import { requireReleaseTools } from './release-tools.js';
import { warmUp } from './warm-up.js';
import { windowsExecutable } from './windows.js';
import { writeZip, type ZipEntry } from './zip.js';

/** The default registry host of a provider's source address. */
export const REGISTRY_HOST = 'registry.terraform.io';
/** The registry manifest: tfplugin6 only. */
export const MANIFEST = '{"version":1,"metadata":{"protocol_versions":["6.0"]}}\n';
/** The environment variable naming the signing key (a key id, fingerprint or user id in the keyring). */
export const SIGNING_KEY_VARIABLE = 'KEEL_RELEASE_GPG_KEY';
/** The release's own manifest (what it was built from), beside the archives. */
export const RELEASE_MANIFEST = 'release-manifest.json';
/** The platforms whose archives carry V8 code caches when their runtime runs here (see the header). */
export const CODE_CACHE_PLATFORMS: readonly Platform[] = ['linux_amd64', 'linux_arm64', 'windows_amd64'];

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
export const registryManifestName = (name: string, version: string) =>
  `terraform-provider-${name}_${version}_manifest.json`;
export const emulatorSumsName = (name: string, version: string) => `${name}-emulator_${version}_SHA256SUMS`;

/** A file of a package, with `/` names, for the zip and the `h1:` hash. */
export type PackageFile = ZipEntry & NamedContent;

export const packageFile = (name: string, data: Buffer | string, executable = false): PackageFile => ({
  name,
  data: typeof data === 'string' ? Buffer.from(data) : data,
  executable,
});

/** One provider of a release. */
export interface ProviderRelease {
  /** Its source address: `<hostname>/<namespace>/<name>`, and its version. */
  readonly name: string;
  readonly namespace: string;
  readonly version: string;
  readonly hostname?: string;
  /**
   * Its files besides the launcher, the runtime and the loader, by their path in the package: its
   * bundles (dist/bundle/terraform-provider-<name>.cjs, which the loader starts, and any other
   * dist/bundle/terraform-provider-<name>-*.cjs it loads) and what they read at run time.
   */
  readonly files: readonly PackageFile[];
  readonly launch: LaunchSettings;
  /** The warm-up that makes the code caches: its environment, and whether it configures the provider. */
  readonly warmUp: { readonly env: Readonly<Record<string, string | undefined>>; readonly configure: boolean };
  /** THIRD_PARTY_NOTICES.txt. */
  readonly notices: string;
  /**
   * A folder of reference pages to ship as they are; otherwise the provider writes them from its
   * declarations (`--docs`, which the framework's `serve` answers), with the examples of `examplesDir`.
   */
  readonly pagesDir?: string;
  /** The examples folder of the pages it writes (tfplugindocs' layout: resources/<type>/resource.tf, …). */
  readonly examplesDir?: string;
}

/** An emulator of a provider's API, released beside it: dist/bundle/emulator.cjs and its files. */
export interface EmulatorRelease {
  readonly name: string;
  readonly version: string;
  readonly files: readonly PackageFile[];
  readonly notices: string;
}

export interface ReleaseOptions {
  readonly providers: readonly ProviderRelease[];
  readonly emulators?: readonly EmulatorRelease[];
  /** What the release was built from, for its manifest. */
  readonly source: SourceState;
  /** Emptied first. */
  readonly outDir: string;
  /** Default: every platform (PLATFORMS). */
  readonly platforms?: readonly Platform[];
  /** Stop when a platform's code caches cannot be made here, rather than release it without them. */
  readonly requireCodeCaches?: boolean;
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

export async function buildRelease(options: ReleaseOptions): Promise<ReleaseResult> {
  const started = performance.now();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const env = options.env ?? process.env;
  const signingKey = options.signingKey ?? env[SIGNING_KEY_VARIABLE] ?? '';
  const platforms = PLATFORMS.filter((platform) => (options.platforms ?? PLATFORMS).includes(platform));
  const outDir = resolve(options.outDir);
  const { providers: released, emulators: releasedEmulators = [], source } = options;
  const runtimeOptions = { cacheDir: options.runtimeCache, env, log };
  if (released.length === 0) throw new Error('a release needs a provider');
  await requireReleaseTools();
  for (const provider of released) checkFiles(provider);
  const launch = sharedLaunch(released);
  const cachePlatforms = codeCachePlatforms(platforms, options.requireCodeCaches === true, log);
  if (source.dirty) {
    log(
      `  the tree differs from ${source.commit} (${source.changes.length} files): ${RELEASE_MANIFEST} says so; ` +
        'publish only releases built from a commit',
    );
  }
  if (source.noCommit)
    log(`  ${source.noCommit}: ${RELEASE_MANIFEST} says so; publish only releases built from a commit`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'keel-release-'));
  const archives = new Map<string, ReleasedArchive[]>();
  const add = (key: string, archive: ReleasedArchive) => archives.set(key, [...(archives.get(key) ?? []), archive]);
  const codeCaches: Partial<Record<Platform, boolean>> = {};
  try {
    // Each provider runs once on this machine's Node first: a provider that cannot start stops the
    // release before the runtimes are fetched, and its schema makes its pages.
    for (const provider of released) await writePages(provider, join(staging, `schema-${provider.name}`), outDir);
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
        ? await windowsExecutable(
            runtime.node,
            { file: hostNode, args: [], env: {} },
            launch.nodeOptions,
            windowsMain(launch.handOverTrust),
          )
        : undefined;
      const runner = cachePlatforms.includes(platform)
        ? runnerFor(platform, { scratch: dir, windowsNode: node })
        : undefined;
      codeCaches[platform] = runner !== undefined;
      try {
        for (const provider of released) {
          const { name, version } = provider;
          const files = providerPackage(provider, platform, runtime, windowsExe);
          if (runner) files.push(...(await codeCachesOf(files, join(dir, `provider-${name}`), node, provider, runner)));
          const archive = pack(files, join(outDir, providerArchiveName(name, version, platform)), {
            name,
            version,
            platform,
            executable: providerExecutableName(name, version, platform),
          });
          add(`provider-${name}`, archive);
          log(`  ${relative(outDir, archive.archive)}: ${sizes(archive)}, ${archive.h1}`);
        }
        for (const emulator of releasedEmulators) {
          const { name, version } = emulator;
          const files = [
            ...startFiles(
              emulatorExecutableName(name, platform),
              emulatorLauncher(name),
              platform,
              runtime,
              windowsExe,
            ),
            ...emulator.files,
            packageFile('THIRD_PARTY_NOTICES.txt', emulator.notices),
          ];
          const archive = pack(files, join(outDir, emulatorArchiveName(name, version, platform)), {
            name,
            version,
            platform,
            executable: emulatorExecutableName(name, platform),
          });
          add(`emulator-${name}`, archive);
          log(`  ${relative(outDir, archive.archive)}: ${sizes(archive)}`);
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
  for (const provider of released) {
    const { name, version } = provider;
    const set = archives.get(`provider-${name}`)!;
    const manifestFile = join(outDir, registryManifestName(name, version));
    writeFileSync(manifestFile, MANIFEST);
    const listed = [...archiveSums(set), { file: manifestFile, sha256: sha256Hex(Buffer.from(MANIFEST)) }];
    const sums = writeSums(join(outDir, providerSumsName(name, version)), listed);
    const signature = sign(sums, signingKey, env, log);
    writeMirrors(outDir, provider, set);
    providers.push({ name, version, archives: set, sums, ...(signature ? { signature } : {}) });
  }
  for (const { name, version } of releasedEmulators) {
    const set = archives.get(`emulator-${name}`)!;
    const sums = writeSums(join(outDir, emulatorSumsName(name, version)), archiveSums(set));
    const signature = sign(sums, signingKey, env, log);
    emulators.push({ name, version, archives: set, sums, ...(signature ? { signature } : {}) });
  }
  if (!signingKey) {
    log(
      `  not signed: ${SIGNING_KEY_VARIABLE} is not set, so there is no SHA256SUMS.sig ` +
        '(a registry needs one; a mirror does not)',
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

/** The bundles a provider's package holds, by their path in it: the start-up bundle first. */
export function providerBundles(provider: Pick<ProviderRelease, 'name' | 'files'>): string[] {
  const first = `dist/bundle/terraform-provider-${provider.name}.cjs`;
  const others = provider.files
    .map((f) => f.name)
    .filter((path) => path.startsWith(`dist/bundle/terraform-provider-${provider.name}-`) && path.endsWith('.cjs'))
    .sort();
  return [first, ...others];
}

function checkFiles(provider: ProviderRelease): void {
  if (!/^[a-z0-9]+$/.test(provider.name))
    throw new Error(`a provider's name is lowercase letters and digits (Terraform's rule): ${provider.name}`);
  const start = `dist/bundle/terraform-provider-${provider.name}.cjs`;
  if (!provider.files.some((f) => f.name === start)) throw new Error(`${provider.name}: its files lack ${start}`);
}

/** The launch settings every provider shares: the Windows executable, one for all, takes them. */
function sharedLaunch(providers: readonly ProviderRelease[]): LaunchSettings {
  const [first, ...others] = providers;
  for (const other of others) {
    const same =
      other.launch.handOverTrust === first!.launch.handOverTrust &&
      other.launch.nodeOptions.join(' ') === first!.launch.nodeOptions.join(' ');
    if (!same)
      throw new Error(
        `${first!.name} and ${other.name} start differently; one release's Windows executable serves both`,
      );
  }
  return first!.launch;
}

/** The platforms whose code caches are made here; the others are named, or stop the build when required. */
function codeCachePlatforms(platforms: readonly Platform[], required: boolean, log: (line: string) => void) {
  const wanted = platforms.filter((platform) => CODE_CACHE_PLATFORMS.includes(platform));
  const problems = wanted.flatMap((platform) => {
    const problem = runnerProblem(platform);
    return problem ? [{ platform, problem }] : [];
  });
  if (problems.length > 0 && required) {
    throw new Error(
      `this machine cannot run the runtime of every platform to make its code caches:\n` +
        problems.map((p) => `  ${p.platform}: ${p.problem}\n`).join('') +
        '(or leave those platforms out: --platform)',
    );
  }
  for (const { platform, problem } of problems) log(`  ${platform}: released without code caches: ${problem}`);
  return wanted.filter((platform) => !problems.some((p) => p.platform === platform));
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

/** Writes the package's files (but its executable and runtime) under `dir`. */
function stage(files: readonly PackageFile[], dir: string): void {
  for (const { name: path, data } of files) {
    if (path === 'runtime/node' || path.endsWith('.exe')) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
}

/**
 * docs/<name>/: the provider's own pages, or those it writes from its declarations (`--docs`), run as
 * Terraform runs it, on this machine's Node.
 */
async function writePages(provider: ProviderRelease, dir: string, outDir: string): Promise<void> {
  stage([packageFile('bin/start-bundle.cjs', bundleLoader()), ...provider.files], dir);
  const loader = join(dir, 'bin', 'start-bundle.cjs');
  const command = [...provider.launch.nodeOptions, loader, provider.name];
  await warmUp(
    { file: process.execPath, args: command },
    { env: { ...provider.warmUp.env, NODE_OPTIONS: undefined }, configure: provider.warmUp.configure },
  ).catch((error: Error) => {
    throw new Error(`${provider.name} does not start as Terraform starts it: ${error.message}`);
  });
  const pagesDir = join(outDir, 'docs', provider.name);
  if (provider.pagesDir) {
    cpSync(provider.pagesDir, pagesDir, { recursive: true });
    return;
  }
  const examples = provider.examplesDir ? ['--examples', provider.examplesDir] : [];
  const run = spawnSync(process.execPath, [...command, '--docs', pagesDir, ...examples], {
    encoding: 'utf8',
    env: { ...process.env, ...provider.warmUp.env, NODE_OPTIONS: undefined },
    timeout: 120_000,
  });
  if (run.status !== 0 || !existsSync(join(pagesDir, 'index.md')))
    throw new Error(
      `${provider.name} did not write its reference pages (--docs, which serve() answers; or give pagesDir)` +
        `${run.stderr ? `:\n${run.stderr.trim()}` : ''}`,
    );
}

/** What every package of a platform holds to start: the executable and Node's licence, and the runtime. */
function startFiles(executable: string, launcher: string, platform: Platform, runtime: Runtime, exe?: Buffer) {
  return isWindows(platform)
    ? [packageFile(executable, exe!, true), packageFile('runtime/LICENSE', runtime.license)]
    : [
        packageFile(executable, launcher, true),
        packageFile('runtime/node', runtime.node, true),
        packageFile('runtime/LICENSE', runtime.license),
      ];
}

/** The provider's package: its executable, the loader, its files, and the licences. */
function providerPackage(
  provider: ProviderRelease,
  platform: Platform,
  runtime: Runtime,
  windowsExe: Buffer | undefined,
): PackageFile[] {
  const { name, version, launch } = provider;
  const executable = providerExecutableName(name, version, platform);
  return [
    ...startFiles(executable, shellLauncher(name, launch, 'release'), platform, runtime, windowsExe),
    packageFile('bin/start-bundle.cjs', bundleLoader()),
    ...provider.files,
    packageFile('THIRD_PARTY_NOTICES.txt', provider.notices),
  ];
}

/** The preface of a release's THIRD_PARTY_NOTICES.txt: what the archive carries besides the packages. */
export const NOTICES_PREFACE =
  'This program bundles the following packages from npm, under these licences.\n' +
  `Node.js ${NODE_VERSION} itself: runtime/LICENSE.`;

/** What a launcher that hands the trust over sets (./launchers.ts), for runs that stand in for it. */
function launcherEnvironment(launch: LaunchSettings): Record<string, string | undefined> {
  return launch.handOverTrust
    ? { SSL_CERT_FILE: '/dev/null', SSL_CERT_DIR: '/dev/null', NODE_EXTRA_CA_CERTS: undefined }
    : {};
}

/**
 * The code caches of a provider's bundles, made by its platform's runtime (`node`, run by `runner`):
 * the package is written to `dir` and its loader run as the launcher runs it, under `--predictable
 * --random-seed=1` (see the header), through a handshake, a health check, GetProviderSchema,
 * GetMetadata (which loads a service bundle) and, where the release asks, ConfigureProvider with
 * settings that reach nothing; bin/start-bundle.cjs writes every bundle's code cache as it exits
 * (loading one the run did not need for its own). Then the same runtime, without those flags,
 * must accept them.
 */
async function codeCachesOf(
  files: readonly PackageFile[],
  dir: string,
  node: string,
  provider: ProviderRelease,
  runner: Runner,
): Promise<PackageFile[]> {
  const { name, launch } = provider;
  stage(files, dir);
  const loader = runner.path(join(dir, 'bin', 'start-bundle.cjs'));
  const command = runner.command(node, ['--predictable', '--random-seed=1', ...launch.nodeOptions, loader, name]);
  await warmUp(command, {
    env: {
      ...runner.env,
      ...launcherEnvironment(launch),
      ...provider.warmUp.env,
      KEEL_WRITE_CODE_CACHE: '1',
      KEEL_CODE_CACHE_SCRIPT_DIR: 'dist/bundle',
      NODE_OPTIONS: undefined,
    },
    configure: provider.warmUp.configure,
    // The caches are written as the process exits: under an emulator that takes long.
    timeoutMs: 180_000,
  }).catch((error: Error) => {
    throw new Error(`the warm-up of ${name} ${runner.how} failed: ${error.message}`);
  });
  const bundles = providerBundles(provider).map((bundle) => join(dir, ...bundle.split('/')));
  const run = (args: string[], what: string) => {
    const command = runner.command(node, [...args, ...bundles.map((bundle) => runner.path(bundle))]);
    const result = spawnSync(command.file, command.args, {
      encoding: 'utf8',
      env: { ...process.env, ...runner.env, ...launcherEnvironment(launch), NODE_OPTIONS: '' },
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
  run(['--predictable', '--random-seed=1', ...launch.nodeOptions, '-e', REMAKE_CACHES], 'remaking');
  const verdicts = run([...launch.nodeOptions, '-e', CHECK_CACHES], 'checking');
  if (verdicts !== bundles.map(() => 'accepted').join(' ')) {
    throw new Error(
      `the code caches made for ${name}'s bundles are not all accepted by the ${runner.platform} runtime ` +
        `${runner.how}: ` +
        verdicts,
    );
  }
  return bundles.map((bundle) =>
    packageFile(`${relative(dir, bundle).split(sep).join('/')}.cache`, readFileSync(`${bundle}.cache`)),
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
  `${CACHE_SCRIPT_PRELUDE}process.stdout.write(process.argv.slice(1).map((b) => { ` +
  'const { sameBuild, script } = load(b); ' +
  'return !sameBuild ? "made for another build" : script.cachedDataRejected ? "rejected" : "accepted"; }).join(" "));';

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

/** Each archive with its SHA-256 (the hex of its `zh:` hash), as SHA256SUMS lists it. */
const archiveSums = (set: readonly ReleasedArchive[]) =>
  set.map((archive) => ({ file: archive.archive, sha256: archive.zh.slice('zh:'.length) }));

/** `<sha256>  <file>` for every file listed, in name order. */
function writeSums(file: string, listed: readonly { file: string; sha256: string }[]): string {
  const lines = listed
    .map((entry) => `${entry.sha256}  ${relativeName(entry.file)}\n`)
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
  { namespace, name, version, hostname = REGISTRY_HOST }: ProviderRelease,
  archives: readonly ReleasedArchive[],
): void {
  const network = join(outDir, 'network-mirror', hostname, namespace, name);
  const listed: Record<string, { url: string; hashes: string[] }> = {};
  for (const archive of archives) {
    const archiveName = relativeName(archive.archive);
    placeCopy(archive.archive, join(outDir, 'mirror', hostname, namespace, name, archiveName));
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
      ...(source.noCommit ? { noCommit: source.noCommit } : {}),
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
