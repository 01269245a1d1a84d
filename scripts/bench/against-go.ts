/**
 * scale --against-go: our sec provider beside two Go providers under real Terraform, in one run.
 *
 * - The Go anchor in ../shared/anchors/goprovider: a minimal tfplugin6 provider, no SDK, managing
 *   what sec_alert_channel_email manages with the same API calls; built there by its own build.sh
 *   and run from its build directory, never copied into this repository.
 * - The plugin-framework peer in ./framework-peer: the same resource on terraform-plugin-framework
 *   v1.19 (from the Go module proxy), the provider a team would write instead of ours, with the
 *   same resource identity as ours (the GUID), so that Terraform does the same work beside both.
 * Without Go, or the anchor, a side is skipped with a line saying why; the others still run.
 *
 * For each count N and each repetition, the sides run one after the other in an order rotated from
 * one repetition to the next (go, framework, ours, terraform_data; framework, ours, ...), each with a
 * fresh emulator, through `terraform apply`, `plan -detailed-exitcode` (a refresh that must find no
 * changes) and `destroy`, with -parallelism=10 and TF_LOG unset (the providers log as they do by
 * default). Every provider process Terraform starts runs under a wrapper that appends its wall time,
 * CPU (user + system: the process's own rusage) and, with GNU time, its peak RSS to a file per
 * phase, the same way for every provider. Terraform's own CPU is its rusage minus the providers'.
 *
 * With --cpu-prof DIR our provider runs under node's --cpu-prof (which slows it: its figures are then
 * not comparable) and each of its phases prints where its CPU went: start-up, our code, each of
 * Node's stacks (cpu-profile.ts).
 *
 * The side `unrecorded` is ours again with KEEL_CREATE_RECORDS=off: what writing every create down costs
 * (docs/decisions.md, "Creates outlive their process"), interleaved with the rest, per create.
 *
 * With --latency every answer of the emulator waits, as a distant platform's does, and with --rate-limit
 * the account has a rate limit (429 with Retry-After over it, which both providers wait out): the API
 * calls of a refresh, which ours makes from one listing (docs/decisions.md, "Reads by listing"), then
 * weigh as on a platform.
 *
 *   npm run bench -- scale --against-go [--counts 200,1000,5000] [--reps 3] [--parallelism 10] [--cpu-prof DIR]
 *                                       [--sides go,framework,ours,unrecorded,alone] [--rate-limit N] [--latency MS]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import {
  MIB,
  PHASES,
  type Phase,
  benchTerraformEnv,
  hasGnuTime,
  measuringWrapper,
  printTable,
  ratio,
  runPhase,
  s,
} from './terraform-runs.js';
import { profilingLauncher, summariseProfiles } from './cpu-profile.js';
import {
  REPO_ROOT,
  emulatorPace,
  machine,
  median,
  paceFlags,
  paceLine,
  type PlatformPace,
  positive,
  readFlags,
  userCacheDir,
} from './util.js';

type Side = 'go' | 'framework' | 'ours' | 'unrecorded' | 'alone';
/** The sides that are providers, and the Go ones among them. */
type ProviderSide = Exclude<Side, 'alone'>;
type GoSide = Exclude<ProviderSide, 'ours' | 'unrecorded'>;
const GO_SIDES: readonly GoSide[] = ['go', 'framework'];
const SIDE_NAMES: Record<Side, string> = {
  go: 'Go anchor',
  framework: 'plugin framework',
  ours: 'ours (sec)',
  unrecorded: 'ours, no records',
  alone: 'Terraform alone',
};
const OURS = { local: 'sec', source: 'keel/sec', type: 'sec_alert_channel_email' };
/** Each provider side's local name, source address and resource type (ours twice: with and without records). */
const PROVIDERS: Record<ProviderSide, { local: string; source: string; type: string }> = {
  go: { local: 'goemail', source: 'keel/goemail', type: 'goemail_alert_channel_email' },
  framework: { local: 'fwemail', source: 'keel/fwemail', type: 'fwemail_alert_channel_email' },
  ours: OURS,
  unrecorded: OURS,
};

