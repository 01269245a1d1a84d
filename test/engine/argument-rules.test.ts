/**
 * The rules every argument of every type gets from the engine (README, "Null, empty, unknown and
 * validation"), on a small provider: required null, blank values, repeats, deprecations,
 * unknown values as `undefined` in checks, the same checks at plan and apply time, and null ≡ empty.
 */
import { expect } from 'chai';
import { attr, block, resourceSchema, type ConfigModelOf } from '../../packages/framework/src/schema/define.js';
import { provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import { UNKNOWN, type ObjectValue } from '../../packages/framework/src/schema/value.js';
import { attrStep } from '../../packages/framework/src/schema/path.js';
import { fromModel } from '../../packages/framework/src/schema/model.js';
import { reconcileRead } from '../../packages/framework/src/engine/plan/index.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

const fields = {
  id: attr.computedId(),
  name: attr.string({ required: true, description: 'name' }),
  note: attr.string({ optional: true, description: 'note' }),
  labels: attr.stringList({ optional: true, description: 'labels' }),
  hosts: attr.stringList({ optional: true, distinct: true, unordered: true, description: 'hosts, each once' }),
  members: attr.stringSet({ optional: true, description: 'members' }),
  legacy: attr.string({ optional: true, deprecated: 'Use `note` instead.', description: 'legacy' }),
  mode: attr.string({ optional: true, description: 'mode' }),
  limit: attr.number({ optional: true, description: 'limit' }),
  rule: block.list({ port: attr.number({ required: true, description: 'port' }) }, { description: 'rules' }),
  old_rule: block.list(
    { port: attr.number({ required: true, description: 'port' }) },
    { description: 'old rules', deprecated: 'Use `rule` instead.' },
  ),
  updated: attr.number({ computed: true, volatile: true, description: 'update counter' }),
  secret: attr.string({
    optional: true,
    sensitive: true,
    writeOnlyTwin: { required: true },
    description: 'a secret, given plainly or write-only',
  }),
};
type Config = ConfigModelOf<typeof fields>;

class Api {
  things = new Map<string, { name: string; note: string; labels: string[] }>();
  updates = 0;
  seen: Config[] = [];
}

function engineFor(api: Api) {
  const schema = resourceSchema(fields, { description: 'a thing', deprecated: 'Use the new thing instead.' });
  const thing = resource<typeof fields, Api>({
    typeName: 'fake_thing',
    schema,
    repeatableCreate: 'test double',
    validate(config, diags) {
      api.seen.push(config);
      // A rule between arguments, judged only when both are known.
      if (config.mode === 'limited' && config.limit === null)
        diags.error('Missing limit', '`limit` is required when `mode` is "limited".', [attrStep('limit')]);
    },
    async create(plan, ctx) {
      const id = `t-${ctx.client.things.size + 1}`;
      // The platform stores blanks for what was not given.
      ctx.client.things.set(id, { name: plan.name, note: plan.note ?? '', labels: plan.labels ?? [] });
      return { id, updated: 0 };
    },
    async read(prior, ctx) {
      const t = ctx.client.things.get(prior.id!);
      return t ? { name: t.name, note: t.note, labels: t.labels } : null;
    },
    async update(_plan, _prior, ctx) {
      ctx.client.updates++;
      return { updated: ctx.client.updates };
    },
    async delete(prior, ctx) {
      ctx.client.things.delete(prior.id!);
    },
  });
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema({}, { description: 'fake' }),
    configure: async () => api,
    resources: [thing],
    dataSources: [],
  });
  return new ProviderEngine(def, silent, {}, { lookupDelayMs: 0 });
}

const config = (values: Record<string, unknown>): ObjectValue =>
  ({
    id: null,
    name: 'x',
    note: null,
    labels: null,
    hosts: null,
    members: null,
    legacy: null,
    mode: null,
    limit: null,
    rule: [],
    old_rule: [],
    updated: null,
    secret: 's3cret',
    secret_wo: null,
    secret_wo_version: null,
    ...values,
  }) as ObjectValue;

