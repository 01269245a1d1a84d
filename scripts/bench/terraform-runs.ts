/**
 * Running real Terraform in a benchmark and measuring the provider processes it starts, the same way
 * for every provider (ours, the Go anchor, the plugin-framework peer): shared by `scale --against-go`
 * (./against-go.ts) and `curve` (./curve.ts).
 *
 * Their configurations make N instances with `count`, and refer only to single resources: in
 * Terraform 1.11 a `for_each` of N keys, or instances referring to instances of another counted
 * resource (`c[count.index]`), cost Terraform's own CPU in proportion to N² (a plan of 1,000
 * terraform_data: 0.6 s by count, 20 s by for_each over a local, 41 s by for_each over an inline
 * expression; 2,500 instances each referring to one of 2,500 others took 340 s to plan and 8 GiB to
 * apply), which measures Terraform rather than the providers.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { providerInstallationConfig } from '../../src/tfclient/terraform-cli.js';

export type Phase = 'apply' | 'plan' | 'destroy';
export const PHASES: readonly Phase[] = ['apply', 'plan', 'destroy'];
/** USER_HZ, the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS_PER_SECOND = 100;
export const MIB = 1024 * 1024;

/** GNU time, which also reports a child's peak RSS; bash's `time` keyword does not. */
const GNU_TIME = '/usr/bin/time';
/** Whether GNU time is there to measure peak RSS; says so when it is not. */
export function hasGnuTime(): boolean {
  try {
    execFileSync(GNU_TIME, ['-f', '%M', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    console.log(`no GNU time at ${GNU_TIME} (Debian's time): peak RSS is not measured`);
    return false;
  }
}

/**
 * A dev_overrides directory whose provider executable runs the real one as a child and appends
 * "<wall s> <user s> <system s> [<peak RSS KiB> <peak private KiB>]" of that child to
 * $KEEL_BENCH_CPU_LOG: one line per process, written at once, so processes that overlap do not mix
 * their lines. The child keeps the wrapper's stdin, stdout and stderr, so Terraform talks to it as to
 * the provider itself.
 *
 * Peak RSS counts the executable's file pages, which processes share and the kernel reclaims (most of a
 * bare `node`'s 60 MiB): it measures the page cache as much as the process. What a process costs is
 * its private (anonymous) memory, which the kernel keeps no peak of: the wrapper samples the child's
 * RssAnon every 10 ms (bash builtins only, so the sampling adds no process to the measured one).
 */
export function measuringWrapper(dir: string, name: string, real: string, gnuTime: boolean): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  const run = gnuTime
    ? [
        'times=$(mktemp)',
        `${GNU_TIME} -o "$times" -f '%e %U %S %M' ${JSON.stringify(real)} <&0 &`,
        'timer=$!',
        'child=',
        'peak=0',
        // A pipe nobody writes to: `read -t` on it sleeps without forking `sleep`.
        'exec 9<> <(:)',
        'while kill -0 "$timer" 2>/dev/null; do',
        '  [ -z "$child" ] && read -r child _ < "/proc/$timer/task/$timer/children" 2>/dev/null',
        '  if [ -n "$child" ]; then',
        '    { while read -r key value _; do',
        '      [ "$key" = RssAnon: ] && [ "$value" -gt "$peak" ] && peak=$value',
        '    done < "/proc/$child/status"; } 2>/dev/null',
        '  fi',
        '  read -r -t 0.01 -u 9 _',
        'done',
        'wait "$timer"',
        'code=$?',
        'echo "$(cat "$times") $peak" >> "$KEEL_BENCH_CPU_LOG"',
        'rm -f "$times"',
        'exit "$code"',
        '',
      ].join('\n')
    : `TIMEFORMAT='%3R %3U %3S'\n{ time ${JSON.stringify(real)} 2>&3 3>&-; } 3>&2 2>>"$KEEL_BENCH_CPU_LOG"\n`;
  writeFileSync(path, `#!/bin/bash\n${run}`);
  chmodSync(path, 0o755);
  return dir;
}

/**
 * The environment Terraform runs with in a benchmark workspace: no logging, no prompts, and the
 * workspace's own CLI configuration, written here, with a dev_overrides line per provider source.
 */
export function benchTerraformEnv(dir: string, devOverrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const cliConfig = join(dir, 'terraform.rc');
  writeFileSync(cliConfig, providerInstallationConfig(devOverrides));
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('TF_LOG') && k !== 'NODE_EXTRA_CA_CERTS' && k !== 'SSL_CERT_FILE',
    ),
  );
  return { ...env, TF_IN_AUTOMATION: '1', TF_INPUT: '0', CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: cliConfig };
}

/** CPU of this process's waited-for children (Terraform and what it waited for), ms. */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
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

export interface MeasuredPhase {
  wallMs: number;
  /** user + system of every provider process of the phase. */
  providerCpuMs: number;
  /** Each provider process's user + system, ms, in the order they ended. */
  processCpuMs: number[];
  /** The largest peak RSS of one provider process, bytes; 0 when unmeasured. */
  peakRssBytes: number;
  /** The largest peak private (anonymous) memory of one provider process, sampled, bytes; 0 when unmeasured. */
  peakPrivateBytes: number;
  /** Terraform's own CPU: its rusage less the providers'. */
  terraformCpuMs: number;
}

/** One `terraform apply`, `plan -detailed-exitcode` (which must find nothing to do) or `destroy`. */
export async function runPhase(
  dir: string,
  env: NodeJS.ProcessEnv,
  phase: Phase,
  parallelism: number,
): Promise<MeasuredPhase> {
  const cpuLog = join(dir, `${phase}.cpu`);
  const tf = await terraform(dir, { ...env, KEEL_BENCH_CPU_LOG: cpuLog }, ARGS[phase](parallelism));
  const processes = existsSync(cpuLog)
    ? readFileSync(cpuLog, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ').map(Number))
    : [];
  const processCpuMs = processes.map(([, user, system]) => (user! + system!) * 1000);
  const providerCpuMs = processCpuMs.reduce((sum, cpu) => sum + cpu, 0);
  return {
    wallMs: tf.wallMs,
    providerCpuMs,
    processCpuMs,
    peakRssBytes: Math.max(0, ...processes.map(([, , , rssKiB]) => (rssKiB ?? 0) * 1024)),
    peakPrivateBytes: Math.max(0, ...processes.map(([, , , , privateKiB]) => (privateKiB ?? 0) * 1024)),
    terraformCpuMs: tf.cpuMs - providerCpuMs,
  };
}

export const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');

export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}
