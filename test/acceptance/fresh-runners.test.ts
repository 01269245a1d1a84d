/**
 * A killed CI job re-run on a fresh runner (README, "Whose object is it"). Hosted CI
 * re-runs a job killed by its timeout, a cancel, the OOM killer or a lost runner on a new machine:
 * only the state carries over, in a backend outside the working directory. Here, under real
 * Terraform 1.15.5 and OpenTofu, with the state in a `local` backend at another path and in an
 * `http` backend (./state-server.ts):
 *
 * - runner A: a fresh directory, `init`, `apply -auto-approve` against an emulator that answers 1.5 s
 *   late, and the whole job (the CLI and its providers, one process group) SIGKILLed with creates on
 *   the wire, and in other trials later, after some objects were made;
 * - runner B: a fresh directory and data directory with nothing of A's, the default `untracked_objects`
 *   (refuse): its `plan` warns, naming every object A made that the state does not track and none that
 *   it does; its `apply` refuses each create whose key such an object holds before sending it, naming
 *   it: not one object twice;
 * - runner C: a fresh directory whose records are on the volume A's were on (`<PROVIDER>_CREATE_RECORDS_DIR`,
 *   the README's self-hosted recipe): the apply takes back what A made on the records' evidence and
 *   completes, the re-plan is empty, and the emulator holds exactly what the state tracks, not one
 *   object twice. With the `http` backend A's state may hold none of what it made (a remote backend
 *   gets the state every 20 s or at the end), which A's shutdown never says.
 * (test/acceptance/workflows.test.ts runs the default's way out: the import the refusal names.)
 *
 * sec makes 8 e-mail channels of one name and 4 resource groups of one name, vdb 4 clusters of one
 * name: siblings alike in key and settings, some of them stored by A. The emulator's store is the
 * witness (./ledger.ts). The two providers run side by side, each against its own emulator.
 */
import { expect } from 'chai';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ACCEPTANCE_CLIS, type AcceptanceCli } from './real-clients.js';
import { Workspace, type RunResult, type WorkspaceOptions } from './terraform.js';
import { localMirror } from './local-mirror.js';
import {
  isCreateOperation,
  loadCases,
  startEmulator,
  type EmulatorHandle,
  type Provider,
} from './examples-workspace.js';
import { baselineOf, expectEmulatorHoldsState, typeRecords, type TypeRecord } from './ledger.js';
import { noProviderProcessesIn } from './processes.js';
import { applyFollowingTheWayOut, SETUPS, SLOW_MS, untracked, type Moment } from './killed-jobs.js';
import { startStateServer, type StateServer } from './state-server.js';

type Backend = 'local' | 'http';

/** What one provider's trials under one CLI saw. */
interface Tally {
  trials: number;
  skipped: number;
  /** Objects runner A made that its state did not track. */
  leftUntracked: number;
  /** Of those, how many runner B's plan and apply named (they must name all). */
  named: number;
  /** Objects made twice after runner B, with the default (there must be none). */
  duplicatesB: number;
  /** Objects made twice after runner C, with the records A left (there must be none). */
  duplicates: number;
  lines: string[];
}

interface Trial {
  readonly n: number;
  readonly cli: AcceptanceCli;
  readonly options: WorkspaceOptions;
  readonly provider: Provider;
  readonly backend: Backend;
  readonly moment: Moment;
  readonly emulator: EmulatorHandle;
  readonly states: StateServer;
  readonly types: Map<string, TypeRecord>;
  readonly tally: Tally;
}

async function trials(cli: AcceptanceCli, options: WorkspaceOptions, provider: Provider): Promise<Tally> {
  const setup = SETUPS[provider];
  const types = new Map([...typeRecords(loadCases(provider))].filter(([type]) => setup.types.includes(type)));
  const [emulator, states] = await Promise.all([startEmulator[provider]({ provisioningMs: 300 }), startStateServer()]);
  const tally: Tally = { trials: 0, skipped: 0, leftUntracked: 0, named: 0, duplicatesB: 0, duplicates: 0, lines: [] };
  let n = 0;
  try {
    for (const backend of ['local', 'http'] as const)
      for (const moment of setup.moments)
        await trial({ n: ++n, cli, options, provider, backend, moment, emulator, states, types, tally });
  } finally {
    await Promise.all([emulator.close(), states.close()]);
  }
  return tally;
}

