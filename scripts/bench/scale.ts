/**
 * scale: real Terraform applying, re-planning (refresh) and destroying `count` mixed resources
 * (src/workload/mass-config.ts) against the emulator, beside the floor: the same API calls made
 * directly with our clients at the same parallelism (scale-floor.ts). Per phase it prints:
 * - wall time of both and the overhead over the floor (target ≤ 10%), the API calls each side made
 *   (emulator request log; they should be equal), and how long the provider had an RPC in hand;
 * - for reference, Terraform alone: as many built-in `terraform_data` resources, no plugin, no API;
 * - provider CPU and peak RSS (summed / maxed over the provider processes Terraform starts, from
 *   their exit lines in TF_LOG_PATH), Terraform's own CPU, the floor's CPU and RSS;
 * - per-RPC p50/p99 from the provider's trace lines, total and excluding API time (target p99 ≤ 50 ms).
 *   npm run bench -- scale [--count 1000] [--parallelism 10,50] [--provider sec,vdb] [--cpu-prof DIR] [--provider-log trace|debug]
 *
 * --provider-log debug measures the provider as Terraform runs it without trace logging (which also
 * turns on the per-RPC API timing): provider CPU and RSS only, no per-RPC table. With --cpu-prof, Terraform starts the providers through wrappers that add node's --cpu-prof, the
 * profiles land in DIR/<provider>-<parallelism>-<phase>/, and each phase also prints provider CPU
 * per RPC type and its hottest functions (cpu-profile.ts). Profiling slows the provider down.
 *
 * The emulator runs in this process, Terraform and the floor in their own; each side and each
 * parallelism get a fresh emulator.
 *
 * `scale --against-go [--counts 200,1000,5000] [--reps 3]` instead compares the sec provider with the Go
 * anchor provider and Terraform alone (./against-go.ts).
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { devOverridesConfig, terraformEnv } from '../../src/tfclient/terraform-cli.js';
import {
  massConfig,
  type EmulatorConnection,
  type MassConfig,
  type WorkloadProvider,
} from '../../src/workload/mass-config.js';
import type { FloorJob, FloorResult, Handle, Phase } from './scale-floor.js';
import { REPO_ROOT, machine, mib, percentile, positive, readFlags } from './util.js';
import { profilingLauncher, summariseProfiles } from './cpu-profile.js';
import { againstGoBench } from './against-go.js';

const PHASES: readonly Phase[] = ['apply', 'refresh', 'destroy'];
const OVERHEAD_TARGET = 0.1;
const RPC_P99_TARGET_MS = 50;
/** Cluster provisioning in the vdb emulator: immediate, so the phases measure calls, not waiting. */
const VDB_PROVISIONING_MS = 0;
/** USER_HZ, the unit of /proc/<pid>/stat times: 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

interface Options {
  count: number;
  parallelism: number[];
  providers: WorkloadProvider[];
  cpuProfDir?: string;
  /** TF_LOG_PROVIDER: trace gives the per-RPC lines; debug only the processes' exit lines. */
  providerLog: 'trace' | 'debug';
}

function parseOptions(args: string[]): Options {
  const options: Options = { count: 1000, parallelism: [10, 50], providers: ['sec', 'vdb'], providerLog: 'trace' };
  const list = (value: string) =>
    value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  readFlags(
    args,
    'scale [--count N] [--parallelism 10,50] [--provider sec,vdb] [--cpu-prof DIR] [--provider-log trace|debug]',
    {
      '--count': (value, flag) => {
        options.count = positive(flag, value);
      },
      '--parallelism': (value, flag) => {
        options.parallelism = list(value).map((v) => positive(flag, v));
      },
      '--cpu-prof': (value) => {
        options.cpuProfDir = resolve(value);
      },
      '--provider-log': (value) => {
        options.providerLog =
          value === 'trace' || value === 'debug' ? value : fail(`--provider-log is trace or debug, not ${value}`);
      },
      '--provider': (value) => {
        options.providers = list(value).map((p) => (p === 'sec' || p === 'vdb' ? p : fail(`unknown provider ${p}`)));
      },
    },
  );
  return options;
}

