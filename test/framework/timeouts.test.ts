/**
 * A resource's `timeouts` (timeoutsAttribute), through the package's face and its harness, as an author
 * declares it: the attribute Terraform sees, each operation ended at its limit (the configuration's or
 * the default) with the setting named and the operation's signal aborted, a Go duration checked at its
 * path, and the setting kept as the provider's own (a change to it alone calls no API, a read keeps it,
 * an import leaves it unset).
 */
import { expect } from 'chai';
import {
  attr,
  provider,
  providerSchema,
  resource,
  resourceSchema,
  timeoutsAttribute,
} from '../../packages/framework/src/index.js';
import { HarnessError, ProviderHarness } from '../../packages/framework/src/testing.js';

/** A platform of jobs whose calls take as long as told, or until their signal aborts. */
class Jobs {
  readonly jobs = new Map<string, string>();
  calls: string[] = [];
  aborted: string[] = [];
  takesMs = 0;
  async work(what: string, signal: AbortSignal): Promise<void> {
    this.calls.push(what);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, this.takesMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        this.aborted.push(what);
        reject(signal.reason);
      });
    });
  }
}

const schema = resourceSchema(
  {
    name: attr.string({ required: true, replace: true, description: 'The job.' }),
    script: attr.string({ required: true, description: 'What it runs.' }),
    timeouts: timeoutsAttribute({ create: '200ms', delete: '1h' }),
  },
  { description: 'A job.' },
);

/** The jobs provider; `repeatable` false: its type says neither how to find what a create made nor that repeating is harmless. */
function jobsProvider(jobs: Jobs, repeatable = true) {
  return provider({
    namespace: 'acme',
    name: 'jobs',
    version: '0.1.0',
    schema: providerSchema({}, { description: 'Jobs.' }),
    configure: async () => jobs,
    resources: [
      resource<typeof schema.fields, Jobs>({
        typeName: 'jobs_job',
        schema,
        importIdDescription: 'the job name',
        importState: async (name) => ({ name }),
        ...(repeatable ? { repeatableCreate: 'a job of a name is made once' } : {}),
        async create(plan, ctx) {
          await ctx.client.work(`create ${plan.name}`, ctx.signal);
          ctx.client.jobs.set(plan.name, plan.script);
          return { ...plan };
        },
        async read(prior, ctx) {
          const script = ctx.client.jobs.get(prior.name);
          return script === undefined ? null : { name: prior.name, script, timeouts: null };
        },
        async update(plan, _prior, ctx) {
          await ctx.client.work(`update ${plan.name}`, ctx.signal);
          ctx.client.jobs.set(plan.name, plan.script);
          return { ...plan };
        },
        async delete(prior, ctx) {
          await ctx.client.work(`delete ${prior.name}`, ctx.signal);
          ctx.client.jobs.delete(prior.name);
        },
      }),
    ],
    dataSources: [],
  });
}