async function trial(t: Trial): Promise<void> {
  const { emulator, provider, types, tally } = t;
  const setup = SETUPS[provider];
  const label = `${t.cli.name}, ${provider}, ${t.backend} backend: job killed ${t.moment.afterMs} ms after create ${t.moment.creates}`;
  const stateDir = mkdtempSync(join(tmpdir(), 'keel-state-'));
  const prefix = `f${t.n}`;
  const backend =
    t.backend === 'local'
      ? `backend "local" {\n    path = ${JSON.stringify(join(stateDir, 'terraform.tfstate'))}\n  }`
      : `backend "http" {\n    address = ${JSON.stringify(t.states.address(prefix))}\n  }`;
  const config = setup.config(prefix, backend);
  const runners: Workspace[] = [];
  const runner = () => {
    const ws = new Workspace(config, emulator.env, t.options);
    runners.push(ws);
    return ws;
  };
  const isCreate = isCreateOperation(provider);
  const creates = () => emulator.operations().filter(isCreate).length;
  // The volume every runner of the self-hosted recipe shares: A's records, and C's.
  const volume = mkdtempSync(join(tmpdir(), 'keel-volume-'));
  const shared = { [`${provider.toUpperCase()}_CREATE_RECORDS_DIR`]: volume };
  let kept = false;
  try {
    const baseline = baselineOf(emulator, types);
    const a = runner();
    await a.expect(['init', '-no-color']);
    emulator.setFaultProfile({ seed: t.n, rate: 1, kinds: ['slow'], slowMs: SLOW_MS });
    const before = creates();
    const job = a.start(['apply', '-auto-approve', '-no-color'], shared, { group: true });
    let ended = false;
    void job.done.then(() => (ended = true));
    while (!ended && creates() - before < t.moment.creates) await delay(20);
    await delay(t.moment.afterMs);
    const endedFirst = ended;
    killJob(job.pid);
    const result = await job.done;
    await noProviderProcessesIn(a.configDir, provider, 30_000);
    emulator.setFaultProfile(undefined);
    await delay(SLOW_MS + 500);
    await emulator.atRest();
    if (endedFirst || result.code === 0) {
      tally.skipped++;
      tally.lines.push(`    ${label}: not counted (the apply ended first, exit ${result.code})`);
      return;
    }
    tally.trials++;
    const stored = trackedIds(t, stateDir, prefix);
    const left = untracked(emulator, types, baseline, stored.values);
    tally.leftUntracked += left.length;

    // Runner B: a fresh directory with nothing of A's, the default setting.
    const b = runner();
    await b.expect(['init', '-no-color']);
    const made = () =>
      [...baselineOf(emulator, types)].reduce(
        (sum, [collection, ids]) => sum + [...ids].filter((id) => !baseline.get(collection)?.has(id)).length,
        0,
      );
    const planned = await b.run(['plan', '-json']);
    const applied = await b.run(['apply', '-auto-approve', '-json']);
    const named = new Set<string>();
    // The plan warns of every look-alike, the state's siblings too (it cannot know yet what its walk
    // shows); the apply refuses only what no state holds.
    for (const id of left) if (warningsOf(planned).includes(id) && errorsOf(applied).includes(id)) named.add(id);
    for (const id of stored.ids)
      expect(errorsOf(applied), `${label}: runner B refused ${id}, which the state tracks`).to.not.include(id);
    expect(planned.code, `${label}: runner B's plan only warns`).to.equal(0);
    if (left.length > 0) expect(applied.code, `${label}: runner B's apply`).to.equal(1);
    expect([...named].sort(), `${label}: runner B names every object A left untracked`).to.deep.equal([...left].sort());
    const duplicatesB = Math.max(0, made() - setup.objects);
    tally.duplicatesB += duplicatesB;
    tally.named += named.size;

    // Runner C: a fresh directory, its records on the volume A's were on.
    const c = runner();
    await c.expect(['init', '-no-color'], 0, shared);
    const imported = (await applyFollowingTheWayOut(c, shared)).imported.size;
    await c.expect(['plan', '-detailed-exitcode', '-no-color'], 0, shared);
    const state = await c.state();
    tally.duplicates += made() - setup.objects;
    expectEmulatorHoldsState(emulator, types, baseline, state, `${label}: after runner C`);
    tally.lines.push(
      `    ${label}: A left ${stored.ids.length} stored, ${left.length} untracked; B named ${named.size} (plan and apply) and ` +
        `made ${duplicatesB} duplicates; C, with A's records, imported ${imported} as its outcome-unknown errors said and ` +
        `made ${made() - setup.objects} duplicates`,
    );
    // What this trial made goes, so that the next one starts from the baseline.
    for (const r of state.values()) {
      const record = types.get(r.type);
      if (record) emulator.remove(record.collection, String(r.values[record.key]));
    }
  } catch (err) {
    kept = true;
    console.log(`  ${label}: runners kept in ${runners.map((r) => r.dir).join(', ')}, state in ${stateDir}`);
    throw err;
  } finally {
    emulator.setFaultProfile(undefined);
    if (!kept) {
      for (const r of runners) r.dispose();
      rmSync(stateDir, { recursive: true, force: true });
      rmSync(volume, { recursive: true, force: true });
    }
  }
}

