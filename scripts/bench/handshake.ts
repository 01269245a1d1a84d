/**
 * handshake: time from exec to a ready, health-checked mTLS connection, as go-plugin's client sees
 * it (exec → handshake line → mutual-TLS connect → grpc.health.v1 Check; src/tfclient/launch.ts),
 * for bare `node -e 0`, the Node floor server (./floor-server.ts) and both providers, each with
 * NODE_EXTRA_CA_CERTS unset and set, starts interleaved in one run. Also peak RSS after
 * GetProviderSchema (after the health check for the floor, which has no schema). When `npm run
 * release` has built dist/release for this platform, the released executables too, unpacked from
 * their archives as `terraform init` does, with their sizes.
 *
 * CPU is read three times: at the health answer (ready); once GetProviderSchema is answered (what the
 * process Terraform starts only for schemas costs in all); and once GetMetadata is answered, the first
 * call that loads the provider's service (src/providers/serve.ts), as every other process Terraform
 * starts does on its first call.
 *
 * The two Go providers of `scale --against-go` (./against-go.ts: the minimal anchor on go-plugin and the
 * plugin-framework peer) are rows too when Go can build them: what a Go provider's start costs.
 *
 * Usage: npm run bench -- handshake [starts] [--beside DIR] [--served MODULE]   (starts: or BENCH_STARTS;
 * default 15 per row)
 * --served MODULE adds a row for a provider built on the framework package, its JavaScript entry (the
 * module that calls `serve`, e.g. the example provider's dist/main.js) run with this Node: what a
 * third provider's process costs, with no bundle and no prebuilt schema answers.
 * --beside DIR adds rows for the providers of another built checkout (DIR/bin/terraform-provider-*),
 * e.g. a copy of main's, for before/after figures from one run.
 * Goals (the first speed pass, 2026-11-22): providers ≤ 1.5× the floor with the variable unset; with
 * it set, a penalty no larger than the floor's own; peak RSS ≤ 1.3× the floor server's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerArchiveName, providerExecutableName } from '../../packages/framework/src/release/build.js';
import { currentPlatform } from '../../packages/framework/src/release/runners.js';
import { unpackZip } from '../../packages/framework/src/release/zip.js';
import { PROJECT_PROVIDERS } from '../../src/providers/project.js';
import { launchProvider, type LaunchOptions } from '../../src/tfclient/launch.js';
import { buildAnchor, buildFramework } from './against-go.js';
import { REPO_ROOT, bin, machine, median, mib, ms, peakRss, percentile, readFlags, table } from './util.js';

type Env = Record<string, string | undefined>;
/**
 * Wall time to ready, CPU time of all the process's threads to ready (steadier on a busy machine), once
 * GetProviderSchema is answered and once the service is loaded (the same for the floor and bare node,
 * which have neither), peak RSS after GetProviderSchema.
 */
interface Sample {
  wallMs: number;
  cpuMs: number;
  schemaCpuMs: number;
  serviceCpuMs: number;
  rssBytes: number;
}

/** CPU time of every thread of a live process so far (schedstat: nanoseconds on CPU). */
function cpuMsOf(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e6;
}
interface Target {
  label: string;
  start(env: Env): Promise<Sample>;
}

const FLOOR = join(REPO_ROOT, 'dist', 'bundle', 'bench-floor-server.cjs');
const DEFAULT_CA_FILE = '/etc/ssl/certs/ca-certificates.crt';

/** Starts a go-plugin server the way Terraform does and times it to a SERVING health answer. */
async function pluginStart(executable: string, env: Env, args: string[], schema: boolean): Promise<Sample> {
  const options: LaunchOptions = { env, args };
  const started = performance.now();
  const p = await launchProvider(executable, options);
  const status = await p.health();
  const wallMs = performance.now() - started;
  const cpuMs = cpuMsOf(p.pid);
  if (status !== 'SERVING') throw new Error(`${executable}: health ${status}`);
  if (schema) await p.call('GetProviderSchema', {});
  const schemaCpuMs = schema ? cpuMsOf(p.pid) : cpuMs;
  const rssBytes = peakRss(p.pid);
  if (schema) await p.call('GetMetadata', {});
  const serviceCpuMs = schema ? cpuMsOf(p.pid) : cpuMs;
  await p.shutdown();
  return { wallMs, cpuMs, schemaCpuMs, serviceCpuMs, rssBytes };
}

