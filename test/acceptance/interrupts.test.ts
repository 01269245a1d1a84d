/**
 * Ctrl-C never leaves an untracked object. For each provider, every example (one
 * resource type or more each) runs in one workspace under real Terraform while the emulator answers
 * every call slowly; Terraform is interrupted with SIGINT, as Ctrl-C in a terminal sends it to the
 * whole process group, while it creates, then while it updates, then while it destroys. After each
 * interrupted command the emulator must hold nothing the state does not track; a plain re-run then
 * finishes the job, with every object in the state exactly once and an empty re-plan. The emulator's
 * store is the witness (test/acceptance/ledger.ts), not the provider's words.
 *
 * The two providers run side by side, each against its own emulator and workspace.
 */
import { expect } from 'chai';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import type { RunResult, WorkspaceOptions } from './terraform.js';
import {
  OBJECT_CREATES,
  ExamplesWorkspace,
  expectFields,
  heldObject,
  loadCases,
  startEmulator,
  type Provider,
} from './examples-workspace.js';
import { baselineOf, describeCounts, expectEmulatorHoldsState, typeRecords, type LedgerCheck } from './ledger.js';

/** Every API call is answered this late while Terraform is interrupted, so operations are mid-flight. */
const SLOW_MS = 1_500;
/** How long after the emulator receives the first request of the kind the interrupt comes: while it is still out. */
const INTERRUPT_AFTER_MS = 600;

/** The requests that change something, by kind, as the emulators log them (`<METHOD> <path>` for sec, the gRPC method for vdb). */
const CHANGES = {
  create: OBJECT_CREATES,
  update: /^(PATCH |Update)/,
  delete: /^(DELETE |Delete)/,
};

async function interruptedRun(provider: Provider, cli: string, options: WorkspaceOptions): Promise<void> {
  const cases = loadCases(provider);
  const emulator = await startEmulator[provider]({ provisioningMs: 500 });
  const examples = await ExamplesWorkspace.create(provider, cases, emulator.env, options);
  const { ws } = examples;
  const types = typeRecords(cases);
  const baseline = baselineOf(emulator, types);
  const figures: string[] = [];
  let passed = false;

  /** One command, interrupted while a request of the kind is out; returns the state after it. */
  async function interrupt(args: string[], kinds: readonly RegExp[], check: LedgerCheck) {
    const seen = emulator.operations().length;
    const sent = () =>
      emulator
        .operations()
        .slice(seen)
        .some((op) => kinds.some((kind) => kind.test(op)));
    emulator.setFaultProfile({ seed: 1, rate: 1, kinds: ['slow'], slowMs: SLOW_MS });
    let run: RunResult & { interrupted: boolean };
    try {
      run = await ws.runInterrupted([...args, '-no-color'], sent, INTERRUPT_AFTER_MS);
    } finally {
      emulator.setFaultProfile(undefined);
    }
    // The emulator, like the platform, finishes requests whose client went away: let those still
    // in their slow delay land before looking, or an orphan they make would go unseen.
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 500));
    const what = `${provider}: after the interrupted \`${cli} ${args[0]}\``;
    expect(run.interrupted, `${what}: the interrupt was sent while it ran\n${run.stdout}\n${run.stderr}`).to.equal(
      true,
    );
    expect(run.stdout + run.stderr, `${what}: ${cli} took the interrupt`).to.include('Interrupt received');
    expect(run.code, `${what}: exit code`).to.not.equal(0);
    const state = await ws.state();
    const counts = expectEmulatorHoldsState(emulator, types, baseline, state, what, check);
    figures.push(`    interrupted ${args[0]}: ${describeCounts(counts) || 'nothing in the state'}`);
    return state;
  }

  /** The same command run plainly: it succeeds, and the emulator holds exactly the state's objects. */
  async function finish(args: string[]) {
    await ws.expect([...args, '-no-color']);
    const state = await ws.state();
    const counts = expectEmulatorHoldsState(
      emulator,
      types,
      baseline,
      state,
      `${provider}: after a plain \`${cli} ${args[0]}\``,
    );
    figures.push(`    then plain ${args[0]}: ${describeCounts(counts) || 'nothing in the state'}`);
    return state;
  }

  try {
    // Create, interrupted: what was created is in the state (tainted where a later step was cut off).
    const partial = await interrupt(['apply', '-auto-approve'], [CHANGES.create], { noGhosts: true });
    const complete = await finish(['apply', '-auto-approve']);
    const managed = [...complete.values()].filter((r) => r.mode === 'managed').length;
    const partialManaged = [...partial.values()].filter((r) => r.mode === 'managed').length;
    expect(partialManaged, `${provider}: the interrupt cut the apply short`).to.be.below(managed);
    expect(
      partialManaged,
      `${provider}: creates already sent when the interrupt came finished and are in the state`,
    ).to.be.greaterThan(0);
    for (const c of examples.resources) {
      expect(complete.get(examples.address(c)), `${examples.address(c)} is in the state`).to.not.equal(undefined);
      expectFields(heldObject(c, emulator, complete.get(examples.address(c))!.values), c.created, c.type);
    }
    await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);

    // Update (in place or by replacement), interrupted. A delete that finished after Terraform
    // stopped waiting may leave the state naming a gone object until the next refresh.
    for (const c of examples.resources) if (c.update) examples.substitute(c, c.update.from, c.update.to);
    await interrupt(['apply', '-auto-approve'], [CHANGES.create, CHANGES.update, CHANGES.delete], { noGhosts: false });
    const updated = await finish(['apply', '-auto-approve']);
    for (const c of examples.resources.filter((d) => d.update)) {
      expectFields(
        heldObject(c, emulator, updated.get(examples.address(c))!.values),
        c.update!.expect,
        `${c.type} after update`,
      );
    }
    await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);

    // Destroy, interrupted, then finished: nothing left but destroyed forms.
    await interrupt(['destroy', '-auto-approve'], [CHANGES.update, CHANGES.delete], { noGhosts: false });
    const after = await finish(['destroy', '-auto-approve']);
    expect(
      [...after.values()].filter((r) => r.mode === 'managed'),
      `${provider}: state after destroy`,
    ).to.deep.equal([]);
    passed = true;
  } finally {
    console.log(
      `  ${cli} ${provider}: ${cases.filter((c) => !c.dataSource).length} example resources, every call ${SLOW_MS} ms slow while interrupted\n${figures.join('\n')}`,
    );
    if (passed) examples.dispose();
    else console.log(`  ${cli} ${provider}: workspace kept in ${ws.dir}`);
    await emulator.close();
  }
}

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: Ctrl-C during create, update and destroy under real ${cli.name} leaves nothing untracked`, function () {
    this.timeout(600_000);
    const runs = new Map<Provider, Promise<void>>();

    before(function () {
      const options = cli.workspace(this);
      for (const provider of ['sec', 'vdb'] as const) {
        const run = interruptedRun(provider, cli.command, options);
        run.catch(() => undefined);
        runs.set(provider, run);
      }
    });

    after(() => Promise.allSettled(runs.values()));

    for (const provider of ['sec', 'vdb'] as const) {
      it(`${provider}: after each interrupted command the emulator holds only what the state tracks; plain re-runs finish the job`, async () => {
        await runs.get(provider);
      });
    }
  });
