/**
 * A killed CI job re-run on a fresh runner (src/engine/create-lookalikes.ts; README, "Killed CI jobs
 * and fresh runners"): the new runner's directory holds no record, only the state carried over, so
 * what the killed job made but never stored is an untracked look-alike of the creates its plan asks
 * for. Each mode of `untracked_objects` is shown through the engine over a fake platform, with the
 * walks Terraform runs: a plan walk that shows what its state holds as it goes, and an apply walk, a
 * new process, that shows only what it changes.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UntrackedObjects } from '../../src/engine/create-settings.js';
import { journalPlace } from '../../src/engine/create-journal.js';
import { createSettingsOf } from '../../src/resources/shared/create-settings.js';
import { Platform, Run, model, records, type RunOptions } from './fake-thing.js';

const mode = (untrackedObjects: UntrackedObjects, more: RunOptions = {}): RunOptions => ({
  ...more,
  settings: { untrackedObjects, ...more.settings },
});

describe('engine: untracked look-alikes of a plan’s creates (a killed job re-run on a fresh runner)', function () {
  this.timeout(20_000);
  let dir: string;
  let api: Platform;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-untracked-'));
    api = new Platform();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A job killed after the platform made the object, then a fresh runner: no `.terraform` left. */
  async function killedOnAnotherRunner(name = 'x'): Promise<void> {
    await (await Run.start(api, dir)).createKilled(name, 'killed-after');
    rmSync(join(dir, '.terraform'), { recursive: true });
  }

  it('refuse, the default: the plan fails before anything is created, naming the object and the import that adopts it', async () => {
    await killedOnAnotherRunner();
    const plan = await (await Run.start(api, dir)).plan('x');
    expect(plan.diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([
      ['error', 'The thing named "x" exists already, untracked'],
    ]);
    const { detail } = plan.diags.items[0]!;
    expect(detail).to.include('t-1 (made or last changed').and.include('no state this run read tracks it');
    expect(detail).to.include(`import { to = <this resource's address> id = "t-1" }`);
    expect(detail).to.include('Nothing was created').and.include('`untracked_objects`');
    expect(api.creates).to.equal(1);
  });

  it('warn: the plan names it and the apply creates a second object', async () => {
    await killedOnAnotherRunner();
    const run = await Run.start(api, dir, mode('warn'));
    const plan = await run.plan('x');
    expect(plan.diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([
      ['warning', 'The thing named "x" may exist already'],
    ]);
    const out = await run.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    expect((out.state as { id: string }).id).to.equal('t-2');
  });

  it('adopt: the plan says it takes the object over, and the apply walk, a new process, adopts it without a create', async () => {
    await killedOnAnotherRunner();
    const plan = await (await Run.start(api, dir, mode('adopt'))).plan('x');
    expect(plan.diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([
      ['warning', 'The thing named "x" is taken over, not created'],
    ]);
    const apply = await Run.start(api, dir, mode('adopt', { applyWalk: true }));
    const replan = await apply.plan('x');
    expect(replan.diags.items, 'the apply walk says nothing more').to.deep.equal([]);
    const out = await apply.engine.applyResourceChange('fake_thing', null, replan.planned, replan.plannedPrivate);
    expect(out.diags.items).to.deep.equal([]);
    expect((out.state as { id: string }).id).to.equal('t-1');
    expect(api.creates, 'no create request after the killed one').to.equal(1);
    expect(api.things.size).to.equal(1);
  });

  it('adopt: each create of the key takes over one look-alike, and leaves the others alone', async () => {
    // Two killed jobs, each re-run on a fresh runner.
    await killedOnAnotherRunner('twin');
    await killedOnAnotherRunner('twin');
    await killedOnAnotherRunner('twin');
    // Two creates of the key in one plan walk, three look-alikes.
    const planRun = await Run.start(api, dir, mode('adopt'));
    const plans = await Promise.all([planRun.plan('twin'), planRun.plan('twin')]);
    expect(plans.flatMap((p) => p.diags.items.map((d) => [d.severity, d.summary]))).to.deep.equal([
      ['warning', 'The thing named "twin" is taken over, not created'],
      ['warning', 'The thing named "twin" is taken over, not created'],
    ]);
    expect(plans[0]!.diags.items[0]!.detail).to.include('3 objects').and.include('t-1').and.include('t-3');
    const apply = await Run.start(api, dir, mode('adopt', { applyWalk: true }));
    const outs = await Promise.all(
      plans.map((p) => apply.engine.applyResourceChange('fake_thing', null, p.planned, p.plannedPrivate)),
    );
    const taken = outs.map((o) => (o.state as { id: string }).id);
    expect(new Set(taken).size, 'two different objects').to.equal(2);
    expect(taken.every((id) => ['t-1', 't-2', 't-3'].includes(id))).to.equal(true);
    expect(api.creates, 'no create after the three killed ones').to.equal(3);
    expect(api.things.size).to.equal(3);
  });

  it('adopt without records (KEEL_CREATE_RECORDS=off) cannot carry the plan to the apply: it refuses', async () => {
    await killedOnAnotherRunner();
    const run = await Run.start(api, dir, mode('adopt', { records: false }));
    const plan = await run.plan('x');
    expect(plan.diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([
      ['error', 'The thing named "x" exists already, untracked'],
    ]);
  });

  it('a plan’s adoption counts only while the setting says adopt', async () => {
    await killedOnAnotherRunner();
    await (await Run.start(api, dir, mode('adopt'))).plan('x');
    const apply = await Run.start(api, dir, mode('warn', { applyWalk: true }));
    const out = await apply.create('x');
    expect((out.state as { id: string }).id).to.equal('t-2');
  });

  it('names no object the walk shows tracked, even when the walk shows it after the check began', async () => {
    const first = await Run.start(api, dir);
    const stored = await first.create('twin');
    await first.createKilled('twin', 'killed-after');
    rmSync(join(dir, '.terraform'), { recursive: true });
    // The plan walk: a create of the key, and the stored sibling's upgrade 150 ms later, within the
    // quiet the check waits for.
    const walk = await Run.start(api, dir, { recovery: { settleQuietMs: 300 } });
    const [plan] = await Promise.all([
      walk.plan('twin'),
      new Promise((resolve) => setTimeout(resolve, 150)).then(() => walk.upgrade(stored.state!)),
    ]);
    expect(plan.diags.items.map((d) => d.summary)).to.deep.equal(['The thing named "twin" exists already, untracked']);
    expect(plan.diags.items[0]!.detail).to.include('t-2').and.not.include('t-1');
  });

  it('a walk that shows every object the look-alikes hold says nothing, and marks them for the walk after it', async () => {
    const first = await Run.start(api, dir);
    const stored = await first.create('twin');
    rmSync(join(dir, '.terraform'), { recursive: true });
    const walk = await Run.start(api, dir);
    const [plan] = await Promise.all([
      walk.plan('twin'),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() => walk.upgrade(stored.state!)),
    ]);
    expect(plan.diags.items).to.deep.equal([]);
    // A client that does not say which walk it is (OpenTofu): its apply walk shows nothing of the
    // sibling, and the mark tells it the sibling is tracked.
    const apply = await Run.start(api, dir);
    const replan = await apply.plan('twin');
    expect(replan.diags.items).to.deep.equal([]);
  });

  it('Terraform’s apply walk never judges look-alikes: the plan walk did, with what it showed', async () => {
    await killedOnAnotherRunner();
    const apply = await Run.start(api, dir, { applyWalk: true });
    expect((await apply.plan('x')).diags.items).to.deep.equal([]);
  });

  it('the creates of the same run are neither cut off nor look-alikes', async () => {
    const run = await Run.start(api, dir);
    const first = await run.create('twin');
    expect(first.diags.items).to.deep.equal([]);
    // An apply walk that cannot say so (OpenTofu) plans its second create after the first was made.
    const second = await run.plan('twin');
    expect(second.diags.items).to.deep.equal([]);
  });

  it('records in `create_records_dir` carry a killed job to a fresh runner: its object is adopted, not made again', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'keel-records-'));
    try {
      const settings = { untrackedObjects: 'refuse' as const, recordsDir: cache };
      await (await Run.start(api, dir, { settings })).createKilled('x', 'killed-after');
      expect(records(dir), 'nothing in the data directory').to.deep.equal([]);
      const fresh = mkdtempSync(join(tmpdir(), 'keel-fresh-'));
      try {
        const run = await Run.start(api, fresh, { settings });
        const plan = await run.plan('x');
        expect(plan.diags.items.map((d) => d.summary)).to.deep.equal([
          'An earlier run was cut off while creating the thing named "x"',
        ]);
        const out = await run.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
        expect((out.state as { id: string }).id).to.equal('t-1');
        expect(api.creates).to.equal(1);
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('the settings: the provider block wins, the environment fills in, refuse by default, anything else refused at its path', () => {
    const none = { untracked_objects: null, create_records_dir: null };
    expect(createSettingsOf(none, {}, 'SEC')).to.deep.equal({ untrackedObjects: 'refuse' });
    expect(
      createSettingsOf(none, { VDB_UNTRACKED_OBJECTS: 'adopt', VDB_CREATE_RECORDS_DIR: '/c' }, 'VDB'),
    ).to.deep.equal({
      untrackedObjects: 'adopt',
      recordsDir: '/c',
    });
    const given = { untracked_objects: 'warn', create_records_dir: 'keel' };
    expect(createSettingsOf(given, { SEC_UNTRACKED_OBJECTS: 'adopt' }, 'SEC')).to.deep.equal({
      untrackedObjects: 'warn',
      recordsDir: 'keel',
    });
    expect(() => createSettingsOf(none, { SEC_UNTRACKED_OBJECTS: 'yes' }, 'SEC'))
      .to.throw('must be one of "refuse", "warn", "adopt", got "yes"')
      .with.property('path')
      .that.deep.equals([{ attr: 'untracked_objects' }]);
    expect(() => createSettingsOf({ ...none, create_records_dir: ' ' }, {}, 'SEC')).to.throw('is set but empty');
    expect(journalPlace('sec', {}, dir).root).to.equal(join(dir, '.terraform', 'keel-creates', 'sec', 'default'));
  });

  it('an untracked object the plan does not match (other settings) is not named', async () => {
    await killedOnAnotherRunner();
    const plan = await (await Run.start(api, dir)).plan('x', 'red');
    expect(plan.diags.items).to.deep.equal([]);
    expect(model(api.things.get('t-1')!).color).to.equal('blue');
  });
});
