/**
 * The release (`npm run release`, scripts/release), for darwin_amd64, darwin_arm64, linux_amd64,
 * linux_arm64 and windows_amd64, installs like any provider and runs where there is no Node:
 *
 * - reproducible from the commit: two clean clones of the commit under test (the working tree's
 *   state, when it has changes) each run `npm ci` (from npm's cache) and `npm run release` (tsc, bundles,
 *   release), side by side, the second signed with a throwaway GPG key; every file of the two
 *   releases and every bundle are the same bytes;
 * - every platform's packages laid out as Terraform expects: one executable (with .exe on Windows),
 *   that platform's pinned Node runtime (ELF or Mach-O of the right machine; on Windows a single
 *   executable application of node.exe, unsigned), modes, hashes in SHA256SUMS and both mirrors; and
 *   `terraform providers lock` against the mirror records every platform's h1:;
 * - with a PATH that holds nothing at all (Terraform called by its absolute path), real Terraform
 *   installs both providers from the filesystem mirror and the network mirror served over HTTPS on
 *   loopback with a test CA and from a registry serving the signed release; the released vdb
 *   provider trusts an API certificate only through NODE_EXTRA_CA_CERTS; an example applies against
 *   the released emulators, re-plans empty and is destroyed (linux_amd64, on Node 22 from the archive);
 * - the archives this machine can run start with the code caches made for them accepted, and without
 *   them: linux_amd64 natively, linux_arm64 under qemu, windows_amd64 under Wine (its executable
 *   through a handshake over Windows pipes, the schema, and a read through NODE_EXTRA_CA_CERTS);
 * - linux_arm64 under qemu through a real `terraform init` from the network mirror, apply, empty
 *   re-plan and destroy. Terraform 1.11 takes the platform it installs for from its own build
 *   (runtime.GOOS/GOARCH, no setting changes it), and this machine's Terraform is linux_amd64: the
 *   mirror offers it the unchanged linux_arm64 archive, with that archive's own h1: and zh:, under the
 *   name linux_amd64; Terraform downloads it, checks it against those hashes, unpacks it and runs it,
 *   the kernel handing the arm64 node to qemu (binfmt_misc, registered by .ci/run).
 */
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { isAbsolute, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { generateCertificate } from '../../packages/framework/src/server/tls.js';
import { launchProvider } from '../../src/tfclient/launch.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import {
  CODE_CACHE_PLATFORMS,
  MANIFEST,
  RELEASE_MANIFEST,
  emulatorArchiveName,
  emulatorExecutableName,
  emulatorSumsName,
  providerArchiveName,
  providerExecutableName,
  providerSumsName,
  registryManifestName,
} from '../../packages/framework/src/release/build.js';
import { shellLauncher } from '../../packages/framework/src/release/launchers.js';
import { PROJECT_PROVIDERS as RELEASED } from '../../src/providers/project.js';
import { PROJECT_LAUNCH } from '../../scripts/release/project.js';
import { REPO_ROOT } from '../../scripts/release/paths.js';
import { onPath, runnerFor, runnerProblem, type Runner } from '../../packages/framework/src/release/runners.js';
import {
  NODE_LICENSE_SHA256,
  PLATFORMS,
  RUNTIME_PINS,
  loadRuntime,
  type Platform,
} from '../../packages/framework/src/release/runtimes.js';
import { readZip, unpackZip } from '../../packages/framework/src/release/zip.js';
import { quietLogger } from '../support/quiet-logger.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { Workspace } from './terraform.js';

const REQUIRE_BOTH = `terraform {
  required_providers {
    sec = { source = "keel/sec" }
    vdb = { source = "keel/vdb" }
  }
}
`;

/** A CLI configuration installing keel/* by one method (its block's first lines). */
const installation = (method: string) =>
  `provider_installation {\n  ${method}\n    include = ["registry.terraform.io/keel/*"]\n  }\n}\n`;

/** Every file under `dir`, by path relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The hashes `.terraform.lock.hcl` records for one provider. */
function lockedHashes(workspace: Workspace, name: string): string[] {
  const lock = readFileSync(join(workspace.dir, 'config', '.terraform.lock.hcl'), 'utf8');
  const block = new RegExp(`provider "registry\\.terraform\\.io/keel/${name}" \\{([^}]*)\\}`).exec(lock);
  expect(block, `${name} in the lock file:\n${lock}`).to.not.equal(null);
  return [...block![1]!.matchAll(/"((?:h1|zh):[^"]+)"/g)].map((m) => m[1]!).sort();
}

/** Skips loudly on a developer's machine without `what`; fails in CI, where .ci/run installs it. */
function requireOnThisMachine(ctx: Mocha.Context, problem: string | undefined): void {
  if (!problem) return;
  if (process.env.CI) throw new Error(`CI must have this (.ci/run installs it): ${problem}`);
  console.warn(`\n  !!! ${problem}: SKIPPING !!!\n`);
  ctx.skip();
}

/** Why the kernel cannot run arm64 programs through qemu here, or undefined when it can. */
function binfmtProblem(): string | undefined {
  const entry = '/proc/sys/fs/binfmt_misc/qemu-aarch64';
  return existsSync(entry) && readFileSync(entry, 'utf8').startsWith('enabled')
    ? undefined
    : 'qemu-aarch64 is not registered with binfmt_misc (.ci/run registers it)';
}