/** SIGKILL to the job's process group: the CLI and every provider it started, at once. */
function killJob(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** What the shared state tracks after the kill, whichever backend holds it. */
function trackedIds(t: Trial, stateDir: string, prefix: string): { ids: string[]; values: StateValues } {
  let doc: unknown;
  if (t.backend === 'http') doc = t.states.state(prefix);
  else
    try {
      doc = JSON.parse(readFileSync(join(stateDir, 'terraform.tfstate'), 'utf8'));
    } catch {
      doc = undefined;
    }
  const values: StateValues = new Map();
  const resources = (doc as { resources?: StateDocResource[] } | undefined)?.resources ?? [];
  for (const r of resources)
    if (r.mode === 'managed')
      (r.instances ?? []).forEach((instance, i) =>
        values.set(`${r.type}.${r.name}[${i}]`, { type: r.type, values: instance.attributes ?? {} }),
      );
  const ids: string[] = [];
  for (const v of values.values()) {
    const record = t.types.get(v.type);
    if (record) ids.push(String(v.values[record.key]));
  }
  return { ids, values };
}

type StateValues = Map<string, { type: string; values: Record<string, unknown> }>;

interface StateDocResource {
  readonly mode: string;
  readonly type: string;
  readonly name: string;
  readonly instances?: { attributes?: Record<string, unknown> }[];
}

/** The error diagnostics of a `-json` run, summary and detail, as one text. */
function errorsOf(run: RunResult): string {
  return jsonLines(run)
    .filter((l) => l.type === 'diagnostic' && l.diagnostic?.severity === 'error')
    .map((l) => `${l.diagnostic!.summary}\n${l.diagnostic!.detail}`)
    .join('\n');
}

/** The warning diagnostics of a `-json` run, summary and detail, as one text. */
function warningsOf(run: RunResult): string {
  return jsonLines(run)
    .filter((l) => l.type === 'diagnostic' && l.diagnostic?.severity === 'warning')
    .map((l) => `${l.diagnostic!.summary}\n${l.diagnostic!.detail}`)
    .join('\n');
}

interface JsonLine {
  readonly type?: string;
  readonly hook?: { action?: string };
  readonly diagnostic?: { severity: string; summary: string; detail: string };
}

function jsonLines(run: RunResult): JsonLine[] {
  return `${run.stdout}\n${run.stderr}`
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as JsonLine);
}

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: a killed CI job re-run on a fresh runner under real ${cli.name}`, function () {
    this.timeout(900_000);
    const runs = new Map<Provider, Promise<Tally>>();

    let mirror: string | undefined;

    before(function () {
      mirror = mkdtempSync(join(tmpdir(), 'keel-mirror-'));
      const options = { ...cli.workspace(this), cliConfig: localMirror(mirror) };
      for (const provider of ['sec', 'vdb'] as const) {
        const run = trials(cli, options, provider);
        run.catch(() => undefined);
        runs.set(provider, run);
      }
    });

    after(async () => {
      const done = await Promise.allSettled(runs.values());
      if (mirror) rmSync(mirror, { recursive: true, force: true });
      const tallies = done.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []));
      const sum = (k: Exclude<keyof Tally, 'lines'>) => tallies.reduce((a, t) => a + t[k], 0);
      console.log(
        `  fresh runners under ${cli.name}: ${sum('trials')} trials counted (${sum('skipped')} not); ` +
          `objects the killed job left untracked: ${sum('leftUntracked')}, named by runner B: ` +
          `${sum('named')}, duplicates after runner B: ${sum('duplicatesB')}; after runner C (shared records): ` +
          `${sum('duplicates')}\n${tallies.flatMap((t) => t.lines).join('\n')}`,
      );
    });

    for (const provider of ['sec', 'vdb'] as const)
      it(`${provider}: a fresh runner refuses each create an untracked object's key holds, naming it; shared records take them back; no duplicate`, async () => {
        const tally = await runs.get(provider)!;
        expect(tally.duplicatesB).to.equal(0);
        expect(tally.duplicates).to.equal(0);
        expect(tally.named).to.equal(tally.leftUntracked);
        expect(tally.trials, `${provider}: trials counted`).to.be.at.least(3);
        expect(tally.leftUntracked, `${provider}: the killed jobs left something untracked`).to.be.above(0);
      });
  });
