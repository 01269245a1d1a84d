/**
 * `npm run release`: everything a registry or a mirror needs to install both providers with
 * `terraform init`, for the platform this runs on (README, "Installing"). Under the output directory:
 *
 * - terraform-provider-<name>_<version>_<os>_<arch>.zip, holding the launcher
 *   terraform-provider-<name>_v<version> and what it runs: the Node runtime that ran this build
 *   (runtime/node, with Node's licence), the provider's three bundles (start-up part, service and API client) with
 *   their V8 code caches and assets (the
 *   same relative paths as in a checkout, so bin/start-bundle.cjs and src/proto-location.ts work
 *   unchanged), and the licences of the bundled packages;
 * - terraform-provider-<name>_<version>_SHA256SUMS, its detached GPG signature …_SHA256SUMS.sig when
 *   KEEL_RELEASE_GPG_KEY names a key (gpg honours GNUPGHOME), and …_manifest.json;
 * - mirror/: a filesystem mirror in the packed layout; network-mirror/: the Provider Network Mirror
 *   Protocol's index.json and <version>.json with the archive beside them;
 * - <name>-emulator_<version>_<os>_<arch>.zip (the launcher <name>-emulator, the runtime and the
 *   emulators' bundle) with its own SHA256SUMS (and .sig), kept out of the provider's file, which
 *   registries read.
 *
 * Why the runtime beside the bundle rather than a single executable application: both are the same
 * node binary plus the same bundle and code cache (sizes within 1%), both started as fast in the
 * handshake benchmark, and both need a /bin/sh launcher to keep the checkout's start-up settings
 * (--use-openssl-ca over an empty store, NODE_EXTRA_CA_CERTS, SSL_CERT_FILE and SSL_CERT_DIR handed over
 * to the API clients: an executable application of Node 20 takes no Node options but NODE_OPTIONS, and
 * Node parses NODE_EXTRA_CA_CERTS before any JavaScript runs). The single executable adds postject, an experimental Node feature, ~12 s per
 * executable and code signing on macOS, and gains nothing the launcher does not already give.
 *
 * Reproducible: the zip entries are written in a fixed order with fixed times and modes
 * (./zip.ts); the one part V8 makes differently on each run, the code cache, is made by a warm-up
 * run under `--predictable --random-seed=1`, which V8 leaves out of the flag hash a cache is checked
 * against ("to allow predictable code caching"), with the scripts named by their place in the package
 * rather than the staging path (bin/start-bundle.cjs), so the caches are the same bytes each time and
 * are still accepted by the launcher's node, which runs without those flags. The build checks that.
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
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProviderEngine } from '../../src/engine/provider-engine.js';
import type { Logger } from '../../src/engine/contracts.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { impliedType } from '../../src/schema/block.js';
import { encodeMsgpack } from '../../src/schema/msgpack.js';
import { launchProvider } from '../../src/tfclient/launch.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { SEC_VERSION } from '../../src/resources/sec/index.js';
import { VDB_VERSION } from '../../src/resources/vdb/index.js';
import { packageHashV1, sha256Hex, zipHash, type NamedContent } from './hashes.js';
import { writeZip, type ZipEntry } from './zip.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Where the providers are published: the source addresses `keel/sec` and `keel/vdb`. */
export const REGISTRY_HOST = 'registry.terraform.io';
export const NAMESPACE = 'keel';
export const RELEASED = [
  { name: 'sec', version: SEC_VERSION },
  { name: 'vdb', version: VDB_VERSION },
] as const;
export type ReleasedName = (typeof RELEASED)[number]['name'];

/** The registry manifest: tfplugin6 only. */
export const MANIFEST = '{"version":1,"metadata":{"protocol_versions":["6.0"]}}\n';
/** The environment variable naming the signing key (a key id, fingerprint or user id in the keyring). */
export const SIGNING_KEY_VARIABLE = 'KEEL_RELEASE_GPG_KEY';