describe('the framework: timeouts of a resource', () => {
  let jobs: Jobs;
  let harness: ProviderHarness;
  beforeEach(async () => {
    jobs = new Jobs();
    harness = await ProviderHarness.start(jobsProvider(jobs));
  });

  it('is an optional attribute of the operations it names, each described with its default', () => {
    const timeouts = schema.block.attributes.timeouts!;
    expect([timeouts.optional, timeouts.required, timeouts.computed]).to.deep.equal([true, false, false]);
    expect(timeouts.nestedType?.nesting).to.equal('single');
    expect(Object.keys(timeouts.nestedType!.attributes)).to.deep.equal(['create', 'delete']);
    expect(timeouts.nestedType!.attributes.create!.description).to.include('200ms when unset');
  });

  it('ends an operation at the default, naming the setting, and aborts its signal', async () => {
    jobs.takesMs = 5_000;
    const started = Date.now();
    const error = await harness.create('jobs_job', { name: 'a', script: 'run' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(HarnessError);
    const [diagnostic] = (error as HarnessError).diagnostics;
    expect(diagnostic!.summary).to.equal('Cannot create jobs_job');
    // The configuration's limit (here the type's default), said as such: no "bug", and this type repeats its
    // creates harmlessly (repeatableCreate), so nothing more is said of a late one.
    expect(diagnostic!.detail).to.equal('The create did not finish within 200ms (`timeouts.create`).');
    expect(Date.now() - started, 'ended before the 5 s the job takes').to.be.below(5_000);
    expect(jobs.aborted).to.deep.equal(['create a']);
  });

  it('says, for a type that cannot find what a create made, that applying again may make a second object', async () => {
    jobs.takesMs = 5_000;
    const blind = await ProviderHarness.start(jobsProvider(jobs, false));
    const error = await blind.create('jobs_job', { name: 'a', script: 'run' }).catch((e: unknown) => e as HarnessError);
    expect((error as HarnessError).diagnostics[0]!.detail).to.equal(
      'The create did not finish within 200ms (`timeouts.create`); the object may still be made, and this type ' +
        'cannot find it (it declares no findCreated): applying again may make a second one, so look on the ' +
        'platform first.',
    );
  });

  it("takes the configuration's limit over the default", async () => {
    jobs.takesMs = 400;
    const made = await harness.create('jobs_job', { name: 'a', script: 'run', timeouts: { create: '2s' } });
    expect(made.timeouts).to.deep.equal({ create: '2s', delete: null });
    const error = await harness
      .create('jobs_job', { name: 'b', script: 'run', timeouts: { create: '50ms' } })
      .catch((e: unknown) => e as HarnessError);
    expect((error as HarnessError).diagnostics[0]!.detail).to.include('within 50ms (`timeouts.create`)');
  });

  it('checks each limit is a Go duration, at its path', () => {
    const problems = harness.validate('jobs_job', { name: 'a', script: 'run', timeouts: { create: '5 minutes' } });
    expect(problems.map((p) => [p.path, p.severity])).to.deep.equal([['timeouts.create', 'error']]);
    expect(problems[0]!.detail).to.include('Go duration');
    expect(harness.validate('jobs_job', { name: 'a', script: 'run', timeouts: { create: '1h30m' } })).to.deep.equal([]);
  });

  it("is the provider's own: a change to it alone calls no API, a read keeps it, an import leaves it unset", async () => {
    const made = await harness.create('jobs_job', { name: 'a', script: 'run' });
    jobs.calls = [];
    const changed = await harness.apply('jobs_job', {
      prior: made,
      config: { name: 'a', script: 'run', timeouts: { create: '1m', delete: '5m' } },
    });
    expect(changed!.timeouts).to.deep.equal({ create: '1m', delete: '5m' });
    expect(jobs.calls).to.deep.equal([]);
    expect((await harness.read('jobs_job', changed!))!.timeouts).to.deep.equal({ create: '1m', delete: '5m' });
    expect((await harness.importState('jobs_job', 'a')).timeouts).to.equal(null);
  });
});

describe('the framework: a timeouts attribute declared elsewhere', () => {
  it('is a declaration problem under another name, or on what is not a resource', () => {
    const odd = resourceSchema(
      { name: attr.string({ required: true, description: 'n' }), limits: timeoutsAttribute({ create: '1m' }) },
      { description: 'odd' },
    );
    const def = provider({
      ...jobsProvider(new Jobs()),
      resources: [{ ...jobsProvider(new Jobs()).resources[0]!, typeName: 'jobs_odd', schema: odd } as never],
      schema: providerSchema({ timeouts: timeoutsAttribute({ read: '1m' }) }, { description: 'Jobs.' }),
    });
    return ProviderHarness.start(def).then(
      () => expect.fail('started'),
      (error: Error) => {
        expect(error.message)
          .to.include('resource type jobs_odd: `limits` is a timeouts attribute, which only a resource has')
          .and.include("the provider jobs's settings: `timeouts` is a timeouts attribute");
      },
    );
  });
});