export async function handshakeBench(args: string[]): Promise<void> {
  let beside: string | undefined;
  let served: string | undefined;
  const [given] = readFlags(
    args,
    'handshake [starts] [--beside DIR] [--served MODULE]',
    {
      '--beside': (value) => {
        beside = value;
      },
      '--served': (value) => {
        served = value;
      },
    },
    { positionals: 1 },
  );
  const starts = Number(given ?? process.env.BENCH_STARTS ?? 15);
  if (!Number.isInteger(starts) || starts < 1)
    throw new Error(`starts must be a positive integer, not ${given ?? process.env.BENCH_STARTS}`);
  if (!existsSync(FLOOR)) throw new Error(`${FLOOR} is missing: run npm run build`);
  const caFile = process.env.NODE_EXTRA_CA_CERTS || (existsSync(DEFAULT_CA_FILE) ? DEFAULT_CA_FILE : undefined);
  const envs: [string, Env][] = [['unset', { NODE_EXTRA_CA_CERTS: undefined }]];
  if (caFile) envs.push(['set', { NODE_EXTRA_CA_CERTS: caFile }]);

  const targets: Target[] = [
    {
      label: 'bare node -e 0',
      async start(env) {
        const full = { ...process.env, ...env };
        const t = performance.now();
        spawnSync(process.execPath, ['-e', '0'], { env: full, stdio: 'ignore' });
        const wallMs = performance.now() - t;
        const script =
          'const u = process.cpuUsage(); process.stdout.write(JSON.stringify([u.user + u.system, /VmHWM:\\s+(\\d+)/.exec(require("fs").readFileSync("/proc/self/status", "utf8"))[1]]))';
        const [cpuUs, rssKb] = JSON.parse(
          spawnSync(process.execPath, ['-e', script], { env: full }).stdout.toString(),
        ) as [number, string];
        const cpuMs = cpuUs / 1000;
        return { wallMs, cpuMs, schemaCpuMs: cpuMs, serviceCpuMs: cpuMs, rssBytes: Number(rssKb) * 1024 };
      },
    },
    { label: 'floor server', start: (env) => pluginStart(process.execPath, env, [FLOOR], false) },
    // The floor with the providers' start-up settings (bin/ wrappers): an empty default trust store.
    {
      label: 'floor server, empty default store',
      start: (env) =>
        pluginStart(
          process.execPath,
          { ...env, SSL_CERT_FILE: '/dev/null', SSL_CERT_DIR: '/dev/null' },
          ['--use-openssl-ca', FLOOR],
          false,
        ),
    },
    ...PROJECT_PROVIDERS.map(
      ({ name }): Target => ({ label: name, start: (env) => pluginStart(bin(name), env, [], true) }),
    ),
  ];
  if (beside) {
    for (const { name } of PROJECT_PROVIDERS) {
      const executable = join(beside, 'bin', `terraform-provider-${name}`);
      if (!existsSync(executable)) throw new Error(`${executable} is missing`);
      targets.push({ label: `${name}, ${beside}`, start: (env) => pluginStart(executable, env, [], true) });
    }
  }
  if (served) {
    const module = served;
    if (!existsSync(module)) throw new Error(`${module} is missing`);
    targets.push({
      label: `served by the framework, ${module}`,
      start: (env) => pluginStart(process.execPath, env, [module], true),
    });
  }
  for (const [label, built] of [
    ['Go anchor', buildAnchor()],
    ['Go plugin framework', buildFramework()],
  ] as const) {
    if ('executable' in built) targets.push({ label, start: (env) => pluginStart(built.executable, env, [], true) });
    else console.log(`${label}: not measured — ${built.skipped}`);
  }
  const released = await unpackReleases();
  for (const { name, executable } of released.executables) {
    targets.push({ label: `${name}, released`, start: (env) => pluginStart(executable, env, [], true) });
  }

  // One untimed round warms the page cache; then rounds rotate the order so no row always goes first.
  for (const [, env] of envs) for (const target of targets) await target.start(env);
  const results = new Map<
    string,
    { wall: number[]; cpu: number[]; schemaCpu: number[]; serviceCpu: number[]; rss: number[] }
  >();
  const key = (target: Target, envName: string) => `${target.label}|${envName}`;
  for (let round = 0; round < starts; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const [envName, env] of round % 2 ? [...envs].reverse() : envs) {
      for (const target of order) {
        const { wallMs, cpuMs, schemaCpuMs, serviceCpuMs, rssBytes } = await target.start(env);
        const entry = results.get(key(target, envName)) ?? {
          wall: [],
          cpu: [],
          schemaCpu: [],
          serviceCpu: [],
          rss: [],
        };
        entry.wall.push(wallMs);
        entry.cpu.push(cpuMs);
        entry.schemaCpu.push(schemaCpuMs);
        entry.serviceCpu.push(serviceCpuMs);
        entry.rss.push(rssBytes);
        results.set(key(target, envName), entry);
      }
    }
  }

  const floorOf = (envName: string) => results.get(key(targets[1]!, envName))!;
  for (const [envName] of envs) {
    const floor = floorOf(envName);
    const floorWall = median(floor.wall);
    const floorRss = median(floor.rss);
    const floorCpu = median(floor.cpu);
    const rows: [string, string][] = targets.map((target) => {
      const r = results.get(key(target, envName))!;
      const wall = median(r.wall);
      const rss = median(r.rss);
      const cpu = median(r.cpu);
      const schemaCpu = median(r.schemaCpu);
      const serviceCpu = median(r.serviceCpu);
      const penalty =
        envName === 'set' ? `, +${ms(wall - median(results.get(key(target, 'unset'))!.wall))} over unset` : '';
      return [
        target.label,
        `${ms(wall)} (p25 ${ms(percentile(r.wall, 25))}, p75 ${ms(percentile(r.wall, 75))}) = ${(wall / floorWall).toFixed(2)}× floor${penalty}; CPU ${ms(cpu)} = ${(cpu / floorCpu).toFixed(2)}×, with GetProviderSchema ${ms(schemaCpu)}, then GetMetadata ${ms(serviceCpu)}; peak RSS ${mib(rss)} = ${(rss / floorRss).toFixed(2)}× floor`,
      ];
    });
    table(
      `handshake, NODE_EXTRA_CA_CERTS ${envName === 'set' ? `= ${caFile}` : 'unset'} — median of ${starts} interleaved starts (exec → health-checked mTLS; RSS after GetProviderSchema) — ${machine()}`,
      rows,
    );
  }
  for (const line of released.sizes) console.log(`  ${line}`);
  console.log(
    "\n  goals: providers ≤ 1.50× floor (unset); penalty when set ≤ the floor server's; peak RSS ≤ 1.30× floor server",
  );
  if (released.dir) rmSync(released.dir, { recursive: true, force: true });
}