/**
 * The scale goals. Against the Go anchor (2026-11-25), at N = 200: provider CPU ≤ 2.5× and wall ≤ 1.3×
 * for plan and apply. Against the plugin-framework peer under the Terraform users run (2026-11-27), at
 * every N: wall ≤ 0.9× and provider CPU ≤ 0.8× in every phase, and peak private memory of a provider
 * process ≤ the peer's (peak RSS is shown, but it counts the executable's shared file pages: it measures
 * the page cache as much as the process; docs/benchmarks.md). From the smallest N to the largest: CPU
 * per resource grows ≤ 1.25×, private memory per process ≤ 2×.
 */
const GOALS = {
  cpuVsAnchor: 2.5,
  wallVsAnchor: 1.3,
  wallVsFramework: 0.9,
  cpuVsFramework: 0.8,
  privateVsFramework: 1,
  cpuPerResourceGrowth: 1.25,
  privateGrowth: 2,
};
const GOAL_COUNT = 200;

interface Options {
  counts: number[];
  reps: number;
  parallelism: number;
  anchorDir: string;
  cpuProfDir?: string;
  /** The sides to run (all by default): a quicker loop while measuring a change to ours. */
  sides?: Side[];
  /** The emulated platform's rate limit and latency (util.ts, paceFlags). */
  pace: PlatformPace;
}

function parseOptions(args: string[]): Options {
  const options: Options = {
    counts: [200, 1000, 5000],
    reps: 3,
    parallelism: 10,
    anchorDir: defaultAnchorDir(),
    pace: {},
  };
  const usage =
    'scale --against-go [--counts 200,1000,5000] [--reps 3] [--parallelism 10] [--anchor DIR] [--cpu-prof DIR] ' +
    '[--sides go,framework,ours,unrecorded,alone] [--rate-limit CALLS_PER_SECOND] [--latency MS]';
  readFlags(args, usage, {
    '--counts': (value, flag) => {
      options.counts = value.split(',').map((v) => positive(flag, v));
    },
    '--reps': (value, flag) => {
      options.reps = positive(flag, value);
    },
    '--parallelism': (value, flag) => {
      options.parallelism = positive(flag, value);
    },
    '--anchor': (value) => {
      options.anchorDir = resolve(value);
    },
    '--cpu-prof': (value) => {
      options.cpuProfDir = resolve(value);
    },
    ...paceFlags(options.pace),
    '--sides': (value, flag) => {
      const sides = value.split(',') as Side[];
      const unknown = sides.filter((side) => !(side in SIDE_NAMES));
      if (unknown.length > 0)
        throw new Error(`${flag}: no side ${unknown.join(', ')} (${Object.keys(SIDE_NAMES).join(', ')})`);
      options.sides = sides;
    },
  });
  return options;
}

/** Where the Go anchor's sources are: KEEL_GO_ANCHOR, or the specification's anchors beside the checkout. */
export function defaultAnchorDir(): string {
  return process.env.KEEL_GO_ANCHOR ?? resolve(REPO_ROOT, '..', 'shared', 'anchors', 'goprovider');
}

/** Builds the anchor with its own build.sh; the executable's path, or why there is none. */
export function buildAnchor(anchorDir: string = defaultAnchorDir()): { executable: string } | { skipped: string } {
  const buildScript = join(anchorDir, 'build.sh');
  if (!existsSync(buildScript)) return { skipped: `no Go anchor at ${anchorDir} (set KEEL_GO_ANCHOR or --anchor)` };
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
  } catch {
    return { skipped: "Go is not installed (the anchor builds with Debian's golang-go; see its README)" };
  }
  const outDir = userCacheDir('keel-anchors', 'goemail');
  try {
    execFileSync(buildScript, [REPO_ROOT, outDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '')
      .trim()
      .split('\n')
      .slice(-3)
      .join(' / ');
    return { skipped: `the anchor did not build: ${stderr || (error as Error).message}` };
  }
  return { executable: join(outDir, 'terraform-provider-goemail') };
}

