/**
 * Whose object is it, for the state that made it (docs/decisions.md, "Whose object is it"): the records
 * of creates and the notes are kept per state (the backend `terraform init` recorded, with its key or
 * address, and the workspace the client's run began with), a run that ended in order is no killed run's,
 * and a test run reads the states and keeps nothing. Through the engine over the fake platform
 * (fake-thing.ts), in the situations teams are in every day: `terraform test` beside a deployment,
 * environments chosen by backend key, a CI cache of `.terraform` restored from another key, a workspace
 * selected while an apply waits, `state mv` and `state rm`, two configurations on one volume, a request
 * lost before it reached the platform; then a simulation over generated schedules of all of them.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { initBackend, Platform, Run, removeRuns, type RunOptions } from './fake-thing.js';
import { notePlatformDate } from '../../packages/framework/src/wire/platform-clock.js';

const summaries = (diags: { items: readonly { severity: string; summary: string }[] }) =>
  diags.items.map((d) => [d.severity, d.summary]);
const idOf = (state: ObjectValue | null) => (state as { id: string } | null)?.id;
const TEST_RUN = { host: { argv: ['terraform', 'test', '-verbose'] } } as const;
const backendAt = (address: string) => ({ type: 'http', config: { address, username: 'ci', password: 'secret' } });
/** How many schedules the simulation explores (KEEL_SIMULATED_STATE_SCHEDULES for more), from which seed. */
const SIMULATED = Number(process.env.KEEL_SIMULATED_STATE_SCHEDULES ?? 300);
const SIMULATION_SEED = Number(process.env.KEEL_SIMULATED_STATE_SEED ?? 11);

