/**
 * The engine's action part (packages/framework/src/engine/entry/actions.ts), on a fake action whose platform the test
 * holds:
 * validation refuses what the arguments show, at their paths, and accepts unknown values; a plan
 * adds the provider's own rules and sends nothing; a run streams its progress as it comes and ends
 * with one result; failures, a stop and the end of the call become diagnostics that say what was
 * started and keeps running; the consumer that stops reading stops the action.
 */
import { expect } from 'chai';
import { attr, resourceSchema, validators } from '../../packages/framework/src/schema/define.js';
import { action, provider } from '../../packages/framework/src/engine/contracts/index.js';
import { DiagnosticError } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import type { ActionEvent } from '../../packages/framework/src/engine/entry/actions.js';
import { ApiError } from '../../packages/framework/src/wire/api-error.js';
import { attrStep } from '../../packages/framework/src/schema/path.js';
import { UNKNOWN, type ObjectValue } from '../../packages/framework/src/schema/value.js';
import { quietLogger } from '../support/quiet-logger.js';

/** The fake platform: what the action did, and how the test makes it behave. */
interface Platform {
  calls: string[];
  /** The job's wait ends when this resolves (or the signal aborts). */
  finish: Promise<void>;
  fail?: unknown;
  defaultZone: string | null;
}

const fields = {
  target: attr.string({ required: true, validate: [validators.oneOf('a', 'b')], description: 'What to poke.' }),
  zone: attr.string({ optional: true, description: 'Where; the provider default otherwise.' }),
  count: attr.number({ optional: true, validate: [validators.intBetween(1, 3)], description: 'How often.' }),
};

const poke = action<typeof fields, Platform>({
  typeName: 'fake_poke',
  schema: resourceSchema(fields, { description: 'Pokes.' }),
  interruption: 'A poke is one request.',
  validate(config, diags) {
    if (config.target === 'b' && config.count !== undefined && config.count !== null && config.count > 1)
      diags.error('Too many pokes', '`b` takes one poke.', [attrStep('count')]);
  },
  validateWithProvider(config, client, diags) {
    if (config.zone === null && client.defaultZone === null)
      diags.error('No zone', 'Set `zone` or the provider default.', [attrStep('zone')]);
  },
  async invoke(config, ctx) {
    ctx.progress(`poking ${config.target}`);
    ctx.client.calls.push(`start ${config.target}`);
    ctx.started(`job ${config.target}-1`);
    ctx.progress('job started');
    await new Promise<void>((resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(Object.assign(new Error('stopped'), { name: 'AbortError' })));
      void ctx.client.finish.then(resolve);
    });
    if (ctx.client.fail !== undefined) throw ctx.client.fail;
    ctx.client.calls.push('done');
    ctx.progress('job done');
  },
});

function engineWith(platform: Platform, fakePoke = poke): ProviderEngine<Platform> {
  return new ProviderEngine(
    provider({
      name: 'fake',
      version: '1.0.0',
      schema: resourceSchema({}, { description: 'Fake.' }),
      configure: async () => platform,
      resources: [],
      dataSources: [],
      actions: [fakePoke],
    }),
    quietLogger,
    {},
  );
}

const config = (v: Partial<Record<keyof typeof fields, unknown>>): ObjectValue =>
  ({
    target: null,
    zone: null,
    count: null,
    ...v,
  }) as ObjectValue;

