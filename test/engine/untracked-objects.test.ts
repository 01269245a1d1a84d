/**
 * Whose object is it (packages/framework/src/engine/creates/create-lookalikes.ts; docs/decisions.md,
 * "Whose object is it"): a create whose key and settings an existing object holds, judged on evidence,
 * through the engine over a fake platform, with the walks Terraform and Pulumi run:
 *
 * - nothing known (a killed job re-run on a fresh runner, another folder): each `untracked_objects`
 *   mode, its message naming every likely cause and a way out for each, in the client's terms;
 * - another workspace of the same directory made it: never refused, adopted or named, whatever the
 *   setting; where the platform keeps the key unique, refused at plan naming that workspace;
 * - what a user chose to create beside stays known to the state, so later plans do not ask again;
 * - the walk: Terraform's plan warns and the apply decides, on facts (records, notes, planned private
 *   data, the platform), the same whatever the order of the walk's calls, its pauses, its parallelism and
 *   where a killed job stopped (a simulation over generated schedules); Pulumi, which applies each create
 *   right after planning it, decides at the plan;
 * - a destroy's plan, a `-target` plan, a platform that does not answer.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UNTRACKED_BESIDE, type UntrackedObjects } from '../../packages/framework/src/engine/contracts/index.js';
import { journalPlace } from '../../packages/framework/src/engine/journal/index.js';
import { createSettingsOf } from '../../src/resources/shared/create-settings.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { Platform, Run, model, records, removeRuns, schema, type RunOptions } from './fake-thing.js';
import protobuf from 'protobufjs';
import { encodeMsgpack } from '../../packages/framework/src/schema/msgpack-encode.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { recordsUnder } from '../support/create-records.js';
import { writeZip } from '../../packages/framework/src/release/zip.js';
import { setTimeout as delay } from 'node:timers/promises';

const mode = (untrackedObjects: UntrackedObjects, more: RunOptions = {}): RunOptions => ({
  ...more,
  settings: { untrackedObjects, ...more.settings },
});
const summaries = (diags: { items: readonly { severity: string; summary: string }[] }) =>
  diags.items.map((d) => [d.severity, d.summary]);
const idOf = (state: ObjectValue | null) => (state as { id: string }).id;
/** How many schedules the simulation of walks explores (KEEL_SIMULATED_SCHEDULES for more), from which seed. */
const SIMULATED_SCHEDULES = Number(process.env.KEEL_SIMULATED_SCHEDULES ?? 2000);
const SIMULATION_SEED = Number(process.env.KEEL_SIMULATED_SEED ?? 7);

