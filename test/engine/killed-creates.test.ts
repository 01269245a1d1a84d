/**
 * Creates that outlive their process: the rule (packages/framework/src/engine/creates/create-records.ts) over the
 * journal
 * (packages/framework/src/engine/journal/create-journal.ts), through the engine with a fake API, one engine per run on
 * one
 * working directory. A run is killed by abandoning its create mid-request and freezing its clock,
 * so that its journal last saw it alive then (as a SIGKILLed process's journal does); the next run
 * in the same directory must find what it made, adopt it only on the evidence, and name it otherwise.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalPlace } from '../../packages/framework/src/engine/journal/index.js';
import { recordsUnder } from '../support/create-records.js';
import { Platform, Run, model, records, removeRuns } from './fake-thing.js';

describe('engine: a killed run loses nothing (the create journal)', function () {
  this.timeout(20_000);
  let dir: string;
  let api: Platform;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-killed-'));
    api = new Platform();
  });
  afterEach(() => removeRuns(dir));

  it('writes the record before the request leaves, with digests and ids but no value of the configuration', async () => {
    const run = await Run.start(api, dir);
    await run.createKilled('ops-channel', 'killed-before', 'turquoise');
    const [record] = recordsUnder(journalPlace({ namespace: 'acme', name: 'fake' }, {}, dir).root);
    expect(record!.name).to.match(/^r~fake_thing~[0-9a-f]{16}~[0-9a-f]{16}~sent~/);
    expect(record!.log, 'a line of its process’s log').to.match(/^l~\d+~\d+~[0-9a-f]+$/);
    const text = record!.text;
    const content = JSON.parse(text).sent;
    expect(content).to.deep.include({ provider: 'fake', type: 'fake_thing', workspace: 'default', id: null });
    expect(content.api).to.equal('https://fake.example');
    expect(text).to.not.include('ops-channel');
    expect(text).to.not.include('turquoise');
  });

  it('killed after the platform made it: the next run adopts that object, and the plan after it retires the record', async () => {
    await (await Run.start(api, dir)).createKilled('x', 'killed-after');
    expect(api.things.size).to.equal(1);
    const next = await Run.start(api, dir);
    const plan = await next.plan('x');
    expect(plan.diags.items.map((d) => d.summary)).to.deep.equal([
      'An earlier run was cut off while creating the thing named "x"',
    ]);
    const out = await next.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    expect(
      out.diags.items.map((d) => d.summary),
      'said in the apply',
    ).to.deep.equal(['Took over t-1, which a cut-off run made']);
    expect(out.diags.items[0]!.detail)
      .to.include('An earlier run of this state was cut off')
      .and.match(/The record of that request \(r~fake_thing~[^,]+, provider process p~\d+~/)
      .and.include('nothing was created');
    expect(out.state).to.deep.include({ id: 't-1', name: 'x' });
    expect(api.things.size).to.equal(1);
    expect(api.creates).to.equal(1);
    expect(records(dir)).to.have.length(1);
    const third = await Run.start(api, dir);
    await third.showTracked(out.state!);
    expect(records(dir)).to.deep.equal([]);
  });

  it('killed before the request arrived: the next run finds nothing new, drops the record and creates once', async () => {
    await (await Run.start(api, dir)).createKilled('x', 'killed-before');
    expect(api.things.size).to.equal(0);
    const out = await (await Run.start(api, dir)).create('x');
    expect(out.diags.items).to.deep.equal([]);
    expect(api.things.size).to.equal(1);
    expect(records(dir).map((n) => n.split('~')[4]))
      .to.have.length(1)
      .and.not.include('sent');
  });

  it('two resources of one key and settings, killed after the first was answered and the second made: each is adopted once', async () => {
    const first = await Run.start(api, dir);
    expect((await first.create('twin')).diags.items).to.deep.equal([]);
    await first.createKilled('twin', 'killed-after');
    expect(api.things.size).to.equal(2);
    // Terraform was killed before it stored either: both resources plan creates again.
    const next = await Run.start(api, dir);
    const [a, b] = await Promise.all([next.create('twin'), next.create('twin')]);
    const took = (out: typeof a) => out.diags.items.map((d) => d.summary);
    expect([took(a), took(b)].flat().sort()).to.deep.equal([
      'Took over t-1, which a cut-off run made',
      'Took over t-2, which a cut-off run made',
    ]);
    const ids = [(a.state as { id: string }).id, (b.state as { id: string }).id].sort();
    expect(ids).to.deep.equal(['t-1', 't-2']);
    expect(api.things.size).to.equal(2);
    expect(api.creates).to.equal(2);
  });

  it('the same, with the first stored and shown by the next plan: the second takes only its own object', async () => {
    const first = await Run.start(api, dir);
    const stored = await first.create('twin');
    await first.createKilled('twin', 'killed-after');
    const planRun = await Run.start(api, dir);
    await planRun.showTracked(stored.state!);
    const out = await (await Run.start(api, dir)).create('twin');
    expect(out.diags.items.map((d) => d.summary)).to.deep.equal(['Took over t-2, which a cut-off run made']);
    expect((out.state as { id: string }).id).to.equal('t-2');
    expect(api.things.size).to.equal(2);
  });

  it('an object another workspace made with the same key and settings after the window is never adopted', async () => {
    await (await Run.start(api, dir)).createKilled('x', 'killed-before');
    // An hour later, another workspace (another directory, no record) makes the same object.
    api.clock = Date.now() + 3600_000;
    api.foreign('x');
    const out = await (await Run.start(api, dir)).create('x');
    // Nothing says whose it is: refused by default, never taken.
    expect(out.diags.items.map((d) => d.summary)).to.deep.equal(['The thing named "x" exists already, untracked']);
    expect(out.diags.items[0]!.detail).to.include('foreign-1');
    const beside = await (await Run.start(api, dir, { settings: { untrackedObjects: 'create' } })).create('x');
    expect((beside.state as { id: string }).id).to.not.equal('foreign-1');
    expect(api.things.size).to.equal(2);
  });

  it('an object another workspace made inside the window beside the killed one: neither is taken, both are named', async () => {
    await (await Run.start(api, dir)).createKilled('x', 'killed-after');
    api.foreign('x');
    const out = await (await Run.start(api, dir)).create('x');
    expect(out.state).to.equal(null);
    const [d] = out.diags.items;
    expect(d).to.deep.include({ severity: 'error', summary: 'Create outcome unknown' });
    expect(d!.detail).to.include('t-1').and.include('foreign-2');
    expect(d!.detail).to.include('An earlier run of this state was cut off');
    expect(api.things.size).to.equal(2);
  });

  it('an object a later run showed tracked is never taken by a waiting record', async () => {
    await (await Run.start(api, dir)).createKilled('x', 'killed-before');
    // Someone made and imported an object of the same key since: a plan shows it tracked.
    const imported = api.foreign('x');
    const planRun = await Run.start(api, dir);
    await planRun.showTracked(model(imported));
    const out = await (await Run.start(api, dir)).create('x');
    expect(out.diags.items).to.deep.equal([]);
    expect((out.state as { id: string }).id).to.not.equal(imported.id);
  });

  it('an answer handed to Terraform by a run that ended in order is no killed run’s: a later run of the state that does not hold it refuses it, the same with a plan between or not', async () => {
    for (const planBetween of [false, true]) {
      api = new Platform();
      await removeRuns(dir);
      dir = mkdtempSync(join(tmpdir(), 'keel-killed-'));
      const first = await Run.start(api, dir, { clientRun: 'apply' });
      const made = await first.create('x');
      expect(made.diags.items).to.deep.equal([]);
      // Terraform's orderly shutdown: what the walk handed over is the state's now.
      await first.engine.ended();
      expect(records(dir), 'its record ended').to.deep.equal([]);
      if (planBetween) {
        // A plan walk that still saw it, before `terraform state rm`.
        const plan = await Run.start(api, dir, { clientRun: 'plan' });
        await plan.showTracked(made.state!);
        await plan.engine.ended();
      }
      // `terraform state rm`, then `terraform apply`: its plan walk shows nothing.
      const next = await Run.start(api, dir, { clientRun: 'after' });
      const plan = await next.plan('x');
      expect(
        plan.diags.items.map((d) => d.summary),
        `plan between: ${planBetween}`,
      ).to.not.include('An earlier run was cut off while creating the thing named "x"');
      const apply = await Run.start(api, dir, { clientRun: 'after', applyWalk: true });
      const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(out.diags.items.map((d) => d.summary)).to.deep.equal(['The thing named "x" exists already, untracked']);
      expect(out.diags.items[0]!.detail)
        .to.include("This state's notes say it held t-1")
        .and.include('`terraform state rm`')
        .and.not.include('It may be');
      expect(api.things.size, `plan between: ${planBetween}`).to.equal(1);
    }
  });

  it('an answer returned to Terraform ends its record once a later walk shows the object tracked, on any timing', async () => {
    const first = await Run.start(api, dir);
    const made = await first.create('x');
    await first.engine.ended();
    const planRun = await Run.start(api, dir);
    await planRun.showTracked(made.state as never);
    await planRun.engine.ended();
    // A second resource of the same key and settings, planned after the walk that showed the first.
    const next = await Run.start(api, dir, { settings: { untrackedObjects: 'create' } });
    const plan = await next.plan('x');
    expect(plan.diags.items.map((d) => d.summary)).to.not.include(
      'An earlier run was cut off while creating the thing named "x"',
    );
    const out = await next.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    expect((out.state as { id: string }).id, 'a new object: the first is in a state').to.equal('t-2');
  });

  it('with no record (a fresh runner) and `untracked_objects = "warn"`, the plan names each look-alike and the apply still creates', async () => {
    await (await Run.start(api, dir)).createKilled('x', 'killed-after');
    rmSync(join(dir, '.terraform'), { recursive: true });
    const next = await Run.start(api, dir, { settings: { untrackedObjects: 'warn' } });
    const listedBefore = api.lists;
    const plan = await next.plan('x');
    expect(plan.diags.items.map((d) => d.summary)).to.deep.equal(['Objects like planned creates exist, untracked']);
    expect(plan.diags.items[0]!.detail).to.include('t-1 (made or last changed');
    const other = await next.plan('y');
    expect(other.diags.items).to.deep.equal([]);
    expect(api.lists - listedBefore, 'one listing per type for the plan').to.equal(1);
    const out = await next.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    expect((out.state as { id: string }).id).to.equal('t-2');
  });
});
