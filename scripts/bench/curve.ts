/**
 * curve: how our providers' cost grows with the estate, under real Terraform, in one workspace per N.
 *
 * - sec: N/2 e-mail alert channels and N/2 alert rules;
 * - vdb: one cluster, N/2 custom roles and N/2 database API keys on that cluster (the platform lists
 *   keys per cluster and has no call that reads one, so the keys sharing one cluster are the case
 *   where a read could cost in proportion to the estate).
 *
 * Made by `count`, the rules routing to no channel: Terraform's own CPU for a for_each, or for
 * instances referring to instances, grows with N² (./terraform-runs.ts). For each N, `terraform
 * apply`, `plan -detailed-exitcode` (a refresh that must find nothing to do) and `destroy`,
 * -parallelism=10, TF_LOG unset, each provider process measured as in `scale --against-go`. Prints
 * per phase: wall, provider CPU, CPU per resource, the largest peak RSS of one provider process, API
 * calls per resource; then how CPU per resource, peak RSS and API calls per resource grow from the
 * smallest N to the largest, against the scale goals of 2026-11-25 (≤ 1.25× and ≤ 2×). The Go
 * providers manage only alert channels: `scale --against-go` puts ours beside them at the same counts.
 *
 *   npm run bench -- curve [--counts 200,1000,5000] [--reps 1] [--provider sec,vdb] [--parallelism 10]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { packageId } from '../../src/emulators/vdb/catalog.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import {
  MIB,
  PHASES,
  type Phase,
  benchTerraformEnv,
  hasGnuTime,
  measuringWrapper,
  printTable,
  runPhase,
  s,
} from './terraform-runs.js';
import { bin, machine, median, positive, readFlags } from './util.js';

type Provider = 'sec' | 'vdb';
const GOALS = { cpuPerResourceGrowth: 1.25, rssGrowth: 2 };

/** What one N of a provider's workload is made of, and where the emulator keeps each kind. */
interface Workload {
  hcl(count: number): string;
  /** Emulator collection → how many objects applying adds to it (destroying takes them away again). */
  holds(count: number): Record<string, number>;
}

const HEADER = (local: Provider) =>
  `terraform {\n  required_providers {\n    ${local} = { source = "keel/${local}" }\n  }\n}\n\n`;
const name = (prefix: string) => `format("${prefix}-%05d", count.index)`;

const WORKLOADS: Record<Provider, Workload> = {
  sec: {
    hcl: (count) => {
      const half = Math.floor(count / 2);
      return (
        HEADER('sec') +
        `resource "sec_alert_channel_email" "c" {\n  count      = ${count - half}\n  name       = ${name('ch')}\n` +
        `  recipients = [format("ops-%05d@example.com", count.index)]\n}\n\n` +
        `resource "sec_alert_rule" "r" {\n  count      = ${half}\n  name       = ${name('rule')}\n` +
        '  severities = ["Critical", "High"]\n}\n'
      );
    },
    holds: (count) => ({ AlertChannels: count - Math.floor(count / 2), AlertRules: Math.floor(count / 2) }),
  },
  vdb: {
    hcl: (count) => {
      const half = Math.floor(count / 2);
      return (
        HEADER('vdb') +
        'resource "vdb_accounts_cluster" "shared" {\n  name           = "curve-cluster"\n' +
        '  cloud_provider = "aws"\n  cloud_region   = "eu-central-1"\n' +
        '  configuration {\n    number_of_nodes = 1\n    node_configuration {\n' +
        `      package_id = "${packageId('aws', 'small')}"\n    }\n  }\n}\n\n` +
        `resource "vdb_accounts_role" "r" {\n  count = ${count - half - 1}\n  name  = ${name('role')}\n` +
        '  permissions {\n    value = "read:clusters"\n  }\n}\n\n' +
        `resource "vdb_accounts_database_api_key_v2" "k" {\n  count      = ${half}\n` +
        `  cluster_id = vdb_accounts_cluster.shared.id\n  name       = ${name('key')}\n` +
        '  global_access_rule {\n    access_type = "GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"\n  }\n}\n'
      );
    },
    holds: (count) => ({
      clusters: 1,
      roles: count - Math.floor(count / 2) - 1,
      databaseApiKeys: Math.floor(count / 2),
    }),
  },
};

