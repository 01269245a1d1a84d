/**
 * Creates whose answer is lost, through the engine with a fake API whose requests can be lost on
 * the way (dropped: the platform never acts) or whose answers can be lost after the platform acted
 * (ambiguous). The engine adopts an object only with evidence that this create made it: it holds
 * the key, was not there before the request was sent, no other create of the process made it, it
 * matches the plan, and it is the only one. It creates again only when nothing new exists, and
 * otherwise fails with a diagnostic that names the candidates, adopting and deleting nothing.
 */
import { expect } from 'chai';
import { attr, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { provider, resource, type ResourceDef } from '../../packages/framework/src/engine/contracts/index.js';
import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import type { CreateRecoveryOptions } from '../../packages/framework/src/engine/creates/index.js';
import { alreadyHasOne } from '../../packages/framework/src/engine/creates/create-messages.js';
import { ApiError, OUTCOME_UNKNOWN_NOTE } from '../../packages/framework/src/wire/api-error.js';
import { NOT_SENT_NOTE } from '../../src/clients/stop.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';

interface Thing {
  id: string;
  name: string;
  color: string;
  ready: boolean;
}

/** What happens to one create request: answered, lost before the platform acts, or answered into the void after it acted. */
type Fate = 'answered' | 'dropped' | 'ambiguous';

class LossyApi {
  things = new Map<string, Thing>();
  deletes = 0;
  seq = 0;
  creates = 0;
  /** Every listing: the census before creates and the lookups after lost answers. */
  lists = 0;
  /** Fates of the next create requests, in order; answered once it runs out. */
  fates: Fate[] = [];
  /** Runs while a create request is on the wire (before it takes effect). */
  duringCreate: (() => Promise<void>) | undefined;
  /** Creates of a name that exists are refused (as platforms with unique names do). */
  uniqueNames = false;
  /** The next N listings after the first create request do not show the objects it made yet (lists that lag). */
  laggingLists = 0;
  /** Listings fail (the list call is refused). */
  failLists = false;
  /** Makes an object as someone else would (another workspace, a person in the console). */
  foreign(name: string, color = 'blue'): Thing {
    const t = { id: `foreign-${++this.seq}`, name, color, ready: true };
    this.things.set(t.id, t);
    return t;
  }
}

const lost = () =>
  new ApiError(`the connection was lost; ${OUTCOME_UNKNOWN_NOTE}`, {
    code: 'outcome_unknown',
    operation: 'POST /things',
  });

const schemaOf = (oneTimeSecret: boolean) =>
  resourceSchema(
    {
      id: attr.sdkId(),
      name: attr.string({ required: true, description: 'name' }),
      color: attr.string({ optional: true, default: 'blue', description: 'a setting the platform stores' }),
      ready: attr.bool({ computed: true, description: 'set by the step after the create call' }),
      secret: attr.string({
        computed: true,
        sensitive: true,
        masked: true,
        oneTime: oneTimeSecret,
        description: 'only in the create answer (when one-time)',
      }),
    },
    { description: 'a thing' },
  );
const schema = schemaOf(false);
type Fields = typeof schema.fields;

const infos: Array<{ message: string; fields?: Record<string, unknown> }> = [];
const log: Logger = {
  trace() {},
  debug() {},
  info: (message, fields) => infos.push({ message, ...(fields ? { fields } : {}) }),
  warn() {},
  error() {},
  child: () => log,
};

interface ThingOptions {
  readonly withLookup?: boolean;
  /** The create answer carries a one-time secret (lookups never show it). */
  readonly withSecret?: boolean;
}

function thingResource({ withLookup = true, withSecret = false }: ThingOptions = {}): ResourceDef<Fields, LossyApi> {
  const model = (t: Thing, secret: string | null) => ({
    id: t.id,
    name: t.name,
    color: t.color,
    ready: t.ready,
    secret,
  });
  return resource<Fields, LossyApi>({
    typeName: 'fake_thing',
    schema: schemaOf(withSecret),
    importIdDescription: 'the thing id',
    importState: async (id) => ({ id }),
    async create(plan, ctx) {
      const api = ctx.client;
      await null; // a client prepares the request (e.g. fetches a token) before sending it
      // As the clients do: nothing is sent once Terraform asked the provider to stop.
      if (ctx.signal.aborted) throw new ApiError(NOT_SENT_NOTE, { code: 'cancelled', operation: 'POST /things' });
      api.creates++;
      await api.duringCreate?.();
      const fate = api.fates.shift() ?? 'answered';
      if (fate === 'dropped') throw lost();
      if (api.uniqueNames && [...api.things.values()].some((t) => t.name === plan.name)) {
        // Refused by the platform; with an ambiguous fate the refusal itself is lost.
        if (fate === 'ambiguous') throw lost();
        throw new ApiError('a thing with this name already exists', {
          code: 'conflict',
          operation: 'POST /things',
          status: 409,
        });
      }
      const t = { id: `t-${++api.seq}`, name: plan.name, color: plan.color ?? 'blue', ready: false };
      api.things.set(t.id, t);
      if (fate === 'ambiguous') throw lost();
      return model(t, withSecret ? `s3cret-${t.id}` : null);
    },
    // What create does once the object exists; adoption must do it too. A request, so after a stop it is not sent.
    async settle(created, _plan, ctx) {
      if (ctx.signal.aborted) throw new ApiError(NOT_SENT_NOTE, { code: 'cancelled', operation: 'PATCH /things' });
      const t = ctx.client.things.get(created.id!)!;
      t.ready = true;
      return { ...created, ready: true };
    },
    ...(withLookup
      ? {
          findCreated: {
            key: 'its name',
            uniqueKey: false,
            describe: (plan) => `the thing named ${JSON.stringify(plan.name)}`,
            async list(_plan, ctx) {
              const api = ctx.client;
              api.lists++;
              if (ctx.signal.aborted) throw new ApiError('cancelled', { code: 'cancelled', operation: 'GET /things' });
              if (api.failLists)
                throw new ApiError('the platform is down', {
                  code: 'unavailable',
                  operation: 'GET /things',
                  status: 503,
                });
              const lagging = api.creates > 0 && api.laggingLists-- > 0;
              return [...api.things.values()]
                .filter((t) => !lagging || t.id.startsWith('foreign-'))
                .map((t) => model(t, null));
            },
            holdsKey: (plan, found) => found.name === plan.name,
            importId: (found) => found.id ?? '',
          },
        }
      : {}),
    async read(prior, ctx) {
      const t = ctx.client.things.get(prior.id!);
      return t ? model(t, null) : null;
    },
    async delete(prior, ctx) {
      ctx.client.deletes++;
      ctx.client.things.delete(prior.id!);
    },
  });
}

async function engineFor(api: LossyApi, options: ThingOptions = {}, recovery: Partial<CreateRecoveryOptions> = {}) {
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema({}, { description: 'fake provider' }),
    configure: async () => api,
    // These tests are of lost answers beside objects someone made on purpose: its user says to create
    // beside an object like it, which the apply then names in a warning (test/engine/untracked-objects.test.ts
    // has what the default, refuse, does).
    createSettings: () => ({ untrackedObjects: 'create' }),
    resources: [thingResource(options)],
    dataSources: [],
  });
  const engine = new ProviderEngine(def, log, {}, { lookupDelayMs: 0, ...recovery });
  await engine.configureProvider('1.11.4', {});
  return engine;
}