/** Terraform's names for this machine's platform, e.g. linux_amd64. */
export function currentPlatform(): string {
  const os = ({ linux: 'linux', darwin: 'darwin', freebsd: 'freebsd' } as Record<string, string>)[process.platform];
  const arch = ({ x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' } as Record<string, string>)[process.arch];
  if (!os || !arch) {
    throw new Error(
      `cannot build a release on ${process.platform}/${process.arch}: the launcher is a /bin/sh script ` +
        '(Linux, macOS, FreeBSD on amd64, arm64, 386 or arm); Windows would need a launcher executable, not built yet',
    );
  }
  return `${os}_${arch}`;
}

export const providerArchiveName = (name: string, version: string, platform: string) =>
  `terraform-provider-${name}_${version}_${platform}.zip`;
export const providerExecutableName = (name: string, version: string) => `terraform-provider-${name}_v${version}`;
export const emulatorArchiveName = (name: string, version: string, platform: string) =>
  `${name}-emulator_${version}_${platform}.zip`;
export const emulatorExecutableName = (name: string) => `${name}-emulator`;

export interface ReleaseOptions {
  /** Emptied first. */
  readonly outDir: string;
  /** The key to sign SHA256SUMS with; default: KEEL_RELEASE_GPG_KEY. Empty: no signature. */
  readonly signingKey?: string;
  /** The environment gpg runs in (GNUPGHOME); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Progress lines; default: stdout. */
  readonly log?: (line: string) => void;
}

export interface ReleasedArchive {
  readonly name: string;
  readonly version: string;
  /** Absolute path of the .zip. */
  readonly archive: string;
  readonly archiveBytes: number;
  /** The executable inside, and its size (the launcher) and the runtime's. */
  readonly executable: string;
  readonly unpackedBytes: number;
  readonly zh: string;
  readonly h1: string;
  readonly sums: string;
  readonly signature?: string;
}

export interface ReleaseResult {
  readonly outDir: string;
  readonly platform: string;
  readonly providers: ReleasedArchive[];
  readonly emulators: ReleasedArchive[];
  /** The Node runtime every archive carries. */
  readonly runtime: { readonly version: string; readonly bytes: number };
  readonly seconds: number;
}

export async function buildRelease(options: ReleaseOptions): Promise<ReleaseResult> {
  const started = performance.now();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const env = options.env ?? process.env;
  const signingKey = options.signingKey ?? env[SIGNING_KEY_VARIABLE] ?? '';
  const platform = currentPlatform();
  const outDir = resolve(options.outDir);
  const bundleDir = join(REPO_ROOT, 'dist', 'bundle');
  for (const file of [...RELEASED.flatMap(({ name }) => providerBundles(name)), 'emulator.cjs']) {
    if (!existsSync(join(bundleDir, file)))
      throw new Error(`${join(bundleDir, file)} is missing: run npm run build first`);
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const runtime = runtimeFiles();
  const staging = mkdtempSync(join(tmpdir(), 'keel-release-'));
  const providers: ReleasedArchive[] = [];
  const emulators: ReleasedArchive[] = [];
  try {
    for (const { name, version } of RELEASED) {
      const t = performance.now();
      const dir = join(staging, `provider-${name}`);
      const executable = providerExecutableName(name, version);
      stageProvider(dir, name, executable, runtime);
      await warmUpCodeCache(dir, name);
      const archive = join(outDir, providerArchiveName(name, version, platform));
      const released = await pack(dir, archive, executable, name, version);
      const sumsFile = join(outDir, `terraform-provider-${name}_${version}_SHA256SUMS`);
      writeFileSync(sumsFile, `${sha256Hex(readFileSync(archive))}  ${providerArchiveName(name, version, platform)}\n`);
      writeFileSync(join(outDir, `terraform-provider-${name}_${version}_manifest.json`), MANIFEST);
      const signature = sign(sumsFile, signingKey, env, log);
      writeMirrors(outDir, name, version, platform, archive, released);
      providers.push({ ...released, sums: sumsFile, ...(signature ? { signature } : {}) });
      log(`  ${relative(outDir, archive)}: ${sizes(released)}, ${released.zh}, ${released.h1} — ${seconds(t)}`);
    }
    for (const { name, version } of RELEASED) {
      const t = performance.now();
      const dir = join(staging, `emulator-${name}`);
      const executable = emulatorExecutableName(name);
      stageEmulator(dir, name, executable, runtime);
      const archive = join(outDir, emulatorArchiveName(name, version, platform));
      const released = await pack(dir, archive, executable, name, version);
      const sumsFile = join(outDir, `${name}-emulator_${version}_SHA256SUMS`);
      writeFileSync(sumsFile, `${sha256Hex(readFileSync(archive))}  ${emulatorArchiveName(name, version, platform)}\n`);
      const signature = sign(sumsFile, signingKey, env, log);
      emulators.push({ ...released, sums: sumsFile, ...(signature ? { signature } : {}) });
      log(`  ${relative(outDir, archive)}: ${sizes(released)} — ${seconds(t)}`);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!signingKey) {
    log(
      `  not signed: ${SIGNING_KEY_VARIABLE} is not set, so there is no SHA256SUMS.sig ` +
        '(a registry needs one; see the README)',
    );
  }
  return {
    outDir,
    platform,
    providers,
    emulators,
    runtime: { version: process.version, bytes: runtime.node.length },
    seconds: (performance.now() - started) / 1000,
  };
}

interface Runtime {
  readonly node: Buffer;
  readonly license: Buffer;
}

/** The Node binary running this build and its licence (which must travel with it). */
function runtimeFiles(): Runtime {
  const nodePath = realpathSync(process.execPath);
  const prefix = dirname(dirname(nodePath));
  // An official tarball keeps LICENSE at its top; Debian-style packages under share/doc.
  const candidates = [
    join(prefix, 'LICENSE'),
    join(prefix, 'share', 'doc', 'node', 'LICENSE'),
    join(prefix, 'share', 'doc', 'nodejs', 'LICENSE'),
  ];
  const license = candidates.find((file) => existsSync(file));
  if (!license)
    throw new Error(
      `cannot find the licence of the Node runtime ${nodePath} (looked at ${candidates.join(', ')}); ` +
        'it must ship with it',
    );
  return { node: readFileSync(nodePath), license: readFileSync(license) };
}

function put(dir: string, name: string, data: Buffer | string, executable = false): void {
  const file = join(dir, ...name.split('/'));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
  chmodSync(file, executable ? 0o755 : 0o644);
}

function copyTree(from: string, dir: string, prefix: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) copyTree(source, dir, `${prefix}/${entry.name}`);
    else put(dir, `${prefix}/${entry.name}`, readFileSync(source));
  }
}

/** The checkout's bin/ wrapper up to its last line, which starts `node` from PATH. */
function checkoutWrapper(name: string): { head: string; execLine: string } {
  const text = readFileSync(join(REPO_ROOT, 'bin', `terraform-provider-${name}`), 'utf8');
  const execLine = `exec node --use-openssl-ca "$dir/start-bundle.cjs" ${name} "$@"\n`;
  if (!text.endsWith(execLine))
    throw new Error(
      `bin/terraform-provider-${name} no longer ends with ${JSON.stringify(execLine)}: update scripts/release`,
    );
  return { head: text.slice(0, -execLine.length), execLine };
}

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

/**
 * The provider's package: the checkout's wrapper (symlinks, trust settings, exec) with the runtime
 * beside it instead of `node` from PATH, and the checkout's loader and bundles at the same relative
 * paths (bin/, dist/bundle/, dist/proto/).
 */
function stageProvider(dir: string, name: string, executable: string, runtime: Runtime): void {
  const { head } = checkoutWrapper(name);
  const launcher = `${head}exec "$dir/runtime/node" --use-openssl-ca "$dir/bin/start-bundle.cjs" ${name} "$@"\n`;
  put(dir, executable, launcher, true);
  putRuntime(dir, runtime);
  put(dir, 'bin/start-bundle.cjs', readFileSync(join(REPO_ROOT, 'bin', 'start-bundle.cjs')));
  for (const file of providerBundles(name))
    put(dir, `dist/bundle/${file}`, readFileSync(join(REPO_ROOT, 'dist', 'bundle', file)));
  const bundle = join(REPO_ROOT, 'dist', 'bundle', `terraform-provider-${name}.cjs`);
  copyTree(join(REPO_ROOT, 'dist', 'bundle', 'assets'), dir, 'dist/bundle/assets');
  if (name === 'vdb')
    put(dir, 'dist/proto/vdb-descriptor.json', readFileSync(join(REPO_ROOT, 'dist', 'proto', 'vdb-descriptor.json')));
  put(dir, 'THIRD_PARTY_NOTICES.txt', thirdPartyNotices(bundle));
}

/** The emulator's package: a launcher with the wrapper's symlink handling, the runtime and the bundle. */
function stageEmulator(dir: string, name: string, executable: string, runtime: Runtime): void {
  const { head } = checkoutWrapper(name);
  const selfLocation = head.slice(0, head.indexOf("# Node's default trust store"));
  if (!selfLocation.includes('dir='))
    throw new Error(`bin/terraform-provider-${name}: cannot find where it locates itself: update scripts/release`);
  const comment = `# The ${name} emulator (README, "Installing"), run by the Node runtime beside it.\n`;
  const exec = `exec "$dir/runtime/node" "$dir/dist/bundle/emulator.cjs" ${name} "$@"\n`;
  const launcher = `${selfLocation.replace(/^# Terraform execs this wrapper[^\n]*\n/m, comment)}${exec}`;
  put(dir, executable, launcher, true);
  putRuntime(dir, runtime);
  const bundle = join(REPO_ROOT, 'dist', 'bundle', 'emulator.cjs');
  put(dir, 'dist/bundle/emulator.cjs', readFileSync(bundle));
  copyTree(join(REPO_ROOT, 'dist', 'bundle', 'assets'), dir, 'dist/bundle/assets');
  if (name === 'vdb')
    put(dir, 'dist/proto/vdb-descriptor.json', readFileSync(join(REPO_ROOT, 'dist', 'proto', 'vdb-descriptor.json')));
  put(dir, 'THIRD_PARTY_NOTICES.txt', thirdPartyNotices(bundle));
}

function putRuntime(dir: string, runtime: Runtime): void {
  put(dir, 'runtime/node', runtime.node, true);
  put(dir, 'runtime/LICENSE', runtime.license);
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
    'Node.js itself: runtime/LICENSE.';
  return `${preface}${rule}${sections.map((s) => s.text).join(rule)}`;
}

/** Settings that let each provider be configured with no platform to reach: configuring calls nothing. */
const WARM_UP_SETTINGS: Record<string, Record<string, string>> = {
  sec: {
    SEC_API_URL: 'https://api.invalid',
    SEC_ACCOUNT: 'warm-up',
    SEC_API_KEY: 'WARM_UP_KEY',
    SEC_API_SECRET: '_warm_up_secret',
  },
  vdb: { VDB_API_URL: 'https://api.invalid', VDB_API_KEY: 'warm-up-key', VDB_ACCOUNT_ID: 'warm-up' },
};

/**
 * Runs the staged provider as the launcher does, under `--predictable --random-seed=1` (see the
 * header), through a handshake, a health check, GetProviderSchema, GetMetadata (which loads the
 * service bundle) and ConfigureProvider with settings that reach nothing; bin/start-bundle.cjs
 * writes the three bundles' code caches as it exits (loading the client bundle, which only a call
 * to the platform needs, for its own). Then checks that the launcher's node, without those flags,
 * accepts them.
 */
async function warmUpCodeCache(dir: string, name: string): Promise<void> {
  const node = join(dir, 'runtime', 'node');
  const loader = join(dir, 'bin', 'start-bundle.cjs');
  const provider = await launchProvider(node, {
    args: ['--predictable', '--random-seed=1', '--use-openssl-ca', loader, name],
    env: {
      KEEL_WRITE_CODE_CACHE: '1',
      KEEL_CODE_CACHE_SCRIPT_DIR: 'dist/bundle',
      SSL_CERT_FILE: '/dev/null',
      SSL_CERT_DIR: '/dev/null',
      NODE_EXTRA_CA_CERTS: undefined,
      NODE_OPTIONS: undefined,
      ...WARM_UP_SETTINGS[name],
    },
  });
  await provider.health();
  await provider.call('GetProviderSchema', {});
  await provider.call('GetMetadata', {});
  const block = new ProviderEngine(await loadProviderDef(name), SILENT, {}).providerSchema().block;
  const config = { msgpack: encodeMsgpack(impliedType(block), configValue(block, {})) };
  const configured = await provider.call('ConfigureProvider', { terraform_version: '1.11.4', config });
  if (configured.diagnostics.length > 0)
    throw new Error(`the warm-up could not configure ${name}: ${JSON.stringify(configured.diagnostics)}`);
  await provider.shutdown();
  for (const file of providerBundles(name)) {
    const bundle = join(dir, 'dist', 'bundle', file);
    const check = spawnSync(
      node,
      [
        '--use-openssl-ca',
        '-e',
        // The cache opens with the bundle's build id (bin/start-bundle.cjs), V8's data follows.
        'const fs = require("fs"); const [b] = process.argv.slice(1); const s = fs.readFileSync(b, "latin1"); ' +
          'const id = s.slice(0, s.indexOf("*/") + 2); const c = fs.readFileSync(b + ".cache"); ' +
          'process.stdout.write(c.toString("latin1", 0, id.length) !== id ? "made for another build" : ' +
          'String(new (require("vm").Script)(s, { filename: b, cachedData: c.subarray(id.length) }).cachedDataRejected))',
        bundle,
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, SSL_CERT_FILE: '/dev/null', SSL_CERT_DIR: '/dev/null', NODE_OPTIONS: '' },
      },
    );
    if (check.stdout !== 'false')
      throw new Error(
        `the code cache made for ${file} is not accepted by its runtime (${check.stdout}${check.stderr})`,
      );
  }
}

const SILENT: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => SILENT,
  enabled: () => false,
};

