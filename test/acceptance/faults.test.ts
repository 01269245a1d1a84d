/**
 * Reliability at scale: for each provider, a few hundred resources of mixed types are
 * applied, re-planned and destroyed through real Terraform while its emulator faults a fifth of all
 * API calls (seeded: 429s, 5xx, dropped connections, slow answers, creates whose answer is lost).
 * Every Terraform command must succeed as a user would run it, once; afterwards the emulator holds
 * exactly the objects in the state (none lost, none made twice) and a new plan is empty. The
 * figures (calls, faults, retries, adoptions, time) are printed for each phase.
 *
 * The two providers run side by side, each against its own emulator and workspace.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FAULT_KINDS,
  startSecEmulator,
  type FaultKind,
  type FaultProfileOptions,
  type FaultStats,
} from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import {
  massConfig,
  type EmulatorConnection,
  type MassConfig,
  type WorkloadProvider,
} from '../../src/workload/mass-config.js';
import { Workspace, requireTerraform, type RunResult } from './terraform.js';
import { ExamplesWorkspace, loadCases, startEmulator } from './examples-workspace.js';
import { baselineOf, describeCounts, expectEmulatorHoldsState, typeRecords } from './ledger.js';
import { loadProviderDef } from '../../src/providers/describe.js';

const RESOURCES = 200;
// FAULT_SEED explores other fault sequences locally; CI uses the fixed default.
const SEED = process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : 20_260_505;
const FAULTS: Omit<FaultProfileOptions, 'seed'> = { rate: 0.2, kinds: FAULT_KINDS, retryAfterSeconds: 1, slowMs: 100 };
/** Cluster provisioning in the vdb emulator; the workload has one cluster per 20 resources. */
const PROVISIONING_MS = 300;

/** What the test needs of a running emulator. */
interface FaultedEmulator {
  readonly connection: EmulatorConnection;
  list(collection: string): Record<string, unknown>[];
  get(collection: string, id: string): Record<string, unknown> | undefined;
  faultStats(): FaultStats;
  close(): Promise<void>;
}

async function startFaulted(provider: WorkloadProvider, faultProfile: FaultProfileOptions): Promise<FaultedEmulator> {
  if (provider === 'sec') {
    const e = await startSecEmulator({ faultProfile });
    return {
      connection: { provider, url: e.url, account: e.account, apiKey: e.apiKey, apiSecret: e.apiSecret },
      ...storeOf(e),
    };
  }
  const e = await startVdbEmulator({ faultProfile, provisioningMs: PROVISIONING_MS });
  return { connection: { provider, url: e.url, apiKey: e.apiKey, accountId: e.accountId }, ...storeOf(e) };
}

function storeOf(e: Omit<FaultedEmulator, 'connection'>): Omit<FaultedEmulator, 'connection'> {
  return {
    list: (c) => e.list(c),
    get: (c, id) => e.get(c, id),
    faultStats: () => e.faultStats(),
    close: () => e.close(),
  };
}

/** What one Terraform command cost: the emulator's view and the provider's debug log. */
interface PhaseFigures {
  readonly phase: string;
  readonly ms: number;
  /** API calls the emulator received (token requests included). */
  readonly calls: number;
  readonly injected: number;
  readonly byKind: Readonly<Record<FaultKind, number>>;
  /** API requests the provider logged, and those that were a second or later attempt. */
  readonly attempts: number;
  readonly retries: number;
  /** Creates whose answer was lost: object found and adopted / not found and sent again. */
  readonly adopted: number;
  readonly resent: number;
}

/**
 * Counts in the provider's debug log (TF_LOG_PROVIDER=debug); wording from the clients and
 * engine/creates/create-recovery.ts.
 */
