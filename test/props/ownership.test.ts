/**
 * Never touch what we did not make, proved for every creating type of both providers,
 * through the real executables and the Terraform-side client, against the emulators.
 *
 * Two provider processes stand for two workspaces, A and B, with the same configuration: the same
 * natural key (names are not unique on most of the platforms' types). A creates its object first;
 * for B, A's object is one made outside its configuration. Then, under each fault kind the emulators
 * model (`drop`: the connection is lost before the platform acts, so the create never happened;
 * `ambiguous`: the platform acts and the answer is lost):
 * - B creates the same configuration: it ends with an object of its own, never A's (where the platform
 *   keeps the key unique, B's apply refuses, naming A's object to import, and nothing is sent);
 *   A's object is untouched, no object is in both states, and B's destroy leaves A's object as it was;
 * - A replaces its object as `create_before_destroy` does (create the new one, then destroy the
 *   deposed one): the new create never adopts the old object, so nothing is lost.
 * The emulator's store is checked against both states after every step (no orphan, no duplicate).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { ProviderDef, ResourceDef } from '../../packages/framework/src/engine/contracts/index.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import { toModel, valueToPlain } from '../../packages/framework/src/schema/model.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { TerraformClient, type PlannedChange, type WireDiagnostic } from '../../src/tfclient/terraform-client.js';
import {
  heldObject,
  isCreateOperation,
  loadCases,
  startEmulator,
  type EmulatorHandle,
  type Provider,
} from '../acceptance/examples-workspace.js';
import {
  baselineOf,
  expectEmulatorHoldsState,
  typeRecords,
  type Baseline,
  type TypeRecord,
} from '../acceptance/ledger.js';
import type { StateResource } from '../acceptance/terraform.js';
import { BIN_DIR, requireTerraform } from '../acceptance/terraform.js';
import { applyExamples, type Bases } from './bases.js';
import type { Subject } from './lifecycle.js';

const DEFS: Record<Provider, ProviderDef<any, any>> = { sec: secDef, vdb: vdbDef };
const PROVIDERS = ['sec', 'vdb'] as const;
const KINDS = ['drop', 'ambiguous'] as const;
type Kind = (typeof KINDS)[number];

/** The emulators' lists never lag, so the pause before a lookup is not needed here. */
const NO_LOOKUP_DELAY = { KEEL_CREATE_LOOKUP_DELAY_MS: '0' };
/** A workspace that makes objects identical to another's: `untracked_objects = "warn"`. */
const SAME_OBJECTS_ON_PURPOSE = { SEC_UNTRACKED_OBJECTS: 'warn', VDB_UNTRACKED_OBJECTS: 'warn' };

interface World {
  readonly provider: Provider;
  readonly emulator: EmulatorHandle;
  readonly bases: Bases;
  readonly a: TerraformClient;
  readonly b: TerraformClient;
  /**
   * A new process of workspace B, for a plan that must be judged as Terraform's plan walk judges it: a
   * process that has applied once is an apply walk's, whose plans judge no look-alike (engine/host/walk.ts).
   */
  readonly planningB: () => Promise<TerraformClient>;
  readonly records: Map<string, TypeRecord>;
  readonly initial: Baseline;
  readonly baseline: Baseline;
  readonly figures: string[];
}

async function startWorld(provider: Provider): Promise<World> {
  const emulator = await startEmulator[provider]({ provisioningMs: 50 });
  try {
    const records = typeRecords(loadCases(provider));
    const initial = baselineOf(emulator, records);
    const bases = await applyExamples(provider, DEFS[provider], emulator);
    const start = async (env: Record<string, string> = {}) => {
      const tf = await TerraformClient.start(join(BIN_DIR, `terraform-provider-${provider}`), {
        ...emulator.env,
        ...NO_LOOKUP_DELAY,
        ...env,
      });
      await tf.configure({});
      return tf;
    };
    // B makes the objects A made, on purpose: it says so, or its plans refuse A's objects as untracked
    // look-alikes (README, "Whose object is it").
    const [a, b] = await Promise.all([start(), start(SAME_OBJECTS_ON_PURPOSE)]);
    const planningB = () => start(SAME_OBJECTS_ON_PURPOSE);
    return {
      provider,
      emulator,
      bases,
      a,
      b,
      planningB,
      records,
      initial,
      baseline: baselineOf(emulator, records),
      figures: [],
    };
  } catch (err) {
    await emulator.close();
    throw err;
  }
}

