/**
 * `npm run soak -- --duration 1h`: many workspaces at once against one emulator of each provider
 * with its faults on, cycle after cycle, checking that nothing is lost, duplicated or taken over
 * (./cycle.ts, ./ledger.ts) and that memory stays flat (./memory.ts).
 *
 * The emulators run in this process with seeded faults (rate-limit, 5xx, dropped connections, slow
 * and ambiguous answers) and a rate limit per account (a token bucket: 429 / RESOURCE_EXHAUSTED with
 * Retry-After), so a provider that slows down when told is refused less. Each cycle runs every
 * workspace's cycle at once; a cycle starts while time remains, so a run ends after its duration
 * plus at most one cycle.
 *
 * Prints one row per cycle; `--report FILE` also writes them as JSON. Exits 1 when anything was
 * found (orphans, duplicates, takeovers, mismatches, non-empty re-plans, commands that failed every
 * run, memory that climbs).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSecClient } from '../../src/clients/sec/client.js';
import { createVdbClient } from '../../src/clients/vdb/client.js';
import { FAULT_KINDS, type FaultStats } from '../../src/emulators/core/index.js';
import type { QuotaStats } from '../../src/emulators/core/quota.js';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { REPO_ROOT, readFlags, positive } from '../bench/util.js';
import { runCycle, type Books, type CycleTally } from './cycle.js';
import { readApi } from './ledger.js';
import { MemoryWatch, type MemoryPeaks } from './memory.js';
import { shapeFor } from './workload.js';
import { SoakWorkspace } from './workspace.js';

const USAGE =
  'soak [--duration 5m | --cycles N] [--workspaces 8] [--resources 200] [--fault-rate 0.05] [--seed 1] ' +
  '[--rate-limit 40] [--parallelism 10] [--providers DIR] [--out DIR] [--report FILE]\n' +
  '  --resources N   per workspace, both providers together (default 200; npm test runs 20)\n' +
  '  --rate-limit N  calls a second each emulator lets the account make: 40 binds eight workspaces, so\n' +
  '                  the providers must slow down together (--providers of a build before the shared\n' +
  '                  back-off shows what per-call retries cost)';

interface SoakOptions {
  durationMs: number;
  /** Run exactly this many cycles instead of for `durationMs` (a fixed amount of work, as tests want). */
  cycles: number | undefined;
  workspaces: number;
  /** Per workspace, both providers together. */
  resources: number;
  faultRate: number;
  seed: number;
  /** Calls per second each emulator lets an account make. */
  rateLimit: number;
  parallelism: number;
  /** The folder of the provider launchers under test (another checkout's bin to compare builds). */
  providers: string;
  out: string | undefined;
  report: string | undefined;
}

/** `90s`, `5m`, `1h`, or plain seconds. */
function duration(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text);
  if (!match) throw new Error(`${flag} takes a duration such as 90s, 5m or 1h, not ${text}`);
  return Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
}

function share(flag: string, text: string): number {
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new Error(`${flag} takes a share from 0 to 1, not ${text}`);
  return value;
}

function parseOptions(args: string[]): SoakOptions {
  const options: SoakOptions = {
    durationMs: 5 * 60_000,
    cycles: undefined,
    workspaces: 8,
    resources: 200,
    faultRate: 0.05,
    seed: 1,
    rateLimit: 40,
    parallelism: 10,
    providers: join(REPO_ROOT, 'bin'),
    out: undefined,
    report: undefined,
  };
  readFlags(args, USAGE, {
    '--duration': (v, f) => (options.durationMs = duration(f, v)),
    '--cycles': (v, f) => (options.cycles = positive(f, v)),
    '--workspaces': (v, f) => (options.workspaces = positive(f, v)),
    '--resources': (v, f) => (options.resources = positive(f, v)),
    '--fault-rate': (v, f) => (options.faultRate = share(f, v)),
    '--seed': (v, f) => (options.seed = positive(f, v)),
    '--rate-limit': (v, f) => (options.rateLimit = positive(f, v)),
    '--parallelism': (v, f) => (options.parallelism = positive(f, v)),
    '--providers': (v) => (options.providers = resolve(v)),
    '--out': (v) => (options.out = resolve(v)),
    '--report': (v) => (options.report = resolve(v)),
  });
  return options;
}

