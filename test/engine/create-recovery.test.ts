/**
 * Creates whose answer is lost, through the engine with a fake API that can lose answers: the engine
 * adopts what the lost request made (found by the resource's natural-key lookup), creates again only
 * when nothing was made, and otherwise fails with a diagnostic without creating a duplicate.
 */
import { expect } from 'chai';
import { attr, resourceSchema } from '../../src/schema/define.js';
import { onlyCandidate, provider, resource, type Logger, type ResourceDef } from '../../src/engine/contracts.js';
import { ProviderEngine } from '../../src/engine/provider-engine.js';
import { ApiError, OUTCOME_UNKNOWN_NOTE } from '../../src/clients/errors.js';
import { proposedNew } from '../../src/engine/checks/index.js';
import type { ObjectValue } from '../../src/schema/value.js';

class LossyApi {
  things = new Map<string, { id: string; name: string; ready: boolean }>();
  seq = 0;
  creates = 0;
  lookups = 0;
  /** The next N creates take effect, then their answer is lost. */
  loseAnswers = 0;
  /** The next N creates are lost before they take effect. */
  loseRequests = 0;
  /** Creates of a name that exists are refused (as platforms with unique names do). */
  uniqueNames = false;
  /** The next N lookups do not see the objects yet (lists that lag behind). */
  hiddenFromLookups = 0;
  /** Lookups fail (the list call is refused). */
  failLookups = false;
  /** When the first create request arrived, and the `since` each lookup was given. */
  firstCreateAt: number | undefined;
  lookupSince: Date[] = [];
}

const lost = () => new ApiError(`the connection was lost; ${OUTCOME_UNKNOWN_NOTE}`, { code: 'outcome_unknown', operation: 'POST /things' });

const schema = resourceSchema(
  {
    id: attr.sdkId(),
    name: attr.string({ required: true, description: 'name' }),
    ready: attr.bool({ computed: true, description: 'set by the step after the create call' }),
  },
  { description: 'a thing' },
);
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

function thingResource(withLookup: boolean): ResourceDef<Fields, LossyApi> {
  // What create does once the object exists; adoption must do it too.
  const settle = (t: { id: string; name: string; ready: boolean }) => {
    t.ready = true;
    return { id: t.id, name: t.name, ready: t.ready };
  };
  return resource<Fields, LossyApi>({
    typeName: 'fake_thing',
    schema,
    importIdDescription: 'the thing id',
    importState: async (id) => ({ id }),
    async create(plan, ctx) {
      const api = ctx.client;
      api.creates++;
      api.firstCreateAt ??= Date.now();
      if (api.loseRequests > 0) {
        api.loseRequests--;
        throw lost();
      }
      if (api.uniqueNames && [...api.things.values()].some((t) => t.name === plan.name)) {
        throw new ApiError('a thing with this name already exists', { code: 'conflict', operation: 'POST /things', status: 409 });
      }
      const t = { id: `t-${++api.seq}`, name: plan.name, ready: false };
      api.things.set(t.id, t);
      if (api.loseAnswers > 0) {
        api.loseAnswers--;
        throw lost();
      }
      return settle(t);
    },
    ...(withLookup
      ? {
          async findCreated(plan, ctx, since) {
            const api = ctx.client;
            api.lookups++;
            api.lookupSince.push(since);
            if (api.failLookups) throw new ApiError('the platform is down', { code: 'unavailable', operation: 'GET /things', status: 503 });
            const visible = api.hiddenFromLookups-- > 0 ? [] : [...api.things.values()];
            const found = onlyCandidate(
              visible.filter((t) => t.name === plan.name),
              (t) => t.id,
            );
            return found ? settle(found) : null;
          },
        }
      : {}),
    async read(prior, ctx) {
      const t = ctx.client.things.get(prior.id!);
      return t ? { id: t.id, name: t.name, ready: t.ready } : null;
    },
    async delete(prior, ctx) {
      ctx.client.things.delete(prior.id!);
    },
  });
}

async function engineFor(api: LossyApi, withLookup = true, lookupDelayMs = 0) {
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema({}, { description: 'fake provider' }),
    configure: async () => api,
    resources: [thingResource(withLookup)],
    dataSources: [],
  });
  const engine = new ProviderEngine(def, log, {}, { lookupDelayMs });
  await engine.configureProvider('1.11.4', {});
  return engine;
}

async function create(engine: ProviderEngine<LossyApi>, name: string) {
  const config: ObjectValue = { id: null, name, ready: null };
  const plan = engine.planResourceChange('fake_thing', null, proposedNew(schema.block, null, config) as ObjectValue, config, {});
  return engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
}