async function stopWorld(w: World): Promise<void> {
  console.log(
    `      ${w.provider}: ${w.figures.length} creating types\n${w.figures.map((f) => `        ${f}`).join('\n')}`,
  );
  try {
    await Promise.all([w.a.close(), w.b.close()]);
    await w.bases.examples.ws.expect(['destroy', '-auto-approve', '-parallelism=20']);
    expectEmulatorHoldsState(w.emulator, w.records, w.initial, new Map(), `${w.provider} after every test`);
  } finally {
    w.bases.examples.dispose();
    await w.emulator.close();
  }
}

/** One type's run: workspaces A and B, and what each step found. */
class Run {
  readonly fields: Fields;
  readonly config: ObjectValue;
  private readonly states = new Map<string, ObjectValue>();
  readonly notes: string[] = [];

  constructor(
    readonly w: World,
    readonly s: Subject,
    readonly r: ResourceDef<Fields, unknown>,
  ) {
    this.fields = r.schema.fields;
    this.config = w.a.config(w.a.resourceSchema(s.type).block, s.base);
  }

  get lookup() {
    return this.r.findCreated!;
  }

  importIdOf(state: ObjectValue): string {
    return this.lookup.importId(toModel(this.fields, state));
  }

  uniqueFor(planned: PlannedChange): boolean {
    const u = this.lookup.uniqueKey;
    return typeof u === 'function' ? u(toModel(this.fields, planned.planned!)) : u;
  }

  /** What the emulator holds for a state's object, as JSON (undefined: nothing). */
  held(state: ObjectValue): string | undefined {
    const stored = heldObject(this.s.case, this.w.emulator, valueToPlain(state) as Record<string, unknown>);
    return stored === undefined ? undefined : JSON.stringify(stored);
  }

  /** A create through one workspace, with `fault` on its first create request; the result and the create requests it took. */
  async create(
    tf: TerraformClient,
    fault: Kind | null,
  ): Promise<{ state: ObjectValue | null; errors: WireDiagnostic[]; planned: PlannedChange; creates: number }> {
    const planned = await tf.plan(this.s.type, null, this.config);
    const before = this.w.emulator.operations().length;
    if (fault) this.w.emulator.faultNextCreate(fault);
    const { state, errors } = await tf.applyKeepingState(this.s.type, null, planned, this.config);
    const creates = this.w.emulator.operations().slice(before).filter(isCreateOperation(this.w.provider)).length;
    return { state, errors, planned, creates };
  }

  async destroy(tf: TerraformClient, state: ObjectValue): Promise<void> {
    const planned = await tf.plan(this.s.type, state, null);
    await tf.apply(this.s.type, state, planned, null);
  }

  /** Records a workspace's state of the object (null: it holds none) and checks the emulator against all of them. */
  track(workspace: string, state: ObjectValue | null, when: string): void {
    if (state === null) this.states.delete(workspace);
    else this.states.set(workspace, state);
    const tracked = new Map<string, StateResource>();
    for (const [ws, st] of this.states) {
      tracked.set(`${ws}.${this.s.type}`, {
        address: `${ws}.${this.s.type}`,
        mode: 'managed',
        type: this.s.type,
        values: valueToPlain(st) as Record<string, unknown>,
        sensitive_values: {},
      });
    }
    expectEmulatorHoldsState(this.w.emulator, this.w.records, this.w.baseline, tracked, `${this.s.type} ${when}`);
  }

