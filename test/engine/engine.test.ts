/**
 * The lifecycle engine with a fake resource over an in-memory "API": plan, apply, read, import,
 * upgrade and validation rules, each result also judged by our port of Terraform's checks.
 */
import { expect } from 'chai';
import { attr, block, resourceSchema, validators } from '../../packages/framework/src/schema/define.js';
import { provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { DiagnosticError, type Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { withoutSecrets } from '../../packages/framework/src/engine/plan/secret-rules.js';
import { ApiError } from '../../packages/framework/src/wire/api-error.js';
import { UNKNOWN, Unknown, type ObjectValue } from '../../packages/framework/src/schema/value.js';
import { proposedNew, checkPlannedState, checkApplyResult } from '../../packages/framework/src/engine/checks/index.js';

interface Thing {
  id: string;
  name: string;
  size: number;
  tags: string[];
  secret: string;
  zone: string | null;
  updated: number;
  rules: { port: number; proto: string; rule_id: string }[];
}

class FakeApi {
  things = new Map<string, Thing>();
  seq = 0;
  failNextUpdate = false;
  failAfterCreate = false;
}

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

const schema = resourceSchema(
  {
    id: attr.sdkId(),
    name: attr.string({ required: true, description: 'name' }),
    size: attr.number({ optional: true, default: 1, description: 'size', validate: [validators.intBetween(1, 10)] }),
    tags: attr.stringList({
      optional: true,
      description: 'tags',
      equal: (a, b) => a.length === b.length && a.every((x, i) => x.trim() === b[i]!.trim()),
    }),
    secret: attr.string({
      optional: true,
      sensitive: true,
      masked: true,
      description: 'secret',
      validate: [validators.matches(/^s/, 'a text starting with `s`')],
    }),
    zone: attr.string({ optional: true, replace: true, description: 'zone', validate: [validators.oneOf('a', 'b')] }),
    updated: attr.number({ computed: true, volatile: true, description: 'update counter' }),
    status: attr.string({ computed: true, description: 'status' }),
    rule: block.list(
      {
        port: attr.number({ required: true, description: 'port' }),
        proto: attr.string({ optional: true, default: 'tcp', description: 'proto' }),
        rule_id: attr.string({ computed: true, description: 'rule id' }),
      },
      { description: 'rules' },
    ),
  },
  { description: 'a fake thing' },
);
const fields = schema.fields;

function makeEngine(api: FakeApi) {
  const toModel = (t: Thing) => ({
    id: t.id,
    name: t.name,
    size: t.size,
    tags: t.tags.length ? t.tags : null,
    secret: '', // the API masks it
    zone: t.zone,
    updated: t.updated,
    status: 'ready',
    rule: t.rules.map((r) => ({ port: r.port, proto: r.proto, rule_id: r.rule_id })),
  });
  const thing = resource<typeof fields, FakeApi>({
    typeName: 'fake_thing',
    schema,
    importState: async (id) => ({ id }),
    async create(plan, ctx) {
      const id = `t-${++ctx.client.seq}`;
      const t: Thing = {
        id,
        name: plan.name,
        size: plan.size ?? 1,
        tags: (plan.tags ?? []).map((x) => x.trim()),
        secret: plan.secret ?? '',
        zone: plan.zone,
        updated: 1,
        rules: plan.rule.map((r, i) => ({ port: r.port, proto: r.proto ?? 'tcp', rule_id: `${id}-r${i}` })),
      };
      ctx.client.things.set(id, t);
      if (ctx.client.failAfterCreate) {
        ctx.partial(toModel(t));
        throw new Error('configuring the new thing failed');
      }
      return toModel(t);
    },
    async read(prior, ctx) {
      const t = ctx.client.things.get(prior.id!);
      if (!t) throw new ApiError('no such thing', { code: 'not_found', operation: 'GET /things/{id}' });
      return toModel(t);
    },
    async update(plan, prior, ctx) {
      if (ctx.client.failNextUpdate)
        throw new ApiError('the platform refused the change', { code: 'invalid', operation: 'PATCH /things/{id}' });
      const t = ctx.client.things.get(prior.id!)!;
      Object.assign(t, {
        name: plan.name,
        size: plan.size,
        tags: (plan.tags ?? []).map((x) => x.trim()),
        updated: t.updated + 1,
      });
      t.rules = plan.rule.map((r, i) => ({ port: r.port, proto: r.proto ?? 'tcp', rule_id: `${t.id}-r${i}` }));
      return toModel(t);
    },
    async delete(prior, ctx) {
      if (!ctx.client.things.delete(prior.id!))
        throw new ApiError('gone', { code: 'not_found', operation: 'DELETE /things/{id}' });
    },
  });
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema(
      { endpoint: attr.string({ optional: true, description: 'endpoint' }) },
      { description: 'fake provider' },
    ),
    configure: async () => api,
    resources: [thing],
    dataSources: [],
  });
  return new ProviderEngine(def, silent, {});
}

