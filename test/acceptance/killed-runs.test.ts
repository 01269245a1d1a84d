/**
 * A killed run loses nothing (docs/decisions.md, "Creates outlive their process"). Under real
 * Terraform 1.15.5 and OpenTofu, an apply of objects whose names the platforms do not keep unique
 * (8 e-mail channels of one name and 4 resource groups of one name on sec; 4 clusters of one name on
 * vdb) runs against an emulator that answers every call 1.5 s late, so that creates are on the wire,
 * and is killed outright at several moments: its provider process (SIGKILL, as the OOM killer does),
 * or, in other trials, the CLI itself (its providers then live on, orphaned). A trial counts only when
 * a create the emulator received was still unanswered at the kill.
 *
 * After each kill, a plain apply, and the import its "Create outcome unknown" names where the killed
 * request was never answered and the platform gives no creation time (sec's resource groups), must
 * leave the emulator holding exactly what the state tracks (no second object, none untracked) and re-plan empty (a re-run on a fresh runner, whose directory holds
 * no record: fresh-runners.test.ts). The emulator's store is
 * the witness (./ledger.ts), not the provider's words. The re-apply's own output names what it took
 * over. In each provider's first trial, the records are on a volume that a second configuration of the
 * same names shares (a monorepo setting the variable once): between the kill and the re-apply it makes
 * and destroys its own objects, never the killed run's. The two providers run side by side, each
 * against its own emulator; trials of one provider run one after another, each in a new workspace.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ACCEPTANCE_CLIS, type AcceptanceCli } from './real-clients.js';
import { Workspace, type WorkspaceOptions } from './terraform.js';
import {
  isCreateOperation,
  loadCases,
  startEmulator,
  type EmulatorHandle,
  type Provider,
} from './examples-workspace.js';
import { baselineOf, expectEmulatorHoldsState, typeRecords, type TypeRecord } from './ledger.js';
import { killOutright, noProviderProcessesIn, providerProcessesIn } from './processes.js';
import { applyFollowingTheWayOut, SETUPS, SLOW_MS, untracked, type Moment } from './killed-jobs.js';

type Target = 'provider' | 'cli';

/** What one provider's trials under one CLI saw. */
interface Tally {
  trials: number;
  skipped: number;
  untracked: number;
  /** Objects the re-apply could not tell were its own (no creation time), imported as its message said. */
  imported: number;
  lines: string[];
}

async function trials(cli: AcceptanceCli, options: WorkspaceOptions, provider: Provider): Promise<Tally> {
  const setup = SETUPS[provider];
  const types = new Map([...typeRecords(loadCases(provider))].filter(([type]) => setup.types.includes(type))) as Map<
    string,
    TypeRecord
  >;
  const emulator = await startEmulator[provider]({ provisioningMs: 300 });
  const tally: Tally = { trials: 0, skipped: 0, untracked: 0, imported: 0, lines: [] };
  let n = 0;
  try {
    for (const target of ['provider', 'cli'] as const)
      for (const moment of setup.moments) {
        const label = `${cli.name}, ${provider}: ${target} killed ${moment.afterMs} ms after create ${moment.creates}`;
        await killedApply(++n, { cli, options, provider, emulator, types, target, moment, label, tally });
      }
  } finally {
    await emulator.close();
  }
  return tally;
}

interface TrialOptions {
  cli: AcceptanceCli;
  options: WorkspaceOptions;
  provider: Provider;
  emulator: EmulatorHandle;
  types: Map<string, TypeRecord>;
  target: Target;
  moment: Moment;
  label: string;
  tally: Tally;
}