async function collect(events: AsyncGenerator<ActionEvent>): Promise<ActionEvent[]> {
  const out: ActionEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function platformWith(options: Partial<Platform> = {}): Platform & { release(): void } {
  let release!: () => void;
  const finish = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { calls: [], finish, defaultZone: 'z1', release, ...options };
}

describe('engine: actions', () => {
  it('validation refuses at the path what the arguments show, accepts unknown values, and calls nothing', () => {
    const platform = platformWith();
    const engine = engineWith(platform);
    const bad = engine.validateActionConfig('fake_poke', config({ target: 'c', count: 7 }));
    expect(bad.items.map((d) => [d.summary, d.path])).to.deep.equal([
      ['Invalid value for "target"', [{ attr: 'target' }]],
      ['Invalid value for "count"', [{ attr: 'count' }]],
    ]);
    const rule = engine.validateActionConfig('fake_poke', config({ target: 'b', count: 2 }));
    expect(rule.items.map((d) => d.summary)).to.deep.equal(['Too many pokes']);
    expect(engine.validateActionConfig('fake_poke', config({ target: UNKNOWN, count: UNKNOWN })).items).to.deep.equal(
      [],
    );
    expect(engine.validateActionConfig('fake_other', config({})).items[0]!.summary).to.equal('Unknown action');
    expect(platform.calls).to.deep.equal([]);
  });

  it("a plan adds the provider's own rules once it is configured, accepts unknown values and sends nothing", async () => {
    const platform = platformWith({ defaultZone: null });
    const engine = engineWith(platform);
    // Before the provider is configured, its own rules cannot be judged.
    expect(engine.planAction('fake_poke', config({ target: 'a' })).items).to.deep.equal([]);
    await engine.configureProvider('1.14.0', {});
    expect(engine.planAction('fake_poke', config({ target: 'a' })).items.map((d) => d.summary)).to.deep.equal([
      'No zone',
    ]);
    expect(engine.planAction('fake_poke', config({ target: UNKNOWN, zone: UNKNOWN })).items).to.deep.equal([]);
    expect(engine.planAction('fake_poke', config({ target: 'c', zone: 'z' })).items[0]!.path).to.deep.equal([
      { attr: 'target' },
    ]);
    expect(platform.calls).to.deep.equal([]);
  });

  it('a run streams each progress line as it comes, then one result', async () => {
    const platform = platformWith();
    const engine = engineWith(platform);
    await engine.configureProvider('1.14.0', {});
    const run = engine.invokeAction('fake_poke', config({ target: 'a' }));
    // The first lines arrive while the job is still running.
    expect((await run.next()).value).to.deep.equal({ progress: 'poking a' });
    expect((await run.next()).value).to.deep.equal({ progress: 'job started' });
    platform.release();
    const rest = await collect(run);
    expect(rest.map((e) => e.progress ?? 'completed')).to.deep.equal(['job done', 'completed']);
    expect(rest.at(-1)!.completed!.items).to.deep.equal([]);
    expect(platform.calls).to.deep.equal(['start a', 'done']);
  });

  it("a failure is a diagnostic: the action's own says everything, any other adds what keeps running", async () => {
    for (const [fail, summary, detail] of [
      [new DiagnosticError('Job failed', 'The platform says no.'), 'Job failed', /^The platform says no\.$/],
      [
        new ApiError('the platform is down', { code: 'unavailable', operation: 'GET /jobs/{id}' }),
        'Cannot run fake_poke',
        /the platform is down\. It had started job a-1, which keeps running on the platform and is not requested again\.$/,
      ],
    ] as const) {
      const platform = platformWith({ fail });
      platform.release();
      const engine = engineWith(platform);
      await engine.configureProvider('1.14.0', {});
      const events = await collect(engine.invokeAction('fake_poke', config({ target: 'a' })));
      const [d] = events.at(-1)!.completed!.items;
      expect(d!.severity).to.equal('error');
      expect(d!.summary).to.equal(summary);
      expect(d!.detail).to.match(detail);
    }
  });

  it('a stop ends the run at once, saying what was started and keeps running', async () => {
    const platform = platformWith();
    const engine = engineWith(platform);
    await engine.configureProvider('1.14.0', {});
    const run = engine.invokeAction('fake_poke', config({ target: 'b' }));
    await run.next();
    await run.next();
    engine.stop();
    const events = await collect(run);
    const [d] = events.at(-1)!.completed!.items;
    expect(d!.summary).to.equal('Action stopped');
    expect(d!.detail).to.equal(
      'Terraform asked the provider to stop while fake_poke ran. It had started job b-1, which keeps running on ' +
        'the platform and is not requested again.',
    );
    expect(platform.calls).to.deep.equal(['start b']);
  });

  it("the call's end (its deadline) ends the run; a consumer that stops reading stops the action", async () => {
    const platform = platformWith();
    const engine = engineWith(platform);
    await engine.configureProvider('1.14.0', {});
    const call = new AbortController();
    const run = engine.invokeAction('fake_poke', config({ target: 'a' }), { signal: call.signal });
    await run.next();
    call.abort(new Error('deadline'));
    const events = await collect(run);
    expect(events.at(-1)!.completed!.items[0]!.summary).to.equal('Action cut short');

    // Terraform gone: the generator is closed early, and the action sees its signal abort.
    let aborted = false;
    const watching = action<typeof fields, Platform>({
      ...poke,
      async invoke(_config, ctx) {
        ctx.progress('waiting');
        await new Promise<void>((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          }),
        );
      },
    });
    const engine2 = engineWith(platform, watching);
    await engine2.configureProvider('1.14.0', {});
    const run2 = engine2.invokeAction('fake_poke', config({ target: 'a' }));
    await run2.next();
    await run2.return(undefined);
    expect(aborted).to.equal(true);
  });

  it('refuses a configuration with unknown values at invocation (Terraform plans until they are known)', async () => {
    const platform = platformWith();
    const engine = engineWith(platform);
    await engine.configureProvider('1.14.0', {});
    const events = await collect(engine.invokeAction('fake_poke', config({ target: UNKNOWN })));
    expect(events).to.have.length(1);
    expect(events[0]!.completed!.items[0]!.summary).to.equal('Action configuration unknown');
    expect(platform.calls).to.deep.equal([]);
  });
});