const block_ = schema.block;

function config(partial: Partial<Record<keyof typeof fields, unknown>>): ObjectValue {
  return {
    id: null,
    name: null,
    size: null,
    tags: null,
    secret: null,
    zone: null,
    updated: null,
    status: null,
    rule: [],
    ...(partial as ObjectValue),
  };
}

async function planAndApply(engine: ProviderEngine<FakeApi>, prior: ObjectValue | null, cfg: ObjectValue) {
  const proposed = proposedNew(block_, prior, cfg) as ObjectValue;
  const plan = engine.planResourceChange('fake_thing', prior, proposed, cfg, {});
  expect(plan.diags.items).to.deep.equal([]);
  expect(checkPlannedState(block_, prior, cfg, plan.planned)).to.deep.equal([]);
  const applied = await engine.applyResourceChange('fake_thing', prior, plan.planned, plan.plannedPrivate);
  return { plan, applied };
}

describe('engine: lifecycle rules', () => {
  let api: FakeApi;
  let engine: ProviderEngine<FakeApi>;
  beforeEach(async () => {
    api = new FakeApi();
    engine = makeEngine(api);
    expect((await engine.configureProvider('1.11.4', { endpoint: null })).items).to.deep.equal([]);
  });

  it('plans a create with defaults filled and computed values unknown', () => {
    const cfg = config({ name: 'x', rule: [{ port: 80, proto: null, rule_id: null }] });
    const plan = engine.planResourceChange('fake_thing', null, proposedNew(block_, null, cfg) as ObjectValue, cfg, {});
    expect(plan.planned!.size).to.equal(1);
    expect(plan.planned!.id).to.be.instanceOf(Unknown);
    expect(plan.planned!.updated).to.be.instanceOf(Unknown);
    expect(plan.planned!.secret).to.equal(null);
    const rule = (plan.planned!.rule as ObjectValue[])[0]!;
    expect(rule.proto).to.equal('tcp');
    expect(rule.rule_id).to.be.instanceOf(Unknown);
    expect(checkPlannedState(block_, null, cfg, plan.planned)).to.deep.equal([]);
  });

  it('applies a create: unknowns take the API values, planned values stay', async () => {
    const cfg = config({ name: 'x', tags: [' a'], secret: 's3cret', rule: [{ port: 80, proto: null, rule_id: null }] });
    const { plan, applied } = await planAndApply(engine, null, cfg);
    expect(applied.diags.items).to.deep.equal([]);
    expect(applied.state).to.deep.include({
      id: 't-1',
      name: 'x',
      size: 1,
      secret: 's3cret',
      updated: 1,
      status: 'ready',
    });
    // The API trims tags; state keeps the planned form Terraform was promised.
    expect(applied.state!.tags).to.deep.equal([' a']);
    expect((applied.state!.rule as ObjectValue[])[0]).to.deep.equal({ port: 80, proto: 'tcp', rule_id: 't-1-r0' });
    expect(checkApplyResult(block_, plan.planned, applied.state, false)).to.deep.equal([]);
  });

  it('re-plans an unchanged object as a no-op, volatile values included', async () => {
    const cfg = config({ name: 'x', rule: [{ port: 80, proto: null, rule_id: null }] });
    const { applied } = await planAndApply(engine, null, cfg);
    const again = engine.planResourceChange(
      'fake_thing',
      applied.state,
      proposedNew(block_, applied.state, cfg) as ObjectValue,
      cfg,
      {},
    );
    expect(again.planned).to.deep.equal(applied.state);
    expect(again.requiresReplace).to.deep.equal([]);
  });

  it('plans computed values from the prior state, not from a proposal that says otherwise', async () => {
    const { applied } = await planAndApply(
      engine,
      null,
      config({ name: 'x', rule: [{ port: 80, proto: null, rule_id: null }] }),
    );
    const cfg = config({ name: 'x', rule: [{ port: 80, proto: null, rule_id: null }] });
    const proposed = proposedNew(block_, applied.state, cfg) as ObjectValue;
    // Terraform proposes the prior values of computed attributes; a request that does not is not believed.
    const odd = {
      ...proposed,
      id: null,
      status: 'gone',
      rule: [{ ...(proposed.rule as ObjectValue[])[0]!, rule_id: 'other' }],
    };
    const plan = engine.planResourceChange('fake_thing', applied.state, odd, cfg, {});
    expect(plan.diags.items).to.deep.equal([]);
    expect(plan.planned).to.deep.equal(applied.state);
  });

  it('plans an update: volatile values unknown, the rest kept', async () => {
    const { applied } = await planAndApply(engine, null, config({ name: 'x' }));
    const cfg = config({ name: 'y' });
    const plan = engine.planResourceChange(
      'fake_thing',
      applied.state,
      proposedNew(block_, applied.state, cfg) as ObjectValue,
      cfg,
      {},
    );
    expect(plan.planned!.updated).to.equal(UNKNOWN);
    expect(plan.planned!.id).to.equal('t-1');
    expect(plan.planned!.status).to.equal('ready');
    const done = await engine.applyResourceChange('fake_thing', applied.state, plan.planned, {});
    expect(done.state).to.deep.include({ name: 'y', updated: 2, id: 't-1' });
  });

  it('requires replacement when a replace attribute changes, and not otherwise', async () => {
    const { applied } = await planAndApply(engine, null, config({ name: 'x', zone: 'a' }));
    const same = config({ name: 'x', zone: 'a' });
    expect(
      engine.planResourceChange(
        'fake_thing',
        applied.state,
        proposedNew(block_, applied.state, same) as ObjectValue,
        same,
        {},
      ).requiresReplace,
    ).to.deep.equal([]);
    const moved = config({ name: 'x', zone: 'b' });
    expect(
      engine.planResourceChange(
        'fake_thing',
        applied.state,
        proposedNew(block_, applied.state, moved) as ObjectValue,
        moved,
        {},
      ).requiresReplace,
    ).to.deep.equal([[{ attr: 'zone' }]]);
  });

  it('keeps the prior form of semantically equal configuration', async () => {
    const { applied } = await planAndApply(engine, null, config({ name: 'x', tags: ['a'] }));
    const cfg = config({ name: 'x', tags: ['a '] });
    const plan = engine.planResourceChange(
      'fake_thing',
      applied.state,
      proposedNew(block_, applied.state, cfg) as ObjectValue,
      cfg,
      {},
    );
    expect(plan.planned!.tags).to.deep.equal(['a']);
    expect(checkPlannedState(block_, applied.state, cfg, plan.planned)).to.deep.equal([]);
  });

  it('reads: masked secrets and equivalent values keep the prior state; gone objects are null', async () => {
    const { applied } = await planAndApply(engine, null, config({ name: 'x', tags: [' a'], secret: 's3cret' }));
    const read = await engine.readResource('fake_thing', applied.state!, {});
    expect(read.diags.items).to.deep.equal([]);
    expect(read.state).to.deep.equal(applied.state);
    api.things.get('t-1')!.name = 'changed-outside';
    expect((await engine.readResource('fake_thing', applied.state!, {})).state!.name).to.equal('changed-outside');
    api.things.clear();
    expect((await engine.readResource('fake_thing', applied.state!, {})).state).to.equal(null);
  });

  it('keeps a partly created object in state with the error, and the prior state on a failed update', async () => {
    api.failAfterCreate = true;
    const { applied } = await planAndApply(engine, null, config({ name: 'x' }));
    expect(applied.diags.hasErrors).to.equal(true);
    expect(applied.diags.items[0]!.detail).to.match(/configuring the new thing failed/);
    expect(applied.state).to.deep.include({ id: 't-1', name: 'x' });
    api.failAfterCreate = false;
    api.failNextUpdate = true;
    const cfg = config({ name: 'y' });
    const plan = engine.planResourceChange(
      'fake_thing',
      applied.state,
      proposedNew(block_, applied.state, cfg) as ObjectValue,
      cfg,
      {},
    );
    const failed = await engine.applyResourceChange('fake_thing', applied.state, plan.planned, {});
    expect(failed.state).to.deep.equal(applied.state);
    expect(failed.diags.items[0]).to.deep.include({ severity: 'error', summary: 'Cannot update fake_thing' });
    expect(failed.diags.items[0]!.detail).to.match(/the platform refused the change/);
  });

  it('deletes, and treats an already deleted object as deleted', async () => {
    const { applied } = await planAndApply(engine, null, config({ name: 'x' }));
    expect((await engine.applyResourceChange('fake_thing', applied.state, null, {})).state).to.equal(null);
    const again = await engine.applyResourceChange('fake_thing', applied.state, null, {});
    expect(again.state).to.equal(null);
    expect(again.diags.items).to.deep.equal([]);
  });

  it('validates with attribute paths; a platform id waits for the plan, which refuses one on create', () => {
    const diags = engine.validateResourceConfig('fake_thing', config({ id: 'mine', name: 'x', size: 11, zone: 'c' }));
    const byPath = Object.fromEntries(diags.items.map((d) => [JSON.stringify(d.path), d]));
    expect(Object.keys(byPath)).to.have.members(['[{"attr":"size"}]', '[{"attr":"zone"}]']);
    const withId = config({ id: 'mine', name: 'x' });
    const created = engine.planResourceChange('fake_thing', null, withId, withId, {}).diags.items;
    expect(created.map((d) => JSON.stringify(d.path))).to.deep.equal(['[{"attr":"id"}]']);
    expect(created[0]!.detail).to.match(/assigns `id` when it creates the object/);
    expect(byPath['[{"attr":"zone"}]']!.detail).to.match(/must be one of "a", "b"/);
    // Unknown values are not validated until they are known.
    expect(engine.validateResourceConfig('fake_thing', config({ name: UNKNOWN, size: UNKNOWN })).items).to.deep.equal(
      [],
    );
  });

  it('never quotes a sensitive value in a validation message', () => {
    const [diag] = engine.validateResourceConfig('fake_thing', config({ name: 'x', secret: 'hunter2-password' })).items;
    expect(diag!.detail).to.equal('The value must be a text starting with `s`, got (sensitive value).');
    // Every text inside the value where the message quotes it, whatever its length.
    const both = withoutSecrets('got "ab-cd", then ["ab-cd-ef"]', ['ab-cd', 'ab-cd-ef']);
    expect(both).to.equal('got (sensitive value), then [(sensitive value)]');
    expect(withoutSecrets('must be "a", not a letter', 'a')).to.equal('must be (sensitive value), not a letter');
  });

  it('hides only the value, never the words of the message that a value happens to equal', () => {
    // The validator's words "a text" hold the value "text": only the quoted value is hidden.
    const [diag] = engine.validateResourceConfig('fake_thing', config({ name: 'x', secret: 'text' })).items;
    expect(diag!.detail).to.equal('The value must be a text starting with `s`, got (sensitive value).');
    const url = 'must be an http:// or https:// URL with a host and no spaces, got "https://"';
    expect(withoutSecrets(url, 'https://')).to.equal(
      'must be an http:// or https:// URL with a host and no spaces, got (sensitive value)',
    );
  });

  it('imports with defaults filled so that the first plan is empty', async () => {
    const { applied } = await planAndApply(engine, null, config({ name: 'x' }));
    const imported = await engine.importResourceState('fake_thing', 't-1');
    expect(imported.state).to.deep.include({ id: 't-1', size: 1, name: null });
    const read = await engine.readResource('fake_thing', imported.state!, {});
    expect(read.state).to.deep.include({ id: 't-1', name: 'x', size: 1 });
    expect(read.state!.rule).to.deep.equal(applied.state!.rule);
  });

  it('upgrades state JSON: missing attributes null, unknown ones dropped, numbers exact', () => {
    const out = engine.upgradeResourceState(
      'fake_thing',
      0,
      JSON.stringify({ id: 't-9', name: 'x', size: 3, removed: 1, rule: [] }).replace('3', '3.0'),
    );
    expect(out.diags.items).to.deep.equal([]);
    expect(out.state).to.deep.include({ id: 't-9', name: 'x', size: 3, zone: null, status: null });
    expect(engine.upgradeResourceState('fake_thing', 5, '{}').diags.items[0]!.summary).to.equal(
      'State is newer than the provider',
    );
  });

  it('reports an unconfigured provider as a diagnostic, not a crash', async () => {
    const fresh = makeEngine(api);
    const r = await fresh.readResource('fake_thing', config({ id: 't-1', name: 'x' }), {});
    expect(r.diags.items[0]!.summary).to.equal('Provider not configured');
    expect(r.diags.items[0]!.detail).to.match(/not been configured/);
  });

  it('aborts in-flight work on stop', async () => {
    const slow = resource<typeof fields, FakeApi>({
      typeName: 'fake_slow',
      schema,
      create: (_plan, ctx) =>
        new Promise((_res, rej) =>
          ctx.signal.addEventListener('abort', () => rej(Object.assign(new Error('aborted'), { name: 'AbortError' }))),
        ),
      read: async () => null,
      delete: async () => {},
    });
    const e = new ProviderEngine(
      provider({
        name: 'f',
        version: '0',
        schema: resourceSchema({}, { description: '' }),
        configure: async () => api,
        resources: [slow],
        dataSources: [],
      }),
      silent,
      {},
    );
    await e.configureProvider('1.11.4', {});
    const cfg = config({ name: 'x' });
    const plan = e.planResourceChange('fake_slow', null, proposedNew(block_, null, cfg) as ObjectValue, cfg, {});
    const pending = e.applyResourceChange('fake_slow', null, plan.planned, {});
    e.stop();
    const out = await pending;
    expect(out.state).to.equal(null);
    expect(out.diags.items[0]!.detail).to.match(/asked the provider to stop/);
  });

  it('turns errors thrown by resource code into diagnostics with their path', () => {
    const err = new DiagnosticError('Invalid group', 'a group needs a filter', [{ attr: 'group' }, { index: 0 }]);
    expect(err.path).to.deep.equal([{ attr: 'group' }, { index: 0 }]);
  });
});