function providerLogFigures(
  log: string,
  provider: WorkloadProvider,
): Pick<PhaseFigures, 'attempts' | 'retries' | 'adopted' | 'resent'> {
  const source = `provider.terraform-provider-${provider}: `;
  const request = provider === 'sec' ? /^sec API request: .*\battempt=(\d+)\b/ : /^vdb \S+: .*\battempt=(\d+)\b/;
  const figures = { attempts: 0, retries: 0, adopted: 0, resent: 0 };
  for (const line of log.split('\n')) {
    const at = line.indexOf(source);
    if (at < 0) continue;
    const message = line.slice(at + source.length);
    const attempt = request.exec(message);
    if (attempt) {
      figures.attempts++;
      if (Number(attempt[1]) > 1) figures.retries++;
    } else if (message.startsWith('adopted the object an unanswered create request had made:')) figures.adopted++;
    else if (message.startsWith('no object from the unanswered create request was found; sending it again:'))
      figures.resent++;
  }
  return figures;
}

function statsSince(before: FaultStats, after: FaultStats): Pick<PhaseFigures, 'calls' | 'injected' | 'byKind'> {
  const byKind = Object.fromEntries(FAULT_KINDS.map((k) => [k, after.byKind[k] - before.byKind[k]])) as Record<
    FaultKind,
    number
  >;
  return { calls: after.calls - before.calls, injected: after.injected - before.injected, byKind };
}

function describeFigures(provider: WorkloadProvider, resources: number, phases: readonly PhaseFigures[]): string {
  const sum = (pick: (p: PhaseFigures) => number) => phases.reduce((total, p) => total + pick(p), 0);
  const total: PhaseFigures = {
    phase: 'total',
    ms: sum((p) => p.ms),
    calls: sum((p) => p.calls),
    injected: sum((p) => p.injected),
    byKind: Object.fromEntries(FAULT_KINDS.map((k) => [k, sum((p) => p.byKind[k])])) as Record<FaultKind, number>,
    attempts: sum((p) => p.attempts),
    retries: sum((p) => p.retries),
    adopted: sum((p) => p.adopted),
    resent: sum((p) => p.resent),
  };
  const rows = [...phases, ...(phases.length > 1 ? [total] : [])].map((p) => {
    const kinds = FAULT_KINDS.map((k) => `${k} ${p.byKind[k]}`).join(', ');
    return (
      `    ${p.phase.padEnd(8)} ${(p.ms / 1000).toFixed(1).padStart(6)} s  ${String(p.calls).padStart(5)} calls, ${String(p.injected).padStart(4)} faulted (${kinds}); ` +
      `${p.attempts} requests logged, ${p.retries} retries, ${p.adopted} adopted, ${p.resent} creates sent again`
    );
  });
  return `  ${provider}: ${resources} resources, faults: rate ${FAULTS.rate}, seed ${SEED}\n${rows.join('\n')}`;
}

/** Dotted path into a stored object ("state.phase", "permissions.length"). */
function at(obj: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      obj,
    );
}

type State = Awaited<ReturnType<Workspace['state']>>;

/** The collections the workload writes to, with their objects before anything was applied. */
function snapshot(emulator: FaultedEmulator, config: MassConfig): Map<string, string[]> {
  return new Map(config.types.map((t) => [t.collection, emulator.list(t.collection).map((o) => JSON.stringify(o))]));
}

/** The state key of every workload resource (each resource in state, keys distinct). */
function stateKeys(state: State, config: MassConfig): Map<string, string> {
  expect([...state.keys()].sort(), 'the state holds exactly the configured resources').to.deep.equal(
    config.objects.map((o) => o.address).sort(),
  );
  const keys = new Map<string, string>();
  for (const t of config.types) {
    for (const o of t.objects) {
      const key = state.get(o.address)!.values[t.key];
      expect(key, `${o.address}: state attribute ${t.key}`).to.be.a('string').and.not.equal('');
      keys.set(o.address, key as string);
    }
  }
  expect(new Set(keys.values()).size, 'every resource has its own key').to.equal(keys.size);
  return keys;
}

/**
 * Each resource in state has its one object in the emulator, with the configured values, and each
 * collection holds nothing else beyond what it held before the apply (no duplicate, no orphan).
 */
