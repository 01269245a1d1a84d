/**
 * scale --against-go: our sec provider beside a Go provider under real Terraform, in one run.
 *
 * The Go provider is the anchor in ../shared/anchors/goprovider (a minimal tfplugin6 provider, no SDK,
 * managing what sec_alert_channel_email manages with the same API calls); it is built there by its
 * own build.sh and run from its build directory, never copied into this repository. Without Go or the
 * anchor, its side is skipped with a line saying why, and ours and Terraform alone still run.
 *
 * For each count N and each repetition, the sides run one after the other in an order rotated from
 * one repetition to the next (go, ours, terraform_data; ours, terraform_data, go; ...), each with a
 * fresh emulator, through `terraform apply`, `plan -detailed-exitcode` (a refresh that must find no
 * changes) and `destroy`, with -parallelism=10 and TF_LOG unset (both providers log as they do by
 * default). Every provider process Terraform starts runs under a wrapper that appends its wall time
 * and CPU (user + system, from bash's `time`: the process's own rusage) to a file per phase, the
 * same way for both providers. Terraform's own CPU is its rusage minus the providers'.
 *
 *   npm run bench -- scale --against-go [--counts 200,1000] [--reps 3] [--parallelism 10]
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { REPO_ROOT, machine, median, positive, readFlags } from './util.js';

type Side = 'go' | 'ours' | 'alone';
type Phase = 'apply' | 'plan' | 'destroy';
const PHASES: readonly Phase[] = ['apply', 'plan', 'destroy'];
const SIDE_NAMES: Record<Side, string> = { go: 'Go anchor', ours: 'ours (sec)', alone: 'Terraform alone' };
/** USER_HZ, the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The goals of issue 25: wall ≤ 1.25× the Go provider's (plan at every N, apply and destroy at 200); CPU ≤ 2.5×. */
const WALL_GOAL = 1.25;
const CPU_GOAL = 2.5;
const wallGoalApplies = (phase: Phase, count: number) => phase === 'plan' || count <= 200;

interface Options {
  counts: number[];
  reps: number;
  parallelism: number;
  anchorDir: string;
}

function parseOptions(args: string[]): Options {
  const options: Options = {
    counts: [200, 1000],
    reps: 3,
    parallelism: 10,
    anchorDir: process.env.KEEL_GO_ANCHOR ?? resolve(REPO_ROOT, '..', 'shared', 'anchors', 'goprovider'),
  };
  readFlags(args, 'scale --against-go [--counts 200,1000] [--reps 3] [--parallelism 10] [--anchor DIR]', {
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
  });
  return options;
}

/** Builds the anchor with its own build.sh; the executable's path, or why there is none. */
function buildAnchor(anchorDir: string): { executable: string } | { skipped: string } {
  const buildScript = join(anchorDir, 'build.sh');
  if (!existsSync(buildScript)) return { skipped: `no Go anchor at ${anchorDir} (set KEEL_GO_ANCHOR or --anchor)` };
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
  } catch {
    return { skipped: "Go is not installed (the anchor builds with Debian's golang-go; see its README)" };
  }
  const outDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'keel-anchors', 'goemail');
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

/**
 * A dev_overrides directory whose provider executable runs the real one as a child and appends
 * "<wall s> <user s> <system s>" of that child to $KEEL_BENCH_CPU_LOG: one line per process, written
 * at once, so processes that overlap do not mix their lines. The child keeps the wrapper's stdin,
 * stdout and stderr, so Terraform talks to it as to the provider itself.
 */