describe('engine: a configuration copied from the state (lifecycle { ignore_changes = all })', () => {
  it('neither refuses the stored id nor judges stored values again, and plans and applies no change', async () => {
    const api = new FakeApi();
    const engine = makeEngine(api);
    expect((await engine.configureProvider('1.11.4', { endpoint: null })).items).to.deep.equal([]);
    const { applied } = await planAndApply(
      engine,
      null,
      config({ name: 'n', zone: 'a', rule: [{ port: 80, proto: null, rule_id: null }] }),
    );
    // The platform stores a form validation would refuse (as one that normalises a timestamp).
    const prior: ObjectValue = { ...applied.state!, zone: 'A' };
    // What Terraform sends with ignore_changes = all: the prior state, computed-only values null.
    const cfg: ObjectValue = {
      ...prior,
      updated: null,
      status: null,
      rule: (prior.rule as ObjectValue[]).map((r) => ({ ...r, rule_id: null })),
    };
    const plan = engine.planResourceChange(
      'fake_thing',
      prior,
      proposedNew(block_, prior, cfg) as ObjectValue,
      cfg,
      {},
    );
    expect(plan.diags.items).to.deep.equal([]);
    expect(plan.planned).to.deep.equal(prior);
    expect(checkPlannedState(block_, prior, cfg, plan.planned)).to.deep.equal([]);
    const updatesBefore = api.things.get('t-1')!.updated;
    const again = await engine.applyResourceChange('fake_thing', prior, plan.planned, plan.plannedPrivate, cfg);
    expect(again.diags.items).to.deep.equal([]);
    expect(api.things.get('t-1')!.updated, 'no update sent').to.equal(updatesBefore);
    // A value that is not the stored one is judged, as always.
    const changed: ObjectValue = { ...cfg, id: 'other', zone: 'c' };
    const refused = engine.planResourceChange(
      'fake_thing',
      prior,
      proposedNew(block_, prior, changed) as ObjectValue,
      changed,
      {},
    );
    expect(refused.diags.items.map((d) => d.summary)).to.deep.equal([
      'Invalid attribute "id"',
      'Invalid value for "zone"',
    ]);
  });
});