describe('engine: the rules every argument gets', () => {
  let api: Api;
  let engine: ReturnType<typeof engineFor>;
  beforeEach(async () => {
    api = new Api();
    engine = engineFor(api);
    await engine.configureProvider('1.11.4', {});
  });
  const problems = (values: Record<string, unknown>) =>
    engine
      .validateResourceConfig('fake_thing', config(values))
      .items.map((d) => [d.severity, d.summary, d.path?.map((s) => ('attr' in s ? s.attr : s)).join('.') ?? '']);

  it('refuses a required argument set to null, at its path', () => {
    expect(problems({ name: null })).to.deep.include(['error', 'Missing configuration for required argument', 'name']);
  });

  it('refuses blank required strings and blank list or set elements, never a repeat (a distinct list sends it once)', () => {
    expect(problems({ name: '  ' })).to.deep.include(['error', 'Invalid value for "name"', 'name']);
    expect(problems({ labels: ['a', ' '] })).to.deep.include(['error', 'Invalid value for "labels"', 'labels']);
    expect(problems({ members: [''] })).to.deep.include(['error', 'Invalid value for "members"', 'members']);
    expect(problems({ hosts: ['h1', 'h1'] }).filter(([severity]) => severity === 'error')).to.deep.equal([]);
    expect(problems({ labels: ['a', 'a'], note: '' }).filter(([severity]) => severity === 'error')).to.deep.equal([]);
    // A secret that one of its pair must give is required in all but name, in either form.
    expect(problems({ secret: ' ' })).to.deep.include(['error', 'Invalid value for "secret"', 'secret']);
    expect(problems({ secret: null, secret_wo: '' })).to.deep.include([
      'error',
      'Invalid value for "secret_wo"',
      'secret_wo',
    ]);
  });

  it('judges a secret and its write-only twin together only when both are known', () => {
    // An unknown may yet be null: neither "both given" nor "version without the write-only value" can be told.
    const errors = (values: Record<string, unknown>) => problems(values).filter(([severity]) => severity === 'error');
    expect(errors({ secret: UNKNOWN, secret_wo: 'w' })).to.deep.equal([]);
    expect(errors({ secret: null, secret_wo: UNKNOWN, secret_wo_version: 1 })).to.deep.equal([]);
    expect(errors({ secret: null, secret_wo: 'w', secret_wo_version: UNKNOWN })).to.deep.equal([]);
    // Known, the same values are refused at their paths.
    expect(errors({ secret: 's', secret_wo: 'w' })).to.deep.include(['error', 'Conflicting arguments', 'secret_wo']);
    expect(errors({ secret: 's', secret_wo_version: 1 })).to.deep.include([
      'error',
      'Invalid argument',
      'secret_wo_version',
    ]);
  });

  it("keeps what the platform does not hold (a write-only twin's version) through a read, in nested blocks too", () => {
    const nested = {
      credentials: block.list(
        {
          client_id: attr.string({ required: true, description: 'id' }),
          key: attr.string({ optional: true, sensitive: true, writeOnlyTwin: { required: true }, description: 'key' }),
        },
        { description: 'credentials' },
      ),
    };
    const prior = { credentials: [{ client_id: 'c', key: null, key_wo: null, key_wo_version: 3 }] } as ObjectValue;
    // The API answers the block without the secret, so the model is rebuilt without the version.
    const fresh = fromModel(nested, { credentials: [{ client_id: 'c', key: null }] } as never, null);
    expect(reconcileRead(nested, prior, fresh)).to.deep.equal(prior);
  });

  it('warns of a deprecated type, argument and block, naming the replacement', () => {
    const diags = engine.validateResourceConfig('fake_thing', config({ legacy: 'x', old_rule: [{ port: 1 }] })).items;
    expect(diags.map((d) => [d.severity, d.summary, d.detail])).to.deep.equal([
      ['warning', 'Resource type fake_thing is deprecated', 'Use the new thing instead.'],
      ['warning', 'Argument "legacy" is deprecated', 'Use `note` instead.'],
      ['warning', 'Block "old_rule" is deprecated', 'Use `rule` instead.'],
    ]);
  });

  it('shows checks unknown values as undefined, never as null or empty, so they wait; the plan judges them once known', () => {
    expect(problems({ mode: 'limited', limit: UNKNOWN, rule: UNKNOWN }).filter(([s]) => s === 'error')).to.deep.equal(
      [],
    );
    const seen = api.seen.at(-1)!;
    expect(seen.limit).to.equal(undefined);
    expect(seen.rule, 'a dynamic block whose for_each is unknown').to.equal(undefined);
    expect(seen.note).to.equal(null);
    // At plan time the limit turned out null: the same rule, now an error (and no warnings again).
    const known = config({ mode: 'limited', legacy: 'x' });
    const plan = engine.planResourceChange(
      'fake_thing',
      null,
      proposedNew(engineSchema(engine), null, known) as ObjectValue,
      known,
      {},
    );
    expect(plan.diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([['error', 'Missing limit']]);
  });

  it('checks the configuration once more before a create, sending nothing when it is invalid', async () => {
    const known = config({ mode: 'limited' });
    const out = await engine.applyResourceChange(
      'fake_thing',
      null,
      { ...known, id: UNKNOWN, updated: UNKNOWN },
      {},
      known,
    );
    expect(out.diags.items.map((d) => d.summary)).to.deep.equal(['Missing limit']);
    expect(api.things.size).to.equal(0);
  });

  it('treats null and empty as the same: reads keep the unset form, and a change between them sends nothing', async () => {
    const cfg = config({});
    const planned = engine.planResourceChange(
      'fake_thing',
      null,
      proposedNew(engineSchema(engine), null, cfg) as ObjectValue,
      cfg,
      {},
    ).planned!;
    const created = (await engine.applyResourceChange('fake_thing', null, planned, {}, cfg)).state!;
    // The platform answers '' and [] for what was left out: the state keeps null.
    const read = (await engine.readResource('fake_thing', created, {})).state!;
    expect(read).to.deep.include({ note: null, labels: null });
    // Writing them empty instead is a change Terraform shows once, which sends no update.
    const empty = config({ note: '', labels: [] });
    const change = engine.planResourceChange(
      'fake_thing',
      read,
      proposedNew(engineSchema(engine), read, empty) as ObjectValue,
      empty,
      {},
    );
    expect(change.planned).to.deep.include({ note: '', labels: [], updated: 0 });
    const applied = (await engine.applyResourceChange('fake_thing', read, change.planned, {}, empty)).state!;
    expect(api.updates, 'no request for a change between null and empty').to.equal(0);
    expect(applied).to.deep.include({ note: '', labels: [] });
    expect((await engine.readResource('fake_thing', applied, {})).state).to.deep.include({ note: '', labels: [] });
  });
});

function engineSchema(engine: ReturnType<typeof engineFor>) {
  return engine.resourceSchema('fake_thing')!.block;
}