/** One cycle across all workspaces, as printed and reported. */
interface CycleRow {
  readonly cycle: number;
  readonly wallMs: number;
  readonly steps: number;
  readonly orphans: number;
  readonly duplicates: number;
  readonly takeovers: number;
  readonly mismatches: number;
  readonly nonEmptyReplans: number;
  readonly reruns: number;
  readonly failedCommands: number;
  /** Calls the platform refused to slow the caller down, and calls it carried out. */
  readonly refused: number;
  readonly succeeded: number;
  readonly memory: MemoryPeaks;
}

/** Both emulators' counters, to take differences per cycle. */
interface Counters {
  readonly quota: QuotaStats;
  readonly faults: FaultStats;
}

function addCounters(a: Counters, b: Counters): Counters {
  const byKind = Object.fromEntries(FAULT_KINDS.map((k) => [k, a.faults.byKind[k] + b.faults.byKind[k]]));
  return {
    quota: { admitted: a.quota.admitted + b.quota.admitted, refused: a.quota.refused + b.quota.refused },
    faults: {
      calls: a.faults.calls + b.faults.calls,
      injected: a.faults.injected + b.faults.injected,
      byKind: byKind as FaultStats['byKind'],
    },
  };
}

const MIB = 1024 * 1024;
const mib = (bytes: number) => (bytes / MIB).toFixed(0);

/** Whether memory climbs: the last cycle's peak above 1.25× (and 16 MiB over) the lowest of the first two. */
function climbing(values: readonly number[]): boolean {
  if (values.length < 3) return false;
  const baseline = Math.min(values[0]!, values[1]!);
  const last = values[values.length - 1]!;
  return last > baseline * 1.25 && last - baseline > 16 * MIB;
}