/** Builds the plugin-framework peer (./framework-peer) with go build; the executable's path, or why there is none. */
export function buildFramework(): { executable: string } | { skipped: string } {
  const source = join(REPO_ROOT, 'scripts', 'bench', 'framework-peer');
  const executable = join(userCacheDir('keel-peers'), 'terraform-provider-fwemail');
  try {
    execFileSync('go', ['build', '-trimpath', '-o', executable, '.'], {
      cwd: source,
      env: { ...process.env, GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { skipped: 'Go is not installed' };
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    return { skipped: `it did not build: ${stderr.split('\n').slice(-3).join(' / ')}` };
  }
  return { executable };
}

/** The anchor's workload: N e-mail channels by `count` (not for_each: ./terraform-runs.ts), or N terraform_data. */
function configuration(side: Side, count: number): string {
  const name = 'format("ch-%05d", count.index)';
  if (side === 'alone') return `resource "terraform_data" "c" {\n  count = ${count}\n  input = ${name}\n}\n`;
  const { local, source, type } = PROVIDERS[side];
  return (
    `terraform {\n  required_providers {\n    ${local} = { source = "${source}" }\n  }\n}\n\n` +
    `resource "${type}" "c" {\n  count      = ${count}\n  name       = ${name}\n` +
    `  recipients = [format("ops-ch-%05d@example.com", count.index)]\n}\n`
  );
}

interface PhaseRun {
  side: Side;
  count: number;
  phase: Phase;
  wallMs: number;
  providerCpuMs: number;
  /** The largest peak RSS of one provider process, bytes; 0 when unmeasured. */
  peakRssBytes: number;
  /** The largest peak private (anonymous) memory of one provider process, sampled, bytes; 0 when unmeasured. */
  peakPrivateBytes: number;
  processes: number;
  /** Each provider process's CPU, ms, in the order Terraform started them. */
  processCpuMs: number[];
  terraformCpuMs: number;
  apiCalls: number;
  load: number;
}

async function runSide(
  side: Side,
  count: number,
  options: Options,
  root: string,
  executables: Partial<Record<ProviderSide, string>>,
  gnuTime: boolean,
): Promise<PhaseRun[]> {
  const dir = mkdtempSync(join(root, `${side}-${count}-`));
  writeFileSync(join(dir, 'main.tf'), configuration(side, count));
  let wrappers: Record<string, string> = {};
  if (side !== 'alone') {
    const { local, source } = PROVIDERS[side];
    wrappers = {
      [source]: measuringWrapper(join(dir, 'wrapper'), `terraform-provider-${local}`, executables[side]!, gnuTime),
    };
  }
  const env = benchTerraformEnv(dir, wrappers);
  // The same build with the create records off (src/providers/service.ts): what the records cost, measured in the run.
  if (side === 'unrecorded') env.KEEL_CREATE_RECORDS = 'off';
  else delete env.KEEL_CREATE_RECORDS;
  let emulator: SecEmulator | undefined;
  if (side !== 'alone') {
    emulator = await startSecEmulator(emulatorPace(options.pace));
    Object.assign(env, {
      SEC_API_URL: emulator.url,
      SEC_ACCOUNT: emulator.account,
      SEC_API_KEY: emulator.apiKey,
      SEC_API_SECRET: emulator.apiSecret,
    });
  }
  const runs: PhaseRun[] = [];
  try {
    for (const phase of PHASES) {
      emulator?.clearRequests();
      const callsBefore = emulator?.requestsReceived() ?? 0;
      const load = loadavg()[0]!;
      // Both of our sides run the profiling launcher under --cpu-prof, each into its own directories.
      const ourSide = side === 'ours' || side === 'unrecorded';
      const profiles = ourSide && options.cpuProfDir ? profileDir(options.cpuProfDir, side, count, phase) : undefined;
      if (profiles) env.KEEL_BENCH_CPU_PROF_DIR = profiles;
      const measured = await runPhase(dir, env, phase, options.parallelism);
      if (emulator) {
        const channels = emulator.list('AlertChannels').length;
        const expected = phase === 'destroy' ? 0 : count;
        if (channels !== expected)
          throw new Error(
            `${SIDE_NAMES[side]}, N=${count}, ${phase}: the emulator holds ${channels} channels, not ${expected}`,
          );
      }
      runs.push({
        side,
        count,
        phase,
        wallMs: measured.wallMs,
        providerCpuMs: measured.providerCpuMs,
        peakRssBytes: measured.peakRssBytes,
        peakPrivateBytes: measured.peakPrivateBytes,
        processes: measured.processCpuMs.length,
        processCpuMs: measured.processCpuMs,
        terraformCpuMs: measured.terraformCpuMs,
        apiCalls: emulator ? emulator.requestsReceived() - callsBefore : 0,
        load,
      });
      const last = runs[runs.length - 1]!;
      console.log(
        `  ${SIDE_NAMES[side].padEnd(15)} N=${String(count).padEnd(5)} ${phase.padEnd(7)} wall ${s(last.wallMs)}` +
          (side === 'alone'
            ? ''
            : `  provider CPU ${s(last.providerCpuMs)} (${last.processes} processes: ` +
              `${measured.processCpuMs.map((cpu) => (cpu / 1000).toFixed(2)).join(' + ')})` +
              `  peak private ${(last.peakPrivateBytes / MIB).toFixed(0)} MiB, RSS ${(last.peakRssBytes / MIB).toFixed(0)} MiB` +
              `  API calls ${last.apiCalls}`) +
          `  Terraform CPU ${s(last.terraformCpuMs)}  load ${load.toFixed(1)}`,
      );
      if (profiles) printWhereTheCpuWent(profiles);
    }
  } finally {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

/** A fresh directory for one phase's profiles. */
function profileDir(root: string, side: ProviderSide, count: number, phase: Phase): string {
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, `${side}-${count}-${phase}-`));
}

/** Our processes' CPU in one phase by layer, from their profiles; start-up is per process. */
function printWhereTheCpuWent(dir: string): void {
  const summary = summariseProfiles(dir);
  const layers = [...summary.byLayer].sort((a, b) => b[1] - a[1]);
  console.log(
    `    profiled (${summary.files} processes, ${s(summary.totalMs)} busy; start-up ` +
      `${Math.round(summary.startUpMs / summary.files)} ms per process): ` +
      layers.map(([layer, ms]) => `${layer} ${s(ms)}`).join('; '),
  );
}

function report(runs: PhaseRun[], counts: number[], sides: Side[]): void {
  const med = (side: Side, count: number, phase: Phase, key: keyof PhaseRun) => {
    const values = runs
      .filter((r) => r.side === side && r.count === count && r.phase === phase)
      .map((r) => r[key] as number);
    return values.length > 0 ? median(values) : Number.NaN;
  };
  const providers = sides.filter((side): side is ProviderSide => side !== 'alone');
  const has = (side: Side) => sides.includes(side);
  const perSide = (show: (side: ProviderSide) => string) => providers.map(show).join(' / ');
  const verdict = (value: number, goal: number) => (Number.isNaN(value) ? '' : value <= goal ? ' met' : ' not met');
  const reps = Math.max(...counts.map((c) => runs.filter((r) => r.side === 'ours' && r.count === c).length / 3));
  console.log(`\nscale --against-go: medians of ${reps} runs per cell, -parallelism=10, TF_LOG unset — ${machine()}`);
  const names = providers.map((side) => SIDE_NAMES[side]).join(' / ');
  const header = [
    'N',
    'phase',
    `wall: ${names}${has('alone') ? ' / TF alone' : ''}`,
    'ours ÷ anchor',
    'ours ÷ framework',
    'provider CPU',
    'ours ÷ anchor',
    'ours ÷ framework',
    'CPU ms per resource',
    'peak private memory per process (MiB)',
    'peak RSS per process (MiB)',
    'API calls per resource',
    'processes',
  ];
  const rows: string[][] = [];
  for (const count of counts) {
    for (const phase of PHASES) {
      const wall = (side: Side) => med(side, count, phase, 'wallMs');
      const cpu = (side: Side) => med(side, count, phase, 'providerCpuMs');
      const atGoal = count === GOAL_COUNT;
      const wallAnchor = wall('ours') / wall('go');
      const wallFramework = wall('ours') / wall('framework');
      const cpuAnchor = cpu('ours') / cpu('go');
      const ourPrivate = med('ours', count, phase, 'peakPrivateBytes');
      const peerPrivate = med('framework', count, phase, 'peakPrivateBytes');
      rows.push([
        String(count),
        phase === 'plan' ? 'plan (refresh)' : phase,
        perSide((side) => s(wall(side))) + (has('alone') ? ` / ${s(wall('alone'))}` : ''),
        has('go')
          ? `${ratio(wall('ours'), wall('go'))}${atGoal && phase !== 'destroy' ? verdict(wallAnchor, GOALS.wallVsAnchor) : ''}`
          : '—',
        has('framework')
          ? `${ratio(wall('ours'), wall('framework'))}${verdict(wallFramework, GOALS.wallVsFramework)}`
          : '—',
        perSide((side) => s(cpu(side))),
        has('go') ? `${ratio(cpu('ours'), cpu('go'))}${atGoal ? verdict(cpuAnchor, GOALS.cpuVsAnchor) : ''}` : '—',
        has('framework')
          ? `${ratio(cpu('ours'), cpu('framework'))}${verdict(cpu('ours') / cpu('framework'), GOALS.cpuVsFramework)}`
          : '—',
        perSide((side) => (cpu(side) / count).toFixed(2)),
        perSide((side) => {
          const bytes = med(side, count, phase, 'peakPrivateBytes');
          return bytes > 0 ? (bytes / MIB).toFixed(0) : '—';
        }) +
          (has('framework') && ourPrivate > 0 && peerPrivate > 0
            ? verdict(ourPrivate / peerPrivate, GOALS.privateVsFramework)
            : ''),
        perSide((side) => {
          const rss = med(side, count, phase, 'peakRssBytes');
          return rss > 0 ? (rss / MIB).toFixed(0) : '—';
        }),
        perSide((side) => (med(side, count, phase, 'apiCalls') / count).toFixed(2)),
        perSide((side) => String(med(side, count, phase, 'processes'))),
      ]);
    }
  }
  printTable(header, rows);
  if (counts.length > 1) {
    const [first, last] = [Math.min(...counts), Math.max(...counts)];
    console.log(
      `\nfrom N = ${first} to N = ${last} (goals for ours: CPU per resource ≤ ${GOALS.cpuPerResourceGrowth}×, ` +
        `private memory ≤ ${GOALS.privateGrowth}×)`,
    );
    const growth: string[][] = [];
    for (const phase of PHASES) {
      const grows = (side: ProviderSide, key: keyof PhaseRun, perResource: boolean) => {
        const at = (count: number) => med(side, count, phase, key) / (perResource ? count : 1);
        return at(last) / at(first);
      };
      growth.push([
        phase,
        perSide((side) => `${grows(side, 'providerCpuMs', true).toFixed(2)}×`) +
          verdict(grows('ours', 'providerCpuMs', true), GOALS.cpuPerResourceGrowth),
        perSide((side) => `${grows(side, 'peakPrivateBytes', false).toFixed(2)}×`) +
          verdict(grows('ours', 'peakPrivateBytes', false), GOALS.privateGrowth),
      ]);
    }
    printTable(['phase', `CPU per resource: ${names}`, `private memory per process: ${names}`], growth);
  }
  console.log(`\neach provider process's CPU, in the order Terraform starts them (lowest..highest over the runs)`);
  const perProcess: string[][] = [];
  for (const count of counts)
    for (const phase of PHASES)
      perProcess.push([String(count), phase, perSide((side) => processRanges(runs, side, count, phase))]);
  printTable(['N', 'phase', `per process: ${names}`], perProcess);
  if (has('ours') && has('unrecorded')) {
    console.log('\nthe create records (ours with them / without, same run): what they cost per resource');
    const cost: string[][] = [];
    for (const count of counts)
      for (const phase of PHASES) {
        const [cpuOn, cpuOff] = [
          med('ours', count, phase, 'providerCpuMs'),
          med('unrecorded', count, phase, 'providerCpuMs'),
        ];
        const [wallOn, wallOff] = [med('ours', count, phase, 'wallMs'), med('unrecorded', count, phase, 'wallMs')];
        cost.push([
          String(count),
          phase,
          `${s(wallOn)} / ${s(wallOff)}`,
          `${s(cpuOn)} / ${s(cpuOff)}`,
          `${((cpuOn - cpuOff) / count).toFixed(2)} ms`,
        ]);
      }
    printTable(['N', 'phase', 'wall', 'provider CPU', 'CPU per resource'], cost);
  }
  const loads = runs.map((r) => r.load);
  console.log(
    `load average (1 min) at the phases' starts: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${execFileSync('nproc').toString().trim()} cores`,
  );
}

/** Each process's CPU across a cell's runs, as `0.04..0.05 + 0.06 + ...` seconds; '—' for a side that ran none. */
function processRanges(runs: PhaseRun[], side: ProviderSide, count: number, phase: Phase): string {
  const cell = runs.filter((r) => r.side === side && r.count === count && r.phase === phase);
  const processes = Math.max(0, ...cell.map((r) => r.processCpuMs.length));
  if (processes === 0) return '—';
  return Array.from({ length: processes }, (_, i) => {
    const seconds = cell.map((r) => r.processCpuMs[i]).filter((ms): ms is number => ms !== undefined);
    const [low, high] = [Math.min(...seconds) / 1000, Math.max(...seconds) / 1000];
    return low.toFixed(2) === high.toFixed(2) ? low.toFixed(2) : `${low.toFixed(2)}..${high.toFixed(2)}`;
  }).join(' + ');
}

export async function againstGoBench(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const root = mkdtempSync(join(tmpdir(), 'keel-against-go-'));
  const oursBin = options.cpuProfDir ? profilingLauncher(join(root, 'profiling-bin'), 'sec') : join(REPO_ROOT, 'bin');
  const ours = join(oursBin, 'terraform-provider-sec');
  const executables: Partial<Record<ProviderSide, string>> = { ours, unrecorded: ours };
  const wanted = (side: Side) => options.sides === undefined || options.sides.includes(side);
  const skip = { skipped: 'not among --sides' };
  const built = {
    go: wanted('go') ? buildAnchor(options.anchorDir) : skip,
    framework: wanted('framework') ? buildFramework() : skip,
  };
  for (const side of GO_SIDES) {
    const outcome = built[side];
    if ('executable' in outcome) {
      executables[side] = outcome.executable;
      console.log(`${SIDE_NAMES[side]}: ${outcome.executable}`);
    } else console.log(`${SIDE_NAMES[side]}: skipped — ${outcome.skipped}`);
  }
  const sides = ([...GO_SIDES.filter((side) => executables[side]), 'ours', 'unrecorded', 'alone'] as Side[]).filter(
    wanted,
  );
  const gnuTime = hasGnuTime();
  const version = execFileSync('terraform', ['version'], {
    env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' },
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .toString()
    .split('\n')[0];
  console.log(`${version}; counts ${options.counts.join(', ')}; ${options.reps} repetitions`);
  const pace = paceLine(options.pace);
  if (pace) console.log(pace);
  if (options.cpuProfDir)
    console.log(`our provider runs under --cpu-prof (into ${options.cpuProfDir}): its CPU is inflated`);
  const runs: PhaseRun[] = [];
  try {
    for (let rep = 0; rep < options.reps; rep++) {
      for (const count of options.counts) {
        const order = [...sides.slice(rep % sides.length), ...sides.slice(0, rep % sides.length)];
        for (const side of order) runs.push(...(await runSide(side, count, options, root, executables, gnuTime)));
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  report(runs, options.counts, sides);
}