function fail(message: string): never {
  throw new Error(message);
}

// ---------------------------------------------------------------------------------------------------
// Emulators

interface Emulator {
  readonly connection: EmulatorConnection;
  /** One label per request received so far, e.g. `POST /api/v2/AlertChannels/{id}/test`. */
  operations(): string[];
  clearRequests(): void;
  /** Objects of a store collection. */
  list(collection: string): Record<string, unknown>[];
  close(): Promise<void>;
}

const WHOLE_LOG = { entries: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY };

async function startEmulator(provider: WorkloadProvider): Promise<Emulator> {
  if (provider === 'sec') {
    // Every request of a phase is counted by operation, however many.
    const e = await startSecEmulator({ requestLog: WHOLE_LOG });
    return {
      connection: { provider, url: e.url, account: e.account, apiKey: e.apiKey, apiSecret: e.apiSecret },
      // /api/v2/<Collection>/<id>/<action>: ids vary, the rest names the operation.
      operations: () =>
        e.requests.map(
          (r) =>
            `${r.method} ${r.path
              .split('?')[0]!
              .split('/')
              .map((s, i) => (i === 4 ? '{id}' : s))
              .join('/')}`,
        ),
      clearRequests: () => e.clearRequests(),
      list: (c) => e.list(c),
      close: () => e.close(),
    };
  }
  const e = await startVdbEmulator({ provisioningMs: VDB_PROVISIONING_MS, requestLog: WHOLE_LOG });
  return {
    connection: { provider, url: e.url, apiKey: e.apiKey, accountId: e.accountId },
    operations: () =>
      e.requests.map((r) => `${r.service.split('.').pop()}/${r.method}${r.code === 0 ? '' : ` (status ${r.code})`}`),
    clearRequests: () => e.clearRequests(),
    list: (c) => e.list(c),
    close: () => e.close(),
  };
}

