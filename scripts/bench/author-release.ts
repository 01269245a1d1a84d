/**
 * `npm run bench -- author-release [--runs N]`: what releasing buys an author's provider at start-up.
 * The example provider (examples/provider-kv) is installed from the packed framework into a scratch
 * folder, built, and released for this machine (`npm run release -- --platform host`); then each way of
 * starting it runs N times (default 20; the first two are dropped) to its go-plugin handshake line, as
 * Terraform starts a provider about five times per plan:
 *
 * - unbundled: `node dist/main.js`, the author's modules and the framework's resolved one by one;
 * - released: the release's launcher, its runtime, the bundle and its code cache.
 *
 * Prints the median wall time to the handshake, the CPU time the process used by then (from
 * /proc/<pid>/stat, in the kernel's 10 ms ticks) and its peak RSS (VmHWM), and the archive's size.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, cpSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../packages/framework/src/server/handshake.js';
import { currentPlatform } from '../../packages/framework/src/release/runners.js';
import { unpackZip } from '../../packages/framework/src/release/zip.js';
import { readFlags, REPO_ROOT } from './util.js';

interface Start {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakMiB: number;
}

async function startOnce(file: string, args: readonly string[]): Promise<Start> {
  const started = performance.now();
  const child = spawn(file, [...args], {
    env: { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const wallMs = performance.now() - started;
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const cpuMs = (Number(stat[11]) + Number(stat[12])) * 10;
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const peakMiB = Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024;
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  return { wallMs, cpuMs, peakMiB };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(label: string, file: string, args: readonly string[], runs: number): Promise<string> {
  const starts: Start[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = await startOnce(file, args);
    if (i >= 2) starts.push(start);
  }
  const wall = median(starts.map((s) => s.wallMs));
  const cpu = median(starts.map((s) => s.cpuMs));
  const peak = median(starts.map((s) => s.peakMiB));
  return `${label.padEnd(12)} ${wall.toFixed(0).padStart(6)} ms ${cpu.toFixed(0).padStart(6)} ms ${peak.toFixed(1).padStart(8)} MiB`;
}

export async function authorReleaseBench(args: string[]): Promise<void> {
  let runs = 20;
  readFlags(args, 'author-release [--runs N]', {
    '--runs': (value) => {
      runs = Number(value);
      if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number above 0: ${value}`);
    },
  });
  const scratch = mkdtempSync(join(tmpdir(), 'keel-bench-author-'));
  // npm run's own variables left out, so the example's npm is a user's.
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('npm_')) env[key] = value;
  Object.assign(env, {
    npm_config_cache: join(homedir(), '.npm'),
    npm_config_audit: 'false',
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(':'),
  });
  const run = (cwd: string, command: string, commandArgs: string[]) =>
    execFileSync(command, commandArgs, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const packed = run(REPO_ROOT, process.execPath, [join(REPO_ROOT, 'scripts', 'pack-framework.mjs'), scratch]);
    const tarball = packed.trim().split('\n').at(-1)!;
    const project = join(scratch, 'terraform-provider-kv');
    cpSync(join(REPO_ROOT, 'examples', 'provider-kv'), project, {
      recursive: true,
      filter: (from) => !/[/\\](node_modules|dist|release)$/.test(from),
    });
    run(project, 'npm', ['install', tarball]);
    run(project, 'npm', ['run', 'build']);
    run(project, 'npm', ['run', 'release', '--', '--platform', 'host']);
    if (process.platform !== 'linux') throw new Error('author-release reads /proc: run it on Linux');
    const platform = currentPlatform();
    const archive = join(project, 'release', `terraform-provider-kv_0.1.0_${platform}.zip`);
    const unpacked = join(scratch, 'installed');
    await unpackZip(archive, unpacked);
    const launcher = readdirSync(unpacked).find((file) => file.startsWith('terraform-provider-kv_v'))!;
    console.log(`author-release: examples/provider-kv, ${runs} starts each to the handshake line (median)`);
    console.log(`${''.padEnd(12)} ${'wall'.padStart(9)} ${'CPU'.padStart(9)} ${'peak RSS'.padStart(12)}`);
    console.log(await measure('unbundled', process.execPath, [join(project, 'dist', 'main.js')], runs));
    console.log(await measure('released', join(unpacked, launcher), [], runs));
    const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const bundle = join(unpacked, 'dist', 'bundle', 'terraform-provider-kv.cjs');
    console.log(
      `archive ${mib(statSync(archive).size)} (${platform}); bundle ${mib(statSync(bundle).size)}, ` +
        `its code cache ${mib(statSync(`${bundle}.cache`).size)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