function measuringWrapper(dir: string, name: string, real: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/bash\nTIMEFORMAT='%3R %3U %3S'\n{ time ${JSON.stringify(real)} 2>&3 3>&-; } 3>&2 2>>"$KEEL_BENCH_CPU_LOG"\n`,
  );
  chmodSync(path, 0o755);
  return dir;
}

/** The anchor's workload: N e-mail channels by for_each (distinct names, one recipient each), or N terraform_data. */
function configuration(side: Side, count: number): string {
  const names = `toset([for i in range(${count}) : format("ch-%04d", i)])`;
  if (side === 'alone') return `resource "terraform_data" "c" {\n  for_each = ${names}\n  input    = each.key\n}\n`;
  const [local, source, type] =
    side === 'go'
      ? ['goemail', 'keel/goemail', 'goemail_alert_channel_email']
      : ['sec', 'keel/sec', 'sec_alert_channel_email'];
  return (
    `terraform {\n  required_providers {\n    ${local} = { source = "${source}" }\n  }\n}\n\n` +
    `resource "${type}" "c" {\n  for_each   = ${names}\n  name       = each.key\n  recipients = ["ops-\${each.key}@example.com"]\n}\n`
  );
}

/** CPU of this process's waited-for children (Terraform and what it waited for), ms. */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

interface PhaseRun {
  side: Side;
  count: number;
  phase: Phase;
  wallMs: number;
  providerCpuMs: number;
  processes: number;
  terraformCpuMs: number;
  apiCalls: number;
  load: number;
}

function terraform(dir: string, env: NodeJS.ProcessEnv, args: string[]): Promise<{ wallMs: number; cpuMs: number }> {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    execFile(
      'terraform',
      [`-chdir=${dir}`, ...args],
      { env, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `terraform ${args[0]} in ${dir} failed: ${String(error.message)}\n${`${stdout}\n${stderr}`.slice(-3000)}`,
            ),
          );
        else resolvePromise({ wallMs: performance.now() - started, cpuMs: childrenCpuMs() - cpuBefore });
      },
    );
  });
}

const ARGS: Record<Phase, (p: number) => string[]> = {
  apply: (p) => ['apply', '-auto-approve', '-input=false', `-parallelism=${p}`],
  plan: (p) => ['plan', '-input=false', '-detailed-exitcode', `-parallelism=${p}`],
  destroy: (p) => ['destroy', '-auto-approve', '-input=false', `-parallelism=${p}`],
};

async function runSide(
  side: Side,
  count: number,
  options: Options,
  root: string,
  goExecutable: string | undefined,
): Promise<PhaseRun[]> {
  const dir = mkdtempSync(join(root, `${side}-${count}-`));
  writeFileSync(join(dir, 'main.tf'), configuration(side, count));
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('TF_LOG') && k !== 'NODE_EXTRA_CA_CERTS' && k !== 'SSL_CERT_FILE',
    ),
  );
  Object.assign(env, {
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    CHECKPOINT_DISABLE: '1',
    TF_CLI_CONFIG_FILE: join(dir, 'terraform.rc'),
  });
  let overrides = '';
  if (side !== 'alone') {
    const [source, name, real] =
      side === 'go'
        ? ['keel/goemail', 'terraform-provider-goemail', goExecutable!]
        : ['keel/sec', 'terraform-provider-sec', join(REPO_ROOT, 'bin', 'terraform-provider-sec')];
    overrides = `  dev_overrides {\n    "${source}" = "${measuringWrapper(join(dir, 'wrapper'), name, real)}"\n  }\n`;
  }
  writeFileSync(join(dir, 'terraform.rc'), `provider_installation {\n${overrides}  direct {}\n}\n`);
  let emulator: SecEmulator | undefined;
  if (side !== 'alone') {
    emulator = await startSecEmulator();
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
      const cpuLog = join(dir, `${phase}.cpu`);
      env.KEEL_BENCH_CPU_LOG = cpuLog;
      emulator?.clearRequests();
      const callsBefore = emulator?.requestsReceived() ?? 0;
      const load = loadavg()[0]!;
      const tf = await terraform(dir, env, ARGS[phase](options.parallelism));
      const processes = existsSync(cpuLog)
        ? readFileSync(cpuLog, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => l.split(' ').map(Number))
        : [];
      const providerCpuMs = processes.reduce((sum, [, user, system]) => sum + (user! + system!) * 1000, 0);
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
        wallMs: tf.wallMs,
        providerCpuMs,
        processes: processes.length,
        terraformCpuMs: tf.cpuMs - providerCpuMs,
        apiCalls: emulator ? emulator.requestsReceived() - callsBefore : 0,
        load,
      });
      const last = runs[runs.length - 1]!;
      console.log(
        `  ${SIDE_NAMES[side].padEnd(15)} N=${String(count).padEnd(5)} ${phase.padEnd(7)} wall ${s(last.wallMs)}` +
          (side === 'alone'
            ? ''
            : `  provider CPU ${s(providerCpuMs)} (${processes.length} processes: ` +
              `${processes.map(([, user, system]) => (user! + system!).toFixed(2)).join(' + ')})` +
              `  API calls ${last.apiCalls}`) +
          `  Terraform CPU ${s(last.terraformCpuMs)}  load ${load.toFixed(1)}`,
      );
    }
  } finally {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');

function report(runs: PhaseRun[], counts: number[], sides: Side[]): void {
  const cell = (side: Side, count: number, phase: Phase, key: keyof PhaseRun) =>
    runs.filter((r) => r.side === side && r.count === count && r.phase === phase).map((r) => r[key] as number);
  const med = (side: Side, count: number, phase: Phase, key: keyof PhaseRun) => {
    const values = cell(side, count, phase, key);
    return values.length > 0 ? median(values) : NaN;
  };
  const hasGo = sides.includes('go');
  console.log(
    `\nscale --against-go: medians of ${Math.max(...counts.map((c) => cell('ours', c, 'apply', 'wallMs').length))} runs per cell, -parallelism=10, TF_LOG unset — ${machine()}`,
  );
  const header = [
    'N',
    'phase',
    'wall: Go / ours / TF alone',
    `ours ÷ Go (goal ≤ ${WALL_GOAL}×)`,
    'provider CPU: Go / ours',
    `ours ÷ Go (goal ≤ ${CPU_GOAL}×)`,
    'CPU ms per resource: Go / ours',
    'processes: Go / ours',
    'API calls: Go / ours',
    'Terraform CPU: Go / ours',
  ];
  const rows: string[][] = [];
  for (const count of counts) {
    for (const phase of PHASES) {
      const wall = (side: Side) => med(side, count, phase, 'wallMs');
      const cpu = (side: Side) => med(side, count, phase, 'providerCpuMs');
      const both = (f: (side: Side) => number, show: (x: number) => string) =>
        `${hasGo ? show(f('go')) : '—'} / ${show(f('ours'))}`;
      const wallRatio = wall('ours') / wall('go');
      const cpuRatio = cpu('ours') / cpu('go');
      rows.push([
        String(count),
        phase === 'plan' ? 'plan (refresh)' : phase,
        `${hasGo ? s(wall('go')) : '—'} / ${s(wall('ours'))} / ${s(wall('alone'))}`,
        hasGo
          ? `${ratio(wall('ours'), wall('go'))}${wallGoalApplies(phase, count) ? (wallRatio <= WALL_GOAL ? ' met' : ' not met') : ''}`
          : '—',
        both(cpu, s),
        hasGo ? `${ratio(cpu('ours'), cpu('go'))} ${cpuRatio <= CPU_GOAL ? 'met' : 'not met'}` : '—',
        both(cpu, (x) => (x / count).toFixed(2)),
        both((side) => med(side, count, phase, 'processes'), String),
        both((side) => med(side, count, phase, 'apiCalls'), String),
        both((side) => med(side, count, phase, 'terraformCpuMs'), s),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  const loads = runs.map((r) => r.load);
  console.log(
    `load average (1 min) at the phases' starts: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${execFileSync('nproc').toString().trim()} cores`,
  );
}

export async function againstGoBench(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const anchor = buildAnchor(options.anchorDir);
  const sides: Side[] = 'executable' in anchor ? ['go', 'ours', 'alone'] : ['ours', 'alone'];
  if ('skipped' in anchor) console.log(`Go anchor: skipped — ${anchor.skipped}. Ours and Terraform alone only.`);
  else console.log(`Go anchor: ${anchor.executable} (built from ${options.anchorDir})`);
  const version = execFileSync('terraform', ['version'], {
    env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' },
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .toString()
    .split('\n')[0];
  console.log(`${version}; counts ${options.counts.join(', ')}; ${options.reps} repetitions`);
  const root = mkdtempSync(join(tmpdir(), 'keel-against-go-'));
  const runs: PhaseRun[] = [];
  try {
    for (let rep = 0; rep < options.reps; rep++) {
      for (const count of options.counts) {
        const order = [...sides.slice(rep % sides.length), ...sides.slice(0, rep % sides.length)];
        for (const side of order)
          runs.push(
            ...(await runSide(side, count, options, root, 'executable' in anchor ? anchor.executable : undefined)),
          );
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  report(runs, options.counts, sides);
}