async function main(options: SoakOptions): Promise<number> {
  execFileSync('terraform', ['version'], { stdio: 'ignore' });
  const out = options.out ?? mkdtempSync(join(tmpdir(), 'keel-soak-'));
  mkdirSync(out, { recursive: true });
  const faultProfile = (seed: number) => ({ seed, rate: options.faultRate, kinds: [...FAULT_KINDS] });
  const rateLimit = { perSecond: options.rateLimit };
  const sec = await startSecEmulator({ faultProfile: faultProfile(options.seed), rateLimit });
  const vdb = await startVdbEmulator({ faultProfile: faultProfile(options.seed + 1), rateLimit });
  const counters = (): Counters =>
    addCounters(
      { quota: sec.rateLimitStats(), faults: sec.faultStats() },
      { quota: vdb.rateLimitStats(), faults: vdb.faultStats() },
    );
  const secClient = createSecClient({
    baseUrl: sec.url,
    account: sec.account,
    apiKey: sec.apiKey,
    apiSecret: sec.apiSecret,
    userAgent: 'keel-soak',
  });
  const vdbClient = createVdbClient({ apiUrl: vdb.url, apiKey: vdb.apiKey, userAgent: 'keel-soak' });
  const books: Books = {
    readApi: () => readApi(secClient, vdbClient, vdb.accountId),
    holders: new Map(),
    outDir: out,
    parallelism: options.parallelism,
  };
  const providerEnv = {
    ...secProviderEnv({ url: sec.url, account: sec.account, apiKey: sec.apiKey, apiSecret: sec.apiSecret }),
    ...vdbProviderEnv(vdb),
  };
  const workspaces = Array.from(
    { length: options.workspaces },
    (_, i) => new SoakWorkspace(out, i, options.providers, providerEnv),
  );
  const shape = shapeFor(options.resources);
  const memory = new MemoryWatch(join(options.providers, 'start-bundle.cjs'), out);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(
    `soak: ${options.workspaces} workspaces × ${options.resources} resources (${shape.channels} channels, ` +
      `${Math.ceil(shape.channels / 2)} rules, ${shape.roles} roles, 1 cluster, ${shape.keys} keys), ` +
      `faults ${options.faultRate} of calls (seed ${options.seed}), rate limit ${options.rateLimit} calls/s ` +
      `per emulator, -parallelism=${options.parallelism}, ` +
      `${options.cycles === undefined ? `for ${options.durationMs / 1000} s` : `${options.cycles} cycles`}; files in ${out}`,
  );
  log(
    'cycle  wall s  steps  orphans  dupl  takeovers  mismatch  replans  reruns  failed  refused/ok  ' +
      'sec MiB  vdb MiB  emu MiB (heap)',
  );

  const rows: CycleRow[] = [];
  const started = Date.now();
  let before = counters();
  memory.take();
  const more = (cycle: number) =>
    options.cycles === undefined ? cycle === 1 || Date.now() - started < options.durationMs : cycle <= options.cycles;
  for (let cycle = 1; more(cycle); cycle++) {
    const cycleStart = Date.now();
    const tallies: CycleTally[] = await Promise.all(
      workspaces.map((workspace, i) => runCycle(workspace, i, cycle, shape, books, log)),
    );
    // The emulators' request logs are for tests that look at one exchange; a soak only counts.
    sec.clearRequests();
    vdb.clearRequests();
    const after = counters();
    const findings = tallies.flatMap((t) => t.findings);
    const count = (kind: string) => findings.filter((f) => f.kind === kind).length;
    const sum = (key: 'nonEmptyReplans' | 'reruns' | 'failedCommands' | 'steps') =>
      tallies.reduce((total, t) => total + t[key], 0);
    const refused =
      after.quota.refused -
      before.quota.refused +
      after.faults.byKind['rate-limit'] -
      before.faults.byKind['rate-limit'];
    const succeeded = after.quota.admitted - before.quota.admitted - (after.faults.injected - before.faults.injected);
    before = after;
    const row: CycleRow = {
      cycle,
      wallMs: Date.now() - cycleStart,
      steps: sum('steps'),
      orphans: count('orphan'),
      duplicates: count('duplicate'),
      takeovers: count('takeover'),
      mismatches: count('mismatch'),
      nonEmptyReplans: sum('nonEmptyReplans'),
      reruns: sum('reruns'),
      failedCommands: sum('failedCommands'),
      refused,
      succeeded,
      memory: memory.take(),
    };
    rows.push(row);
    log(
      [
        String(cycle).padStart(5),
        (row.wallMs / 1000).toFixed(0).padStart(6),
        String(row.steps).padStart(5),
        String(row.orphans).padStart(7),
        String(row.duplicates).padStart(5),
        String(row.takeovers).padStart(10),
        String(row.mismatches).padStart(9),
        String(row.nonEmptyReplans).padStart(8),
        String(row.reruns).padStart(7),
        String(row.failedCommands).padStart(7),
        (row.refused / Math.max(1, row.succeeded)).toFixed(3).padStart(11),
        mib(row.memory.providers.sec ?? 0).padStart(8),
        mib(row.memory.providers.vdb ?? 0).padStart(8),
        `${mib(row.memory.emulatorsRss)} (${mib(row.memory.emulatorsHeap)})`.padStart(15),
      ].join(' '),
    );
  }
  memory.stop();
  await secClient.close();
  vdbClient.close();
  await Promise.all([sec.close(), vdb.close()]);

  const total = (key: keyof CycleRow) => rows.reduce((sum, row) => sum + (row[key] as number), 0);
  const problems: string[] = [];
  for (const key of [
    'orphans',
    'duplicates',
    'takeovers',
    'mismatches',
    'nonEmptyReplans',
    'failedCommands',
  ] as const) {
    if (total(key) > 0) problems.push(`${key}: ${total(key)}`);
  }
  const series = {
    'sec provider peak RSS': rows.map((r) => r.memory.providers.sec ?? 0),
    'vdb provider peak RSS': rows.map((r) => r.memory.providers.vdb ?? 0),
    'emulators heap': rows.map((r) => r.memory.emulatorsHeap),
  };
  for (const [what, values] of Object.entries(series)) {
    if (climbing(values)) problems.push(`${what} climbs: ${values.map(mib).join(', ')} MiB`);
  }
  const refusedPerSuccess = total('refused') / Math.max(1, total('succeeded'));
  log(
    `soak: ${rows.length} cycles in ${((Date.now() - started) / 1000).toFixed(0)} s; refused per successful call ` +
      `${refusedPerSuccess.toFixed(3)} (${total('refused')} / ${total('succeeded')}); ` +
      (problems.length === 0 ? 'nothing lost, duplicated or taken over' : `FOUND ${problems.join('; ')}`),
  );
  if (options.report) {
    const report = { options, rows, refusedPerSuccess, problems, ok: problems.length === 0 };
    writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`);
  }
  return problems.length === 0 ? 0 : 1;
}

let options: SoakOptions | undefined;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
if (options) {
  process.exitCode = await main(options).catch((error: unknown) => {
    process.stderr.write(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  });
}