async function killedApply(n: number, t: TrialOptions): Promise<void> {
  const { emulator, provider, types, tally } = t;
  // The first trial keeps its records on a volume that a second configuration of the same names shares
  // (a monorepo setting the variable once); that one applies and destroys between the kill and the re-apply.
  const volume = n === 1 ? mkdtempSync(join(tmpdir(), 'keel-records-volume-')) : undefined;
  const env = { ...emulator.env, ...(volume ? { [`${provider.toUpperCase()}_CREATE_RECORDS_DIR`]: volume } : {}) };
  const ws = new Workspace(SETUPS[provider].config(`k${n}`), env, t.options);
  const baseline = baselineOf(emulator, types);
  const isCreate = isCreateOperation(provider);
  let kept = false;
  try {
    emulator.setFaultProfile({ seed: n, rate: 1, kinds: ['slow'], slowMs: SLOW_MS });
    const seen = emulator.operations().length;
    const run = ws.start(['apply', '-auto-approve', '-no-color']);
    // When each create request arrived, to the 20 ms this polls at.
    const arrivals: number[] = [];
    let ended = false;
    void run.done.then(() => (ended = true));
    while (!ended && arrivals.length < t.moment.creates) {
      const creates = emulator.operations().slice(seen).filter(isCreate).length;
      while (arrivals.length < creates) arrivals.push(Date.now());
      await delay(20);
    }
    await delay(t.moment.afterMs);
    const at = Date.now();
    const endedFirst = ended;
    if (t.target === 'cli') killOutright(run.pid);
    else for (const pid of providerProcessesIn(ws.configDir, provider)) killOutright(pid);
    const result = await run.done;
    // Orphaned providers finish the creates they have on the wire, write them down and exit.
    await noProviderProcessesIn(ws.configDir, provider, 90_000);
    emulator.setFaultProfile(undefined);
    await delay(SLOW_MS + 500);
    await emulator.atRest();
    const creates = emulator.operations().slice(seen).filter(isCreate).length;
    while (arrivals.length < creates) arrivals.push(Date.now());
    const inFlight = arrivals.filter((a) => a <= at && a > at - SLOW_MS + 50).length;
    if (endedFirst || inFlight === 0 || result.code === 0) {
      tally.skipped++;
      const why = endedFirst ? `the apply ended first, exit ${result.code}` : 'no create was on the wire at the kill';
      tally.lines.push(`    ${t.label}: not counted (${why})`);
      return;
    }
    tally.trials++;
    const before = await ws.state().catch(() => new Map());
    const leftBehind = untracked(emulator, types, baseline, before);
    const neighbour = volume ? await secondConfiguration(n, t, env, leftBehind) : '';

    const reapplied = await applyFollowingTheWayOut(ws);
    const imported = reapplied.imported.size;
    tally.imported += imported;
    const state = await ws.state();
    const after = untracked(emulator, types, baseline, state);
    tally.untracked += after.length;
    // Every object the re-apply took over, not imported, it says it took over in its own output.
    const adopted = leftBehind.filter((id) => !after.includes(id) && !reapplied.imported.has(id));
    expect([...reapplied.tookOver].sort(), `${t.label}: the apply's "Took over" warnings`).to.deep.equal(
      adopted.sort(),
    );
    expectEmulatorHoldsState(emulator, types, baseline, state, `${t.label}: after a plain apply`);
    await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
    tally.lines.push(
      `    ${t.label}: ${inFlight} create(s) on the wire, ${leftBehind.length} untracked after the kill, ` +
        `${imported} imported as its outcome-unknown errors said, ${reapplied.tookOver.size} taken over as its output said, ` +
        `${after.length} untracked after the re-apply${neighbour}`,
    );
  } catch (err) {
    kept = true;
    console.log(`  ${t.label}: workspace kept in ${ws.dir}`);
    throw err;
  } finally {
    emulator.setFaultProfile(undefined);
    if (!kept) ws.dispose();
    if (volume) rmSync(volume, { recursive: true, force: true });
  }
}

/**
 * Another configuration of the same names, its records on the killed run's volume, applies and
 * destroys: it makes its own objects, takes none of what the killed run left, and its destroy leaves them.
 */
async function secondConfiguration(
  n: number,
  t: TrialOptions,
  env: Record<string, string>,
  leftBehind: readonly string[],
): Promise<string> {
  const { emulator, provider, types } = t;
  const ids = () => new Set([...types.values()].flatMap((type) => emulator.ids(type.collection)));
  const existing = ids();
  const other = new Workspace(SETUPS[provider].config(`k${n}`), env, t.options);
  try {
    await other.expect(['apply', '-auto-approve', '-no-color'], 0);
    const held = [...(await other.state()).values()].flatMap((r) => {
      const type = types.get(r.type);
      return type ? [String(r.values[type.key])] : [];
    });
    expect(held, `${t.label}: the second configuration's own objects`).to.have.length(SETUPS[provider].objects);
    expect(
      held.filter((id) => existing.has(id)),
      `${t.label}: taken from the killed run`,
    ).to.deep.equal([]);
    await other.expect(['destroy', '-auto-approve', '-no-color'], 0);
    const now = ids();
    expect(
      leftBehind.filter((id) => !now.has(id)),
      `${t.label}: the killed run's objects, all there`,
    ).to.deep.equal([]);
    return `; a second configuration on its records volume made its ${held.length} own and destroyed them`;
  } finally {
    other.dispose();
  }
}

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: a killed run under real ${cli.name} leaves nothing untracked after a plain re-apply`, function () {
    this.timeout(900_000);
    const runs = new Map<Provider, Promise<Tally>>();

    before(function () {
      const options = cli.workspace(this);
      for (const provider of ['sec', 'vdb'] as const) {
        const run = trials(cli, options, provider);
        run.catch(() => undefined);
        runs.set(provider, run);
      }
    });

    after(async () => {
      const done = await Promise.allSettled(runs.values());
      const tallies = done.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []));
      const sum = (k: 'trials' | 'skipped' | 'untracked' | 'imported') => tallies.reduce((a, t) => a + t[k], 0);
      console.log(
        `  killed runs under ${cli.name}: ${sum('trials')} trials counted (${sum('skipped')} not), ` +
          `imported as outcome-unknown errors said: ${sum('imported')}, objects left untracked after the re-apply: ` +
          `${sum('untracked')}\n${tallies.flatMap((t) => t.lines).join('\n')}`,
      );
    });

    for (const provider of ['sec', 'vdb'] as const)
      it(`${provider}: SIGKILL of the provider and of the CLI mid-apply; a plain apply adopts what they made`, async () => {
        const tally = await runs.get(provider)!;
        expect(tally.untracked).to.equal(0);
        expect(tally.trials, `${provider}: trials with a create on the wire at the kill`).to.be.at.least(3);
      });
  });
