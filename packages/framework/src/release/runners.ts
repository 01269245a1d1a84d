/**
 * How this machine runs a program built for another platform, for what the release must make or see
 * with the very runtime it ships: the V8 code caches (which are specific to each platform's build of
 * Node: ./build.ts) and the tests. On linux_amd64:
 *
 * - linux_amd64: natively;
 * - linux_arm64: under qemu's user-mode emulator (Debian's qemu-user-static), with the arm64 C
 *   libraries of Debian's cross packages as its library root (QEMU_LD_PREFIX);
 * - windows_amd64: under Wine (Debian's wine64), in a Wine prefix of its own set to Windows 10 (Node
 *   22 refuses older versions). Wine 8 cannot give a Windows program a Unix pipe as a stream Node's
 *   libuv accepts (process.stdout throws EBADF), and the go-plugin handshake is a line on stdout, so
 *   a Windows program is started by a relay (./wine-relay.ts) running in Windows's node.exe, which
 *   gives it Windows pipes, as Terraform on Windows does, and copies them to its own stdout/stderr.
 * - darwin: not at all.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Platform } from './runtimes.js';

export interface Runner {
  readonly platform: Platform;
  /** How, for messages: "natively", "under qemu-aarch64-static", "under Wine". */
  readonly how: string;
  /** The command that runs `executable` (a program of the platform) with `args` (paths already mapped). */
  command(executable: string, args: readonly string[]): { file: string; args: string[] };
  /** What the command needs in its environment. */
  readonly env: Readonly<Record<string, string>>;
  /** A path of this machine as the program sees it. */
  path(hostPath: string): string;
  /** Stops what the runner left running (Wine's server) and removes its files. */
  dispose(): void;
}

/** This machine's platform in Terraform's names, or undefined for one the release does not build. */
export function hostPlatform(): Platform | undefined {
  const os = ({ linux: 'linux', darwin: 'darwin', win32: 'windows' } as Record<string, string>)[process.platform];
  const arch = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[process.arch];
  return os && arch ? (`${os}_${arch}` as Platform) : undefined;
}

/** This machine's platform in Terraform's names; throws on one no release is built for. */
export function currentPlatform(): Platform {
  const platform = hostPlatform();
  if (!platform) throw new Error(`no release is built for ${process.platform}/${process.arch}`);
  return platform;
}

/** An executable's path from PATH. */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const file = join(dir, command);
    if (dir && existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

/** The arm64 C libraries qemu loads the runtime with: Debian's cross packages. */
const ARM64_LIBRARY_ROOT = '/usr/aarch64-linux-gnu';
const ARM64_LIBRARIES = ['lib/ld-linux-aarch64.so.1', 'lib/libc.so.6', 'lib/libstdc++.so.6', 'lib/libgcc_s.so.1'];
const ARM64_PACKAGES = 'qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross';

const RELAY = join(dirname(fileURLToPath(import.meta.url)), 'wine-relay.js');

export interface RunnerOptions {
  /** A folder the runner may keep files in (the Wine prefix); removed by dispose(). */
  readonly scratch: string;
  /** For windows_amd64: the path of Node's own node.exe, which runs the relay. */
  readonly windowsNode?: string;
}

/** Why `platform`'s programs cannot run on this machine (with what to install), or undefined when they can. */
export function runnerProblem(platform: Platform): string | undefined {
  const host = hostPlatform();
  if (platform === host && platform !== 'windows_amd64') return undefined;
  if (platform === 'linux_arm64' && host === 'linux_amd64') {
    const qemu = qemuAarch64();
    const missing = ARM64_LIBRARIES.filter((file) => !existsSync(join(ARM64_LIBRARY_ROOT, file)));
    if (qemu && missing.length === 0) return undefined;
    return (
      `linux_arm64's runtime runs here only under qemu, with the arm64 C libraries in ${ARM64_LIBRARY_ROOT} ` +
      `(${qemu ? `missing ${missing.join(', ')}` : 'no qemu-aarch64-static on PATH'}): ` +
      `apt-get install ${ARM64_PACKAGES}`
    );
  }
  if (platform === 'windows_amd64' && host === 'linux_amd64') {
    return wineCommand() ? undefined : 'windows_amd64 runs here only under Wine: apt-get install wine64';
  }
  return `${platform}'s runtime cannot run on ${host ?? `${process.platform}/${process.arch}`}`;
}

const qemuAarch64 = () => onPath('qemu-aarch64-static') ?? onPath('qemu-aarch64');
const wineCommand = () => onPath('wine') ?? onPath('wine64');

/** A runner for `platform` on this machine; throws runnerProblem()'s answer when there is none. */
export function runnerFor(platform: Platform, options: RunnerOptions): Runner {
  const problem = runnerProblem(platform);
  if (problem) throw new Error(problem);
  const identity = (path: string) => path;
  if (platform === hostPlatform()) {
    return {
      platform,
      how: 'natively',
      command: (file, args) => ({ file, args: [...args] }),
      env: {},
      path: identity,
      dispose() {},
    };
  }
  if (platform === 'linux_arm64') {
    const qemu = qemuAarch64()!;
    return {
      platform,
      how: `under ${qemu.slice(qemu.lastIndexOf('/') + 1)}`,
      command: (file, args) => ({ file: qemu, args: [file, ...args] }),
      env: { QEMU_LD_PREFIX: ARM64_LIBRARY_ROOT },
      path: identity,
      dispose() {},
    };
  }
  const wine = wineCommand()!;
  if (!options.windowsNode) throw new Error('a Windows runner needs the path of node.exe to run its relay');
  const windowsNode = options.windowsNode;
  const prefix = join(options.scratch, 'wine-prefix');
  const env = { WINEPREFIX: prefix, WINEDEBUG: '-all' };
  prepareWinePrefix(wine, prefix, env);
  const path = windowsPath(prefix);
  return {
    platform,
    how: 'under Wine',
    command: (file, args) => ({ file: wine, args: [path(windowsNode), path(RELAY), path(file), ...args] }),
    env,
    path,
    dispose() {
      spawnSync(onPath('wineserver') ?? 'wineserver', ['-k'], { env: { ...process.env, ...env }, stdio: 'ignore' });
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/**
 * A new Wine prefix reporting Windows 10 (Node 22 refuses to start on what Wine reports by default).
 * Creating it takes a few seconds, once per runner.
 */
function prepareWinePrefix(wine: string, prefix: string, env: Record<string, string>): void {
  mkdirSync(dirname(prefix), { recursive: true });
  const result = spawnSync(wine, ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.status !== 0) {
    throw new Error(`cannot prepare a Wine prefix in ${prefix}: ${result.error?.message ?? result.stderr}`);
  }
}

/** A Unix path as a Windows program under Wine sees it, through the drive Wine maps to `/`. */
function windowsPath(prefix: string): (path: string) => string {
  const devices = join(prefix, 'dosdevices');
  const drive = ['z:', 'y:', 'x:'].find((name) => {
    try {
      return readlinkSync(join(devices, name)) === '/';
    } catch {
      return false;
    }
  });
  if (!drive) throw new Error(`the Wine prefix ${prefix} maps no drive to /`);
  return (path) => `${drive.toUpperCase()}${resolve(path).split('/').join('\\')}`;
}