function expectHoldsExactlyState(
  emulator: FaultedEmulator,
  config: MassConfig,
  keys: Map<string, string>,
  baseline: Map<string, string[]>,
): void {
  const collections = new Map<string, string[]>();
  for (const t of config.types) {
    for (const o of t.objects) {
      const stored = emulator.get(t.collection, keys.get(o.address)!);
      expect(stored, `${o.address}: the emulator holds its object`).to.not.equal(undefined);
      for (const [path, value] of Object.entries(o.expected))
        expect(at(stored, path), `${o.address}: ${path}`).to.deep.equal(value);
      collections.set(t.collection, [...(collections.get(t.collection) ?? []), JSON.stringify(stored)]);
    }
  }
  for (const [collection, ofState] of collections) {
    const before = baseline.get(collection) ?? [];
    const accounted = new Set([...ofState, ...before]);
    const stored = emulator.list(collection).map((o) => JSON.stringify(o));
    const unaccounted = stored.filter((o) => !accounted.has(o));
    expect(
      unaccounted.map(nameOf),
      `${collection}: objects no state resource accounts for (duplicates or orphans)`,
    ).to.deep.equal([]);
    expect(stored.length, `${collection}: objects stored`).to.equal(ofState.length + before.length);
  }
}

/** After destroy: deletable objects are gone, undeletable ones are in their destroyed form, nothing else is left. */
function expectDestroyed(
  emulator: FaultedEmulator,
  config: MassConfig,
  keys: Map<string, string>,
  baseline: Map<string, string[]>,
): void {
  const remaining = new Map<string, number>();
  for (const t of config.types) {
    for (const o of t.objects) {
      const stored = emulator.get(t.collection, keys.get(o.address)!);
      if (t.destroyed === 'absent') {
        expect(stored, `${o.address}: gone from the emulator`).to.equal(undefined);
        continue;
      }
      for (const [path, value] of Object.entries(t.destroyed))
        expect(at(stored, path), `${o.address} after destroy: ${path}`).to.deep.equal(value);
      remaining.set(t.collection, (remaining.get(t.collection) ?? 0) + 1);
    }
  }
  for (const [collection, before] of baseline) {
    expect(emulator.list(collection).length, `${collection}: objects left after destroy`).to.equal(
      before.length + (remaining.get(collection) ?? 0),
    );
  }
}

/** A short identification of a stored object for failure messages (never the whole object: it may hold secrets). */
function nameOf(json: string): string {
  const o = JSON.parse(json) as Record<string, unknown>;
  const name = o.name ?? o.userName ?? o.tokenAlias ?? o.exceptionName ?? at(o, 'filters.name') ?? '?';
  return `${String(name)} (${Object.keys(o).length} fields)`;
}