  /** Forgets a workspace's state without a check (it moves to another name). */
  untrack(workspace: string): void {
    this.states.delete(workspace);
  }

  /** How many create requests a faulted create takes when it ends well: the dropped one is sent again; a lost one-time secret is made anew. */
  expectedCreates(kind: Kind, unique: boolean): number {
    if (kind === 'drop' || unique) return 2;
    const oneTime = Object.values(this.fields).some((d) => d.kind === 'attr' && d.options.oneTime);
    return oneTime ? 2 : 1;
  }
}

/**
 * Fields the platform moves on its own as time passes (an environment or a backup becoming ready,
 * a backup's duration once it completes); the vdb emulator brings them up to date when it is read.
 */
const PROGRESS_FIELDS = new Set(['status', 'backupDuration']);

/** The top-level fields in which two stored forms of an object differ (names only: values may be secrets). */
function changedFields(now: string | undefined, before: string | undefined): string[] {
  if (now === undefined || before === undefined) return now === before ? [] : ['(the whole object)'];
  const a = JSON.parse(now) as Record<string, unknown>;
  const b = JSON.parse(before) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => !PROGRESS_FIELDS.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .sort();
}

function expectAlreadyExists(run: Run, errors: readonly WireDiagnostic[], holder: string, when: string): void {
  expect(errors, `${when}: one error`).to.have.length(1);
  const [d] = errors;
  expect(d!.detail, `${when}: names the holder and how to import it`)
    .to.include(`already exists (${holder})`)
    .and.include(`terraform import <address> '${holder}'`);
  expect(d!.detail, when).to.include('was not made by this configuration, so the provider does not take it over');
  void run;
}