describe('engine: whose object is it, for the state that made it', function () {
  this.timeout(60_000);
  let dir: string;
  let api: Platform;
  let runs = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-states-'));
    api = new Platform();
  });
  afterEach(() => removeRuns(dir));

  /**
   * A `terraform apply` in `where`: its plan walk (which also shows `also`: objects its `removed` blocks
   * forget, or tainted ones it replaces) and its apply walk, one client run; ended in order.
   */
  async function apply(
    where: string,
    name: string,
    options: RunOptions = {},
    also: ReadonlyArray<readonly [ObjectValue, 'forgotten' | 'tainted']> = [],
    /** Done between the two walks, while the apply waits at "yes" (another shell's `workspace select`). */
    meanwhile: () => void = () => {},
  ) {
    const clientRun = options.clientRun ?? `run-${++runs}`;
    const planWalk = await Run.start(api, where, { ...options, clientRun });
    for (const [state, then] of also) await planWalk.showTracked(state, then);
    const plan = await planWalk.plan(name);
    await planWalk.engine.ended();
    meanwhile();
    const applyWalk = await Run.start(api, where, { ...options, clientRun, applyWalk: true });
    const out = await applyWalk.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    await applyWalk.engine.ended();
    return { plan, out };
  }

  /** A destroy of `state`'s object, ended in order. */
  async function destroy(where: string, state: ObjectValue, options: RunOptions = {}) {
    const run = await Run.start(api, where, { ...options, clientRun: `run-${++runs}`, applyWalk: true });
    const out = await run.engine.applyResourceChange('fake_thing', state, null, {});
    await run.engine.ended();
    return out;
  }

  describe('`terraform test` beside a deployment', () => {
    it('the test makes and deletes its own objects, never the deployment’s, and leaves no record', async () => {
      const deployed = await apply(dir, 'x');
      expect(idOf(deployed.out.state)).to.equal('t-1');
      const test = await apply(dir, 'x', TEST_RUN);
      expect(test.plan.diags.items, 'the deployment’s object is another state’s').to.deep.equal([]);
      expect(summaries(test.out.diags)).to.deep.equal([]);
      expect(idOf(test.out.state), 'its own object').to.equal('t-2');
      await destroy(dir, test.out.state!, TEST_RUN);
      expect([...api.things.keys()]).to.deep.equal(['t-1']);
      const creates = join(dir, '.terraform', 'acme-creates', 'fake');
      expect(
        readdirSync(creates).filter((d) => d.includes('testrun')),
        'no record or note of the test',
      ).to.deep.equal([]);
    });

    it('a killed deployment’s record proves nothing to a test run: it never takes that object, and the deployment’s next apply does', async () => {
      await (await Run.start(api, dir, { clientRun: 'deploy' })).createKilled('x', 'killed-after');
      const test = await apply(dir, 'x', TEST_RUN);
      expect(summaries(test.plan.diags), 'no word of a cut-off run').to.deep.equal([]);
      expect(idOf(test.out.state)).to.equal('t-2');
      await destroy(dir, test.out.state!, TEST_RUN);
      const again = await apply(dir, 'x');
      expect(idOf(again.out.state), 'the deployment takes back what its killed run made').to.equal('t-1');
      expect([...api.things.keys()]).to.deep.equal(['t-1']);
    });
  });

  describe('environments chosen by backend key (GitLab state names, Terragrunt)', () => {
    for (const how of ['one working directory, init again', 'a CI cache of .terraform restored from the other key'])
      it(`${how}: preview never takes prod’s object, and its destroy deletes only its own`, async () => {
        const prod = { backend: backendAt('https://ci.example/state/prod') };
        const preview = { backend: backendAt('https://ci.example/state/preview') };
        await (await Run.start(api, dir, { ...prod, clientRun: 'prod' })).createKilled('x', 'killed-after');
        let where = dir;
        if (how.startsWith('a CI cache')) {
          where = mkdtempSync(join(tmpdir(), 'keel-states-cache-'));
          cpSync(join(dir, '.terraform'), join(where, '.terraform'), { recursive: true });
        }
        // `terraform init -reconfigure -backend-config=address=…/preview`.
        initBackend(where, preview.backend);
        const p = await apply(where, 'x', preview);
        expect(summaries(p.plan.diags)).to.deep.equal([]);
        expect(idOf(p.out.state), 'its own object').to.equal('t-2');
        await destroy(where, p.out.state!, preview);
        expect([...api.things.keys()]).to.deep.equal(['t-1']);
        initBackend(where, prod.backend);
        const back = await apply(where, 'x', prod);
        expect(idOf(back.out.state), 'prod takes back what its killed run made').to.equal('t-1');
        if (where !== dir) rmSync(where, { recursive: true, force: true });
      });

    it('a key the platform keeps unique: refused at plan, naming the state that holds it and where its backend keeps it', async () => {
      await apply(dir, 'x', { backend: backendAt('https://ci.example/state/prod'), uniqueNames: true });
      const plan = await (
        await Run.start(api, dir, { backend: backendAt('https://ci.example/state/preview'), uniqueNames: true })
      ).plan('x');
      expect(summaries(plan.diags)).to.deep.equal([['error', 'The thing named "x" exists already']]);
      expect(plan.diags.items[0]!.detail)
        .to.include('workspace "default" of the http backend at https://ci.example/state/prod')
        .and.not.include('secret');
    });
  });

  it('`terraform workspace select w2` while w1’s apply waits at "yes": the apply is w1’s, and w2 never takes what it made', async () => {
    const select = (workspace: string) => writeFileSync(join(dir, '.terraform', 'environment'), workspace);
    initBackend(dir, { type: 'local', config: {} });
    select('w1');
    const planWalk = await Run.start(api, dir, { clientRun: 'w1-apply' });
    const plan = await planWalk.plan('x');
    await planWalk.engine.ended();
    select('w2');
    // The apply walk's process starts now, with w2 selected; it is still w1's run. Killed before it stored the state.
    const applyWalk = await Run.start(api, dir, { clientRun: 'w1-apply', applyWalk: true });
    const made = await applyWalk.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    expect(idOf(made.state)).to.equal('t-1');
    await applyWalk.journal.flush();
    applyWalk.kill();
    const w2 = await apply(dir, 'x');
    expect(summaries(w2.plan.diags), 'no word of a cut-off run of w2').to.deep.equal([]);
    expect(idOf(w2.out.state), "w2's own").to.equal('t-2');
    await destroy(dir, w2.out.state!);
    expect([...api.things.keys()]).to.deep.equal(['t-1']);
    select('w1');
    const w1 = await apply(dir, 'x');
    expect(idOf(w1.out.state), 'w1 takes back what its run made').to.equal('t-1');
  });

  for (const planOfOther of [false, true])
    it(`\`terraform state mv\` into another workspace's state${planOfOther ? ', which plans before' : ''}: the old one refuses it the same way, never takes it back`, async () => {
      const w1 = { workspace: 'w1' };
      const w2 = { workspace: 'w2' };
      const made = await apply(dir, 'x', w1);
      if (planOfOther) {
        const plan = await Run.start(api, dir, { ...w2, clientRun: `run-${++runs}` });
        await plan.showTracked(made.out.state!);
        await plan.engine.ended();
      }
      const again = await apply(dir, 'x', w1);
      expect(summaries(again.out.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      expect(again.out.diags.items[0]!.detail)
        .to.include("This state's notes say it held t-1")
        .and.include('`terraform state mv` into another state');
      expect([...api.things.keys()]).to.deep.equal(['t-1']);
    });

  it('a tainted object replaced in one apply, whose walk reads it and plans a create (never a plan of it), is this state’s: the create goes on', async () => {
    const made = (await apply(dir, 'x')).out.state!;
    const replaced = (await apply(dir, 'x', {}, [[made, 'tainted']])).out;
    expect(replaced.diags.items).to.deep.equal([]);
    expect(idOf(replaced.state)).to.equal('t-2');
  });

  it('a `removed` block and a create of its key in one apply: refused as in two, naming the block (Terraform reads every object of its plan walk but what it forgets)', async () => {
    const made = (await apply(dir, 'x')).out.state!;
    const again = (await apply(dir, 'x', {}, [[made, 'forgotten']])).out;
    expect(summaries(again.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
    expect(again.diags.items[0]!.detail)
      .to.include("This apply's plan forgets t-1 (a `removed` block with `destroy = false`)")
      .and.include('take out the `removed` block (this apply forgets it all the same)')
      .and.include('an `import` block with `id = "t-1"`');
    expect([...api.things.keys()]).to.deep.equal(['t-1']);
  });

  for (const [client, argv] of [
    ['OpenTofu, whose plan walk reads what it forgets', ['tofu', 'apply']],
    ['`-refresh=false`, whose plan walk reads nothing', ['terraform', 'apply', '-refresh=false']],
  ] as const)
    it(`a \`removed\` block and a create of its key in one apply under ${client}: the calls of a tainted object's replacement, so the create goes on`, async () => {
      const host = { argv: [...argv] };
      const made = (await apply(dir, 'x', { host })).out.state!;
      const again = (await apply(dir, 'x', { host }, [[made, 'forgotten']])).out;
      expect(summaries(again.diags)).to.deep.equal([]);
      expect(idOf(again.state)).to.equal('t-2');
    });

  it('a `removed` block applied, then a create of its key: refused, naming the import that takes it back', async () => {
    const made = (await apply(dir, 'x')).out.state!;
    await apply(dir, 'unrelated', {}, [[made, 'forgotten']]);
    const after = (await apply(dir, 'x')).out;
    expect(summaries(after.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
    expect(after.diags.items[0]!.detail)
      .to.include("This state's notes say it held t-1")
      .and.include('a `removed` block');
    expect([...api.things.keys()]).to.deep.equal(['t-1', 't-2']);
  });

  for (const narrowed of ['-target=fake_thing.b', '-exclude=fake_thing.a'])
    it(`a run narrowed with ${narrowed.split('=')[0]}, whose walk leaves out an object of its state: no object taken out of it`, async () => {
      await apply(dir, 'x');
      // `fake_thing.b`, of the same name, is new; `fake_thing.a` holds t-1 and this run's walk leaves it out.
      const out = (await apply(dir, 'x', { host: { argv: ['terraform', 'apply', narrowed] } })).out;
      expect(summaries(out.diags)).to.deep.equal([]);
      expect(idOf(out.state)).to.equal('t-2');
    });

  it('the `local` backend’s legacy `-state=PATH` names the state: one file’s killed run is never another file’s to take', async () => {
    initBackend(dir, { type: 'local', config: {} });
    const a = { host: { argv: ['terraform', 'apply', '-state=a.tfstate'] } };
    const b = { host: { argv: ['terraform', 'apply', '-state', 'b.tfstate'] } };
    await (await Run.start(api, dir, { ...a, clientRun: 'a-killed' })).createKilled('x', 'killed-after');
    const other = await apply(dir, 'x', b);
    expect(summaries(other.plan.diags), 'no word of a cut-off run').to.deep.equal([]);
    expect(idOf(other.out.state), "b's own").to.equal('t-2');
    const back = await apply(dir, 'x', a);
    expect(idOf(back.out.state), 'a takes back what its killed run made').to.equal('t-1');
  });

  it('two configurations on one records volume: neither takes the other’s killed-run object; each takes back its own', async () => {
    const volume = mkdtempSync(join(tmpdir(), 'keel-states-volume-'));
    const other = mkdtempSync(join(tmpdir(), 'keel-states-other-'));
    try {
      const settings = { settings: { untrackedObjects: 'refuse' as const, recordsDir: volume } };
      await (await Run.start(api, dir, { ...settings, clientRun: 'first' })).createKilled('x', 'killed-after');
      const second = await apply(other, 'x', settings);
      expect(summaries(second.plan.diags)).to.deep.equal([]);
      expect(idOf(second.out.state), 'its own object').to.equal('t-2');
      const first = await apply(dir, 'x', settings);
      expect(idOf(first.out.state)).to.equal('t-1');
      expect(api.things.size).to.equal(2);
    } finally {
      rmSync(volume, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  });

  describe('another state’s request cut off with no answer, judged by when the platform made the look-alike', () => {
    const prod = { backend: backendAt('https://ci.example/state/prod') };
    const preview = { backend: backendAt('https://ci.example/state/preview') };
    // The runner's clock and the platform's move on together, as between CI jobs.
    const jobs = () => ({ clock: () => api.clock });

    async function previewCutOff(): Promise<void> {
      initBackend(dir, preview.backend);
      const killed = await Run.start(api, dir, { ...preview, ...jobs(), clientRun: 'preview-killed' });
      await killed.createKilled('x', 'killed-before');
      initBackend(dir, prod.backend);
    }

    it('made minutes after that request: nothing says whose it is, so prod’s create is refused as any untracked look-alike', async () => {
      await previewCutOff();
      api.clock += 10 * 60_000;
      api.foreign('x');
      const out = (await apply(dir, 'x', { ...prod, ...jobs() })).out;
      expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      expect([...api.things.keys()], 'nothing taken, nothing made').to.deep.equal(['foreign-1']);
    });

    it('made while that request was out: preview’s, maybe, so prod makes its own beside it and never refuses or takes it', async () => {
      await previewCutOff();
      api.foreign('x');
      api.clock += 10 * 60_000;
      const out = (await apply(dir, 'x', { ...prod, ...jobs() })).out;
      expect(summaries(out.diags)).to.deep.equal([]);
      expect([...api.things.keys()]).to.deep.equal(['foreign-1', idOf(out.state)]);
    });
  });

  it('a request that may never have reached the platform adopts nothing the platform gives no time for: outcome unknown, naming it', async () => {
    const untimed = { withTime: false };
    await (await Run.start(api, dir, { ...untimed, clientRun: 'killed' })).createKilled('x', 'killed-before');
    // Another configuration makes the same object afterwards.
    api.foreign('x');
    const out = (await apply(dir, 'x', untimed)).out;
    expect(summaries(out.diags)).to.deep.equal([['error', 'Create outcome unknown']]);
    expect(out.diags.items[0]!.detail).to.include('foreign-1').and.include('may never have reached the platform');
    expect([...api.things.keys()], 'nothing taken, nothing made').to.deep.equal(['foreign-1']);
  });

  it('a `create_before_destroy` replacement cut off after its create: the next plan’s read names the new object, with steps that work', async () => {
    const first = await apply(dir, 'x');
    // `terraform apply -replace=…`: its plan walk shows the object it replaces, the apply makes the new
    // object first, and the job is killed before it stored the state.
    const planWalk = await Run.start(api, dir, { clientRun: 'replace' });
    await planWalk.showTracked(first.out.state!);
    await planWalk.engine.ended();
    const replacing = await Run.start(api, dir, { clientRun: 'replace', applyWalk: true });
    const made = await replacing.create('x');
    expect(idOf(made.state)).to.equal('t-2');
    await replacing.journal.flush();
    replacing.kill();
    // A plain re-apply plans no change: its walk reads what the state holds.
    const walk = await Run.start(api, dir, { clientRun: 'again' });
    const read = await walk.engine.readWithIdentity('fake_thing', first.out.state!, {}, null);
    expect(summaries(read.diags)).to.deep.equal([['warning', 'A cut-off run made another the thing named "x"']]);
    expect(read.diags.items[0]!.detail)
      .to.include('made t-2 for the thing named "x", which this state does not hold: it still holds t-1')
      .and.include('`terraform apply -replace=<address>`')
      .and.include('`terraform state rm <address>`, then')
      .and.include('id = "t-2"');
    // Applied again with -replace: it takes t-2 over instead of making a third.
    const again = await apply(dir, 'x');
    expect(idOf(again.out.state)).to.equal('t-2');
    expect(api.things.size).to.equal(2);
  });

  it('a `create_before_destroy` replacement cut off with its request out: the next read names what the platform made, and -replace again takes it over', async () => {
    const first = await apply(dir, 'x');
    const planWalk = await Run.start(api, dir, { clientRun: 'replace' });
    await planWalk.showTracked(first.out.state!);
    await planWalk.engine.ended();
    // The platform makes the new object; its answer never reaches the process, killed with the request out.
    await (await Run.start(api, dir, { clientRun: 'replace', applyWalk: true })).createKilled('x', 'killed-after');
    const walk = await Run.start(api, dir, { clientRun: 'again' });
    const read = await walk.engine.readWithIdentity('fake_thing', first.out.state!, {}, null);
    expect(summaries(read.diags)).to.deep.equal([['warning', 'A cut-off run made another the thing named "x"']]);
    expect(read.diags.items[0]!.detail)
      .to.include('the platform made t-2 since, which that request may have made')
      .and.include('it still holds t-1');
    const again = await apply(dir, 'x');
    expect(idOf(again.out.state)).to.equal('t-2');
    expect(api.things.size).to.equal(2);
  });

  describe('a killed request’s window, measured on the platform’s clock (its answers’ `Date`)', () => {
    /** The runner's clock `ahead` ms ahead of the platform's, whose answers are dated. */
    function skewed(ahead: number): RunOptions {
      api.dates = true;
      api.runnerAheadMs = ahead;
      return { clock: () => api.clock + ahead };
    }
    // The platform's clock as the next tests' answers show it again.
    afterEach(() => notePlatformDate(new Date().toUTCString()));

    it('the runner two minutes behind: the killed run’s own object is taken back the next minute', async () => {
      const runner = skewed(-120_000);
      await (await Run.start(api, dir, { ...runner, clientRun: 'killed' })).createKilled('x', 'killed-after');
      api.clock += 60_000;
      const again = await apply(dir, 'x', runner);
      expect(summaries(again.out.diags)).to.deep.equal([['warning', 'Took over t-1, which a cut-off run made']]);
      expect(idOf(again.out.state)).to.equal('t-1');
    });

    it('the runner two minutes ahead: another configuration’s look-alike made 100 s after the request is never taken', async () => {
      const runner = skewed(120_000);
      await (await Run.start(api, dir, { ...runner, clientRun: 'killed' })).createKilled('x', 'killed-before');
      api.clock += 100_000;
      api.foreign('x');
      const again = await apply(dir, 'x', runner);
      expect(summaries(again.out.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      expect([...api.things.keys()]).to.deep.equal(['foreign-1']);
    });
  });

  it('a destroy’s validation and plan judge nothing a create would need (a value whose time has passed)', async () => {
    const config: ObjectValue = { id: null, name: 'x', color: 'expired', token: null, made_at: null };
    // A plan of the same configuration refuses the value, at its validation and its plan…
    const plain = await Run.start(api, dir, { host: { argv: ['terraform', 'plan'] } });
    expect(summaries(plain.engine.validateResourceConfig('fake_thing', config))).to.deep.equal([
      ['error', 'Invalid value for "color"'],
    ]);
    expect(summaries((await plain.plan('x', 'expired')).diags)).to.deep.equal([['error', 'Invalid value for "color"']]);
    // …and the validation and plan Terraform make before a destroy, which sends nothing of them, do not.
    const destroying = await Run.start(api, dir, { host: { argv: ['terraform', 'destroy'] } });
    expect(destroying.engine.validateResourceConfig('fake_thing', config).items).to.deep.equal([]);
    expect((await destroying.plan('x', 'expired')).diags.items).to.deep.equal([]);
  });

  /**
   * A simulation over generated schedules of what teams do with several states of one configuration:
   * states told apart by workspace, backend key and working directory, records on a shared volume or in
   * each directory; applies that end in order, are killed with the request out, after the platform made
   * the object, or after the answer with the state never stored; test runs; destroys; `state rm`,
   * `state mv`, and `removed` blocks with a create of the same key in the same apply (refused under
   * Terraform; under OpenTofu or `-refresh=false` made, as a tainted object's replacement is, unless an
   * object taken out of the state before holds the key); the runner's
   * clock two minutes off the platform's either way. Ground truth is which state's run made each object.
   */
  it('over generated schedules of states, kills, tests, destroys, state rm, state mv and removed blocks: no state takes, changes or deletes another’s object; no duplicate; no refusal of a state’s own killed-run object its record proves', async function () {
    this.timeout(600_000);
    let seed = SIMULATION_SEED;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pick = <T>(choices: readonly T[]): T => choices[Math.floor(next() * choices.length)]!;
    let steps = 0;
    for (let round = 0; round < SIMULATED; round++) {
      api = new Platform();
      await removeRuns(dir);
      dir = mkdtempSync(join(tmpdir(), 'keel-states-'));
      const otherDir = join(dir, 'other');
      const volume = next() < 0.5 ? join(dir, 'volume') : undefined;
      // Runs minutes apart, as jobs are: the runner's clock and the platform's move on together, the runner's
      // two minutes off either way in some rounds; the platform's answers are dated, so windows are measured
      // on its clock (the providers' processes each learn it from their first answer: here, one module).
      const ahead = pick([0, 0, 120_000, -120_000]);
      api.dates = true;
      api.runnerAheadMs = ahead;
      notePlatformDate(new Date(api.clock).toUTCString(), api.clock + ahead);
      const clock = () => api.clock + ahead;
      const records = volume ? { settings: { untrackedObjects: 'refuse' as const, recordsDir: volume } } : {};
      const settings = { ...records, clock };
      interface SimState {
        readonly label: string;
        readonly where: string;
        readonly options: RunOptions;
        readonly held: Map<string, string>;
        /** Objects its killed runs made that its records prove: name → id (answered) or the id made (unanswered). */
        readonly orphans: Map<string, { id: string; answered: boolean }>;
        /** The objects it held and no longer holds (state rm, state mv), by name. */
        readonly removed: Map<string, string>;
        /** The objects its `removed` blocks left on the platform. */
        readonly forgotten: string[];
        /** Every object ever taken out of it on purpose (`removed` keeps the last of each name only). */
        readonly takenOut: Set<string>;
      }
      const state = (label: string, where: string, options: RunOptions): SimState => ({
        label,
        where,
        options: { ...settings, ...options },
        held: new Map(),
        orphans: new Map(),
        removed: new Map(),
        forgotten: [],
        takenOut: new Set(),
      });
      const states = [
        state('prod', dir, { backend: backendAt('https://ci.example/state/prod') }),
        state('preview', dir, { backend: backendAt('https://ci.example/state/preview') }),
        state('prod/w2', dir, { backend: backendAt('https://ci.example/state/prod'), workspace: 'w2' }),
        state('other configuration', otherDir, {}),
      ];
      const madeBy = new Map<string, string>();
      const history: string[] = [];
      const enter = (s: SimState) => {
        if (s.options.backend) initBackend(s.where, s.options.backend);
        else rmSync(join(s.where, '.terraform', 'terraform.tfstate'), { force: true });
      };
      const noteNew = (before: ReadonlySet<string>, who: string) => {
        for (const id of api.things.keys()) if (!before.has(id)) madeBy.set(id, who);
      };
      const heldAnywhere = () => new Set(states.flatMap((s) => [...s.held.values()]));
      for (let step = 0; step < 7; step++, steps++) {
        const s = pick(states);
        const name = pick(['x', 'y']);
        const op = pick(['apply', 'apply', 'apply', 'killed', 'test', 'destroy', 'rm', 'mv', 'removed'] as const);
        const about = () => `round ${round}: ${history.join('; ')}`;
        api.clock += 5 * 60_000;
        const before = new Set(api.things.keys());
        // Objects of `name` whose maker's records and notes `s` cannot read (another folder, no shared
        // volume), or that `s` held and no longer holds: nothing `s` knows says whose they are.
        const unknownToS = [...api.things.values()].some(
          (t) =>
            t.name === name &&
            (s.removed.get(name) === t.id ||
              s.forgotten.includes(t.id) ||
              states.some((o) => o.label === madeBy.get(t.id) && o.where !== s.where && !volume)),
        );
        /**
         * What a create of `name` in `s` must come to, in a plain apply or beside a `removed` block: its killed
         * run's object back, one refusal where nothing `s` reads says whose a look-alike is, else no error.
         */
        const expectCreate = (made: string | undefined, errors: readonly string[]) => {
          const orphan = s.orphans.get(name);
          if (orphan?.answered) {
            expect(made, `${s.label} takes back its killed run's ${orphan.id}, ${about()}`).to.equal(orphan.id);
            return 'killed run';
          }
          if (orphan) {
            // Unanswered: its own object, or, where another state's request was out at the same time, unknown.
            expect(made === orphan.id || errors.includes('Create outcome unknown'), `${about()}`).to.equal(true);
            return 'killed run';
          }
          if (unknownToS) {
            expect(errors, `an object nothing ${s.label} reads says whose it is, ${about()}`).to.have.length(1);
            return 'refused';
          }
          expect(errors, `not refused, ${about()}`).to.deep.equal([]);
          return 'made';
        };
        enter(s);
        if (op === 'apply' || op === 'test') {
          if (op === 'apply' && s.held.has(name)) continue;
          let options = op === 'test' ? { ...s.options, ...TEST_RUN } : s.options;
          // Some applies of a workspace selected by `terraform workspace select` (not TF_WORKSPACE) have another
          // workspace of the same backend selected in another shell while they wait at "yes": still their run.
          const sibling = states.find(
            (o) =>
              o !== s &&
              o.where === s.where &&
              s.options.backend !== undefined &&
              JSON.stringify(o.options.backend) === JSON.stringify(s.options.backend),
          );
          const environment = join(s.where, '.terraform', 'environment');
          const select = (workspace: string | undefined) => writeFileSync(environment, workspace ?? 'default');
          const switched = op === 'apply' && sibling !== undefined && next() < 0.3;
          let meanwhile = () => {};
          if (switched) {
            const { workspace, ...selected } = options;
            options = selected;
            select(workspace);
            meanwhile = () => select(sibling.options.workspace);
          }
          history.push(
            `${op} ${name} in ${s.label}${switched ? `, ${sibling!.label} selected before its apply walk` : ''}`,
          );
          const { out } = await apply(s.where, name, options, [], meanwhile).finally(() =>
            rmSync(environment, { force: true }),
          );
          const id = idOf(out.state);
          const errors = out.diags.items.filter((d) => d.severity === 'error').map((d) => d.summary);
          if (id !== undefined && before.has(id))
            expect(madeBy.get(id), `${id} taken over by ${s.label}, ${about()}`).to.equal(s.label);
          noteNew(before, op === 'test' ? 'test' : s.label);
          if (op === 'test') {
            if (id !== undefined) await destroy(s.where, out.state!, TEST_RUN);
            expect(
              [...api.things.keys()].filter((k) => !before.has(k)),
              `a test leaves nothing, ${about()}`,
            ).to.deep.equal([]);
            if (!unknownToS) expect(errors, `a test is refused nothing, ${about()}`).to.deep.equal([]);
            continue;
          }
          expectCreate(id, errors);
          if (id !== undefined) {
            s.held.set(name, id);
            s.orphans.delete(name);
            s.removed.delete(name);
          }
        } else if (op === 'killed') {
          if (s.held.has(name) || s.orphans.has(name) || s.removed.has(name)) continue;
          const at = pick(['killed-before', 'killed-after', 'never stored'] as const);
          history.push(`${at} ${name} in ${s.label}`);
          const run = await Run.start(api, s.where, { ...s.options, clientRun: `run-${++runs}`, applyWalk: true });
          if (at === 'never stored') {
            const out = await run.create(name);
            await run.journal.flush();
            run.kill();
            if (idOf(out.state) === undefined) continue;
          } else {
            api.fates.push(at);
            api.expectRequest();
            const create = run.create(name);
            const reached = await Promise.race([api.reached.then(() => true), create.then(() => false)]);
            if (!reached) {
              api.fates.length = 0;
              continue;
            }
            run.kill();
          }
          noteNew(before, s.label);
          const made = [...api.things.keys()].find((k) => !before.has(k));
          if (made) s.orphans.set(name, { id: made, answered: at === 'never stored' });
        } else if (op === 'removed') {
          // A `removed` block forgets the object, and a new resource of the same key, in one apply. Under
          // Terraform the forgotten object is the only one its plan walk does not read: refused, as in two
          // applies. Under OpenTofu (which reads it) or with `-refresh=false` (nothing read), the same calls
          // as a tainted object's replacement: the apply makes the new object, unless an object of the key
          // that nothing `s` reads says whose it is exists beside (one an earlier `removed` block or `state
          // rm` took out of `s`): refused, as in any apply. The forget is done either way.
          const id = s.held.get(name);
          if (id === undefined) continue;
          const client = pick(['terraform', 'terraform', 'tofu', '-refresh=false'] as const);
          history.push(`removed ${name} and created it again in ${s.label} (${client})`);
          const forgotten = { id, name, color: 'blue', token: null, made_at: null };
          const argv =
            client === 'tofu'
              ? ['tofu', 'apply']
              : ['terraform', 'apply', ...(client === '-refresh=false' ? [client] : [])];
          const { out } = await apply(s.where, name, { ...s.options, host: { argv } }, [[forgotten, 'forgotten']]);
          const made = idOf(out.state);
          const errors = out.diags.items.filter((d) => d.severity === 'error').map((d) => d.summary);
          s.held.delete(name);
          s.forgotten.push(id);
          if (client === 'terraform') {
            expect(made, `refused beside what it forgets, ${about()}`).to.equal(undefined);
            expect(errors, `one refusal, ${about()}`).to.have.length(1);
          } else {
            const verdict = expectCreate(made, errors);
            if (verdict === 'refused') expect(made, `nothing made, ${about()}`).to.equal(undefined);
            if (verdict === 'made')
              expect(made !== undefined && !before.has(made), `a new object, ${about()}`).to.equal(true);
          }
          noteNew(before, s.label);
          if (made !== undefined) {
            s.held.set(name, made);
            s.orphans.delete(name);
          }
        } else if (op === 'destroy') {
          const id = s.held.get(name);
          if (id === undefined) continue;
          history.push(`destroy ${name} in ${s.label}`);
          await destroy(s.where, { id, name, color: 'blue', token: null, made_at: null }, s.options);
          s.held.delete(name);
        } else {
          const id = s.held.get(name);
          if (id === undefined) continue;
          s.held.delete(name);
          s.removed.set(name, id);
          s.takenOut.add(id);
          if (op === 'mv') {
            const to = pick(states.filter((t) => t !== s && !t.held.has(name) && t.where === s.where));
            if (to) {
              history.push(`state mv ${name} from ${s.label} to ${to.label}`);
              to.held.set(name, id);
              // Its next plan shows it (the walk's notes).
              enter(to);
              const walk = await Run.start(api, to.where, { ...to.options, clientRun: `run-${++runs}` });
              await walk.showTracked({ id, name, color: 'blue', token: null, made_at: null });
              await walk.engine.ended();
              continue;
            }
          }
          history.push(`state rm ${name} in ${s.label}`);
        }
        // No state's object is gone but by its own destroy.
        for (const id of heldAnywhere()) expect(api.things.has(id), `${id} is still there, ${about()}`).to.equal(true);
      }
      // No state made a second object of one name while its first was its own to take back: every object
      // a state made is held by a state, still its killed run's to take back, or taken out of it on purpose.
      const accounted = new Set([
        ...heldAnywhere(),
        ...states.flatMap((s) => [...s.orphans.values()].map((o) => o.id)),
        ...states.flatMap((s) => [...s.takenOut, ...s.forgotten]),
      ]);
      for (const [id, who] of madeBy)
        if (api.things.has(id))
          expect(
            accounted.has(id),
            `${id} made by ${who} is no duplicate: round ${round}: ${history.join('; ')}`,
          ).to.equal(true);
    }
    expect(steps).to.be.greaterThan(SIMULATED);
    // The platform's clock as the next tests' answers show it again.
    notePlatformDate(new Date().toUTCString());
  });
});