/** The error diagnostics of an outcome: a warning naming an object created beside is no failure here. */
function errorsOf(out: { diags: { items: readonly { severity: string }[] } }) {
  return out.diags.items.filter((d) => d.severity === 'error') as {
    severity: string;
    summary: string;
    detail: string;
  }[];
}

function planOf(engine: ProviderEngine<LossyApi>, name: string, color: string | null = null) {
  const config: ObjectValue = { id: null, name, color, ready: null, secret: null };
  return engine.planResourceChange(
    'fake_thing',
    null,
    proposedNew(schema.block, null, config) as ObjectValue,
    config,
    {},
  );
}

async function create(engine: ProviderEngine<LossyApi>, name: string, color: string | null = null) {
  const plan = planOf(engine, name, color);
  return engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
}

const stateOf = (id: string, name: string, extra: Partial<Thing> = {}) => ({
  id,
  name,
  color: 'blue',
  ready: true,
  secret: null,
  ...extra,
});

describe('engine: creates whose answer is lost', () => {
  let api: LossyApi;
  beforeEach(() => {
    api = new LossyApi();
    infos.length = 0;
  });

  it('adopts the object the lost request made: one object, its id in state, the create finished', async () => {
    api.fates = ['ambiguous'];
    const out = await create(await engineFor(api), 'x');
    expect(errorsOf(out)).to.deep.equal([]);
    expect([...api.things.values()]).to.deep.equal([{ id: 't-1', name: 'x', color: 'blue', ready: true }]);
    expect(out.state).to.deep.equal(stateOf('t-1', 'x'));
    expect(api.creates).to.equal(1);
    // The census before the request, the lookup after the loss.
    expect(api.lists).to.equal(2);
    expect(infos.map((i) => i.message)).to.include('adopted the object an unanswered create request had made');
    expect(infos.find((i) => i.message.startsWith('adopted'))!.fields).to.deep.include({ id: 't-1' });
  });

  it('creates again when the lost request made nothing', async () => {
    api.fates = ['dropped'];
    const out = await create(await engineFor(api), 'x');
    expect(errorsOf(out)).to.deep.equal([]);
    expect(out.state).to.deep.include({ id: 't-1', name: 'x' });
    expect(api.creates).to.equal(2);
    expect(api.lists).to.equal(2);
    expect(api.things.size).to.equal(1);
  });

  describe('an object it did not make is never taken', () => {
    it('a request dropped on the way: an object of the same name that existed before is left alone, and a new one is made', async () => {
      api.foreign('x');
      api.fates = ['dropped'];
      const out = await create(await engineFor(api), 'x');
      expect(errorsOf(out)).to.deep.equal([]);
      expect(out.state).to.deep.equal(stateOf('t-2', 'x'));
      expect([...api.things.keys()].sort()).to.deep.equal(['foreign-1', 't-2']);
      expect(api.deletes).to.equal(0);
    });

    it('an answer lost after the platform acted: the new object is adopted, not the older one of the same name', async () => {
      api.foreign('x');
      api.fates = ['ambiguous'];
      const out = await create(await engineFor(api), 'x');
      expect(errorsOf(out)).to.deep.equal([]);
      expect(out.state).to.deep.equal(stateOf('t-2', 'x'));
      expect(api.creates).to.equal(1);
    });

    it('create_before_destroy: the object being replaced is never adopted by its replacement', async () => {
      const engine = await engineFor(api);
      const first = await create(engine, 'x');
      expect(first.state).to.deep.include({ id: 't-1' });
      for (const fate of ['dropped', 'ambiguous'] as const) {
        api.fates = [fate];
        const replacement = await create(engine, 'x');
        expect(replacement.diags.items, fate).to.deep.equal([]);
        expect((replacement.state as { id: string }).id, fate).to.not.equal('t-1');
      }
      expect([...api.things.keys()].sort()).to.deep.equal(['t-1', 't-2', 't-3']);
    });

    it('an object made by someone else while the request was out, with other settings: adopted by neither, nothing sent again or deleted', async () => {
      api.duringCreate = async () => {
        api.foreign('x', 'red');
      };
      api.fates = ['dropped'];
      const out = await create(await engineFor(api), 'x');
      expect(out.state).to.equal(null);
      expect(api.creates).to.equal(1);
      expect(api.deletes).to.equal(0);
      const [d] = errorsOf(out);
      expect(d).to.deep.include({ severity: 'error', summary: 'Create outcome unknown' });
      expect(d!.detail).to.include('does not hold what the plan asked for');
      expect(d!.detail).to.include(
        'foreign-1 (not among the objects listed before the request, but its `color` differ from the plan)',
      );
      expect(d!.detail).to.include("`terraform import <address> 'foreign-1'`");
      expect(d!.detail).to.include('It adopted no object and deleted nothing.');
    });

    it('two new objects holding the key: adopts neither, names both, sends nothing more', async () => {
      api.duringCreate = async () => {
        api.duringCreate = undefined;
        api.foreign('x');
      };
      api.fates = ['ambiguous'];
      const out = await create(await engineFor(api), 'x');
      expect(out.state).to.equal(null);
      expect(api.creates).to.equal(1);
      expect([...api.things.keys()].sort()).to.deep.equal(['foreign-1', 't-2']);
      const [d] = errorsOf(out);
      expect(d).to.deep.include({ summary: 'Create outcome unknown' });
      expect(d!.detail).to.include('2 objects holding its key were not among the objects listed before the request');
      expect(d!.detail).to.include('foreign-1 (not among the objects listed before the request)');
      expect(d!.detail).to.include('t-2 (not among the objects listed before the request)');
      expect(d!.detail).to.include("import the right one: `terraform import <address> '<the thing id>'`");
    });

    it('a unique name held by an existing object: after a dropped request the repeat is refused, and the error says how to import the holder', async () => {
      api.uniqueNames = true;
      api.foreign('x');
      api.fates = ['dropped'];
      const out = await create(await engineFor(api), 'x');
      expect(out.state).to.equal(null);
      expect(api.deletes).to.equal(0);
      expect([...api.things.keys()]).to.deep.equal(['foreign-1']);
      const [d] = errorsOf(out);
      expect(d).to.deep.include({ severity: 'error', summary: 'Cannot create fake_thing' });
      expect(d!.detail).to.include('a thing with this name already exists');
      expect(d!.detail).to.include(
        'The thing named "x" already exists (foreign-1) and was not made by this configuration',
      );
      expect(d!.detail).to.include("`terraform import <address> 'foreign-1'`");
    });

    it('a unique name held by an existing object, the refusal itself lost: the same error, nothing adopted', async () => {
      api.uniqueNames = true;
      api.foreign('x');
      api.fates = ['ambiguous'];
      const out = await create(await engineFor(api), 'x');
      expect(out.state).to.equal(null);
      expect(api.creates).to.equal(2);
      expect(errorsOf(out)[0]!.detail).to.include('already exists (foreign-1) and was not made by this configuration');
    });

    it('a plain "already exists" (no answer lost) names the holder and how to import it', async () => {
      api.uniqueNames = true;
      api.foreign('x');
      const out = await create(await engineFor(api), 'x');
      expect(out.state).to.equal(null);
      expect(api.creates).to.equal(1);
      expect(errorsOf(out)[0]!.detail).to.match(
        /^POST \/things: a thing with this name already exists .*\. The thing named "x" already exists \(foreign-1\)/,
      );
      expect(errorsOf(out)[0]!.detail).to.include(
        'Otherwise change the configuration so that the new object differs in its name.',
      );
    });
  });

  describe('the census: what existed before the request was sent', () => {
    it('one listing serves the creates that follow within its age; an older one is taken anew', async () => {
      let now = 0;
      const engine = await engineFor(api, {}, { censusMaxAgeMs: 1_000 });
      // The ledger reads the clock through Date.now.
      const realNow = Date.now;
      Date.now = () => now;
      try {
        await create(engine, 'a');
        await create(engine, 'b');
        now = 500;
        await create(engine, 'c');
        expect(api.lists).to.equal(1);
        now = 1_501;
        await create(engine, 'd');
        expect(api.lists).to.equal(2);
      } finally {
        Date.now = realNow;
      }
    });

    it('creates started together share one listing', async () => {
      const engine = await engineFor(api);
      const outs = await Promise.all(['a', 'b', 'c', 'd'].map((n) => create(engine, n)));
      expect(outs.flatMap((o) => o.diags.items)).to.deep.equal([]);
      expect(api.lists).to.equal(1);
      expect(api.creates).to.equal(4);
    });

    it('a failed listing fails the create before anything is sent, and says nothing was created', async () => {
      api.failLists = true;
      const out = await create(await engineFor(api), 'x');
      expect(api.creates).to.equal(0);
      expect(out.state).to.equal(null);
      expect(out.diags.items[0]).to.deep.include({ summary: 'Cannot create fake_thing' });
      expect(errorsOf(out)[0]!.detail).to.include('that listing failed: GET /things: the platform is down (HTTP 503)');
      expect(errorsOf(out)[0]!.detail).to.include(
        'The create request was not sent: the thing named "x" was not created.',
      );
    });

    it("two resources of one run with the same key never take each other's object", async () => {
      const engine = await engineFor(api);
      // The first create's answer is lost after it acted; the second's request never arrives.
      api.fates = ['ambiguous', 'dropped'];
      const [a, b] = await Promise.all([create(engine, 'x'), create(engine, 'x')]);
      expect([...a.diags.items, ...b.diags.items]).to.deep.equal([]);
      const ids = [(a.state as { id: string }).id, (b.state as { id: string }).id];
      expect(new Set(ids).size, 'each has its own object').to.equal(2);
      expect([...api.things.keys()].sort()).to.deep.equal([...ids].sort());
    });
  });

  it('adopts after a repeated create is refused as a conflict (the list showed the object late)', async () => {
    api.uniqueNames = true;
    api.fates = ['ambiguous'];
    api.laggingLists = 1;
    const out = await create(await engineFor(api), 'x');
    expect(errorsOf(out)).to.deep.equal([]);
    expect(out.state).to.deep.equal(stateOf('t-1', 'x'));
    expect(api.creates).to.equal(2);
    expect(api.lists).to.equal(3);
    expect(api.things.size).to.equal(1);
  });

  it('never repeats a create blindly when the resource has no lookup', async () => {
    api.fates = ['ambiguous'];
    const out = await create(await engineFor(api, { withLookup: false }), 'x');
    expect(out.state).to.equal(null);
    expect(api.creates).to.equal(1);
    expect(out.diags.items[0]).to.deep.include({ summary: 'Create outcome unknown' });
    expect(errorsOf(out)[0]!.detail).to.match(
      /^POST \/things: the connection was lost; .*may or may not have taken effect\. fake_thing has no natural key/,
    );
  });

  it('gives up after five create requests whose answers were all lost before taking effect', async () => {
    api.fates = Array(10).fill('dropped');
    const out = await create(await engineFor(api), 'x');
    expect(out.state).to.equal(null);
    expect(api.creates).to.equal(5);
    expect(api.lists).to.equal(6);
    expect(api.things.size).to.equal(0);
    expect(errorsOf(out)[0]!.detail).to.include('No object this create made was found after 5 attempts');
  });

  it('creates again when four answers were lost before taking effect, and the fifth arrives', async () => {
    api.fates = Array(4).fill('dropped');
    const out = await create(await engineFor(api), 'x');
    expect(errorsOf(out)).to.deep.equal([]);
    expect(out.state).to.deep.include({ id: 't-1' });
    expect(api.creates).to.equal(5);
    expect(api.things.size).to.equal(1);
  });

  it('fails without repeating the create when the lookup fails', async () => {
    api.fates = ['ambiguous'];
    const engine = await engineFor(api);
    api.duringCreate = async () => {
      api.failLists = true;
    };
    const out = await create(engine, 'x');
    expect(out.state).to.equal(null);
    expect(api.creates).to.equal(1);
    expect(api.deletes).to.equal(0);
    expect(errorsOf(out)[0]!.detail).to.include(
      'Looking for the object failed: GET /things: the platform is down (HTTP 503)',
    );
  });

  it('looks up at once when Terraform stops during the wait before the lookup, and keeps what it finds, tainted', async () => {
    api.fates = ['ambiguous'];
    const engine = await engineFor(api, {}, { lookupDelayMs: 10_000 });
    const started = Date.now();
    const pending = create(engine, 'x');
    setTimeout(() => engine.stop(), 50);
    const out = await pending;
    expect(Date.now() - started, 'the 10 s wait before the lookup was cut short').to.be.below(10_000);
    expect(api.lists).to.equal(2);
    expect(api.creates).to.equal(1);
    // The object is in the state; its settle step could not send its request after the stop, so it is tainted.
    expect(out.state).to.deep.equal(stateOf('t-1', 'x', { ready: false }));
    expect(api.things.get('t-1')!.ready).to.equal(false);
    const [d] = errorsOf(out);
    expect(out.diags.items).to.have.length(1);
    expect(d).to.deep.include({ severity: 'error', summary: 'Cannot create fake_thing' });
    expect(d!.detail).to.equal(
      `PATCH /things: ${NOT_SENT_NOTE}. fake_thing t-1 exists and is kept in the state, marked tainted, so the next apply replaces it (\`terraform untaint\` keeps it instead).`,
    );
  });

  it('keeps the object when the stop comes while its create request is on the wire and the answer then arrives', async () => {
    const engine = await engineFor(api);
    api.duringCreate = async () => {
      engine.stop();
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const out = await create(engine, 'x');
    expect(api.creates).to.equal(1);
    expect(out.state).to.deep.include({ id: 't-1', name: 'x', ready: false });
    expect(errorsOf(out)[0]!.detail).to.include('fake_thing t-1 exists and is kept in the state, marked tainted');
  });

  it('does not send the create at all once Terraform has stopped the provider, and says nothing was created', async () => {
    const engine = await engineFor(api);
    // The stop applies to RPCs in flight (a later RPC gets a fresh signal): it lands while the
    // engine applies, before the request is sent.
    const plan = planOf(engine, 'x');
    const pending = engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    engine.stop();
    const out = await pending;
    expect(api.creates).to.equal(0);
    expect(out.state).to.equal(null);
    expect(out.diags.items[0]).to.deep.include({ summary: 'Create of fake_thing cancelled' });
    expect(errorsOf(out)[0]!.detail).to.match(/: the thing named "x" was not created\.$/);
  });

  it('after a stop, a lost answer whose object cannot be found is not sent again, and the message names the object', async () => {
    api.fates = ['dropped'];
    const engine = await engineFor(api);
    api.duringCreate = async () => engine.stop();
    const out = await create(engine, 'x');
    expect(api.creates).to.equal(1);
    expect(api.lists).to.equal(2);
    expect(out.state).to.equal(null);
    const [d] = errorsOf(out);
    expect(d).to.deep.include({ summary: 'Create outcome unknown' });
    expect(d!.detail).to.include(
      'No object this create made was found, and Terraform asked the provider to stop, so it did not send the request again.',
    );
    expect(d!.detail).to.include('Look on the platform for the thing named "x". If it exists, import it');
  });

  it('deletes an object found without its one-time secret and creates it anew, so the state holds the secret', async () => {
    api.fates = ['ambiguous'];
    const out = await create(await engineFor(api, { withSecret: true }), 'x');
    expect(errorsOf(out)).to.deep.equal([]);
    expect(api.creates).to.equal(2);
    expect(api.deletes).to.equal(1);
    expect([...api.things.keys()]).to.deep.equal(['t-2']);
    expect(out.state).to.deep.equal(stateOf('t-2', 'x', { secret: 's3cret-t-2' } as Partial<Thing>));
    expect(infos.map((i) => i.message)).to.include(
      'deleted the object whose one-time secret was lost with the create answer; creating it again',
    );
  });

  it('never deletes an object it did not make, even one that lacks the one-time secret', async () => {
    api.foreign('x');
    api.fates = ['dropped'];
    const out = await create(await engineFor(api, { withSecret: true }), 'x');
    expect(errorsOf(out)).to.deep.equal([]);
    expect(api.deletes).to.equal(0);
    expect(api.things.has('foreign-1')).to.equal(true);
    expect(out.state).to.deep.include({ id: 't-2', secret: 's3cret-t-2' });
  });

  it('after a stop, keeps an object found without its one-time secret, tainted, rather than deleting or forgetting it', async () => {
    api.fates = ['ambiguous'];
    const engine = await engineFor(api, { withSecret: true });
    api.duringCreate = async () => engine.stop();
    const out = await create(engine, 'x');
    expect(api.creates).to.equal(1);
    expect(api.deletes).to.equal(0);
    expect(out.state).to.deep.include({ id: 't-1', secret: null });
    expect(out.diags.items[0]).to.deep.include({ summary: 'Create interrupted' });
    expect(errorsOf(out)[0]!.detail).to.include('its `secret` came only in the answer that was lost');
    expect(errorsOf(out)[0]!.detail).to.include('marked tainted, so the next apply replaces it');
  });
});

describe('engine: the words for an object found in a create’s way', () => {
  it('a sub-object a parent has already: refused, named with the import that adopts it', () => {
    const err = alreadyHasOne(thingResource(), 'cluster 7f3a', 'a maintenance window', '7f3a');
    expect(err.summary).to.equal('Cannot create fake_thing');
    expect(err.detail).to.equal(
      'Cluster 7f3a already has a maintenance window, which this configuration did not set, so the provider does ' +
        "not take it over. To manage it with this resource, import it: `terraform import <address> '7f3a'`, or an " +
        '`import` block with `id = "7f3a"`. Otherwise remove it on the platform and apply again.',
    );
  });
});