async function ownershipRun(w: World, s: Subject): Promise<void> {
  const r = DEFS[w.provider].resources.find((x) => x.typeName === s.type)! as ResourceDef<Fields, unknown>;
  const run = new Run(w, s, r);
  let stateA: ObjectValue | null = null;
  let stateB: ObjectValue | null = null;
  try {
    const first = await run.create(w.a, null);
    expect(first.errors, `${s.type}: A's create`).to.deep.equal([]);
    stateA = first.state!;
    run.track('A', stateA, "after A's create");
    const idA = run.importIdOf(stateA);
    const unique = run.uniqueFor(first.planned);
    const heldA = run.held(stateA);
    expect(heldA, `${s.type}: the emulator holds A's object`).to.not.equal(undefined);

    // Where the platform keeps the key unique, B's apply refuses the create before sending it, naming
    // A's object (its plan warns: a plan cannot know yet whether its walk shows the object); nothing is
    // sent. Otherwise B makes its own, whatever becomes of its answer.
    if (unique) {
      const before = w.emulator.operations().length;
      const planning = await w.planningB();
      const refused = await planning
        .plan(s.type, null, run.config)
        .then((planned) => planning.applyKeepingState(s.type, null, planned, run.config))
        .finally(() => planning.close());
      expect(refused.state, `${s.type}: B's apply`).to.equal(null);
      expect(refused.errors, `${s.type}: B's apply, one error`).to.have.length(1);
      expect(refused.errors[0]!.detail, `${s.type}: B's apply names A's object and how to import it`)
        .to.include(idA)
        .and.include(`terraform import <address> '${idA}'`);
      const sent = w.emulator.operations().slice(before).filter(isCreateOperation(w.provider)).length;
      expect(sent, `${s.type}: B sent no create`).to.equal(0);
    }
    for (const kind of unique ? [] : KINDS) {
      const when = `${s.type}: B's create with its first request ${kind === 'drop' ? 'dropped' : 'answered into the void'}`;
      const out = await run.create(w.b, kind);
      expect(out.creates, `${when}: create requests (the fault hit)`).to.equal(run.expectedCreates(kind, unique));
      expect(out.errors, when).to.deep.equal([]);
      stateB = out.state!;
      expect(run.importIdOf(stateB), `${when}: B's object is its own`).to.not.equal(idA);
      run.track('B', stateB, `${when}`);
      expect(changedFields(run.held(stateA), heldA), `${when}: A's object is untouched`).to.deep.equal([]);
      if (stateB) {
        await run.destroy(w.b, stateB);
        stateB = null;
        run.track('B', null, `${when}, after B's destroy`);
        expect(changedFields(run.held(stateA), heldA), `${when}: B's destroy left A's object as it was`).to.deep.equal(
          [],
        );
      }
    }
    run.notes.push(unique ? 'unique key: B refused before its create was sent, naming A' : 'B made its own');

    // create_before_destroy in A: the replacement is created first, then the deposed object destroyed.
    for (const kind of KINDS) {
      const when = `${s.type}: A's create_before_destroy replacement with its first request ${kind === 'drop' ? 'dropped' : 'answered into the void'}`;
      const heldBefore = run.held(stateA);
      const out = await run.create(w.a, kind);
      expect(out.creates, `${when}: create requests (the fault hit)`).to.equal(run.expectedCreates(kind, unique));
      if (unique) {
        // Terraform keeps the deposed object when its replacement fails.
        expect(out.state, when).to.equal(null);
        expectAlreadyExists(run, out.errors, run.importIdOf(stateA), when);
        expect(changedFields(run.held(stateA), heldBefore), `${when}: the object is untouched`).to.deep.equal([]);
        continue;
      }
      expect(out.errors, when).to.deep.equal([]);
      const replacement = out.state!;
      expect(run.importIdOf(replacement), `${when}: a new object, not the one it replaces`).to.not.equal(
        run.importIdOf(stateA),
      );
      run.track('A-new', replacement, `${when}`);
      await run.destroy(w.a, stateA);
      stateA = replacement;
      run.untrack('A-new');
      run.track('A', stateA, `${when}, after the deposed object's destroy`);
      expect(run.held(stateA), `${when}: the replacement survives the deposed object's destroy`).to.not.equal(
        undefined,
      );
    }
    run.notes.push(unique ? 'replacement refused, original kept' : 'replacement kept');

    await run.destroy(w.a, stateA);
    stateA = null;
    run.track('A', null, 'after the destroy');
    w.figures.push(`${s.type}: ${run.notes.join('; ')}`);
  } finally {
    // A failed run leaves nothing for the next type.
    for (const [tf, st] of [
      [w.a, stateA],
      [w.b, stateB],
    ] as const) {
      if (st) await run.destroy(tf, st).catch(() => undefined);
    }
  }
}

describe('ownership: a lost create answer never takes over an object the create did not make', function () {
  this.timeout(900_000);
  const worlds = new Map<Provider, World>();
  const world = (provider: Provider) => worlds.get(provider) ?? expect.fail(`${provider}: not started`);

  before(async function () {
    requireTerraform(this);
    const started = await Promise.allSettled(PROVIDERS.map(async (p) => worlds.set(p, await startWorld(p))));
    const failed = started.find((x) => x.status === 'rejected');
    if (failed) throw failed.reason;
  });

  after(async () => {
    await Promise.all([...worlds.values()].map(stopWorld));
  });

  for (const provider of PROVIDERS) {
    const creating = DEFS[provider].resources
      .filter((r) => r.findCreated)
      .map((r) => r.typeName)
      .sort();
    describe(provider, () => {
      for (const type of creating) {
        it(`${type}: under dropped and lost answers, a second workspace and a create_before_destroy replacement keep their own objects`, async () => {
          const s =
            world(provider).bases.subjects.find((x) => x.type === type) ?? expect.fail(`${type}: no example applied`);
          await ownershipRun(world(provider), s);
        });
      }
    });
  }
});