/** The release's provider archives for this platform (dist/release), unpacked into a temporary folder. */
interface UnpackedReleases {
  dir?: string;
  executables: { name: string; executable: string }[];
  sizes: string[];
}

async function unpackReleases(): Promise<UnpackedReleases> {
  const releaseDir = join(REPO_ROOT, 'dist', 'release');
  const platform = currentPlatform();
  const archives = PROJECT_PROVIDERS.map(({ name, version }) => {
    return { name, version, archive: join(releaseDir, providerArchiveName(name, version, platform)) };
  });
  if (!archives.every(({ archive }) => existsSync(archive))) {
    const hint = '(no release in dist/release for this platform: `npm run release` adds the released executables)';
    return { executables: [], sizes: [hint] };
  }
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-release-'));
  const executables: { name: string; executable: string }[] = [];
  const sizes: string[] = ['', 'released executables (dist/release):'];
  for (const { name, version, archive } of archives) {
    const entries = await unpackZip(archive, join(dir, name));
    const unpacked = entries.reduce((sum, entry) => sum + entry.data.length, 0);
    const runtime = entries.find((entry) => entry.name === 'runtime/node')?.data.length ?? 0;
    executables.push({ name, executable: join(dir, name, providerExecutableName(name, version)) });
    sizes.push(
      `${name}: archive ${mib(statSync(archive).size)}, unpacked ${mib(unpacked)} in ${entries.length} files ` +
        `(the Node runtime ${mib(runtime)}, the rest ${mib(unpacked - runtime)})`,
    );
  }
  return { dir, executables, sizes };
}
