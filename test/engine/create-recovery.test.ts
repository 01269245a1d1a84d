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
import { NOT_SENT_NOTE } from '../../src/clients/stop.js';
import { proposedNew } from '../../src/engine/checks/index.js';
import type { ObjectValue } from '../../src/schema/value.js';

interface Thing {
  id: string;
  name: string;
  ready: boolean;
}

class LossyApi {
  things = new Map<string, Thing>();
  deletes = 0;
  /** Runs while a create request is on the wire (before it takes effect). */
  duringCreate: (() => Promise<void>) | undefined;
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

const schemaOf = (oneTimeSecret: boolean) =>
  resourceSchema(
    {
      id: attr.sdkId(),
      name: attr.string({ required: true, description: 'name' }),
      ready: attr.bool({ computed: true, description: 'set by the step after the create call' }),
      secret: attr.string({ computed: true, sensitive: true, masked: true, oneTime: oneTimeSecret, description: 'only in the create answer (when one-time)' }),
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
  const model = (t: Thing, secret: string | null) => ({ id: t.id, name: t.name, ready: t.ready, secret });
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
      api.firstCreateAt ??= Date.now();
      await api.duringCreate?.();
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
            describe: (plan) => `the thing named ${JSON.stringify(plan.name)}`,
            async find(plan, ctx, since) {
              const api = ctx.client;
              api.lookups++;
              api.lookupSince.push(since);
              if (ctx.signal.aborted) throw new ApiError('cancelled', { code: 'cancelled', operation: 'GET /things' });
              if (api.failLookups) throw new ApiError('the platform is down', { code: 'unavailable', operation: 'GET /things', status: 503 });
              const visible = api.hiddenFromLookups-- > 0 ? [] : [...api.things.values()];
              const found = onlyCandidate(
                visible.filter((t) => t.name === plan.name),
                (t) => t.id,
              );
              return found ? model(found, null) : null;
            },
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

async function engineFor(api: LossyApi, options: ThingOptions = {}, lookupDelayMs = 0) {
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema({}, { description: 'fake provider' }),
    configure: async () => api,
    resources: [thingResource(options)],
    dataSources: [],
  });
  const engine = new ProviderEngine(def, log, {}, { lookupDelayMs });
  await engine.configureProvider('1.11.4', {});
  return engine;
}

async function create(engine: ProviderEngine<LossyApi>, name: string) {
  const config: ObjectValue = { id: null, name, ready: null, secret: null };
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
    expect(out.state).to.deep.equal({ id: 't-1', name: 'x', ready: true, secret: null });
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
    expect(out.state).to.deep.equal({ id: 't-1', name: 'x', ready: true, secret: null });
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
    expect(d!.detail).to.include('2 existing objects match (old-1, t-1)');
    expect(d!.detail).to.include('Look on the platform for the thing named "x".');
    expect(d!.detail).to.include('adopted none and created nothing more');
    expect(d!.detail).to.include('Pick the one to manage and import it (`terraform import <address> <id>`, where the id is the thing id); remove the others');
  });

  it('never repeats a create blindly when the resource has no lookup', async () => {
    api.loseAnswers = 1;
    const out = await create(await engineFor(api, { withLookup: false }), 'x');
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
    expect(out.diags.items[0]!.detail).to.include('No matching object was found after 5 attempts');
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

  it('looks up at once when Terraform stops during the wait before the lookup, and keeps what it finds, tainted', async () => {
    api.loseAnswers = 1;
    const engine = await engineFor(api, {}, 10_000);
    const started = Date.now();
    const pending = create(engine, 'x');
    setTimeout(() => engine.stop(), 50);
    const out = await pending;
    expect(Date.now() - started).to.be.below(1_000);
    expect(api.lookups).to.equal(1);
    expect(api.creates).to.equal(1);
    // The object is in the state; its settle step could not send its request after the stop, so it is tainted.
    expect(out.state).to.deep.equal({ id: 't-1', name: 'x', ready: false, secret: null });
    expect(api.things.get('t-1')!.ready).to.equal(false);
    const [d] = out.diags.items;
    expect(out.diags.items).to.have.length(1);
    expect(d).to.deep.include({ severity: 'error', summary: 'Cannot create fake_thing' });
    expect(d!.detail).to.equal(`PATCH /things: ${NOT_SENT_NOTE}. fake_thing t-1 exists and is kept in the state, marked tainted, so the next apply replaces it (\`terraform untaint\` keeps it instead).`);
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
    expect(out.diags.items[0]!.detail).to.include('fake_thing t-1 exists and is kept in the state, marked tainted');
  });

  it('does not send the create at all once Terraform has stopped the provider, and says nothing was created', async () => {
    const engine = await engineFor(api);
    // The stop applies to RPCs in flight (a later RPC gets a fresh signal): it lands while the
    // engine applies, before the request is sent.
    const config: ObjectValue = { id: null, name: 'x', ready: null, secret: null };
    const plan = engine.planResourceChange('fake_thing', null, proposedNew(schema.block, null, config) as ObjectValue, config, {});
    const pending = engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
    engine.stop();
    const out = await pending;
    expect(api.creates).to.equal(0);
    expect(out.state).to.equal(null);
    expect(out.diags.items[0]).to.deep.include({ summary: 'Create of fake_thing cancelled' });
    expect(out.diags.items[0]!.detail).to.equal(`POST /things: ${NOT_SENT_NOTE}: the thing named "x" was not created.`);
  });

  it('after a stop, a lost answer whose object cannot be found is not sent again, and the message names the object', async () => {
    api.loseRequests = 1;
    const engine = await engineFor(api);
    api.duringCreate = async () => engine.stop();
    const out = await create(engine, 'x');
    expect(api.creates).to.equal(1);
    expect(api.lookups).to.equal(1);
    expect(out.state).to.equal(null);
    const [d] = out.diags.items;
    expect(d).to.deep.include({ summary: 'Create outcome unknown' });
    expect(d!.detail).to.include('No matching object was found, and Terraform asked the provider to stop, so it did not send the request again.');
    expect(d!.detail).to.include('Look on the platform for the thing named "x". If it exists, import it');
  });

  it('deletes an object found without its one-time secret and creates it anew, so the state holds the secret', async () => {
    api.loseAnswers = 1;
    const out = await create(await engineFor(api, { withSecret: true }), 'x');
    expect(out.diags.items).to.deep.equal([]);
    expect(api.creates).to.equal(2);
    expect(api.deletes).to.equal(1);
    expect([...api.things.keys()]).to.deep.equal(['t-2']);
    expect(out.state).to.deep.equal({ id: 't-2', name: 'x', ready: true, secret: 's3cret-t-2' });
    expect(infos.map((i) => i.message)).to.include('deleted the object whose one-time secret was lost with the create answer; creating it again');
  });

  it('after a stop, keeps an object found without its one-time secret, tainted, rather than deleting or forgetting it', async () => {
    api.loseAnswers = 1;
    const engine = await engineFor(api, { withSecret: true });
    api.duringCreate = async () => engine.stop();
    const out = await create(engine, 'x');
    expect(api.creates).to.equal(1);
    expect(api.deletes).to.equal(0);
    expect(out.state).to.deep.include({ id: 't-1', secret: null });
    expect(out.diags.items[0]).to.deep.include({ summary: 'Create interrupted' });
    expect(out.diags.items[0]!.detail).to.include('its `secret` came only in the answer that was lost');
    expect(out.diags.items[0]!.detail).to.include('marked tainted, so the next apply replaces it');
  });
});