/** Files of a staged package, with `/` names, for the zip and the `h1:` hash. */
function stagedFiles(dir: string, prefix = ''): (ZipEntry & NamedContent)[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return stagedFiles(dir, name);
    const file = join(dir, name);
    return [{ name, data: readFileSync(file), executable: (statSync(file).mode & 0o111) !== 0 }];
  });
}

async function pack(
  dir: string,
  archive: string,
  executable: string,
  name: string,
  version: string,
): Promise<Omit<ReleasedArchive, 'sums' | 'signature'>> {
  const files = stagedFiles(dir);
  writeZip(archive, files);
  const bytes = readFileSync(archive);
  return {
    name,
    version,
    archive,
    archiveBytes: bytes.length,
    executable,
    unpackedBytes: files.reduce((sum, file) => sum + file.data.length, 0),
    zh: zipHash(bytes),
    h1: packageHashV1(files),
  };
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
 * network-mirror/<host>/<namespace>/<name>/{index.json,<version>.json,<archive>}: URLs in
 * <version>.json are relative to it, so the tree works wherever it is served.
 */
function writeMirrors(
  outDir: string,
  name: string,
  version: string,
  platform: string,
  archive: string,
  released: { zh: string; h1: string },
): void {
  const archiveName = relativeName(archive);
  placeCopy(archive, join(outDir, 'mirror', REGISTRY_HOST, NAMESPACE, name, archiveName));
  const network = join(outDir, 'network-mirror', REGISTRY_HOST, NAMESPACE, name);
  placeCopy(archive, join(network, archiveName));
  writeFileSync(join(network, 'index.json'), `${JSON.stringify({ versions: { [version]: {} } }, null, 2)}\n`);
  const versionDoc = { archives: { [platform]: { url: archiveName, hashes: [released.h1, released.zh] } } };
  writeFileSync(join(network, `${version}.json`), `${JSON.stringify(versionDoc, null, 2)}\n`);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const sizes = (released: { archiveBytes: number; unpackedBytes: number }) =>
  `${mib(released.archiveBytes)} (${mib(released.unpackedBytes)} unpacked)`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
