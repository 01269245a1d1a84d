/** Small helpers shared by the benchmarks: timing, statistics, tables, process memory. */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus, homedir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const bin = (provider: string) => join(REPO_ROOT, 'bin', `terraform-provider-${provider}`);

/** A folder in the user's cache, where builds are kept between runs: $XDG_CACHE_HOME when set, else ~/.cache. */
export function userCacheDir(...parts: string[]): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), ...parts);
}

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
 * Reads a benchmark's arguments with node's parseArgs: `--flag value` and `--flag=value` (whose
 * value may itself hold `=`), each value handed to its flag's setter in the order given (a repeated
 * flag: the last wins). An unknown flag, a flag without its value, or more positional arguments than
 * `positionals` stops the benchmark with `usage`. Returns the positional arguments.
 */
export function readFlags(
  args: readonly string[],
  usage: string,
  setters: Readonly<Record<`--${string}`, (value: string, flag: string) => void>>,
  { positionals = 0 }: { positionals?: number } = {},
): string[] {
  let tokens: ReturnType<typeof parseArgs>['tokens'];
  try {
    ({ tokens } = parseArgs({
      args: [...args],
      options: Object.fromEntries(Object.keys(setters).map((flag) => [flag.slice(2), { type: 'string' as const }])),
      allowPositionals: positionals > 0,
      strict: true,
      tokens: true,
    }));
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(`${why}; usage: ${usage}`);
  }
  const given: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') given.push(token.value);
    else if (token.kind === 'option') {
      const flag = `--${token.name}` as const;
      setters[flag]!(token.value!, flag);
    }
  }
  if (given.length > positionals)
    throw new Error(`${given.length} arguments where at most ${positionals} are taken; usage: ${usage}`);
  return given;
}

/** A flag's value as a whole number from 1. */
export function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} takes whole numbers from 1, not ${value}`);
  return n;
}

/** The emulated platform's pace: an account's rate limit and each answer's wait, none by default. */
export interface PlatformPace {
  /** Calls per second the account may make, as a platform's limit. */
  rateLimit?: number;
  /** How long each answer waits (ms), as a distant platform's. */
  latencyMs?: number;
}

/** `--rate-limit N` and `--latency MS` (readFlags), setting `pace`: what scale --against-go and sessions take. */
export function paceFlags(
  pace: PlatformPace,
): Record<'--rate-limit' | '--latency', (value: string, flag: string) => void> {
  return {
    '--rate-limit': (value, flag) => {
      pace.rateLimit = positive(flag, value);
    },
    '--latency': (value, flag) => {
      pace.latencyMs = positive(flag, value);
    },
  };
}

/** The sec emulator's options for `pace`. */
export function emulatorPace(pace: PlatformPace): { rateLimit?: { perSecond: number }; latencyMs?: number } {
  return {
    ...(pace.rateLimit ? { rateLimit: { perSecond: pace.rateLimit } } : {}),
    ...(pace.latencyMs ? { latencyMs: pace.latencyMs } : {}),
  };
}

/** The line a benchmark prints of a paced platform, so its figures are not read as an unpaced one's; none without. */
export function paceLine(pace: PlatformPace): string | undefined {
  if (!pace.rateLimit && !pace.latencyMs) return undefined;
  const limit = pace.rateLimit ? `${pace.rateLimit} calls a second` : 'no rate limit';
  return `the emulated platform: ${limit}, ${pace.latencyMs ?? 0} ms per answer`;
}

/**
 * The flags of a benchmark that runs N objects R times beside another built checkout: `--count`,
 * `--reps`, `--beside DIR`, and any `more` of its own (readFlags).
 */
export function sizeFlags(
  args: readonly string[],
  usage: string,
  defaults: { count: number; reps: number },
  more: Readonly<Record<`--${string}`, (value: string, flag: string) => void>> = {},
): { count: number; reps: number; beside: string | undefined } {
  const out = { ...defaults, beside: undefined as string | undefined };
  readFlags(args, usage, {
    '--count': (value, flag) => {
      out.count = positive(flag, value);
    },
    '--reps': (value, flag) => {
      out.reps = positive(flag, value);
    },
    '--beside': (value) => {
      out.beside = value;
    },
    ...more,
  });
  return out;
}