/** Fails when an applied workload's objects are not all in the emulator as described. */
function checkApplied(workload: MassConfig, emulator: Emulator): void {
  const at = (obj: unknown, dotted: string) =>
    dotted
      .split('.')
      .reduce<unknown>(
        (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
        obj,
      );
  for (const t of workload.types) {
    const stored = emulator.list(t.collection);
    for (const o of t.objects) {
      const match = stored.some((s) =>
        Object.entries(o.expected).every(([path, value]) => JSON.stringify(at(s, path)) === JSON.stringify(value)),
      );
      if (!match)
        throw new Error(
          `after apply, ${t.collection} holds no object matching ${o.address}: ${JSON.stringify(o.expected)}`,
        );
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Measurements

/** CPU time of this process's waited-for children (and theirs), from /proc/self/stat. */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 (cutime, cstime), counted from 1 with pid and comm first.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Follows a child's peak RSS (VmHWM) while it runs. */
function watchPeakRss(child: ChildProcess): () => number {
  let peak = 0;
  const sample = () => {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      if (kb) peak = Math.max(peak, Number(kb) * 1024);
    } catch {
      // Gone already.
    }
  };
  const timer = setInterval(sample, 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

interface RpcSample {
  rpc: string;
  totalMs: number;
  apiMs: number;
  /** When it finished (epoch ms, the provider's clock). */
  endMs: number;
}

interface ProviderLog {
  rpcs: RpcSample[];
  processes: number;
  cpuMs: number;
  peakRssBytes: number;
}

/** hclog text lines as Terraform writes them: `<time> [LEVEL] <logger>: <message>: k=v k="v v" ...`. */
function fieldsOf(line: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of line.matchAll(/(\S+)=("(?:[^"\\]|\\.)*"|\S*)/g))
    fields[m[1]!] = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!;
  return fields;
}

function readProviderLog(path: string): ProviderLog {
  const log: ProviderLog = { rpcs: [], processes: 0, cpuMs: 0, peakRssBytes: 0 };
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return log;
  }
  for (const line of text.split('\n')) {
    if (line.includes(': RPC done:')) {
      const f = fieldsOf(line);
      log.rpcs.push({
        rpc: f.tf_rpc ?? '?',
        totalMs: Number(f.tf_req_duration_ms),
        apiMs: Number(f.api_ms ?? 0),
        endMs: Date.parse(f.timestamp ?? ''),
      });
    } else if (line.includes(': provider resource usage:')) {
      const f = fieldsOf(line);
      log.processes++;
      log.cpuMs += Number(f.cpu_user_ms) + Number(f.cpu_system_ms);
      log.peakRssBytes = Math.max(log.peakRssBytes, Number(f.peak_rss_bytes));
    }
  }
  return log;
}

/** Wall time during which the provider had at least one RPC in hand (union of the RPCs' intervals). */
function busyMs(rpcs: readonly RpcSample[]): number {
  const intervals = rpcs
    .filter((r) => Number.isFinite(r.endMs))
    .map((r) => [r.endMs - r.totalMs, r.endMs] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = [-Infinity, -Infinity];
  for (const [from, to] of intervals) {
    if (from > end) {
      if (end > start) total += end - start;
      [start, end] = [from, to];
    } else end = Math.max(end, to);
  }
  return end > start ? total + (end - start) : total;
}

// ---------------------------------------------------------------------------------------------------
// The sides: Terraform with our provider, the floor, and Terraform alone

interface PhaseResult {
  wallMs: number;
  /** Emulator requests by operation (none for Terraform alone). */
  calls: Map<string, number>;
  /** Terraform with our provider only. */
  provider?: ProviderLog;
  /** Terraform's own CPU (its children's, i.e. the providers', taken off) and peak RSS. */
  terraformCpuMs?: number;
  terraformPeakRssBytes?: number;
  /** Floor only. */
  floorCpuMs?: number;
  floorPeakRssBytes?: number;
}

const tally = (labels: string[]) => labels.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());

const TERRAFORM_ARGS: Record<Phase, (p: number) => string[]> = {
  apply: (p) => ['apply', '-auto-approve', '-input=false', `-parallelism=${p}`],
  // -detailed-exitcode: 0 = no changes, which a refresh of what was just applied must give.
  refresh: (p) => ['plan', '-input=false', '-detailed-exitcode', `-parallelism=${p}`],
  destroy: (p) => ['destroy', '-auto-approve', '-input=false', `-parallelism=${p}`],
};

interface TerraformRun {
  wallMs: number;
  /** Terraform's CPU including the providers it started and waited for. */
  cpuMs: number;
  peakRssBytes: number;
}

/** Runs one Terraform command in `dir`/config; fails with its output unless it exits 0. */
async function runTerraform(dir: string, env: Record<string, string>, args: string[]): Promise<TerraformRun> {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const { code, output, peakRssBytes } = await new Promise<{ code: number; output: string; peakRssBytes: number }>(
    (resolve) => {
      const child = execFile(
        'terraform',
        [`-chdir=${join(dir, 'config')}`, ...args],
        { env, maxBuffer: 256 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const exit = err
            ? typeof (err as { code?: unknown }).code === 'number'
              ? (err as { code: number }).code
              : 1
            : 0;
          resolve({ code: exit, output: `${stdout}\n${stderr}`, peakRssBytes: stopWatching() });
        },
      );
      const stopWatching = watchPeakRss(child);
    },
  );
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`terraform ${args.join(' ')} in ${dir} exited ${code}:\n${output.slice(-4000)}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore, peakRssBytes };
}

/** A workspace directory with its CLI configuration (dev_overrides) and main.tf. */
function prepareWorkspace(dir: string, hcl: string, providers: string[], binDir = join(REPO_ROOT, 'bin')): string {
  const cliConfig = join(dir, '.terraformrc');
  writeFileSync(cliConfig, devOverridesConfig(binDir, providers));
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'main.tf'), hcl);
  return cliConfig;
}

async function terraformSide(
  provider: WorkloadProvider,
  count: number,
  parallelism: number,
  dir: string,
  logLevel: string,
  cpuProfDir?: string,
): Promise<Record<Phase, PhaseResult>> {
  const emulator = await startEmulator(provider);
  const workload = massConfig(emulator.connection, { count });
  const cliConfig = prepareWorkspace(
    dir,
    workload.hcl,
    [provider],
    cpuProfDir ? profilingLauncher(join(dir, 'profiling-bin'), provider) : undefined,
  );
  const results = {} as Record<Phase, PhaseResult>;
  try {
    for (const phase of PHASES) {
      const logPath = join(dir, `${phase}.log`);
      // Provider lines only (TF_LOG_CORE stays off): Terraform's own trace logging would slow it down.
      const profiles = cpuProfDir ? join(cpuProfDir, `${provider}-${parallelism}-${phase}`) : undefined;
      if (profiles) mkdirSync(profiles, { recursive: true });
      const env = terraformEnv(dir, cliConfig, {
        ...workload.env,
        TF_LOG_PROVIDER: logLevel,
        TF_LOG_PATH: logPath,
        ...(profiles ? { KEEL_BENCH_CPU_PROF_DIR: profiles } : {}),
      });
      delete env.TF_LOG;
      delete env.TF_LOG_CORE;
      emulator.clearRequests();
      const run = await runTerraform(dir, env, TERRAFORM_ARGS[phase](parallelism));
      const providerLog = readProviderLog(logPath);
      results[phase] = {
        wallMs: run.wallMs,
        calls: tally(emulator.operations()),
        provider: providerLog,
        terraformCpuMs: run.cpuMs - providerLog.cpuMs,
        terraformPeakRssBytes: run.peakRssBytes,
      };
      if (phase === 'apply') checkApplied(workload, emulator);
    }
  } finally {
    await emulator.close();
  }
  return results;
}

/**
 * Terraform's own share, for reference: as many `terraform_data` resources (built into Terraform:
 * no plugin process, no API), through the same three phases.
 */
async function terraformAloneSide(
  count: number,
  parallelism: number,
  dir: string,
): Promise<Record<Phase, PhaseResult>> {
  const blocks = Array.from(
    { length: count },
    (_, i) => `resource "terraform_data" "d${String(i).padStart(4, '0')}" {\n  input = "value-${i}"\n}\n`,
  );
  const cliConfig = prepareWorkspace(dir, blocks.join('\n'), []);
  const env = terraformEnv(dir, cliConfig);
  delete env.TF_LOG;
  const results = {} as Record<Phase, PhaseResult>;
  for (const phase of PHASES) {
    const run = await runTerraform(dir, env, TERRAFORM_ARGS[phase](parallelism));
    results[phase] = {
      wallMs: run.wallMs,
      calls: new Map(),
      terraformCpuMs: run.cpuMs,
      terraformPeakRssBytes: run.peakRssBytes,
    };
  }
  return results;
}

async function floorSide(
  provider: WorkloadProvider,
  count: number,
  parallelism: number,
  dir: string,
): Promise<Record<Phase, PhaseResult>> {
  const emulator = await startEmulator(provider);
  const workload = massConfig(emulator.connection, { count });
  const results = {} as Record<Phase, PhaseResult>;
  let handles: Record<string, Handle> = {};
  try {
    for (const phase of PHASES) {
      const jobPath = join(dir, `floor-${phase}.json`);
      const job: FloorJob = { connection: emulator.connection, objects: workload.objects, parallelism, phase, handles };
      writeFileSync(jobPath, JSON.stringify(job));
      emulator.clearRequests();
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          [join(REPO_ROOT, 'dist', 'scripts', 'bench', 'scale-floor.js'), jobPath],
          { maxBuffer: 64 * 1024 * 1024 },
          (err, out, stderr) =>
            err ? reject(new Error(`floor ${phase} failed: ${stderr || err.message}`)) : resolve(out),
        );
      });
      const result = JSON.parse(stdout) as FloorResult;
      handles = result.handles;
      results[phase] = {
        wallMs: result.wallMs,
        calls: tally(emulator.operations()),
        floorCpuMs: result.cpuMs,
        floorPeakRssBytes: result.peakRssBytes,
      };
      if (phase === 'apply') checkApplied(workload, emulator);
    }
  } finally {
    await emulator.close();
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------
// Output

function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`;
  console.log(`\n${title}`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

const s = (msValue: number) => `${(msValue / 1000).toFixed(2)} s`;
const msText = (msValue: number) => `${msValue.toFixed(1)} ms`;
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function callDifferences(tf: Map<string, number>, floor: Map<string, number>): string[] {
  const out: string[] = [];
  for (const op of new Set([...tf.keys(), ...floor.keys()])) {
    if ((tf.get(op) ?? 0) !== (floor.get(op) ?? 0))
      out.push(`${op}: Terraform ${tf.get(op) ?? 0}, floor ${floor.get(op) ?? 0}`);
  }
  return out;
}

interface Sides {
  tf: Record<Phase, PhaseResult>;
  floor: Record<Phase, PhaseResult>;
  alone: Record<Phase, PhaseResult>;
}

function report(provider: WorkloadProvider, count: number, parallelism: number, { tf, floor, alone }: Sides): void {
  printTable(
    `scale — ${provider}, ${count} resources, -parallelism=${parallelism} — ${machine()}`,
    ['phase', 'TF wall', 'floor wall', 'overhead (≤10%)', 'API calls TF / floor', 'provider busy', 'TF alone wall'],
    PHASES.map((phase) => {
      const [t, f] = [tf[phase], floor[phase]];
      const overhead = (t.wallMs - f.wallMs) / f.wallMs;
      const busy = busyMs(t.provider!.rpcs);
      return [
        phase,
        s(t.wallMs),
        s(f.wallMs),
        `${(overhead * 100).toFixed(0)}% ${overhead <= OVERHEAD_TARGET ? 'ok' : 'MISS'}`,
        `${sum(t.calls)} / ${sum(f.calls)}`,
        `${s(busy)} (${((busy / t.wallMs) * 100).toFixed(0)}%)`,
        s(alone[phase].wallMs),
      ];
    }),
  );
  for (const phase of PHASES) {
    const differences = callDifferences(tf[phase].calls, floor[phase].calls);
    if (differences.length > 0) console.log(`  ${phase}: API calls differ — ${differences.join('; ')}`);
  }
  console.log(
    '  provider busy: wall time with at least one RPC in the provider; TF alone: as many terraform_data resources (no plugin, no API).',
  );

  printTable(
    `  CPU and memory — ${provider}, -parallelism=${parallelism}`,
    [
      'phase',
      'provider CPU',
      'TF core CPU',
      'floor CPU',
      'TF alone CPU',
      'provider peak RSS',
      'TF peak RSS',
      'floor peak RSS',
    ],
    PHASES.map((phase) => {
      const [t, f] = [tf[phase], floor[phase]];
      return [
        phase,
        `${s(t.provider!.cpuMs)} (${t.provider!.processes} proc)`,
        s(t.terraformCpuMs!),
        s(f.floorCpuMs!),
        s(alone[phase].terraformCpuMs!),
        mib(t.provider!.peakRssBytes),
        mib(t.terraformPeakRssBytes!),
        mib(f.floorPeakRssBytes!),
      ];
    }),
  );

  const rpcRows: string[][] = [];
  for (const phase of PHASES) {
    const byRpc = new Map<string, RpcSample[]>();
    for (const r of tf[phase].provider!.rpcs) byRpc.set(r.rpc, [...(byRpc.get(r.rpc) ?? []), r]);
    for (const [rpc, samples] of [...byRpc].sort((a, b) => b[1].length - a[1].length)) {
      const total = samples.map((x) => x.totalMs);
      const own = samples.map((x) => Math.max(0, x.totalMs - x.apiMs));
      const p99Own = percentile(own, 99);
      rpcRows.push([
        phase,
        rpc,
        String(samples.length),
        msText(percentile(total, 50)),
        msText(percentile(total, 99)),
        msText(percentile(own, 50)),
        `${msText(p99Own)} ${p99Own <= RPC_P99_TARGET_MS ? 'ok' : 'MISS'}`,
        s(total.reduce((a, b) => a + b, 0)),
      ]);
    }
  }
  printTable(
    `  RPCs (provider trace lines) — ${provider}, -parallelism=${parallelism}`,
    ['phase', 'RPC', 'count', 'p50', 'p99', 'p50 excl. API', 'p99 excl. API (≤50 ms)', 'sum'],
    rpcRows,
  );
}

/** Provider CPU per RPC type (from the profiles) and per RPC of that type (counts from the trace lines). */
function reportProfiles(
  dir: string,
  provider: WorkloadProvider,
  parallelism: number,
  tf: Record<Phase, PhaseResult>,
): void {
  for (const phase of PHASES) {
    const summary = summariseProfiles(join(dir, `${provider}-${parallelism}-${phase}`));
    const counts = new Map<string, number>();
    for (const r of tf[phase].provider!.rpcs) counts.set(r.rpc, (counts.get(r.rpc) ?? 0) + 1);
    printTable(
      `  provider CPU by RPC type (V8 profiles of ${summary.files} processes, profiler on) — ${provider}, -parallelism=${parallelism}, ${phase}: ${s(summary.totalMs)} busy`,
      ['RPC', 'CPU', 'RPCs', 'CPU per RPC'],
      [...summary.byRpc]
        .filter(([rpc]) => rpc !== '(idle)')
        .sort((a, b) => b[1] - a[1])
        .map(([rpc, cpu]) => [
          rpc,
          s(cpu),
          String(counts.get(rpc) ?? ''),
          counts.get(rpc) ? msText(cpu / counts.get(rpc)!) : '',
        ]),
    );
    console.log(
      `  by layer: ${[...summary.byLayer]
        .sort((a, b) => b[1] - a[1])
        .map(([layer, cpu]) => `${layer} ${s(cpu)}`)
        .join('; ')}`,
    );
    console.log(
      `  hottest functions (self time):\n${summary.hottest
        .slice(0, 15)
        .map(([where, ms]) => `    ${msText(ms).padStart(9)}  ${where}`)
        .join('\n')}`,
    );
  }
}

export async function scaleBench(args: string[]): Promise<void> {
  if (args.includes('--against-go')) return againstGoBench(args.filter((a) => a !== '--against-go'));
  const options = parseOptions(args);
  const root = mkdtempSync(join(tmpdir(), 'keel-scale-'));
  try {
    for (const provider of options.providers) {
      for (const parallelism of options.parallelism) {
        const tfDir = join(root, `${provider}-${parallelism}-terraform`);
        const floorDir = join(root, `${provider}-${parallelism}-floor`);
        mkdirSync(tfDir);
        mkdirSync(floorDir);
        const aloneDir = join(root, `${provider}-${parallelism}-alone`);
        mkdirSync(aloneDir);
        const before = load();
        const floor = await floorSide(provider, options.count, parallelism, floorDir);
        const tf = await terraformSide(
          provider,
          options.count,
          parallelism,
          tfDir,
          options.providerLog,
          options.cpuProfDir,
        );
        const alone = await terraformAloneSide(options.count, parallelism, aloneDir);
        report(provider, options.count, parallelism, { tf, floor, alone });
        if (options.cpuProfDir) reportProfiles(options.cpuProfDir, provider, parallelism, tf);
        console.log(`  load average (1/5/15 min) before: ${before}, after: ${load()}`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