describe('engine: creates whose answer is lost', () => {
  let api: LossyApi;
  beforeEach(() => {
    api = new LossyApi();
    infos.length = 0;
  });

  it('adopts the object the lost request made: one object, its id in state, the create finished', async () => {
    api.loseAnswers = 1;
    const out = await create(await engineFor(api), 'x');
    expect(out.diags.items).to.deep.equal([]);
    expect([...api.things.values()]).to.deep.equal([{ id: 't-1', name: 'x', ready: true }]);
    expect(out.state).to.deep.equal({ id: 't-1', name: 'x', ready: true });
    expect(api.creates).to.equal(1);
    expect(infos.map((i) => i.message)).to.include('adopted the object an unanswered create request had made');
    expect(infos.find((i) => i.message.startsWith('adopted'))!.fields).to.deep.include({ id: 't-1' });
  });

  it('creates again when the lost request made nothing', async () => {
    api.loseRequests = 1;
    const out = await create(await engineFor(api), 'x');
    expect(out.diags.items).to.deep.equal([]);
    expect(out.state).to.deep.include({ id: 't-1', name: 'x' });
    expect(api.creates).to.equal(2);
    expect(api.lookups).to.equal(1);
    expect(api.things.size).to.equal(1);
    // Lookups learn when the first create request went out, to tell what it made from older objects.
    expect(api.lookupSince[0]!.getTime()).to.be.at.most(api.firstCreateAt!);
  });

  it('adopts after a repeated create is refused as a conflict (the list showed the object late)', async () => {
    api.uniqueNames = true;
    api.loseAnswers = 1;
    api.hiddenFromLookups = 1;
    const out = await create(await engineFor(api), 'x');
    expect(out.diags.items).to.deep.equal([]);
    expect(out.state).to.deep.equal({ id: 't-1', name: 'x', ready: true });
    expect(api.creates).to.equal(2);
    expect(api.lookups).to.equal(2);
    expect(api.things.size).to.equal(1);
  });

  it('fails without creating anything when several existing objects match', async () => {
    api.things.set('old-1', { id: 'old-1', name: 'x', ready: true });
    api.loseAnswers = 1;
    const out = await create(await engineFor(api), 'x');
    expect(out.state).to.equal(null);
    expect(api.creates).to.equal(1);
    expect([...api.things.keys()]).to.deep.equal(['old-1', 't-1']);
    const [d] = out.diags.items;
    expect(d).to.deep.include({ severity: 'error', summary: 'Create outcome unknown' });
    expect(d!.detail).to.include('2 existing objects match this configuration (old-1, t-1)');
    expect(d!.detail).to.include('adopted none and created nothing more');
    expect(d!.detail).to.include('Pick the one to manage and import it (`terraform import <address> <id>`, where the id is the thing id); remove the others');
  });

  it('never repeats a create blindly when the resource has no lookup', async () => {
    api.loseAnswers = 1;
    const out = await create(await engineFor(api, false), 'x');
    expect(out.state).to.equal(null);
    expect(api.creates).to.equal(1);
    expect(out.diags.items[0]).to.deep.include({ summary: 'Create outcome unknown' });
    expect(out.diags.items[0]!.detail).to.match(/^POST \/things: the connection was lost; .*may or may not have taken effect\. fake_thing has no natural key/);
  });

  it('gives up after five create requests whose answers were all lost before taking effect', async () => {
    api.loseRequests = 10;
    const out = await create(await engineFor(api), 'x');
    expect(out.state).to.equal(null);
    expect(api.creates).to.equal(5);
    expect(api.lookups).to.equal(5);
    expect(api.things.size).to.equal(0);
    expect(out.diags.items[0]!.detail).to.include('No object matching this configuration was found after 5 attempts');
  });

  it('creates again when four answers were lost before taking effect, and the fifth arrives', async () => {
    api.loseRequests = 4;
    const out = await create(await engineFor(api), 'x');
    expect(out.diags.items).to.deep.equal([]);
    expect(out.state).to.deep.include({ id: 't-1' });
    expect(api.creates).to.equal(5);
    expect(api.things.size).to.equal(1);
  });

  it('fails without repeating the create when the lookup fails', async () => {
    api.loseAnswers = 1;
    api.failLookups = true;
    const out = await create(await engineFor(api), 'x');
    expect(out.state).to.equal(null);
    expect(api.creates).to.equal(1);
    expect(out.diags.items[0]!.detail).to.include('Looking for the object failed: GET /things: the platform is down (HTTP 503)');
  });

  it('reports a stop during the wait before the lookup as an unknown outcome, promptly', async () => {
    api.loseAnswers = 1;
    const engine = await engineFor(api, true, 10_000);
    const started = Date.now();
    const pending = create(engine, 'x');
    setTimeout(() => engine.stop(), 50);
    const out = await pending;
    expect(Date.now() - started).to.be.below(1_000);
    expect(api.lookups).to.equal(0);
    expect(out.state).to.equal(null);
    expect(out.diags.items[0]!.detail).to.include('Terraform asked the provider to stop before it could look for the object');
  });
});