interface CurveRun {
  provider: Provider;
  count: number;
  phase: Phase;
  wallMs: number;
  providerCpuMs: number;
  peakRssBytes: number;
  /** Sampled peak private (anonymous) memory of one provider process (terraform-runs.ts). */
  peakPrivateBytes: number;
  apiCalls: number;
}

interface Emulator {
  env: Record<string, string>;
  requestsReceived(): number;
  list(collection: string): unknown[];
  close(): Promise<void>;
}

async function startEmulator(provider: Provider): Promise<Emulator> {
  if (provider === 'sec') {
    const e = await startSecEmulator();
    return { ...bind(e), env: secProviderEnv(e) };
  }
  // Provisioning at once: the phases measure calls, not the emulator's waiting.
  const e = await startVdbEmulator({ provisioningMs: 0 });
  return { ...bind(e), env: vdbProviderEnv(e) };
}

function bind(e: Omit<Emulator, 'env'>): Omit<Emulator, 'env'> {
  return { requestsReceived: () => e.requestsReceived(), list: (c) => e.list(c), close: () => e.close() };
}

async function runCount(
  provider: Provider,
  count: number,
  parallelism: number,
  root: string,
  gnuTime: boolean,
): Promise<CurveRun[]> {
  const dir = mkdtempSync(join(root, `${provider}-${count}-`));
  writeFileSync(join(dir, 'main.tf'), WORKLOADS[provider].hcl(count));
  const wrapper = measuringWrapper(join(dir, 'wrapper'), `terraform-provider-${provider}`, bin(provider), gnuTime);
  const emulator = await startEmulator(provider);
  const env = { ...benchTerraformEnv(dir, { [`keel/${provider}`]: wrapper }), ...emulator.env };
  const runs: CurveRun[] = [];
  // The vdb emulator starts with the platform's built-in roles.
  const before = (collection: string) => emulator.list(collection).length;
  const baseline = Object.fromEntries(Object.keys(WORKLOADS[provider].holds(count)).map((c) => [c, before(c)]));
  try {
    for (const phase of PHASES) {
      const callsBefore = emulator.requestsReceived();
      const load = loadavg()[0]!;
      // The emulator runs in this process: its CPU is this process's.
      const emulatorCpu = process.cpuUsage();
      const measured = await runPhase(dir, env, phase, parallelism);
      const { user, system } = process.cpuUsage(emulatorCpu);
      for (const [collection, held] of Object.entries(WORKLOADS[provider].holds(count))) {
        const expected = baseline[collection]! + (phase === 'destroy' ? 0 : held);
        const found = emulator.list(collection).length;
        if (found !== expected)
          throw new Error(`${provider}, N=${count}, ${phase}: ${found} ${collection}, not ${expected}`);
      }
      const run: CurveRun = {
        provider,
        count,
        phase,
        wallMs: measured.wallMs,
        providerCpuMs: measured.providerCpuMs,
        peakRssBytes: measured.peakRssBytes,
        peakPrivateBytes: measured.peakPrivateBytes,
        apiCalls: emulator.requestsReceived() - callsBefore,
      };
      runs.push(run);
      console.log(
        `  ${provider} N=${String(count).padEnd(5)} ${phase.padEnd(7)} wall ${s(run.wallMs)}  provider CPU ` +
          `${s(run.providerCpuMs)} (${measured.processCpuMs.length} processes, largest ` +
          `${(Math.max(0, ...measured.processCpuMs) / 1000).toFixed(2)} s)  peak private ` +
          `${(run.peakPrivateBytes / MIB).toFixed(0)} MiB, RSS ${(run.peakRssBytes / MIB).toFixed(0)} MiB  API calls ${run.apiCalls}  Terraform CPU ` +
          `${s(measured.terraformCpuMs)}  emulator CPU ${s((user + system) / 1000)}  load ${load.toFixed(1)}`,
      );
    }
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

function report(runs: CurveRun[], providers: Provider[], counts: number[]): void {
  const med = (
    provider: Provider,
    count: number,
    phase: Phase,
    key: 'wallMs' | 'providerCpuMs' | 'peakRssBytes' | 'peakPrivateBytes' | 'apiCalls',
  ) => median(runs.filter((r) => r.provider === provider && r.count === count && r.phase === phase).map((r) => r[key]));
  const reps = runs.filter((r) => r.provider === providers[0] && r.count === counts[0] && r.phase === 'apply').length;
  console.log(`\ncurve: medians of ${reps} runs per cell, -parallelism=10, TF_LOG unset — ${machine()}`);
  const rows: string[][] = [];
  for (const provider of providers) {
    for (const count of counts) {
      for (const phase of PHASES) {
        const cpu = med(provider, count, phase, 'providerCpuMs');
        rows.push([
          provider,
          String(count),
          phase === 'plan' ? 'plan (refresh)' : phase,
          s(med(provider, count, phase, 'wallMs')),
          s(cpu),
          (cpu / count).toFixed(2),
          (med(provider, count, phase, 'peakPrivateBytes') / MIB).toFixed(0),
          (med(provider, count, phase, 'peakRssBytes') / MIB).toFixed(0),
          (med(provider, count, phase, 'apiCalls') / count).toFixed(2),
        ]);
      }
    }
  }
  printTable(
    [
      'provider',
      'N',
      'phase',
      'wall',
      'provider CPU',
      'CPU ms per resource',
      'peak private (MiB)',
      'peak RSS (MiB)',
      'API calls per resource',
    ],
    rows,
  );
  if (counts.length < 2) return;
  const [first, last] = [Math.min(...counts), Math.max(...counts)];
  console.log(
    `\nfrom N = ${first} to N = ${last} (goals: CPU per resource ≤ ${GOALS.cpuPerResourceGrowth}×, ` +
      `private memory per process ≤ ${GOALS.rssGrowth}×)`,
  );
  const growth: string[][] = [];
  for (const provider of providers) {
    for (const phase of PHASES) {
      const perResource = (key: 'providerCpuMs' | 'apiCalls') =>
        med(provider, last, phase, key) / last / (med(provider, first, phase, key) / first);
      const rss = med(provider, last, phase, 'peakPrivateBytes') / med(provider, first, phase, 'peakPrivateBytes');
      const verdict = (value: number, goal: number) => `${value.toFixed(2)}× ${value <= goal ? 'met' : 'not met'}`;
      growth.push([
        provider,
        phase,
        verdict(perResource('providerCpuMs'), GOALS.cpuPerResourceGrowth),
        verdict(rss, GOALS.rssGrowth),
        `${perResource('apiCalls').toFixed(2)}×`,
      ]);
    }
  }
  printTable(['provider', 'phase', 'CPU per resource', 'private memory per process', 'API calls per resource'], growth);
}

export async function curveBench(args: string[]): Promise<void> {
  let counts = [200, 1000, 5000];
  let reps = 1;
  let parallelism = 10;
  let providers: Provider[] = ['sec', 'vdb'];
  readFlags(args, 'curve [--counts 200,1000,5000] [--reps 1] [--provider sec,vdb] [--parallelism 10]', {
    '--counts': (value, flag) => {
      counts = value.split(',').map((v) => positive(flag, v));
    },
    '--reps': (value, flag) => {
      reps = positive(flag, value);
    },
    '--parallelism': (value, flag) => {
      parallelism = positive(flag, value);
    },
    '--provider': (value) => {
      providers = value.split(',').map((p) => {
        if (p !== 'sec' && p !== 'vdb') throw new Error(`--provider: sec or vdb, not ${p}`);
        return p;
      });
    },
  });
  const gnuTime = hasGnuTime();
  const root = mkdtempSync(join(tmpdir(), 'keel-curve-'));
  const runs: CurveRun[] = [];
  try {
    for (let rep = 0; rep < reps; rep++) {
      for (const count of counts) {
        for (const provider of providers) runs.push(...(await runCount(provider, count, parallelism, root, gnuTime)));
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  report(runs, providers, counts);
}