/** Runs a command to its end; rejects with its output's tail when it fails. */
function run(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${file} ${args.join(' ')} in ${options.cwd} exited ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

const git = (args: string[], env: NodeJS.ProcessEnv = process.env) => {
  const result = spawnSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
};

/**
 * The commit to build: HEAD when the working tree has no changes, otherwise a commit of the working
 * tree as it is (tracked and new files git does not ignore), made through a separate index so that
 * neither the tree nor its index is touched, with fixed dates so the same tree gives the same commit.
 */
function commitUnderTest(scratch: string): string {
  if (git(['status', '--porcelain']) === '') return git(['rev-parse', 'HEAD']);
  const env = {
    ...process.env,
    GIT_INDEX_FILE: join(scratch, 'index'),
    GIT_AUTHOR_NAME: 'release test',
    GIT_AUTHOR_EMAIL: 'release-test@example.invalid',
    GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
    GIT_COMMITTER_NAME: 'release test',
    GIT_COMMITTER_EMAIL: 'release-test@example.invalid',
    GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
  };
  git(['read-tree', 'HEAD'], env);
  git(['add', '-A'], env);
  const tree = git(['write-tree'], env);
  return git(['commit-tree', tree, '-p', 'HEAD', '-m', 'release test: the working tree'], env);
}

interface RunningEmulator {
  readonly process: ChildProcess;
  readonly ready: Record<string, string>;
}

/** Starts a released emulator executable and reads its ready line. */
async function startReleasedEmulator(
  executable: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[] = [],
): Promise<RunningEmulator> {
  const child = spawn(executable, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${executable} exited ${code} before it was ready: ${stderr}`)));
    child.once('error', reject);
  });
  return { process: child, ready: JSON.parse(line) as Record<string, string> };
}

/** The first bytes of each platform's executable code: ELF or Mach-O magic and machine. */
const MACHINES: Record<Exclude<Platform, 'windows_amd64'>, (head: Buffer) => boolean> = {
  linux_amd64: (h) => h.readUInt32BE(0) === 0x7f454c46 && h[4] === 2 && h.readUInt16LE(18) === 0x3e,
  linux_arm64: (h) => h.readUInt32BE(0) === 0x7f454c46 && h[4] === 2 && h.readUInt16LE(18) === 0xb7,
  darwin_amd64: (h) => h.readUInt32LE(0) === 0xfeedfacf && h.readUInt32LE(4) === 0x01000007,
  darwin_arm64: (h) => h.readUInt32LE(0) === 0xfeedfacf && h.readUInt32LE(4) === 0x0100000c,
};

/** The Terraform releases the release is installed with: each `terraform` of ACCEPTANCE_CLIS. */
const TERRAFORMS = ACCEPTANCE_CLIS.filter((cli) => cli.command === 'terraform');

describe('acceptance: the release, for every platform, installs with terraform init and runs with no node on PATH', function () {
  this.timeout(900_000);
  // Made when the suite runs, not when mocha loads it.
  let scratch: string;
  let gnupgHome: string;
  /** A directory with nothing in it: the PATH of Terraform, the providers and the emulators. */
  let emptyPath: string;
  let commit: string;
  let unsignedDir: string;
  let signedDir: string;
  let buildLogs: string[];
  let keyFingerprint: string;
  /** Each of TERRAFORMS by name: its executable's absolute path (nothing is on Terraform's PATH). */
  const terraforms = new Map<string, string>();
  const emulators: RunningEmulator[] = [];
  const workspaces: Workspace[] = [];
  const runners: Runner[] = [];

  before(async function () {
    this.timeout(2_400_000);
    for (const cli of TERRAFORMS) {
      const executable = cli.workspace(this).terraform!;
      terraforms.set(cli.name, isAbsolute(executable) ? executable : onPath(executable)!);
    }
    // The build makes linux_arm64's and windows_amd64's code caches with their own runtimes.
    requireOnThisMachine(this, runnerProblem('linux_arm64') ?? runnerProblem('windows_amd64'));
    scratch = mkdtempSync(join(tmpdir(), 'keel-release-test-'));
    gnupgHome = join(scratch, 'gnupg');
    emptyPath = join(scratch, 'empty-path');
    mkdirSync(emptyPath);
    mkdirSync(gnupgHome, { mode: 0o700 });
    const gpgEnv = { ...process.env, GNUPGHOME: gnupgHome };
    const made = spawnSync(
      'gpg',
      [
        '--batch',
        '--passphrase',
        '',
        '--quick-gen-key',
        'keel release test <release-test@example.invalid>',
        'ed25519',
        'sign',
        '1d',
      ],
      { env: gpgEnv, encoding: 'utf8' },
    );
    expect(made.status, `gpg could not make a key: ${made.error?.message ?? made.stderr}`).to.equal(0);
    const listed = spawnSync('gpg', ['--batch', '--with-colons', '--list-secret-keys'], {
      env: gpgEnv,
      encoding: 'utf8',
    });
    keyFingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(listed.stdout)![1]!;

    const started = performance.now();
    commit = commitUnderTest(scratch);
    const clones = [join(scratch, 'clone-1'), join(scratch, 'clone-2')];
    buildLogs = await Promise.all(
      clones.map(async (clone, i) => {
        await run('git', ['clone', '--quiet', '--shared', '--no-checkout', REPO_ROOT, clone], { cwd: scratch });
        await run('git', ['checkout', '--quiet', '--detach', commit], { cwd: clone });
        // npm's cache holds every package since the suite's own `npm ci` (the network only for what it lacks).
        await run('npm', ['ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: clone });
        const env = {
          ...process.env,
          KEEL_RELEASE_GPG_KEY: i === 0 ? '' : keyFingerprint,
          GNUPGHOME: gnupgHome,
          NODE_OPTIONS: '',
        };
        return run('npm', ['run', 'release'], { cwd: clone, env });
      }),
    );
    [unsignedDir, signedDir] = clones.map((clone) => join(clone, 'dist', 'release'));
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(
      `      two clean clones of ${commit.slice(0, 12)}: npm ci and npm run release side by side, ${seconds} s`,
    );
  });

  after(() => {
    if (!scratch) return;
    for (const emulator of emulators) emulator.process.kill('SIGTERM');
    for (const workspace of workspaces) workspace.dispose();
    for (const runner of runners) runner.dispose();
    spawnSync('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: gnupgHome } });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('builds the same bytes from two clean clones of the commit: every release file and every bundle', () => {
    const first = filesUnder(unsignedDir);
    const second = filesUnder(signedDir).filter((file) => !file.endsWith('.sig'));
    expect(second).to.deep.equal(first);
    expect(first.filter((file) => file.endsWith('.zip') && !file.includes('/'))).to.have.length(
      PLATFORMS.length * RELEASED.length * 2,
    );
    const differ = (a: string, b: string) => !readFileSync(a).equals(readFileSync(b));
    expect(
      first.filter((file) => differ(join(unsignedDir, file), join(signedDir, file))),
      'files that differ',
    ).to.deep.equal([]);
    const bundles = (release: string) => join(release, '..', 'bundle');
    const built = readdirSync(bundles(unsignedDir)).filter((name) => name.endsWith('.cjs'));
    expect(built).to.have.length(8);
    expect(
      built.filter((file) => differ(join(bundles(unsignedDir), file), join(bundles(signedDir), file))),
      'bundles that differ',
    ).to.deep.equal([]);
    expect(buildLogs.join('\n')).to.not.match(/the tree differs/);
  });

  it('says in release-manifest.json what it was built from and holds', () => {
    const manifest = JSON.parse(readFileSync(join(unsignedDir, RELEASE_MANIFEST), 'utf8'));
    expect(manifest.source).to.deep.equal({ commit, dirty: false });
    expect(manifest.platforms).to.deep.equal([...PLATFORMS]);
    expect(manifest.runtime.node).to.equal('22.23.2');
    for (const platform of PLATFORMS) {
      const { package: name, version, integrity } = RUNTIME_PINS[platform];
      expect(manifest.runtime.packages[platform]).to.deep.equal({ package: name, version, integrity });
      expect(manifest.codeCaches[platform], platform).to.equal(CODE_CACHE_PLATFORMS.includes(platform));
    }
    const archives = readdirSync(unsignedDir).filter((file) => file.endsWith('.zip'));
    expect(Object.keys(manifest.archives).sort()).to.deep.equal(archives.sort());
    for (const archive of archives)
      expect(manifest.archives[archive], archive).to.equal(sha256(readFileSync(join(unsignedDir, archive))));
  });

  it('lays out every platform as Terraform and the mirrors expect: its own runtime, executable, modes and hashes', async () => {
    for (const { name, version } of RELEASED) {
      const sums = readFileSync(join(unsignedDir, providerSumsName(name, version)), 'utf8');
      // Every archive and the registry manifest, as the registry's publishing rules ask.
      const expectedSums = [
        ...PLATFORMS.map((platform) => providerArchiveName(name, version, platform)),
        registryManifestName(name, version),
      ]
        .sort()
        .map((file) => `${sha256(readFileSync(join(unsignedDir, file)))}  ${file}\n`)
        .join('');
      expect(sums, 'one SHA256SUMS over every platform and the manifest').to.equal(expectedSums);
      expect(readFileSync(join(unsignedDir, `terraform-provider-${name}_${version}_manifest.json`), 'utf8')).to.equal(
        MANIFEST,
      );
      const network = join(unsignedDir, 'network-mirror', 'registry.terraform.io', 'keel', name);
      expect(JSON.parse(readFileSync(join(network, 'index.json'), 'utf8'))).to.deep.equal({
        versions: { [version]: {} },
      });
      const listed = JSON.parse(readFileSync(join(network, `${version}.json`), 'utf8')).archives;
      expect(Object.keys(listed)).to.deep.equal([...PLATFORMS]);
      for (const platform of PLATFORMS) {
        const archiveName = providerArchiveName(name, version, platform);
        const archive = readFileSync(join(unsignedDir, archiveName));
        expect(listed[platform].url).to.equal(archiveName);
        expect(listed[platform].hashes[0]).to.match(/^h1:[A-Za-z0-9+/]{43}=$/);
        expect(listed[platform].hashes[1]).to.equal(`zh:${sha256(archive)}`);
        for (const copy of [
          join(network, archiveName),
          join(unsignedDir, 'mirror', 'registry.terraform.io', 'keel', name, archiveName),
        ])
          expect(readFileSync(copy).equals(archive), copy).to.equal(true);
      }
    }
    for (const { name, version } of RELEASED) {
      const sums = readFileSync(join(unsignedDir, emulatorSumsName(name, version)), 'utf8')
        .trim()
        .split('\n');
      expect(sums.map((line) => line.slice(66))).to.deep.equal(
        PLATFORMS.map((platform) => emulatorArchiveName(name, version, platform)).sort(),
      );
    }

    const windowsExecutables: number[] = [];
    for (const platform of PLATFORMS) {
      const runtime = await loadRuntime(platform);
      const pinned = { crc32: crc32(runtime.node), size: runtime.node.length };
      const windows = platform === 'windows_amd64';
      // The runtime (~100 MiB) is inflated and compared in full once per platform; its other copies by
      // the CRC-32 and size their archives record, which the reader checks on inflating.
      let inflated = false;
      const cached = CODE_CACHE_PLATFORMS.includes(platform);
      for (const { name, version } of RELEASED) {
        const providerExe = providerExecutableName(name, version, platform);
        for (const [archiveName, executable, bundles] of [
          [
            providerArchiveName(name, version, platform),
            providerExe,
            [`terraform-provider-${name}`, `terraform-provider-${name}-service`, `terraform-provider-${name}-client`],
          ],
          [emulatorArchiveName(name, version, platform), emulatorExecutableName(name, platform), ['emulator']],
        ] as const) {
          const what = `${archiveName}`;
          const inflate = [
            windows ? '' : executable,
            'runtime/LICENSE',
            ...(inflated ? [] : [executable, 'runtime/node']),
          ];
          const entries = await readZip(join(unsignedDir, archiveName), (entry) => inflate.includes(entry));
          const wasInflated = !inflated;
          inflated = true;
          const names = entries.map((entry) => entry.name);
          const entry = (file: string) => entries.find((e) => e.name === file);
          expect(
            names.filter((n) => n.endsWith('/')),
            `${what}: no directory entries`,
          ).to.deep.equal([]);
          expect(
            names.filter((n) => n.startsWith(`terraform-provider-${name}_`) || n.startsWith(`${name}-emulator`)),
            what,
          ).to.deep.equal([executable]);
          expect(entry(executable)!.mode & 0o777, `${what}: ${executable}`).to.equal(0o755);
          expect(sha256(entry('runtime/LICENSE')!.data), `${what}: Node's licence`).to.equal(NODE_LICENSE_SHA256);
          expect(names).to.include('THIRD_PARTY_NOTICES.txt');
          for (const bundle of bundles) {
            expect(names, what).to.include(`dist/bundle/${bundle}.cjs`);
            if (bundle !== 'emulator')
              expect(names.includes(`dist/bundle/${bundle}.cjs.cache`), `${what}: ${bundle} cache`).to.equal(cached);
          }
          if (windows && !wasInflated) {
            windowsExecutables.push(entry(executable)!.crc32);
          } else if (windows) {
            const exe = entry(executable)!.data;
            expect(exe.toString('latin1', 0, 2)).to.equal('MZ');
            const pe = exe.readUInt32LE(0x3c);
            expect(exe.toString('latin1', pe, pe + 4)).to.equal('PE\0\0');
            expect(exe.readUInt16LE(pe + 4), 'AMD64').to.equal(0x8664);
            expect(
              exe.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1'),
              'the application fuse set',
            ).to.equal(true);
            expect(names, 'the runtime is the executable').to.not.include('runtime/node');
            windowsExecutables.push(entry(executable)!.crc32);
            if (windowsExecutables.length === 1) {
              const file = join(scratch, 'windows.exe');
              writeFileSync(file, exe);
              const headers = spawnSync('objdump', ['-p', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
              expect(headers.status, headers.stderr).to.equal(0);
              expect(headers.stdout, 'no Authenticode signature').to.match(/Entry 4 0+ 0+ Security Directory/);
            }
          } else {
            const node = entry('runtime/node')!;
            expect(node.mode & 0o777, `${what}: runtime/node`).to.equal(0o755);
            expect({ crc32: node.crc32, size: node.size }, `${what}: the pinned runtime`).to.deep.equal(pinned);
            if (wasInflated) {
              expect(sha256(node.data), `${what}: the pinned ${RUNTIME_PINS[platform].package}`).to.equal(
                sha256(runtime.node),
              );
              expect(MACHINES[platform](node.data.subarray(0, 32)), `${what}: a ${platform} executable`).to.equal(true);
            }
            if (executable === providerExe) {
              expect(entry(executable)!.data.toString(), `${what}: the /bin/sh launcher`).to.equal(
                shellLauncher(name, PROJECT_LAUNCH, 'release'),
              );
            }
          }
        }
      }
    }
    expect(new Set(windowsExecutables).size, 'one Windows executable serves providers and emulators').to.equal(1);
  });

  it('signs SHA256SUMS with the key KEEL_RELEASE_GPG_KEY names, and says so when none is named', () => {
    expect(filesUnder(unsignedDir).filter((file) => file.endsWith('.sig'))).to.deep.equal([]);
    expect(buildLogs[0]).to.match(/not signed: KEEL_RELEASE_GPG_KEY is not set/);
    const env = { ...process.env, GNUPGHOME: gnupgHome };
    const sums = RELEASED.flatMap(({ name, version }) => [
      providerSumsName(name, version),
      emulatorSumsName(name, version),
    ]);
    for (const file of sums.map((name) => join(signedDir, name))) {
      const signature = readFileSync(`${file}.sig`);
      expect(signature[0]! & 0x80, 'a binary OpenPGP packet, not ASCII armour').to.equal(0x80);
      const verified = spawnSync('gpg', ['--batch', '--status-fd', '1', '--verify', `${file}.sig`, file], {
        env,
        encoding: 'utf8',
      });
      expect(verified.status, verified.stderr).to.equal(0);
      expect(verified.stdout).to.include(`VALIDSIG ${keyFingerprint}`);
      const tampered = join(scratch, 'tampered-SHA256SUMS');
      writeFileSync(
        tampered,
        readFileSync(file, 'utf8').replace(/^./, (c) => (c === '0' ? '1' : '0')),
      );
      expect(
        spawnSync('gpg', ['--batch', '--verify', `${file}.sig`, tampered], { env }).status,
        'a changed file fails',
      ).to.not.equal(0);
    }
  });

  /** The hashes the network mirror lists for one provider on one platform (of the signed release by default). */
  function listedHashes(name: string, version: string, platform: Platform, release = signedDir) {
    const network = join(release, 'network-mirror', 'registry.terraform.io', 'keel', name);
    const [h1, zh] = JSON.parse(readFileSync(join(network, `${version}.json`), 'utf8')).archives[platform].hashes;
    return { h1: h1 as string, zh: zh as string };
  }

  const terraformEnvironment = (extra: Record<string, string> = {}) => ({ PATH: emptyPath, ...extra });

  for (const cli of TERRAFORMS)
    it(`${cli.name}: terraform providers lock records every platform from the mirror`, async () => {
      const terraform = terraforms.get(cli.name)!;
      const cliConfig = installation(`filesystem_mirror {\n    path    = "${join(unsignedDir, 'mirror')}"`);
      const ws = new Workspace(REQUIRE_BOTH, terraformEnvironment(), { cliConfig, terraform });
      workspaces.push(ws);
      await ws.expect([
        'providers',
        'lock',
        '-no-color',
        `-fs-mirror=${join(unsignedDir, 'mirror')}`,
        ...PLATFORMS.map((platform) => `-platform=${platform}`),
      ]);
      for (const { name, version } of RELEASED) {
        // From a mirror Terraform records the h1: of each package it unpacked, one per platform.
        const expected = PLATFORMS.map((platform) => listedHashes(name, version, platform, unsignedDir).h1).sort();
        expect(lockedHashes(ws, name), name).to.deep.equal(expected);
      }
    });

  for (const cli of TERRAFORMS)
    it(`${cli.name}: installs from the filesystem mirror; released vdb trusts an API CA only via NODE_EXTRA_CA_CERTS`, async () => {
      const terraform = terraforms.get(cli.name)!;
      expect(readdirSync(emptyPath)).to.deep.equal([]);
      const certificate = await generateCertificate('localhost');
      const api: VdbEmulator = await startVdbEmulator({
        tls: { certPem: certificate.certPem, keyPem: certificate.keyPem },
      });
      try {
        const caFile = join(scratch, 'api-ca.pem');
        writeFileSync(caFile, certificate.certPem);
        const config = `${REQUIRE_BOTH}
provider "vdb" {}

data "vdb_booking_packages" "here" {
  cloud_provider = "aws"
  cloud_region   = "us-east-1"
}
`;
        const cliConfig = installation(`filesystem_mirror {\n    path    = "${join(unsignedDir, 'mirror')}"`);
        const apiEnv = {
          ...vdbProviderEnv({ url: api.url, apiKey: api.apiKey, accountId: api.accountId }),
          GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: '',
        };
        const ws = new Workspace(config, terraformEnvironment(apiEnv), { cliConfig, terraform });
        workspaces.push(ws);
        const init = await ws.expect(['init', '-no-color', '-input=false']);
        expect(init.stdout)
          .to.match(/Installing keel\/sec v2\.2\.0/)
          .and.to.match(/Installing keel\/vdb v1\.19\.2/);
        for (const { name, version } of RELEASED) {
          expect(lockedHashes(ws, name), name).to.deep.equal([
            listedHashes(name, version, 'linux_amd64', unsignedDir).h1,
          ]);
          const installed = join(
            ws.dir,
            '.terraform',
            'providers',
            'registry.terraform.io',
            'keel',
            name,
            version,
            'linux_amd64',
          );
          expect(existsSync(join(installed, providerExecutableName(name, version))), installed).to.equal(true);
        }

        api.clearRequests();
        const reached = await ws.expect(['plan', '-no-color'], 0, { NODE_EXTRA_CA_CERTS: caFile });
        expect(reached.stderr).to.not.match(/development overrides/i);
        expect(api.requests.length, 'the read reached the API').to.be.at.least(1);
        api.clearRequests();
        const refused = await ws.run(['plan', '-no-color'], { NODE_EXTRA_CA_CERTS: '' });
        expect(refused.code).to.equal(1);
        expect(refused.stderr).to.match(/certificate/i);
        expect(api.requests).to.have.length(0);
      } finally {
        await api.close();
      }
    });

  /**
   * A static HTTPS server on loopback with a test CA: the network mirror tree under / (with one
   * platform's archive offered under another platform's name, when `offer` says so), and the Provider
   * Registry Protocol's two answers under /v1/providers/ over the signed release.
   */
  async function startHttps(offer?: {
    readonly as: Platform;
    readonly platform: Platform;
  }): Promise<{ server: Server; port: number; caFile: string; served: string[] }> {
    const certificate = await generateCertificate('localhost');
    const caFile = join(scratch, 'https-ca.pem');
    writeFileSync(caFile, certificate.certPem);
    const served: string[] = [];
    const gpgEnv = { ...process.env, GNUPGHOME: gnupgHome };
    const publicKey = spawnSync('gpg', ['--batch', '--armor', '--export', keyFingerprint], {
      env: gpgEnv,
      encoding: 'utf8',
    }).stdout;
    const json = (value: unknown) => ({ type: 'application/json', body: Buffer.from(JSON.stringify(value)) });
    const registryAnswer = (path: string): { type: string; body: Buffer } | undefined => {
      const versions = /^\/v1\/providers\/keel\/([a-z]+)\/versions$/.exec(path);
      const download = /^\/v1\/providers\/keel\/([a-z]+)\/([0-9.]+)\/download\/([a-z0-9]+)\/([a-z0-9]+)$/.exec(path);
      const released = RELEASED.find((p) => p.name === (versions ?? download)?.[1]);
      if (!released) return undefined;
      if (versions) {
        const platforms = PLATFORMS.map((platform) => ({ os: platform.split('_')[0], arch: platform.split('_')[1] }));
        return json({ versions: [{ version: released.version, protocols: ['6.0'], platforms }] });
      }
      const platform = `${download![3]}_${download![4]}` as Platform;
      if (download![2] !== released.version || !PLATFORMS.includes(platform)) return undefined;
      const filename = providerArchiveName(released.name, released.version, platform);
      const sums = providerSumsName(released.name, released.version);
      return json({
        protocols: ['6.0'],
        os: download![3],
        arch: download![4],
        filename,
        download_url: `/files/${filename}`,
        shasums_url: `/files/${sums}`,
        shasums_signature_url: `/files/${sums}.sig`,
        shasum: sha256(readFileSync(join(signedDir, filename))),
        signing_keys: { gpg_public_keys: [{ key_id: keyFingerprint.slice(-16), ascii_armor: publicKey }] },
      });
    };
    const mirrorAnswer = (path: string, file: string): { type: string; body: Buffer } | undefined => {
      const version = /^\/registry\.terraform\.io\/keel\/([a-z]+)\/([0-9.]+)\.json$/.exec(path);
      if (offer && version) {
        const archives = JSON.parse(readFileSync(file, 'utf8')).archives;
        return json({ archives: { [offer.as]: archives[offer.platform] } });
      }
      return existsSync(file) && statSync(file).isFile()
        ? { type: file.endsWith('.json') ? 'application/json' : 'application/octet-stream', body: readFileSync(file) }
        : undefined;
    };
    const server = createServer({ key: certificate.keyPem, cert: certificate.certPem }, (request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'https://localhost').pathname);
      served.push(path);
      const inside = (root: string, rest: string) =>
        join(root, ...rest.split('/').filter((part) => part && part !== '..'));
      const answer = path.startsWith('/v1/')
        ? registryAnswer(path)
        : path.startsWith('/files/')
          ? mirrorAnswer(path, inside(signedDir, path.slice('/files/'.length)))
          : mirrorAnswer(path, inside(join(signedDir, 'network-mirror'), path));
      if (!answer) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as { port: number }).port, caFile, served };
  }

  /** The sec example and the vdb role example side by side. */
  const exampleConfig = () => {
    const example = (path: string) =>
      readFileSync(join(REPO_ROOT, 'examples', path), 'utf8').replace(/^terraform \{[\s\S]*?\n\}\n/m, '');
    return REQUIRE_BOTH + example('sec/main.tf') + example('vdb/vdb_accounts_role/main.tf');
  };

  /** The linux_amd64 emulators of the release, started once, and the providers' settings for them. */
  let released: Promise<Record<string, string>> | undefined;
  function releasedEmulators(): Promise<Record<string, string>> {
    released ??= (async () => {
      const running: Record<string, RunningEmulator> = {};
      for (const { name, version } of RELEASED) {
        const dir = join(scratch, 'emulators', name);
        await unpackZip(join(signedDir, emulatorArchiveName(name, version, 'linux_amd64')), dir);
        running[name] = await startReleasedEmulator(join(dir, emulatorExecutableName(name)), {
          ...process.env,
          PATH: emptyPath,
        });
        emulators.push(running[name]!);
      }
      const sec = running.sec!.ready;
      const vdb = running.vdb!.ready;
      return {
        ...secProviderEnv({ url: sec.url!, account: sec.account!, apiKey: sec.api_key!, apiSecret: sec.api_secret! }),
        ...vdbProviderEnv({ url: vdb.url!, apiKey: vdb.api_key!, accountId: vdb.account_id! }),
      };
    })();
    return released;
  }

  /** terraform init from the network mirror, apply, an empty plan and destroy, in a new workspace. */
  async function applyReplanDestroy(
    terraform: string,
    https: { port: number; caFile: string },
    extraEnv: Record<string, string> = {},
  ) {
    const cliConfig = installation(`network_mirror {\n    url     = "https://localhost:${https.port}/"`);
    const ws = new Workspace(
      exampleConfig(),
      terraformEnvironment({ ...(await releasedEmulators()), SSL_CERT_FILE: https.caFile, ...extraEnv }),
      { cliConfig, terraform },
    );
    workspaces.push(ws);
    await ws.expect(['init', '-no-color', '-input=false']);
    await ws.expect(['apply', '-auto-approve', '-no-color']);
    const state = await ws.state();
    expect([...state.keys()].sort()).to.deep.equal([
      'data.sec_user_profile.me',
      'sec_agent_access_token.ci',
      'sec_alert_channel_email.security',
      'vdb_accounts_role.example',
    ]);
    expect(state.get('vdb_accounts_role.example')!.values.id).to.be.a('string').and.not.equal('');
    expect(state.get('sec_alert_channel_email.security')!.values.intg_guid).to.be.a('string').and.not.equal('');
    await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
    await ws.expect(['destroy', '-auto-approve', '-no-color']);
    expect([...(await ws.state()).keys()]).to.deep.equal([]);
    return ws;
  }

  for (const cli of TERRAFORMS)
    it(`${cli.name}: installs from the network mirror over HTTPS; applies on the released emulators, re-plans, destroys`, async () => {
      const terraform = terraforms.get(cli.name)!;
      const https = await startHttps();
      try {
        const cliConfig = installation(`network_mirror {\n    url     = "https://localhost:${https.port}/"`);
        const untrustedWs = new Workspace(REQUIRE_BOTH, terraformEnvironment(), { cliConfig, terraform });
        workspaces.push(untrustedWs);
        // Without the test CA Terraform refuses the mirror: the connection really is verified HTTPS.
        const untrusted = await untrustedWs.run(['init', '-no-color', '-input=false'], {
          SSL_CERT_FILE: join(scratch, 'no-such-ca.pem'),
        });
        expect(untrusted.code).to.equal(1);
        expect(untrusted.stderr, untrusted.stderr).to.match(/certificate/i);

        const ws = await applyReplanDestroy(terraform, https);
        for (const { name, version } of RELEASED) {
          // Terraform checked the mirror's h1: and zh: against the download ("verified checksum") but,
          // as the mirror's word is not signed, records the h1: of what it unpacked.
          expect(lockedHashes(ws, name), name).to.deep.equal([listedHashes(name, version, 'linux_amd64').h1]);
          expect(https.served).to.include.members([
            `/registry.terraform.io/keel/${name}/index.json`,
            `/registry.terraform.io/keel/${name}/${version}.json`,
            `/registry.terraform.io/keel/${name}/${providerArchiveName(name, version, 'linux_amd64')}`,
          ]);
        }
      } finally {
        https.server.close();
      }
    });

  for (const cli of TERRAFORMS)
    it(`${cli.name}: installs from a registry serving the signed release: signature checked, h1: and every platform zh: locked`, async () => {
      const terraform = terraforms.get(cli.name)!;
      const https = await startHttps();
      try {
        // A `host` block stands the test server in for registry.terraform.io, so the addresses stay keel/<name>.
        const cliConfig =
          `host "registry.terraform.io" {\n  services = {\n` +
          `    "providers.v1" = "https://localhost:${https.port}/v1/providers/"\n  }\n}\n` +
          'provider_installation {\n  direct {\n    include = ["registry.terraform.io/keel/*"]\n  }\n}\n';
        const ws = new Workspace(REQUIRE_BOTH, terraformEnvironment({ SSL_CERT_FILE: https.caFile }), {
          cliConfig,
          terraform,
        });
        workspaces.push(ws);
        const init = await ws.expect(['init', '-no-color', '-input=false']);
        expect(init.stdout).to.match(
          new RegExp(`Installed keel/sec v2\\.2\\.0 \\(self-signed, key ID ${keyFingerprint.slice(-16)}\\)`),
        );
        for (const { name, version } of RELEASED) {
          // The h1: of what it unpacked, and the zh: of every file of the signed SHA256SUMS: every
          // platform's archive and the manifest (Terraform takes every line of a signed sums file).
          const zh = PLATFORMS.map((platform) => listedHashes(name, version, platform).zh);
          zh.push(`zh:${sha256(readFileSync(join(signedDir, registryManifestName(name, version))))}`);
          expect(lockedHashes(ws, name), name).to.deep.equal(
            [listedHashes(name, version, 'linux_amd64').h1, ...zh].sort(),
          );
          expect(https.served).to.include(`/files/${providerSumsName(name, version)}.sig`);
        }
      } finally {
        https.server.close();
      }
    });

  /** Unpacks a provider archive of `platform` and gives what runs its executable here. */
  async function unpackedProvider(platform: Platform, name: string, version: string) {
    const dir = join(scratch, 'unpacked', platform, name);
    if (!existsSync(dir)) await unpackZip(join(unsignedDir, providerArchiveName(name, version, platform)), dir);
    return { dir, executable: join(dir, providerExecutableName(name, version, platform)) };
  }

  /** A runner for `platform`'s programs (the Wine one runs its relay with the pinned node.exe). */
  async function runner(platform: Platform): Promise<Runner> {
    const found = runners.find((r) => r.platform === platform);
    if (found) return found;
    let windowsNode: string | undefined;
    if (platform === 'windows_amd64') {
      windowsNode = join(scratch, 'node.exe');
      writeFileSync(windowsNode, (await loadRuntime('windows_amd64')).node);
    }
    const made = runnerFor(platform, {
      scratch: join(scratch, `runner-${platform}`),
      ...(windowsNode ? { windowsNode } : {}),
    });
    runners.push(made);
    return made;
  }

  /**
   * Starts a released provider as Terraform would (its launcher; on Windows its .exe under Wine), with
   * the loader reporting each code cache, and takes it through a handshake, the schema and, for vdb,
   * a configuration and a read of the API through a CA given only in NODE_EXTRA_CA_CERTS (which loads
   * all three bundles). Returns the verdicts and the schema answer.
   */
  async function exercise(platform: Platform, name: string, executable: string) {
    const run = await runner(platform);
    // The sh launcher runs natively; the kernel hands its arm64 node to qemu (binfmt_misc).
    const command = platform === 'windows_amd64' ? run.command(executable, []) : { file: executable, args: [] };
    const certificate = await generateCertificate('localhost');
    const api = await startVdbEmulator({ tls: { certPem: certificate.certPem, keyPem: certificate.keyPem } });
    const caFile = join(scratch, `api-ca-${platform}.pem`);
    writeFileSync(caFile, certificate.certPem);
    const provider = await launchProvider(command.file, {
      args: command.args,
      env: {
        ...run.env,
        PATH: emptyPath,
        KEEL_CODE_CACHE_REPORT: '1',
        NODE_EXTRA_CA_CERTS: run.path(caFile),
        GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: '',
        ...vdbProviderEnv({ url: api.url, apiKey: api.apiKey, accountId: api.accountId }),
      },
      startTimeoutMs: 180_000,
      killGraceMs: 60_000,
    });
    try {
      expect(await provider.health()).to.equal('SERVING');
      const schema = await provider.callRaw('GetProviderSchema', Buffer.alloc(0));
      await provider.call('GetMetadata', {});
      if (name === 'vdb') {
        const engine = new ProviderEngine(await loadProviderDef('vdb'), quietLogger, {});
        const providerBlock = engine.providerSchema().block;
        const configured = await provider.call('ConfigureProvider', {
          terraform_version: '1.11.4',
          config: { msgpack: encodeMsgpack(impliedType(providerBlock), configValue(providerBlock, {})) },
        });
        expect(configured.diagnostics, platform).to.deep.equal([]);
        const block = engine.dataSourceSchema('vdb_booking_packages')!.block;
        const config = configValue(block, { cloud_provider: 'aws', cloud_region: 'us-east-1' });
        const read = await provider.call('ReadDataSource', {
          type_name: 'vdb_booking_packages',
          config: { msgpack: encodeMsgpack(impliedType(block), config) },
        });
        expect(read.diagnostics, `${platform}: the read through NODE_EXTRA_CA_CERTS`).to.deep.equal([]);
        expect(api.requests.length, `${platform}: the API was reached`).to.be.at.least(1);
      }
      return { schema, stderr: provider.stderrLines };
    } finally {
      await provider.shutdown();
      await api.close();
    }
  }

  const verdicts = (stderr: string[]) =>
    Object.fromEntries(
      stderr.flatMap((line) => {
        const match = /keel code cache: (\S+)\.cjs: (.+)$/.exec(line);
        return match ? [[match[1]!, match[2]!]] : [];
      }),
    );

  for (const platform of ['linux_amd64', 'linux_arm64', 'windows_amd64'] as const) {
    const how = { linux_amd64: 'natively', linux_arm64: 'under qemu', windows_amd64: 'under Wine' }[platform];
    it(`${platform} (${how}): the provider starts with the code caches made for its runtime, and without them`, async function () {
      if (platform === 'linux_arm64') requireOnThisMachine(this, binfmtProblem());
      for (const { name, version } of RELEASED) {
        const { dir, executable } = await unpackedProvider(platform, name, version);
        const bundles =
          name === 'vdb'
            ? ['terraform-provider-vdb', 'terraform-provider-vdb-service', 'terraform-provider-vdb-client']
            : ['terraform-provider-sec', 'terraform-provider-sec-service'];
        const cached = await exercise(platform, name, executable);
        expect(verdicts(cached.stderr), `${platform} ${name}: ${cached.stderr.join('\n')}`).to.deep.equal(
          Object.fromEntries(bundles.map((bundle) => [bundle, 'accepted'])),
        );
        for (const file of readdirSync(join(dir, 'dist', 'bundle')).filter((f) => f.endsWith('.cache')))
          rmSync(join(dir, 'dist', 'bundle', file));
        const bare = await exercise(platform, name, executable);
        expect(verdicts(bare.stderr), `${platform} ${name}`).to.deep.equal(
          Object.fromEntries(bundles.map((bundle) => [bundle, 'absent'])),
        );
        expect(bare.schema.equals(cached.schema), 'the same schema answer').to.equal(true);
      }
    });
  }

  it('windows_amd64 (under Wine): the released emulator starts and answers', async () => {
    const run = await runner('windows_amd64');
    const dir = join(scratch, 'unpacked', 'windows-emulator');
    await unpackZip(join(unsignedDir, emulatorArchiveName('sec', '2.2.0', 'windows_amd64')), dir);
    const command = run.command(join(dir, emulatorExecutableName('sec', 'windows_amd64')), []);
    const emulator = await startReleasedEmulator(command.file, { ...process.env, ...run.env }, command.args);
    try {
      const { url, api_key: keyId, api_secret: secret } = emulator.ready;
      expect(url).to.match(/^https?:\/\/(127\.0\.0\.1|localhost):\d+$/);
      const token = (uaks: string) =>
        fetch(`${url}/api/v2/access/tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-SEC-UAKS': uaks },
          body: JSON.stringify({ keyId }),
        });
      expect((await token(secret!)).status, 'a token for its credentials').to.equal(201);
      expect((await token('wrong')).status, 'none for others').to.equal(401);
    } finally {
      emulator.process.kill('SIGTERM');
    }
  });

  for (const cli of TERRAFORMS)
    it(`${cli.name}: linux_arm64 (under qemu): terraform init from the mirror, apply, empty re-plan, destroy`, async function () {
      const terraform = terraforms.get(cli.name)!;
      requireOnThisMachine(this, binfmtProblem());
      const https = await startHttps({ as: 'linux_amd64', platform: 'linux_arm64' });
      try {
        const ws = await applyReplanDestroy(terraform, https, { QEMU_LD_PREFIX: '/usr/aarch64-linux-gnu' });
        for (const { name, version } of RELEASED) {
          // Terraform checked and recorded the arm64 package's own h1:.
          expect(lockedHashes(ws, name), name).to.deep.equal([listedHashes(name, version, 'linux_arm64').h1]);
          expect(https.served).to.include(
            `/registry.terraform.io/keel/${name}/${providerArchiveName(name, version, 'linux_arm64')}`,
          );
          const node = readFileSync(
            join(
              ws.dir,
              '.terraform',
              'providers',
              'registry.terraform.io',
              'keel',
              name,
              version,
              'linux_amd64',
              'runtime',
              'node',
            ),
          );
          expect(MACHINES.linux_arm64(node.subarray(0, 32)), 'the installed runtime is arm64').to.equal(true);
        }
      } finally {
        https.server.close();
      }
    });
});