/** Runs one provider's whole scenario; throws on the first failed expectation, naming the phase. */
async function faultedRun(provider: WorkloadProvider): Promise<void> {
  const emulator = await startFaulted(provider, { seed: SEED, ...FAULTS });
  const config = massConfig(emulator.connection, { count: RESOURCES, prefix: 'faulted' });
  const ws = new Workspace(config.hcl, config.env);
  const phases: PhaseFigures[] = [];
  let passed = false;

  /** One Terraform command with the provider logging at debug, its figures recorded. */
  async function phase(name: string, args: string[], expectedCode = 0): Promise<RunResult> {
    const logPath = join(ws.dir, `${name}.log`);
    const before = emulator.faultStats();
    const started = Date.now();
    const r = await ws.run(args, { TF_LOG_PROVIDER: 'debug', TF_LOG_PATH: logPath });
    const ms = Date.now() - started;
    const log = (() => {
      try {
        return readFileSync(logPath, 'utf8');
      } catch {
        return '';
      }
    })();
    const figures: PhaseFigures = {
      phase: name,
      ms,
      ...statsSince(before, emulator.faultStats()),
      ...providerLogFigures(log, provider),
    };
    phases.push(figures);
    if (r.code !== expectedCode) {
      throw new Error(
        `${provider}: terraform ${args.join(' ')} exited ${r.code}, expected ${expectedCode}\n--- stderr ---\n${r.stderr}\n--- stdout (end) ---\n${r.stdout.slice(-4000)}`,
      );
    }
    // Otherwise the retry and adoption figures could silently miss lines.
    expect(
      figures.attempts,
      `${provider} ${name}: requests in the provider's debug log vs calls the emulator received`,
    ).to.equal(figures.calls);
    return r;
  }

  try {
    const baseline = snapshot(emulator, config);

    // Terraform's default parallelism (10), each command run once, as a user would.
    await phase('apply', ['apply', '-auto-approve', '-no-color']);
    const applied = phases.at(-1)!;
    // The checks read the emulator's store in-process, past the fault profile, which stays on
    // throughout (`terraform show` only asks the provider for its schema).
    const keys = stateKeys(await ws.state(), config);
    expectHoldsExactlyState(emulator, config, keys, baseline);
    // Creates whose answer was lost after they took effect were found and adopted, not made twice
    // (the comparison above); only such creates can be adopted.
    expect(applied.adopted, `${provider}: objects adopted after a lost answer`)
      .to.be.greaterThan(0)
      .and.at.most(applied.byKind.ambiguous);

    await phase('plan', ['plan', '-detailed-exitcode', '-no-color']);
    // The refresh under faults changed nothing either.
    expectHoldsExactlyState(emulator, config, keys, baseline);

    await phase('destroy', ['destroy', '-auto-approve', '-no-color']);
    expect((await ws.state()).size, `${provider}: state after destroy`).to.equal(0);
    expectDestroyed(emulator, config, keys, baseline);

    // The test proved something only if the faults really came, of every kind.
    const total = Object.fromEntries(FAULT_KINDS.map((k) => [k, phases.reduce((sum, p) => sum + p.byKind[k], 0)]));
    for (const kind of FAULT_KINDS) expect(total[kind], `${provider}: ${kind} faults injected`).to.be.greaterThan(0);
    passed = true;
  } finally {
    console.log(describeFigures(provider, config.objects.length, phases));
    // A failed run keeps its configuration and the provider's debug logs (<phase>.log) to look into.
    if (passed) ws.dispose();
    else console.log(`  ${provider}: workspace and provider logs kept in ${ws.dir}`);
    await emulator.close();
  }
}

describe(`acceptance: ${RESOURCES} resources per provider through real Terraform with ${FAULTS.rate * 100}% of API calls faulted`, function () {
  // A run takes under a minute; the margin is for a loaded CI machine.
  this.timeout(300_000);
  const runs = new Map<WorkloadProvider, Promise<void>>();

  before(function () {
    requireTerraform(this);
    // Side by side: each `it` waits for its own provider's run.
    for (const provider of ['sec', 'vdb'] as const) {
      const run = faultedRun(provider);
      run.catch(() => undefined);
      runs.set(provider, run);
    }
  });

  after(() => Promise.allSettled(runs.values()));

  for (const provider of ['sec', 'vdb'] as const) {
    it(`${provider}: apply, re-plan and destroy all succeed; the emulator holds exactly the state's objects, none lost or duplicated`, async () => {
      await runs.get(provider);
    });
  }
});

/**
 * Every resource type, every create's answer lost: all examples of a provider in one
 * workspace, where the first answer to each distinct create request is lost after the object was
 * made. The apply must succeed, every type having found and adopted (or, for one-time secrets,
 * replaced) what its lost request made, and the emulator must hold exactly the state's objects per
 * type; then a re-plan and a destroy under the 20% fault profile leave nothing behind.
 */