describe('engine: changes that tell the platform nothing call no API', () => {
  // An optional+computed argument (left out or set empty, the platform picks the region), a setting
  // of the provider's own (how often to retry) and a value the platform changes on every update.
  const placedSchema = resourceSchema(
    {
      id: attr.computedId(),
      region: attr.string({ optional: true, computed: true, replace: true, description: 'region' }),
      retries: attr.number({
        optional: true,
        default: 3,
        providerOnly: true,
        validate: [validators.intBetween(0, 9)],
        description: 'retries',
      }),
      updated: attr.number({ computed: true, volatile: true, description: 'update counter' }),
      scope: block.one(
        {
          hosts: attr.stringList({ optional: true, description: 'hosts' }),
          wide: attr.bool({ optional: true, default: false, description: 'wide' }),
        },
        { emptyMeansAbsent: true, description: 'where; without it, or empty, everywhere' },
      ),
    },
    { description: 'a placed thing' },
  );
  const placed = new Map<string, { region: string; updated: number }>();
  let updates = 0;
  const engine = new ProviderEngine(
    provider({
      name: 'fake',
      version: '0.0.1',
      schema: resourceSchema({}, { description: 'fake provider' }),
      configure: async () => ({}),
      resources: [
        resource<typeof placedSchema.fields, object>({
          typeName: 'fake_placed',
          schema: placedSchema,
          repeatableCreate: 'test only',
          async create(plan) {
            const id = `p-${placed.size + 1}`;
            placed.set(id, { region: plan.region || 'eu-1', updated: 1 });
            return { id, ...placed.get(id)! };
          },
          read: async (prior) => ({ id: prior.id, ...placed.get(prior.id!)! }),
          async update(_plan, prior) {
            updates++;
            const p = placed.get(prior.id!)!;
            p.updated++;
            return { id: prior.id, ...p };
          },
          delete: async (prior) => void placed.delete(prior.id!),
        }),
      ],
      dataSources: [],
    }),
    silent,
    {},
  );
  const placedBlock = placedSchema.block;
  const plan = (prior: ObjectValue | null, cfg: ObjectValue) => {
    const planned = engine.planResourceChange(
      'fake_placed',
      prior,
      proposedNew(placedBlock, prior, cfg) as ObjectValue,
      cfg,
      {},
    );
    expect(planned.diags.items).to.deep.equal([]);
    expect(checkPlannedState(placedBlock, prior, cfg, planned.planned)).to.deep.equal([]);
    return planned;
  };

  let state: ObjectValue;
  before(async () => {
    await engine.configureProvider('1.11.4', {});
    const cfg: ObjectValue = { id: null, region: '', retries: null, updated: null, scope: [] };
    const created = await engine.applyResourceChange('fake_placed', null, plan(null, cfg).planned, {}, cfg);
    state = (await engine.readResource('fake_placed', created.state!, {})).state!;
  });

  it('keeps the platform’s value when the configuration says "" instead of planning a replacement', () => {
    expect(state.region).to.equal('eu-1');
    const again = plan(state, { id: null, region: '', retries: null, updated: null, scope: [] });
    expect(again.requiresReplace).to.deep.equal([]);
    expect(again.planned).to.deep.equal(state);
  });

  it('applies a change of the provider’s own setting alone without an update, the platform’s values known', async () => {
    const cfg: ObjectValue = { id: null, region: '', retries: 7, updated: null, scope: [] };
    const change = plan(state, cfg);
    expect(change.planned).to.deep.equal({ ...state, retries: 7 });
    const applied = await engine.applyResourceChange('fake_placed', state, change.planned, {}, cfg);
    expect(applied.diags.items).to.deep.equal([]);
    expect(applied.state).to.deep.equal({ ...state, retries: 7 });
    expect(updates).to.equal(0);
  });

  it('applies an element with nothing in it, of a block whose empty element means none, without an update', async () => {
    for (const scope of [[{ hosts: [], wide: false }], [{ hosts: null, wide: false }]]) {
      const cfg: ObjectValue = { id: null, region: '', retries: null, updated: null, scope };
      const change = plan(state, cfg);
      expect(change.planned, 'the update counter stays known').to.deep.equal({ ...state, scope });
      const applied = await engine.applyResourceChange('fake_placed', state, change.planned, {}, cfg);
      expect(applied.diags.items).to.deep.equal([]);
      expect(applied.state).to.deep.equal({ ...state, scope });
    }
    expect(updates).to.equal(0);
    // An element with something in it is a change.
    const cfg: ObjectValue = {
      id: null,
      region: '',
      retries: null,
      updated: null,
      scope: [{ hosts: ['h1'], wide: false }],
    };
    expect(plan(state, cfg).planned!.updated).to.be.instanceOf(Unknown);
    const wide: ObjectValue = { ...cfg, scope: [{ hosts: [], wide: true }] };
    expect(plan(state, wide).planned!.updated).to.be.instanceOf(Unknown);
  });
});
