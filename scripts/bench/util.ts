/** Small helpers shared by the benchmarks: timing, statistics, tables, process memory. */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const bin = (provider: string) => join(REPO_ROOT, 'bin', `terraform-provider-${provider}`);

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const ms = (x: number) => `${x.toFixed(1)} ms`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Peak resident set size of a live process (VmHWM), in bytes. */
export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : NaN;
}

/** Wall time and peak RSS of bare `node -e 0`, the floor every Node program pays. */
export function bareNode(runs: number): { wallMs: number; rssBytes: number } {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    execFileSync(process.execPath, ['-e', '0']);
    times.push(performance.now() - t);
  }
  const out = execFileSync(process.execPath, [
    '-e',
    'process.stdout.write(String(require("fs").readFileSync("/proc/self/status","utf8").match(/VmHWM:\\s+(\\d+)/)[1]))',
  ]);
  return { wallMs: median(times), rssBytes: Number(out.toString()) * 1024 };
}

export function table(title: string, rows: [string, string][]): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu}, Node ${process.version}`;
}

/** CPU time of every thread of a live process so far, in milliseconds (schedstat: ns on CPU). */
export function cpuMsOf(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e6;
}

/**
 * Reads `--flag value` and `--flag=value` pairs, handing each value to its flag's setter; an unknown
 * flag or a missing value stops the benchmark with `usage`.
 */
export function readFlags(
  args: readonly string[],
  usage: string,
  setters: Readonly<Record<string, (value: string, flag: string) => void>>,
): void {
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split('=', 2) as [string, string | undefined];
    const set = Object.hasOwn(setters, flag) ? setters[flag] : undefined;
    if (!set) throw new Error(`unknown option ${flag}; usage: ${usage}`);
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value; usage: ${usage}`);
    set(value, flag);
  }
}

/** A flag's value as a whole number from 1. */
export function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} takes whole numbers from 1, not ${value}`);
  return n;
}