async function everyTypeRun(provider: WorkloadProvider): Promise<void> {
  const cases = loadCases(provider);
  const emulator = await startEmulator[provider]({ provisioningMs: PROVISIONING_MS });
  const examples = await ExamplesWorkspace.create(provider, cases, emulator.env);
  const { ws } = examples;
  const types = typeRecords(cases);
  const baseline = baselineOf(emulator, types);
  const def = await loadProviderDef(provider);
  const figures: string[] = [];
  let passed = false;

  /** One command with the provider logging at debug; returns its log. */
  async function run(name: string, args: string[], expectedCode = 0): Promise<string> {
    const logPath = join(ws.dir, `${name}.log`);
    const r = await ws.run([...args, '-no-color'], { TF_LOG_PROVIDER: 'debug', TF_LOG_PATH: logPath });
    if (r.code !== expectedCode)
      throw new Error(
        `${provider}: terraform ${args.join(' ')} exited ${r.code}, expected ${expectedCode}\n--- stderr ---\n${r.stderr}\n--- stdout (end) ---\n${r.stdout.slice(-4000)}`,
      );
    return readFileSync(logPath, 'utf8');
  }

  try {
    const lost = emulator.loseFirstCreateAnswers();
    const log = await run('apply', ['apply', '-auto-approve', '-parallelism=20']);
    const state = await ws.state();
    const counts = expectEmulatorHoldsState(
      emulator,
      types,
      baseline,
      state,
      `${provider}: after the apply whose create answers were lost`,
    );
    // Which types recovered a lost create: adopted, or (one-time secrets) deleted and made again.
    const recovered = new Map<string, number>();
    for (const line of log.split('\n')) {
      if (
        !/provider\.terraform-provider-\w+: (adopted the object an unanswered create request had made|deleted the object whose one-time secret was lost)/.test(
          line,
        )
      )
        continue;
      const type = /\btf_resource_type=(\S+)/.exec(line)?.[1];
      if (type) recovered.set(type, (recovered.get(type) ?? 0) + 1);
    }
    const creating = def.resources.filter((r) => r.findCreated).map((r) => r.typeName);
    expect(
      creating.filter((t) => !recovered.has(t)),
      `${provider}: types whose lost create was never recovered`,
    ).to.deep.equal([]);
    figures.push(
      `    apply: ${lost()} create answers lost; recovered per type: ${[...recovered]
        .sort()
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}`,
    );
    figures.push(`    state vs emulator per type: ${describeCounts(counts)}`);

    emulator.setFaultProfile({ seed: SEED, ...FAULTS });
    await run('plan', ['plan', '-detailed-exitcode', '-parallelism=20']);
    await run('destroy', ['destroy', '-auto-approve', '-parallelism=20']);
    emulator.setFaultProfile(undefined);
    const after = await ws.state();
    expect(
      [...after.values()].filter((r) => r.mode === 'managed'),
      `${provider}: state after destroy`,
    ).to.deep.equal([]);
    expectEmulatorHoldsState(emulator, types, baseline, after, `${provider}: after the destroy under faults`);
    passed = true;
  } finally {
    console.log(
      `  ${provider}: ${examples.resources.length} example resources of ${types.size} types, every create's first answer lost\n${figures.join('\n')}`,
    );
    if (passed) examples.dispose();
    else console.log(`  ${provider}: workspace and provider logs kept in ${ws.dir}`);
    await emulator.close();
  }
}

describe('acceptance: every resource type through real Terraform with the first answer of each create lost', function () {
  this.timeout(300_000);
  const runs = new Map<WorkloadProvider, Promise<void>>();

  before(function () {
    requireTerraform(this);
    for (const provider of ['sec', 'vdb'] as const) {
      const run = everyTypeRun(provider);
      run.catch(() => undefined);
      runs.set(provider, run);
    }
  });

  after(() => Promise.allSettled(runs.values()));

  for (const provider of ['sec', 'vdb'] as const) {
    it(`${provider}: every type finds and keeps what its lost create made; the emulator holds exactly the state's objects, per type, through re-plan and destroy`, async () => {
      await runs.get(provider);
    });
  }
});