describe('engine: whose object is it (look-alikes of a plan’s creates)', function () {
  this.timeout(30_000);
  let dir: string;
  let api: Platform;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-untracked-'));
    api = new Platform();
  });
  afterEach(() => removeRuns(dir));

  /** A job killed after the platform made the object, then a fresh runner: no `.terraform` left. */
  async function killedOnAnotherRunner(name = 'x'): Promise<void> {
    await (await Run.start(api, dir)).createKilled(name, 'killed-after');
    rmSync(join(dir, '.terraform'), { recursive: true });
  }

  /** The plan in one process, the apply in another, as Terraform runs them; the apply's outcome. */
  async function planThenApply(name: string, options: RunOptions = {}) {
    const plan = await (await Run.start(api, dir, options)).plan(name);
    const apply = await Run.start(api, dir, { ...options, applyWalk: true });
    const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    return { plan, out };
  }

  describe('nothing known of the object (a fresh runner)', () => {
    it('refuse, the default: the plan warns, and the apply refuses before sending, naming the object, every likely cause and a way out for each', async () => {
      await killedOnAnotherRunner();
      const { plan, out } = await planThenApply('x');
      expect(summaries(plan.diags)).to.deep.equal([['warning', 'Objects like planned creates exist, untracked']]);
      expect(plan.diags.items[0]!.detail)
        .to.include('t-1 (made or last changed')
        .and.include('the apply refuses this create and sends nothing for it');
      expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      const { detail } = out.diags.items[0]!;
      expect(detail).to.include('t-1 (made or last changed');
      expect(detail, 'a killed run, and its way out').to.include('killed before its state was saved');
      expect(detail)
        .to.include('an `import` block with `id = "t-1"`')
        .and.include("`terraform import <address> 't-1'`");
      expect(detail, "another's, and its way out").to.include(
        "another workspace's, another configuration's or a person's",
      );
      expect(detail).to.include('`untracked_objects = "create"` in the provider block');
      expect(detail).to.include('`FAKE_UNTRACKED_OBJECTS=create` in the environment of one run');
      expect(detail, 'this state’s own, from a plan made elsewhere').to.include('`moved` block');
      expect(detail).to.include('Nothing was created');
      expect(out.state).to.equal(null);
      expect(api.creates).to.equal(1);
    });

    it('many creates with look-alikes: one summary for all, which the CLI folds into one', async () => {
      for (let i = 0; i < 5; i++) await killedOnAnotherRunner(`n${i}`);
      const run = await Run.start(api, dir);
      const plans = await Promise.all(Array.from({ length: 5 }, (_, i) => run.plan(`n${i}`)));
      const said = new Set(plans.flatMap((p) => p.diags.items.map((d) => `${d.severity}: ${d.summary}`)));
      expect([...said]).to.deep.equal(['warning: Objects like planned creates exist, untracked']);
    });

    it('create: the plan names it, the apply creates another, and the state keeps what it was created beside', async () => {
      await killedOnAnotherRunner();
      const { plan, out } = await planThenApply('x', mode('create'));
      expect(summaries(plan.diags)).to.deep.equal([['warning', 'Objects like planned creates exist, untracked']]);
      expect(plan.diags.items[0]!.detail).to.include('the apply creates a new object beside it');
      expect(idOf(out.state)).to.equal('t-2');
      expect(out.private[UNTRACKED_BESIDE], 'kept in the private state').to.deep.equal(['t-1']);

      // A later create whose planned private data carries it (a replacement keeps its prior's) is not
      // refused for it, on any runner, with the default.
      rmSync(join(dir, '.terraform'), { recursive: true });
      const later = await Run.start(api, dir, { applyWalk: true });
      // The replacement destroyed the object it replaces first.
      api.things.delete(idOf(out.state));
      const again = await later.engine.applyResourceChange('fake_thing', null, plan.planned, out.private);
      expect(again.diags.items).to.deep.equal([]);
      expect(idOf(again.state)).to.equal('t-3');
    });

    it('warn: as create where the client shows warnings', async () => {
      await killedOnAnotherRunner();
      const { out } = await planThenApply('x', mode('warn'));
      expect(idOf(out.state)).to.equal('t-2');
    });

    it('adopt is retired: the provider says so, and it refuses as refuse does, taking nothing', async () => {
      await killedOnAnotherRunner();
      const run = await Run.start(api, dir, mode('adopt'));
      const configured = await run.engine.configureProvider('1.15.5', {});
      expect(summaries(configured)).to.deep.equal([['warning', 'untracked_objects = "adopt" is retired']]);
      const { out } = await planThenApply('x', mode('adopt'));
      expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      expect(out.diags.items[0]!.detail).to.include('"adopt" is retired');
      expect(api.creates).to.equal(1);
    });

    it('where the platform keeps the key unique, the message offers no second object: import it or choose another key', async () => {
      await killedOnAnotherRunner();
      for (const setting of ['refuse', 'create', 'warn'] as const) {
        const { out } = await planThenApply('x', mode(setting, { uniqueNames: true }));
        expect(summaries(out.diags), setting).to.deep.equal([['error', 'The thing named "x" exists already']]);
        const { detail } = out.diags.items[0]!;
        expect(detail).to.include('keeps its name unique').and.include("`terraform import <address> 't-1'`");
        expect(detail).to.not.include('untracked_objects');
      }
      expect(api.creates).to.equal(1);
    });

    it('an untracked object the plan does not match (other settings) is not named', async () => {
      await killedOnAnotherRunner();
      const plan = await (await Run.start(api, dir)).plan('x', 'red');
      expect(plan.diags.items).to.deep.equal([]);
      expect(model(api.things.get('t-1')!).color).to.equal('blue');
    });
  });

  describe('another workspace of this directory made it', () => {
    /** `dev` applies `x` and its walk ends, as `terraform apply` does. */
    async function devApplies(name = 'x', more: RunOptions = {}): Promise<ObjectValue> {
      const dev = await Run.start(api, dir, { ...more, workspace: 'dev' });
      const out = await dev.create(name);
      expect(out.diags.items).to.deep.equal([]);
      await dev.engine.ended();
      return out.state!;
    }

    for (const setting of ['refuse', 'create', 'adopt'] as const)
      it(`${setting}: a second workspace with the same names plans and applies its own object, with nothing said`, async () => {
        await devApplies();
        const staging = await Run.start(api, dir, mode(setting, { workspace: 'staging' }));
        const plan = await staging.plan('x');
        expect(plan.diags.items).to.deep.equal([]);
        const apply = await Run.start(api, dir, mode(setting, { workspace: 'staging', applyWalk: true }));
        const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
        expect(idOf(out.state), "staging's own object").to.equal('t-2');
        expect(api.things.size).to.equal(2);
      });

    it('a third workspace’s destroy deletes only its own object', async () => {
      const devState = await devApplies();
      const prod = await Run.start(api, dir, mode('adopt', { workspace: 'prod' }));
      const made = await prod.create('x');
      expect(idOf(made.state)).to.equal('t-2');
      await prod.engine.applyResourceChange('fake_thing', made.state, null, {});
      expect([...api.things.keys()]).to.deep.equal([idOf(devState)]);
    });

    it('where the platform keeps the key unique, the plan refuses at once, naming the workspace that holds it', async () => {
      await devApplies('x', { uniqueNames: true });
      const plan = await (await Run.start(api, dir, { workspace: 'staging', uniqueNames: true })).plan('x');
      expect(summaries(plan.diags)).to.deep.equal([['error', 'The thing named "x" exists already']]);
      expect(plan.diags.items[0]!.detail)
        .to.include('the state of workspace "dev" made or holds that object')
        .and.include('terraform.workspace');
    });

    it('an object of this workspace whose apply ended in order and that its state no longer shows: refused, naming why, never taken back', async () => {
      await devApplies('x', { clientRun: 'dev-apply' });
      // dev's state does not hold it (a `state rm`, or a client killed after the shutdown, before it stored the state).
      const dev = await Run.start(api, dir, { workspace: 'dev', clientRun: 'dev-again' });
      const plan = await dev.plan('x');
      // The plan cannot know yet whether its walk shows the object (at another address): the apply decides.
      expect(summaries(plan.diags)).to.deep.equal([]);
      const apply = await Run.start(api, dir, { workspace: 'dev', clientRun: 'dev-again', applyWalk: true });
      const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      expect(out.diags.items[0]!.detail).to.include("This state's notes say it held t-1");
      expect(api.things.size).to.equal(1);
    });

    it('another workspace’s open record makes its object that workspace’s, while its apply still runs', async () => {
      // dev's create is answered and returned, and its walk goes on: no note of dev's state exists yet.
      const dev = await Run.start(api, dir, { workspace: 'dev' });
      expect((await dev.create('x')).diags.items).to.deep.equal([]);
      await dev.journal.flush();
      for (const setting of ['refuse', 'create'] as const) {
        const staging = await Run.start(api, dir, mode(setting, { workspace: 'staging' }));
        const plan = await staging.plan('x');
        expect(plan.diags.items, setting).to.deep.equal([]);
      }
    });

    it('another workspace’s killed create, still unanswered, may have made the object: never this workspace’s to refuse', async () => {
      await (await Run.start(api, dir, { workspace: 'dev' })).createKilled('x', 'killed-after');
      const staging = await Run.start(api, dir, { workspace: 'staging' });
      const plan = await staging.plan('x');
      expect(plan.diags.items).to.deep.equal([]);
      // dev's next run takes back what its killed run made; staging made its own.
      const out = await staging.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(idOf(out.state)).to.equal('t-2');
      const dev = await Run.start(api, dir, { workspace: 'dev' });
      const again = await dev.create('x');
      expect(idOf(again.state)).to.equal('t-1');
      expect(api.things.size).to.equal(2);
    });
  });

  describe('the walk: verdicts on facts, never on the order of calls', () => {
    /**
     * A plan file as Terraform writes one: a zip archive whose `tfstate` entry is the state it was made
     * against, and whose `tfplan` entry (planfile.proto) holds its changes: a forget of each of `forgotten`
     * (indexes into `objects`: a `removed` block with `destroy = false`).
     */
    function savedPlan(
      objects: readonly ObjectValue[],
      name = 'saved.tfplan',
      forgotten: readonly number[] = [],
    ): string {
      const state = {
        version: 4,
        terraform_version: '1.15.5',
        resources: objects.map((o, i) => ({
          mode: 'managed',
          type: 'fake_thing',
          name: `r${i}`,
          provider: 'provider["registry.terraform.io/acme/fake"]',
          instances: [{ schema_version: 0, attributes: o, sensitive_attributes: [] }],
        })),
      };
      const plan = protobuf.Writer.create()
        .uint32((1 << 3) | 0)
        .uint64(3);
      for (const i of forgotten) {
        const value = protobuf.Writer.create()
          .uint32((1 << 3) | 2)
          .bytes(encodeMsgpack(impliedType(schema.block), objects[i]!));
        const change = protobuf.Writer.create()
          .uint32((1 << 3) | 0)
          .uint32(8)
          .uint32((2 << 3) | 2)
          .bytes(value.finish());
        const resourceChange = protobuf.Writer.create()
          .uint32((13 << 3) | 2)
          .string(`module.m["a.b"].fake_thing.r${i}`)
          .uint32((9 << 3) | 2)
          .bytes(change.finish());
        plan.uint32((3 << 3) | 2).bytes(resourceChange.finish());
      }
      const entries = [
        { name: 'tfplan', data: Buffer.from(plan.finish()), executable: false },
        { name: 'tfstate', data: Buffer.from(JSON.stringify(state)), executable: false },
      ];
      writeZip(join(dir, name), entries);
      return name;
    }
    function applying(plan: string): RunOptions {
      return { applyWalk: true, host: { argv: ['terraform', 'apply', '-input=false', '-lock-timeout', '5m', plan] } };
    }

    /** Where a killed job stopped: its request never reached the platform, the platform made the object and the answer was lost, or the answer came back and the state holding it was never saved. */
    type KillPoint = 'before the request' | 'answer lost' | 'state never saved';
    /** One schedule of the simulation: the facts of the runs, and the order, pauses and parallelism of their walks. */
    interface Schedule {
      /** The plan walk's calls: 0..2 show an object of the state, 3..7 plan a create. */
      readonly order: readonly number[];
      /** The pause before each call, in ms. */
      readonly pauses: readonly number[];
      /** `-parallelism`: how many of a walk's calls run at once. */
      readonly parallelism: number;
      /** One process serves the plan walk and the apply (as some clients run them), or two. */
      readonly oneProcess: boolean;
      /** Which of the state's objects the apply destroys (their keys renamed). */
      readonly destroyed: readonly boolean[];
      /** The apply's calls: 0..4 the creates, 5..7 the destroys of the state's objects. */
      readonly applyOrder: readonly number[];
      /** Which of the state's objects were taken out of it since (`terraform state rm`): the walk never shows them. */
      readonly removed: readonly boolean[];
      /** Whether the system says which run of the client each process serves (Linux, macOS). */
      readonly identified: boolean;
      /** Whether an earlier plan on this runner showed the state's objects, so that its notes name them. */
      readonly noted: boolean;
      /**
       * A saved plan applied by a later job: on a runner sharing the plan job's records, or on a bare one
       * (only the plan file carries over); `no`: the same `apply` plans and applies.
       */
      readonly saved: 'no' | 'shared' | 'bare';
      /** Another workspace of the directory is applying side by side: its create of `b` made an object, its record open. */
      readonly sideBySide: boolean;
      /** The killed jobs that created `k1` and `k2`: where each stopped, and whether it ran on this runner. */
      readonly kills: readonly { readonly at: KillPoint; readonly sameRunner: boolean }[];
    }

    /** Runs at most `n` of the calls given to it at once, the others waiting their turn in order, as `-parallelism` does. */
    function parallelism(n: number) {
      let running = 0;
      const waiting: (() => void)[] = [];
      return async <T>(call: () => Promise<T>): Promise<T> => {
        while (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
        running++;
        try {
          return await call();
        } finally {
          running--;
          waiting.shift()?.();
        }
      };
    }

    /**
     * A plan walk in which the state holds `own` objects (made by a run on another runner, so no note of
     * them is here) at other addresses, while creates of the same keys are planned, and `k1`, `k2` that
     * killed jobs created; the walk shows the state's objects in the order, at the moments and with the
     * parallelism the schedule gives. Then the apply, in the same process or a new one, on this runner or
     * another. What each create's plan and apply said, and the ids the killed jobs' objects got.
     */
    async function walk(s: Schedule) {
      const own: ObjectValue[] = [];
      let stagingId: string | undefined;
      const maker = await Run.start(api, dir, s.identified ? { clientRun: 'maker' } : {});
      for (const name of ['a', 'b', 'c']) own.push((await maker.create(name)).state!);
      rmSync(join(dir, '.terraform'), { recursive: true });
      if (s.noted) {
        const earlier = await Run.start(api, dir, s.identified ? { clientRun: 'earlier' } : {});
        for (const o of own) await earlier.upgrade(o);
        await earlier.engine.ended();
      }
      const killedIds: Record<string, string | undefined> = {};
      const elsewhere = mkdtempSync(join(tmpdir(), 'keel-untracked-elsewhere-'));
      for (const [i, kill] of s.kills.entries()) {
        const name = `k${i + 1}`;
        const job = await Run.start(api, kill.sameRunner ? dir : elsewhere, { clientRun: `killed-${i}` });
        if (kill.at === 'state never saved') {
          expect((await job.create(name)).diags.items).to.deep.equal([]);
          await job.journal.flush();
          job.kill();
        } else await job.createKilled(name, kill.at === 'answer lost' ? 'killed-after' : 'killed-before');
        killedIds[name] = [...api.things.values()].find((t) => t.name === name)?.id;
      }
      if (s.sideBySide) {
        // Its own object beside this state's `b`, on its user's word; its apply still runs: the record stays open.
        const staging = await Run.start(api, dir, { workspace: 'staging', settings: { untrackedObjects: 'create' } });
        stagingId = idOf((await staging.create('b')).state);
      }
      const thisRun: RunOptions = s.identified ? { clientRun: 'plan-and-apply' } : {};
      const plans = await Run.start(api, dir, thisRun);
      const creates = ['a', 'b', 'c', 'k1', 'k2'];
      const planSlot = parallelism(s.parallelism);
      const calls = s.order.map(async (n, i) => {
        await delay(s.pauses[i]);
        return planSlot(async () => {
          if (n >= 3) return [creates[n - 3]!, await plans.plan(creates[n - 3]!)] as const;
          if (!s.removed[n]) await plans.showTracked(own[n]!, 'destroyed');
          return null;
        });
      });
      const planned = (await Promise.all(calls)).filter((p) => p !== null);
      if (!s.oneProcess || s.saved !== 'no') await plans.engine.ended();
      let apply = s.oneProcess ? plans : await Run.start(api, dir, { ...thisRun, applyWalk: true });
      if (s.saved !== 'no') {
        // The plan file holds the state the plan was made against: the objects its walk showed.
        const planFile = savedPlan(
          own.filter((_, i) => !s.removed[i]),
          'job.tfplan',
        );
        if (s.saved === 'bare') rmSync(join(dir, '.terraform'), { recursive: true, force: true });
        const job = s.identified ? { clientRun: 'apply-job' } : {};
        apply = await Run.start(api, dir, { ...job, ...applying(planFile) });
      }
      const verdicts: Record<string, string> = {};
      const byName = new Map(planned);
      const applySlot = parallelism(s.parallelism);
      await Promise.all(
        s.applyOrder.map(async (n, i) => {
          await delay(s.pauses[i % s.pauses.length]! / 4);
          await applySlot(async () => {
            if (n >= 5) {
              if (s.destroyed[n - 5] && !s.removed[n - 5])
                await apply.engine.applyResourceChange('fake_thing', own[n - 5]!, null, {});
              return;
            }
            const name = creates[n]!;
            const plan = byName.get(name)!;
            const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
            const cause = out.diags.items.some((d) => d.detail.includes('taken out of it')) ? ' (taken out)' : '';
            // Taking an object over is said in the apply's own output; it is no verdict of its own.
            const took = out.diags.items.some((d) => d.summary.startsWith('Took over '));
            const said = summaries(out.diags)
              .filter(([, summary]) => !summary!.startsWith('Took over '))
              .join('; ');
            const back = out.state !== null && idOf(out.state) === killedIds[name];
            const done = back ? (took ? 'taken back' : 'taken back silently') : 'created';
            verdicts[name] = `plan: ${summaries(plan.diags).join('; ')} | apply: ${said || done}${cause}`;
          });
        }),
      );
      rmSync(elsewhere, { recursive: true, force: true });
      // Another workspace's object is never taken or deleted, whatever this apply decided.
      if (stagingId !== undefined) expect(api.things.has(stagingId), "staging's object").to.equal(true);
      return verdicts;
    }

    it('over many orders, pauses, parallelisms and kill points: the same verdicts, no refusal of the state’s own objects, no duplicate of a killed run’s or of one taken out of the state', async function () {
      this.timeout(600_000);
      // A small deterministic generator: the same schedules on every run of the suite.
      let seed = SIMULATION_SEED;
      const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      const pick = <T>(choices: readonly T[]): T => choices[Math.floor(next() * choices.length)]!;
      const verdictSets = new Map<string, Set<string>>();
      for (let round = 0; round < SIMULATED_SCHEDULES; round++) {
        api = new Platform();
        await removeRuns(dir);
        dir = mkdtempSync(join(tmpdir(), 'keel-untracked-'));
        const identified = next() < 0.75;
        const noted = next() < 0.5;
        const savedDraw = next();
        const s: Schedule = {
          order: [0, 1, 2, 3, 4, 5, 6, 7].sort(() => next() - 0.5),
          // Pauses of no length (the next turn of the event loop) to a few milliseconds between any two calls,
          // and now and then one longer than any quiet a walk could be judged by.
          pauses: Array.from({ length: 8 }, () => (next() < 0.0005 ? 350 : Math.floor(next() * 4))),
          parallelism: pick([1, 2, 3, 10]),
          oneProcess: next() < 0.5,
          destroyed: [next() < 0.5, next() < 0.5, next() < 0.5],
          applyOrder: [0, 1, 2, 3, 4, 5, 6, 7].sort(() => next() - 0.5),
          // Where runs are not identified, the notes alone say an object is the state's (the documented limit):
          // no object they name is taken out there.
          removed: [0, 1, 2].map(() => next() < 0.2 && (identified || !noted)),
          identified,
          noted,
          saved: savedDraw < 0.6 ? 'no' : savedDraw < 0.8 ? 'shared' : 'bare',
          sideBySide: next() < 0.3,
          kills: [0, 1].map(() => ({
            at: pick(['before the request', 'answer lost', 'state never saved'] as const),
            sameRunner: next() < 0.5,
          })),
        };
        const verdicts = await walk(s);
        const made = [...api.things.values()].map((t) => model(t).name);
        const about = JSON.stringify(s);
        ['a', 'b', 'c'].forEach((name, n) => {
          if (s.removed[n]) {
            // Taken out of the state: untracked now, refused as any, its cause named where the notes name
            // it; never made twice.
            const cause = s.noted && s.saved !== 'bare' ? ' \\(taken out\\)' : '';
            expect(verdicts[name], `${name}, ${about}`).to.match(new RegExp(`exists already, untracked${cause}$`));
            const others = s.sideBySide && name === 'b' ? 1 : 0;
            expect(
              made.filter((m) => m === name),
              `${name}: no duplicate, ${about}`,
            ).to.have.length(1 + others);
          } else if (s.sideBySide && s.saved === 'bare' && name === 'b')
            // A bare runner has no record of the other workspace's apply: its object is untracked there.
            expect(verdicts[name], `${name}, ${about}`).to.match(/exists already, untracked$/);
          else expect(verdicts[name], `${name}, ${about}: the state's own`).to.match(/apply: created$/);
        });
        s.kills.forEach((kill, i) => {
          const name = `k${i + 1}`;
          const verdict = `${name}, ${about}`;
          if (kill.at === 'before the request')
            expect(verdicts[name], `${verdict}: nothing was made`).to.match(/apply: created$/);
          else if (kill.sameRunner && s.saved !== 'bare')
            // This runner's record of the killed create says the object is this workspace's: taken back.
            expect(verdicts[name], verdict).to.match(/apply: taken back$/);
          else expect(verdicts[name], verdict).to.include('exists already, untracked');
          expect(
            made.filter((m) => m === name),
            `${name}: no duplicate, ${about}`,
          ).to.have.length(1);
        });
        const { order, pauses, parallelism: _, oneProcess, destroyed, applyOrder, ...facts } = s;
        const key = JSON.stringify(facts);
        if (!verdictSets.has(key)) verdictSets.set(key, new Set());
        verdictSets.get(key)!.add(JSON.stringify(Object.entries(verdicts).sort()));
      }
      for (const [facts, sets] of verdictSets)
        expect(sets.size, `one verdict whatever the order, pauses and parallelism (${facts})`).to.equal(1);
    });

    it('one process serving the plan walk and then the apply: what the plan walk noted counts for the apply', async () => {
      const first = await Run.start(api, dir);
      const stored = await first.create('twin');
      rmSync(join(dir, '.terraform'), { recursive: true });
      const both = await Run.start(api, dir);
      const plan = await both.plan('twin');
      expect(summaries(plan.diags)).to.deep.equal([['warning', 'Objects like planned creates exist, untracked']]);
      await both.showTracked(stored.state!, 'destroyed');
      const out = await both.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(out.diags.items).to.deep.equal([]);
      expect(idOf(out.state)).to.equal('t-2');
    });

    it('a saved plan applied on a fresh runner, which cannot read what the plan walk showed: refused the same way every time, naming the way out', async () => {
      const first = await Run.start(api, dir);
      const stored = await first.create('twin');
      rmSync(join(dir, '.terraform'), { recursive: true });
      const planWalk = await Run.start(api, dir);
      const plan = await planWalk.plan('twin');
      await planWalk.upgrade(stored.state!);
      await planWalk.engine.ended();
      // The apply job's runner has none of the plan job's files.
      rmSync(join(dir, '.terraform'), { recursive: true });
      const apply = await Run.start(api, dir, { applyWalk: true });
      const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "twin" exists already, untracked']]);
      expect(out.diags.items[0]!.detail).to.include('`moved` block').and.include('create_records_dir');
    });

    it('a saved plan applied on a fresh runner: the state it was made against, which the plan file carries, says the object is this state’s', async () => {
      const first = await Run.start(api, dir);
      const stored = await first.create('twin');
      await killedOnAnotherRunner('left');
      rmSync(join(dir, '.terraform'), { recursive: true, force: true });
      const planWalk = await Run.start(api, dir);
      const plans = [await planWalk.plan('twin'), await planWalk.plan('left')];
      // The apply job's runner has none of the plan job's files, only the plan file.
      rmSync(join(dir, '.terraform'), { recursive: true, force: true });
      const apply = await Run.start(api, dir, applying(savedPlan([stored.state!])));
      const [twin, left] = await Promise.all(
        plans.map((p) => apply.engine.applyResourceChange('fake_thing', null, p.planned, p.plannedPrivate)),
      );
      expect(twin!.diags.items, 'at another address in the state the plan was made against').to.deep.equal([]);
      expect(idOf(twin!.state)).to.equal('t-3');
      expect(summaries(left!.diags), 'what a killed run left').to.deep.equal([
        ['error', 'The thing named "left" exists already, untracked'],
      ]);
    });

    it('a saved plan that forgets an object (a `removed` block) and creates its key: refused, naming the forget', async () => {
      const first = await Run.start(api, dir, { clientRun: 'first' });
      const stored = await first.create('twin');
      await first.engine.ended();
      const plan = await (await Run.start(api, dir)).plan('twin');
      // The same plan file without the forget: the object at another address of its state (a renamed key).
      for (const forgets of [[0], []]) {
        const apply = await Run.start(api, dir, applying(savedPlan([stored.state!], 'saved.tfplan', forgets)));
        const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
        if (forgets.length === 0) expect(out.diags.items).to.deep.equal([]);
        else {
          expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "twin" exists already, untracked']]);
          expect(out.diags.items[0]!.detail)
            .to.include("This apply's plan forgets t-1 (a `removed` block with `destroy = false`)")
            .and.not.include("This state's notes say it held");
          expect(api.things.size, 'nothing made').to.equal(1);
        }
      }
    });

    it('a saved plan whose file cannot be read (OpenTofu encrypts them): refused the same way every time, saying why', async () => {
      const first = await Run.start(api, dir);
      await first.create('twin');
      rmSync(join(dir, '.terraform'), { recursive: true, force: true });
      const plan = await (await Run.start(api, dir)).plan('twin');
      rmSync(join(dir, '.terraform'), { recursive: true, force: true });
      writeFileSync(join(dir, 'sealed.tfplan'), '{"meta":{"key_provider.pbkdf2.k":"…"},"encrypted_data":"…"}');
      for (let i = 0; i < 2; i++) {
        const apply = await Run.start(api, dir, applying('sealed.tfplan'));
        const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
        expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "twin" exists already, untracked']]);
        expect(out.diags.items[0]!.detail)
          .to.include(`the plan file ${join(dir, 'sealed.tfplan')} could not be read`)
          .and.include('create_records_dir');
      }
      expect(api.creates).to.equal(1);
    });

    for (const [how, workspace] of [
      ['`terraform state rm`', undefined],
      ['`terraform workspace delete`, then `terraform workspace new` of the same name', 'tmp'],
    ] as const)
      for (const uniqueNames of [false, true])
        it(`after ${how}: refused with one message naming how it left the state${uniqueNames ? ' (a key the platform keeps unique)' : ''}`, async () => {
          const inWorkspace = workspace ? { workspace } : {};
          const at = { uniqueNames, clientRun: 'first', ...inWorkspace };
          const stored = await (await Run.start(api, dir, at)).create('x');
          // A later plan showed it: the notes name it as this workspace's.
          const later = await Run.start(api, dir, { uniqueNames, clientRun: 'later', ...inWorkspace });
          await later.upgrade(stored.state!);
          await later.engine.ended();
          // Then `terraform apply` of an empty state: its plan walk shows nothing.
          const thisRun = { uniqueNames, clientRun: 'after', ...inWorkspace };
          const plan = await (await Run.start(api, dir, thisRun)).plan('x');
          const apply = await Run.start(api, dir, { ...thisRun, applyWalk: true });
          const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
          const summary = `The thing named "x" exists already${uniqueNames ? '' : ', untracked'}`;
          expect(summaries(out.diags)).to.deep.equal([['error', summary]]);
          expect(out.diags.items[0]!.detail)
            .to.include("This state's notes say it held t-1 (a walk of it showed it")
            .and.include("and this run's state does not")
            .and.include('`terraform state rm`')
            .and.include('`terraform workspace delete` and the workspace made again')
            .and.include('an `import` block with `id = "t-1"`');
          expect(api.things.size, 'nothing made').to.equal(1);
        });

    it('a renamed key whose plan walk showed the old object: this state’s own, in the same run only', async () => {
      const stored = await (await Run.start(api, dir, { clientRun: 'first' })).create('x');
      const thisRun = { clientRun: 'renamed' };
      const planWalk = await Run.start(api, dir, thisRun);
      const plan = await planWalk.plan('x');
      await planWalk.showTracked(stored.state!, 'destroyed');
      await planWalk.engine.ended();
      const apply = await Run.start(api, dir, { ...thisRun, applyWalk: true });
      const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(out.diags.items).to.deep.equal([]);
      expect(idOf(out.state)).to.equal('t-2');
    });

    it('create_before_destroy: the object the create replaces is this state’s, as the plan walk noted it', async () => {
      const first = await Run.start(api, dir);
      const stored = await first.create('x');
      rmSync(join(dir, '.terraform'), { recursive: true });
      // The plan walk of the replacement shows the object it replaces; Terraform deposes it before the
      // apply's create, whose request then has no prior state.
      const planWalk = await Run.start(api, dir);
      await planWalk.showTracked(stored.state!);
      await planWalk.engine.ended();
      const apply = await Run.start(api, dir, { applyWalk: true });
      const plan = await apply.plan('x');
      const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(out.diags.items).to.deep.equal([]);
      expect(idOf(out.state), 'a new object beside the one it replaces').to.equal('t-2');
    });

    it('create_before_destroy on a key the platform keeps unique: the refusal names the object it replaces as this state’s own', async () => {
      const first = await Run.start(api, dir, { uniqueNames: true });
      const stored = await first.create('x');
      // The plan walk of the replacement shows it tracked.
      await (await Run.start(api, dir, { uniqueNames: true })).showTracked(stored.state!);
      const apply = await Run.start(api, dir, { uniqueNames: true, applyWalk: true });
      const plan = await apply.plan('x');
      const out = await apply.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(summaries(out.diags)).to.deep.equal([['error', 'Cannot create fake_thing']]);
      expect(out.diags.items[0]!.detail)
        .to.include('this state holds t-1')
        .and.include('create_before_destroy')
        .and.not.include('not made by this configuration');
      expect(api.things.size).to.equal(1);
    });

    it('Terraform’s apply walk never judges look-alikes: the plan walk did, with what it showed', async () => {
      await killedOnAnotherRunner();
      const apply = await Run.start(api, dir, { applyWalk: true });
      expect((await apply.plan('x')).diags.items).to.deep.equal([]);
    });

    it('OpenTofu’s apply of a saved plan, which re-plans each change first, is an apply walk from its first call', async () => {
      await killedOnAnotherRunner();
      const lists = api.lists;
      const apply = await Run.start(api, dir, { host: { argv: ['tofu', 'apply', 'p'] } });
      expect((await apply.plan('x')).diags.items).to.deep.equal([]);
      expect(api.lists, 'nothing judged, nothing listed').to.equal(lists);
    });

    it('the creates of the same run are neither cut off nor look-alikes', async () => {
      const run = await Run.start(api, dir);
      expect((await run.create('twin')).diags.items).to.deep.equal([]);
      expect((await run.plan('twin')).diags.items).to.deep.equal([]);
    });

    it('the plan Terraform makes before a destroy checks nothing and lists nothing', async () => {
      await killedOnAnotherRunner();
      const lists = api.lists;
      for (const argv of [
        ['terraform', '-chdir=config', 'destroy', '-auto-approve'],
        ['python3', '/clients/terraform', 'apply', '-destroy'],
        ['tofu', 'plan', '-destroy=true'],
      ]) {
        const plan = await (await Run.start(api, dir, { host: { argv } })).plan('x');
        expect(plan.diags.items, argv.join(' ')).to.deep.equal([]);
      }
      expect(api.lists).to.equal(lists);
    });

    it('a -target run, which does not read the whole state, names the look-alike in a warning and creates', async () => {
      await killedOnAnotherRunner();
      const argv = ['terraform', 'apply', '-target=fake_thing.x'];
      const { plan, out } = await planThenApply('x', { host: { argv } });
      expect(summaries(plan.diags)).to.deep.equal([['warning', 'Objects like planned creates exist, untracked']]);
      expect(plan.diags.items[0]!.detail).to.include('narrowed (`-target`, `-exclude`)');
      expect(idOf(out.state)).to.equal('t-2');
    });
  });

  describe('a platform that cannot be asked', () => {
    it('refused credentials: a warning names the object and why; later checks do not ask again', async () => {
      await killedOnAnotherRunner();
      api.listing = new Error('GET /things: 401 the credentials were refused');
      const run = await Run.start(api, dir);
      const lists = api.lists;
      const plans = [await run.plan('x'), await run.plan('y')];
      expect(plans.map((p) => summaries(p.diags))).to.deep.equal([
        [['warning', 'Could not look for objects like planned creates']],
        [['warning', 'Could not look for objects like planned creates']],
      ]);
      expect(plans[1]!.diags.items[0]!.detail).to.include('the thing named "y"');
      expect(plans[0]!.diags.items[0]!.detail).to.include('401 the credentials were refused');
      expect(api.lists - lists, 'asked once').to.equal(1);
    });

    it('no answer: the check gives up after its budget', async () => {
      api.listing = 'hang';
      const run = await Run.start(api, dir, { recovery: { lookBudgetMs: 300 } });
      const plan = await run.plan('x');
      expect(plan.diags.items[0]!.detail).to.include('did not answer within 0.3 s');
    });
  });

  describe('under Pulumi', () => {
    const pulumi = { host: { pulumi: true } };

    it('the refusal speaks Pulumi: the type token, `pulumi import` and `pulumi config set`', async () => {
      await killedOnAnotherRunner();
      const plan = await (await Run.start(api, dir, pulumi)).plan('x');
      expect(summaries(plan.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      const { detail } = plan.diags.items[0]!;
      expect(detail).to.include("`pulumi import fake:index/thing:Thing <resource name> 't-1'`");
      expect(detail).to.include('`pulumi config set fake:untrackedObjects create`');
      expect(detail).to.include('before its stack was saved').and.not.include('terraform');
    });

    it('every create is judged, after others were applied in the same process (Pulumi plans each right before it)', async () => {
      await killedOnAnotherRunner('later');
      const run = await Run.start(api, dir, pulumi);
      expect((await run.create('first')).diags.items).to.deep.equal([]);
      const plan = await run.plan('later');
      expect(summaries(plan.diags)).to.deep.equal([['error', 'The thing named "later" exists already, untracked']]);
    });

    it('warn, which only a warning would tell about, refuses: Pulumi shows no provider warning', async () => {
      await killedOnAnotherRunner();
      const plan = await (await Run.start(api, dir, mode('warn', pulumi))).plan('x');
      expect(summaries(plan.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      expect(plan.diags.items[0]!.detail).to.include('Pulumi shows no warning of a provider');
    });

    it('two stacks of one project in one directory: the second makes its own object, whatever the first left', async () => {
      const dev = await Run.start(api, dir, { host: { pulumi: true, argv: ['pulumi', 'up', '--stack', 'dev'] } });
      const made = await dev.create('x');
      // Pulumi's engine stores the result at once and never shuts the provider down.
      await dev.journal.flush();
      expect(dev.journal.directory, 'the records of stack dev').to.match(/pulumi_stack_dev-[0-9a-f]{8}/);
      expect(
        recordsUnder(dirname(dev.journal.directory!)),
        'its record ended when its result was returned',
      ).to.deep.equal([]);
      const staging = await Run.start(api, dir, { host: { pulumi: true, argv: ['pulumi', 'up', '-s', 'staging'] } });
      const out = await staging.create('x');
      expect(out.diags.items).to.deep.equal([]);
      expect(idOf(out.state)).to.not.equal(idOf(made.state));
      expect(api.things.size).to.equal(2);
    });

    it('a stack’s killed create is never another stack’s to adopt', async () => {
      await (await Run.start(api, dir, { host: { pulumi: true, argv: ['pulumi', 'up', '-s', 'dev'] } })).createKilled(
        'x',
        'killed-after',
      );
      const staging = await Run.start(
        api,
        dir,
        mode('create', { host: { pulumi: true, argv: ['pulumi', 'up', '-s', 'staging'] } }),
      );
      const out = await staging.create('x');
      expect(idOf(out.state)).to.equal('t-2');
      const dev = await Run.start(api, dir, { host: { pulumi: true, argv: ['pulumi', 'up', '-s', 'dev'] } });
      expect(idOf((await dev.create('x')).state), "dev's re-run adopts its own").to.equal('t-1');
    });

    it('a plan that could not look: the create’s own census judges before anything is sent', async () => {
      await killedOnAnotherRunner();
      const run = await Run.start(api, dir, pulumi);
      api.listing = new Error('GET /things: connection refused');
      const plan = await run.plan('x');
      expect(plan.diags.items, 'Pulumi shows no warning').to.deep.equal([]);
      api.listing = 'answers';
      const out = await run.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
      expect(summaries(out.diags)).to.deep.equal([['error', 'The thing named "x" exists already, untracked']]);
      expect(api.creates).to.equal(1);
    });
  });

  it('records in `create_records_dir` carry a killed job to a fresh runner: its object is adopted, not made again', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'keel-records-'));
    try {
      const settings = { untrackedObjects: 'refuse' as const, recordsDir: cache };
      // The state in a remote backend both runners' `terraform init` recorded.
      const backend = { type: 'http', config: { address: 'https://state.example/infra' } };
      await (await Run.start(api, dir, { settings, backend })).createKilled('x', 'killed-after');
      expect(records(dir), 'nothing in the data directory').to.deep.equal([]);
      const fresh = mkdtempSync(join(tmpdir(), 'keel-fresh-'));
      try {
        const run = await Run.start(api, fresh, { settings, backend });
        const plan = await run.plan('x');
        expect(plan.diags.items.map((d) => d.summary)).to.deep.equal([
          'An earlier run was cut off while creating the thing named "x"',
        ]);
        const out = await run.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
        expect(idOf(out.state)).to.equal('t-1');
        expect(api.creates).to.equal(1);
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('the settings: the provider block wins, the environment fills in, refuse and warn by default, anything else refused at its path', () => {
    const none = { untracked_objects: null, missing_references: null, create_records_dir: null };
    expect(createSettingsOf(none, {}, 'SEC')).to.deep.equal({ untrackedObjects: 'refuse' });
    expect(
      createSettingsOf(
        none,
        { VDB_UNTRACKED_OBJECTS: 'adopt', VDB_MISSING_REFERENCES: 'refuse', VDB_CREATE_RECORDS_DIR: '/c' },
        'VDB',
      ),
    ).to.deep.equal({ untrackedObjects: 'adopt', missingReferences: 'refuse', recordsDir: '/c' });
    const given = { untracked_objects: 'create', missing_references: 'warn', create_records_dir: 'keel' };
    expect(createSettingsOf(given, { SEC_UNTRACKED_OBJECTS: 'adopt' }, 'SEC')).to.deep.equal({
      untrackedObjects: 'create',
      missingReferences: 'warn',
      recordsDir: 'keel',
    });
    expect(() => createSettingsOf(none, { SEC_UNTRACKED_OBJECTS: 'yes' }, 'SEC'))
      .to.throw('must be one of "refuse", "create", "warn", "adopt", got "yes"')
      .with.property('path')
      .that.deep.equals([{ attr: 'untracked_objects' }]);
    expect(() => createSettingsOf(none, { SEC_MISSING_REFERENCES: 'no' }, 'SEC'))
      .to.throw('must be one of "warn", "refuse", got "no"')
      .with.property('path')
      .that.deep.equals([{ attr: 'missing_references' }]);
    expect(() => createSettingsOf({ ...none, create_records_dir: ' ' }, {}, 'SEC')).to.throw('is set but empty');
    expect(journalPlace({ namespace: 'keel', name: 'sec' }, {}, dir).root).to.match(
      new RegExp(`^${join(dir, '.terraform', 'keel-creates', 'sec', 'default')}~[0-9a-f]{12}$`),
    );
  });
});
