/**
 * Resource identity and list resources in the engine, with a fake resource over an in-memory API:
 * the identity each state-returning operation reports, the checks that it never changes, import by
 * identity, UpgradeResourceIdentity, and listing (filters, limit, display names, the resource object).
 */
import { expect } from 'chai';
import { attr, resourceSchema, validators } from '../../packages/framework/src/schema/define.js';
import { listResource, provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import type { ListEvent } from '../../packages/framework/src/engine/resources/index.js';
import { identityDeclarationProblems } from '../../packages/framework/src/engine/resources/identity.js';
import { ApiError } from '../../packages/framework/src/wire/api-error.js';
import { Unknown, type ObjectValue } from '../../packages/framework/src/schema/value.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';

interface Widget {
  id: string;
  zone: string;
  name: string;
  colour: string;
}

class FakeApi {
  widgets = new Map<string, Widget>();
  seq = 0;
  /** The id the API reports for a widget on its next answer (a platform that renames ids). */
  reportIdAs: string | null = null;
  gets = 0;
}

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

const schema = resourceSchema(
  {
    id: attr.computedId(),
    zone: attr.string({
      optional: true,
      computed: true,
      replace: true,
      description: 'zone; the provider default when unset',
    }),
    name: attr.string({ required: true, description: 'name' }),
    colour: attr.string({
      optional: true,
      default: 'blue',
      description: 'colour',
      validate: [validators.oneOf('blue', 'red')],
    }),
  },
  { description: 'a fake widget' },
);
type Fields = typeof schema.fields;

const filters = resourceSchema(
  { zone: attr.string({ optional: true, description: 'only widgets of this zone' }) },
  { description: 'filters' },
);

function makeEngine(api: FakeApi, identityFrom: 'id' | 'name' = 'id') {
  const view = (w: Widget) => ({ id: api.reportIdAs ?? w.id, zone: w.zone, name: w.name, colour: w.colour });
  const widget = resource<Fields, FakeApi>({
    typeName: 'fake_widget',
    schema,
    importState: async (id) => ({ id }),
    identity:
      identityFrom === 'id'
        ? {
            attributes: {
              zone: { description: 'The zone.', forImport: 'optional' },
              id: { description: 'The widget id.', forImport: 'required' },
            },
          }
        : { attributes: { name: { description: 'The name (wrongly: it changes in place).', forImport: 'required' } } },
    list: listResource<Fields, typeof filters.fields, FakeApi>({
      schema: filters,
      async list(f, ctx) {
        return [...ctx.client.widgets.values()].filter((w) => f.zone === null || w.zone === f.zone).map(view);
      },
      displayName: (w) => `${w.name} (${w.zone})`,
    }),
    async create(plan, ctx) {
      const w: Widget = {
        id: `w-${++ctx.client.seq}`,
        zone: plan.zone ?? 'z1',
        name: plan.name,
        colour: plan.colour ?? 'blue',
      };
      ctx.client.widgets.set(w.id, w);
      return view(w);
    },
    async read(prior, ctx) {
      ctx.client.gets++;
      const w = ctx.client.widgets.get(prior.id!);
      if (!w) throw new ApiError('no such widget', { code: 'not_found', operation: 'GET /widgets/{id}' });
      return view(w);
    },
    async update(plan, prior, ctx) {
      const w = ctx.client.widgets.get(prior.id!)!;
      Object.assign(w, { name: plan.name, colour: plan.colour ?? 'blue' });
      return view(w);
    },
    async delete(prior, ctx) {
      ctx.client.widgets.delete(prior.id!);
    },
  });
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema({}, { description: 'fake provider' }),
    configure: async () => api,
    resources: [widget],
    dataSources: [],
  });
  return new ProviderEngine(def, silent, {});
}

const config = (name: string, more: Partial<Record<'zone' | 'colour', string>> = {}): ObjectValue => ({
  id: null,
  zone: null,
  colour: null,
  name,
  ...more,
});
const T = 'fake_widget';

async function create(engine: ProviderEngine<FakeApi>, cfg: ObjectValue) {
  const plan = engine.planWithIdentity(T, null, proposedNew(schema.block, null, cfg) as ObjectValue, cfg, {}, null);
  expect(plan.diags.items).to.deep.equal([]);
  return engine.applyWithIdentity(T, null, plan.planned, {}, cfg, plan.identity);
}

async function collect(events: AsyncIterable<ListEvent>): Promise<ListEvent[]> {
  const out: ListEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('engine: resource identity', () => {
  let api: FakeApi;
  let engine: ProviderEngine<FakeApi>;
  beforeEach(async () => {
    api = new FakeApi();
    engine = makeEngine(api);
    await engine.configureProvider('1.12.0', {});
  });

  it('a create plans no identity and applies a complete one; read and update plans keep it', async () => {
    const cfg = config('a');
    const plan = engine.planWithIdentity(T, null, proposedNew(schema.block, null, cfg) as ObjectValue, cfg, {}, null);
    expect(plan.identity).to.equal(null);
    const created = await engine.applyWithIdentity(T, null, plan.planned, {}, cfg, null);
    expect(created.diags.items).to.deep.equal([]);
    expect(created.identity).to.deep.equal({ zone: 'z1', id: 'w-1' });
    const read = await engine.readWithIdentity(T, created.state!, {}, created.identity);
    expect(read.diags.items).to.deep.equal([]);
    expect(read.identity).to.deep.equal({ zone: 'z1', id: 'w-1' });
    const renamed = config('b');
    const update = engine.planWithIdentity(
      T,
      read.state,
      proposedNew(schema.block, read.state, renamed) as ObjectValue,
      renamed,
      {},
      read.identity,
    );
    expect(update.diags.items).to.deep.equal([]);
    expect(update.identity).to.deep.equal({ zone: 'z1', id: 'w-1' });
    const updated = await engine.applyWithIdentity(T, read.state, update.planned, {}, renamed, update.identity);
    expect(updated.diags.items).to.deep.equal([]);
    expect(updated.identity).to.deep.equal({ zone: 'z1', id: 'w-1' });
  });

  it('a state without identity (written by Terraform before 1.12) gets one at its first read', async () => {
    const created = await create(engine, config('a'));
    const read = await engine.readWithIdentity(T, created.state!, {}, null);
    expect(read.identity).to.deep.equal({ zone: 'z1', id: 'w-1' });
  });

  it('a read that finds another identity than the stored one is an error naming both', async () => {
    const created = await create(engine, config('a'));
    api.reportIdAs = 'w-99';
    const read = await engine.readWithIdentity(T, created.state!, {}, created.identity);
    expect(read.diags.items.map((d) => d.summary)).to.deep.equal(['Resource identity changed']);
    expect(read.diags.items[0]!.detail)
      .to.include('{ id = "w-1", zone = "z1" }')
      .and.include('{ id = "w-99", zone = "z1" }');
    // Terraform keeps the stored identity when a read fails.
    expect(read.identity).to.deep.equal(created.identity);
  });

  it('an update whose answer names another object: the state holds what the platform said, and the identity change is an error at once', async () => {
    const created = await create(engine, config('a'));
    const cfg = config('b');
    const plan = engine.planWithIdentity(
      T,
      created.state,
      proposedNew(schema.block, created.state, cfg) as ObjectValue,
      cfg,
      {},
      created.identity,
    );
    api.reportIdAs = 'w-7';
    const applied = await engine.applyWithIdentity(T, created.state, plan.planned, {}, cfg, plan.identity);
    // The platform's answer, not the plan's promise (Terraform reports the inconsistent result), so the
    // identity it gives is another object's: said at once, not at the next read.
    expect(applied.state!.id).to.equal('w-7');
    expect(applied.diags.items.map((d) => d.summary)).to.deep.equal(['Resource identity changed']);
  });

  it('an update whose planned identity differs from the result is an error naming both', async () => {
    const created = await create(engine, config('a'));
    const cfg = config('b');
    const plan = engine.planWithIdentity(
      T,
      created.state,
      proposedNew(schema.block, created.state, cfg) as ObjectValue,
      cfg,
      {},
      created.identity,
    );
    const applied = await engine.applyWithIdentity(T, created.state, plan.planned, {}, cfg, { zone: 'z1', id: 'w-2' });
    expect(applied.diags.items.map((d) => d.summary)).to.deep.equal(['Resource identity changed']);
    expect(applied.diags.items[0]!.detail)
      .to.include('{ id = "w-2", zone = "z1" }')
      .and.include('{ id = "w-1", zone = "z1" }');
  });

  it('a replacement may plan another identity; an in-place change of what names the object may not', async () => {
    const created = await create(engine, config('a', { zone: 'z1' }));
    const moved = config('a', { zone: 'z2' });
    const replace = engine.planWithIdentity(
      T,
      created.state,
      proposedNew(schema.block, created.state, moved) as ObjectValue,
      moved,
      {},
      created.identity,
    );
    expect(replace.diags.items).to.deep.equal([]);
    expect(replace.requiresReplace).to.deep.equal([[{ attr: 'zone' }]]);

    // An identity declared on an attribute that changes in place is caught at plan time.
    const wrong = makeEngine(api, 'name');
    await wrong.configureProvider('1.12.0', {});
    const read = await wrong.readWithIdentity(T, created.state!, {}, null);
    expect(read.identity).to.deep.equal({ name: 'a' });
    const renamed = config('b', { zone: 'z1' });
    const plan = wrong.planWithIdentity(
      T,
      read.state,
      proposedNew(schema.block, read.state, renamed) as ObjectValue,
      renamed,
      {},
      read.identity,
    );
    expect(plan.diags.items.map((d) => d.summary)).to.deep.equal(['Resource identity would change']);
    expect(plan.diags.items[0]!.detail)
      .to.include('`name`')
      .and.include('{ name = "a" }')
      .and.include('{ name = "b" }');
  });

  it("a prior or planned state that lacks its identity is refused as not this provider's, before anything is sent", async () => {
    const created = await create(engine, config('a'));
    const orphan = { ...created.state!, id: null };
    const gets = api.gets;
    const read = await engine.readWithIdentity(T, orphan, {}, null);
    expect(read.diags.items.map((d) => [d.summary, d.detail.includes('This is a bug')])).to.deep.equal([
      ['Invalid prior state', false],
    ]);
    expect(read.state).to.deep.equal(orphan);
    expect(api.gets, 'nothing read').to.equal(gets);
    const cfg = config('b');
    const plan = engine.planWithIdentity(
      T,
      orphan,
      proposedNew(schema.block, orphan, cfg) as ObjectValue,
      cfg,
      {},
      null,
    );
    expect(plan.diags.items.map((d) => [d.summary, d.detail.includes('This is a bug')])).to.deep.equal([
      ['Invalid prior state', false],
    ]);
    expect(plan.identity).to.equal(null);
    const before = JSON.stringify([...api.widgets]);
    const applied = await engine.applyWithIdentity(
      T,
      created.state,
      { ...created.state!, name: 'b', id: null },
      {},
      cfg,
      null,
    );
    expect(applied.diags.items.map((d) => d.summary)).to.deep.equal(['Invalid planned state']);
    expect(applied.state).to.deep.equal(created.state);
    expect(JSON.stringify([...api.widgets]), 'nothing sent').to.equal(before);
  });

  it('a create whose result lacks an identity value is an error, and the object is kept', async () => {
    api.reportIdAs = '';
    const applied = await create(engine, config('a'));
    expect(applied.diags.items.map((d) => d.summary)).to.deep.equal(['Incomplete resource identity']);
    expect(applied.diags.items[0]!.detail).to.include('`id`');
    expect(applied.state).to.not.equal(null);
  });

  it('imports by identity: required attributes checked, optional ones filled by the read, which adopts what it finds', async () => {
    const created = await create(engine, config('a'));
    const missing = await engine.importWithIdentity(T, { identity: { zone: 'z1', id: null } });
    expect(missing.diags.items.map((d) => [d.summary, d.detail])).to.deep.equal([
      ['Incomplete identity', 'Importing fake_widget by identity needs `id` in the `identity` of the `import` block.'],
    ]);

    const imported = await engine.importWithIdentity(T, { identity: { zone: null, id: 'w-1' } });
    expect(imported.diags.items).to.deep.equal([]);
    expect(imported.state).to.deep.include({ id: 'w-1', zone: null, colour: 'blue' });
    expect(imported.identity).to.deep.equal({ zone: null, id: 'w-1' });
    // The read that follows completes the identity; it is not a change, as the import's private state says.
    const read = await engine.readWithIdentity(T, imported.state!, imported.private, imported.identity);
    expect(read.diags.items).to.deep.equal([]);
    expect(read.identity).to.deep.equal(created.identity);
    expect(read.private).to.deep.equal({});
    expect(read.state).to.deep.equal(created.state);
  });

  it("an import's mark names no project, and the earlier name of it is still read as an import", async () => {
    const created = await create(engine, config('a'));
    const imported = await engine.importWithIdentity(T, { identity: { zone: null, id: 'w-1' } });
    expect(imported.private).to.deep.equal({ imported: true });
    const marked = { 'keel.imported': true };
    const read = await engine.readWithIdentity(T, imported.state!, marked, imported.identity);
    expect(read.diags.items).to.deep.equal([]);
    expect(read.identity).to.deep.equal(created.identity);
    expect(read.private).to.deep.equal({});
  });

  it('imports by id with the identity the starting state gives, when complete', async () => {
    await create(engine, config('a'));
    const imported = await engine.importWithIdentity(T, { id: 'w-1' });
    expect(imported.identity).to.equal(null);
    const read = await engine.readWithIdentity(T, imported.state!, imported.private, imported.identity);
    expect(read.identity).to.deep.equal({ zone: 'z1', id: 'w-1' });
  });

  it('upgrades a stored identity of version 0; other versions and bad JSON are errors', () => {
    expect(engine.upgradeResourceIdentity(T, 0, '{"id":"w-1","zone":"z1"}')).to.deep.include({
      identity: { id: 'w-1', zone: 'z1' },
    });
    const newer = engine.upgradeResourceIdentity(T, 1, '{"id":"w-1","zone":"z1"}');
    expect(newer.diags.items.map((d) => d.summary)).to.deep.equal(['Unknown identity version']);
    const bad = engine.upgradeResourceIdentity(T, 0, '{"id":"w-1"}');
    expect(bad.diags.items.map((d) => d.summary)).to.deep.equal(['Cannot read the stored identity']);
  });

  it('declarations are checked: a secret or a missing attribute cannot be an identity', () => {
    expect(
      identityDeclarationProblems({ attributes: { id: { description: 'x', forImport: 'required' } } }, schema.fields),
    ).to.deep.equal([]);
    expect(
      identityDeclarationProblems({ attributes: { nope: { description: 'x', forImport: 'required' } } }, schema.fields),
    ).to.deep.equal(['identity attribute nope comes from "nope", which is not a string attribute of the resource']);
    expect(
      identityDeclarationProblems({ attributes: { zone: { description: 'x', forImport: 'optional' } } }, schema.fields),
    ).to.deep.equal(['no identity attribute is required for import']);
  });
});

describe('engine: list resources', () => {
  let api: FakeApi;
  let engine: ProviderEngine<FakeApi>;
  beforeEach(async () => {
    api = new FakeApi();
    engine = makeEngine(api);
    await engine.configureProvider('1.14.0', {});
    for (const [name, zone] of [
      ['a', 'z1'],
      ['b', 'z2'],
      ['c', 'z1'],
    ] as const)
      await create(engine, config(name, { zone, colour: 'red' }));
  });

  it('lists what the filter selects, with identities and display names, without objects unless asked', async () => {
    const events = await collect(engine.listResource(T, { zone: 'z1' }, { includeResource: false, limit: 100 }));
    expect(events.map((e) => e.result)).to.deep.equal([
      { identity: { zone: 'z1', id: 'w-1' }, displayName: 'a (z1)' },
      { identity: { zone: 'z1', id: 'w-3' }, displayName: 'c (z1)' },
    ]);
  });

  it('the resource object is the state an import and read of it reach', async () => {
    const [event] = await collect(engine.listResource(T, { zone: null }, { includeResource: true, limit: 1 }));
    const imported = await engine.importWithIdentity(T, { identity: event!.result!.identity });
    const read = await engine.readWithIdentity(T, imported.state!, imported.private, imported.identity);
    expect(event!.result!.state).to.deep.equal(read.state);
    expect(event!.result!.state).to.deep.include({ colour: 'red' });
  });

  it('sends at most `limit` results, none for 0, and stops when the consumer does', async () => {
    expect(await collect(engine.listResource(T, { zone: null }, { includeResource: false, limit: 2 }))).to.have.length(
      2,
    );
    expect(await collect(engine.listResource(T, { zone: null }, { includeResource: false, limit: 0 }))).to.deep.equal(
      [],
    );
    const controller = new AbortController();
    const seen: ListEvent[] = [];
    for await (const e of engine.listResource(
      T,
      { zone: null },
      { includeResource: false, limit: 100, signal: controller.signal },
    )) {
      seen.push(e);
      controller.abort();
    }
    expect(seen).to.have.length(1);
  });

  it('a failed listing is one error event; an unknown list resource too', async () => {
    api.widgets.set('bad', { id: '', zone: 'z9', name: 'nameless', colour: 'blue' });
    const events = await collect(engine.listResource(T, { zone: 'z9' }, { includeResource: false, limit: 10 }));
    expect(events.map((e) => e.diags?.items.map((d) => d.summary))).to.deep.equal([['Incomplete list result']]);
    const unknown = await collect(engine.listResource('fake_other', {}, { includeResource: false, limit: 10 }));
    expect(unknown.map((e) => e.diags?.items.map((d) => d.summary))).to.deep.equal([['Unknown list resource']]);
    expect(engine.validateListResourceConfig('fake_widget', { zone: new Unknown() }).items).to.deep.equal([]);
  });
});
