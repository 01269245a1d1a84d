/**
 * An attribute declared `emptyString: 'value'` (packages/framework/src/schema/empty-string.ts): `""` is a value of its
 * own through validation, plan, apply, read and a re-plan, at the top level and inside a block, and
 * a change between it and null is a change. The same attributes without the option keep the rule
 * every other attribute has (null ≡ empty). Each plan, apply and read is also judged by our port of
 * Terraform's checks.
 */
import { expect } from 'chai';
import { attr, block, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';
import {
  checkApplyResult,
  checkPlannedState,
  checkReadResult,
  proposedNew,
} from '../../packages/framework/src/engine/checks/index.js';
import { quietLogger } from '../support/quiet-logger.js';

const d = (description: string) => ({ description });

const schema = resourceSchema(
  {
    id: attr.computedId(),
    // `""` is a value of its own.
    prefix: attr.string({ optional: true, emptyString: 'value', ...d('a prefix; empty: none') }),
    label: attr.string({ required: true, emptyString: 'value', ...d('a label; empty: none') }),
    suffix: attr.string({ optional: true, computed: true, emptyString: 'value', ...d('the platform fills it') }),
    // The same attributes without the option: `""` says no more than null.
    note: attr.string({ optional: true, ...d('a note') }),
    title: attr.string({ required: true, ...d('a title') }),
    filler: attr.string({ optional: true, computed: true, ...d('the platform fills it') }),
    part: block.list(
      {
        tag: attr.string({ optional: true, emptyString: 'value', ...d('a tag; empty: none') }),
        memo: attr.string({ optional: true, ...d('a memo') }),
      },
      d('parts'),
    ),
  },
  d('a thing whose platform means something by an empty text'),
);
const fields = schema.fields;
type Model = {
  prefix: string | null;
  label: string;
  suffix: string | null;
  note: string | null;
  title: string;
  filler: string | null;
  part: { tag: string | null; memo: string | null }[];
};
const TYPE = 'fake_texts';
const type = impliedType(schema.block);

/** The platform: what it holds, and every request's body as it came. */
class Platform {
  held = new Map<string, Model>();
  sent: { op: string; body: Model }[] = [];
  seq = 0;
  /** The platform fills what the request leaves out. */
  store(id: string, m: Model): Model {
    const kept = { ...m, suffix: m.suffix ?? 'auto', filler: m.filler ?? 'auto', part: m.part.map((p) => ({ ...p })) };
    this.held.set(id, kept);
    return kept;
  }
}

/** A request's body: the model without the id the platform assigns. */
const bodyOf = ({ id: _id, ...body }: Model & { id: string | null }): Model => body;

function engineOver(api: Platform) {
  const texts = resource<typeof fields, Platform>({
    typeName: TYPE,
    schema,
    async create(plan, ctx) {
      const body = bodyOf(plan);
      ctx.client.sent.push({ op: 'create', body });
      const id = `t-${++ctx.client.seq}`;
      return { id, ...ctx.client.store(id, body) };
    },
    async read(prior, ctx) {
      const held = ctx.client.held.get(prior.id!);
      return held ? { id: prior.id, ...held } : null;
    },
    async update(plan, prior, ctx) {
      const body = bodyOf(plan);
      ctx.client.sent.push({ op: 'update', body });
      return { id: prior.id, ...ctx.client.store(prior.id!, body) };
    },
    async delete(prior, ctx) {
      ctx.client.held.delete(prior.id!);
    },
  });
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema({}, d('fake provider')),
    configure: async () => api,
    resources: [texts],
    dataSources: [],
  });
  return new ProviderEngine(def, quietLogger, {});
}

function config(values: Partial<Record<keyof typeof fields, unknown>>): ObjectValue {
  const base = { id: null, prefix: null, label: 'l', suffix: null, note: null, title: 't', filler: null, part: [] };
  return { ...base, ...(values as ObjectValue) };
}

describe('engine: an attribute whose empty string is a value (emptyString)', () => {
  let api: Platform;
  let engine: ProviderEngine<Platform>;
  beforeEach(async () => {
    api = new Platform();
    engine = engineOver(api);
    expect((await engine.configureProvider('1.11.4', {})).items).to.deep.equal([]);
  });

  async function plan(prior: ObjectValue | null, cfg: ObjectValue) {
    const out = engine.planResourceChange(TYPE, prior, proposedNew(schema.block, prior, cfg) as ObjectValue, cfg, {});
    expect(out.diags.items).to.deep.equal([]);
    expect(checkPlannedState(schema.block, prior, cfg, out.planned)).to.deep.equal([]);
    return out;
  }

  async function apply(prior: ObjectValue | null, cfg: ObjectValue) {
    const planned = (await plan(prior, cfg)).planned;
    const applied = await engine.applyResourceChange(TYPE, prior, planned, {}, cfg);
    expect(applied.diags.items).to.deep.equal([]);
    expect(checkApplyResult(schema.block, planned, applied.state, false)).to.deep.equal([]);
    return applied.state!;
  }

  async function read(state: ObjectValue) {
    const out = await engine.readResource(TYPE, state, {});
    expect(out.diags.items).to.deep.equal([]);
    expect(checkReadResult(schema.block, out.state)).to.deep.equal([]);
    return out.state!;
  }

  it('validates: "" is accepted where required (a blank text too); without the option it is refused', () => {
    const ok = engine.validateResourceConfig(TYPE, config({ label: '', prefix: '', suffix: '' }));
    expect(ok.items).to.deep.equal([]);
    expect(engine.validateResourceConfig(TYPE, config({ label: '  ' })).items).to.deep.equal([]);
    const refused = engine.validateResourceConfig(TYPE, config({ title: '' })).items;
    expect(refused.map((x) => [x.severity, x.detail, x.path])).to.deep.equal([
      ['error', 'The value must not be empty or only whitespace.', [{ attr: 'title' }]],
    ]);
  });

  it('keeps "" through plan, apply (sent as ""), read and a re-plan with no diff', async () => {
    const cfg = config({ prefix: '', label: '', suffix: '', note: '', part: [{ tag: '', memo: '' }] });
    const created = await plan(null, cfg);
    expect(created.planned).to.deep.include({ prefix: '', label: '', suffix: '', note: '' });
    const state = await apply(null, cfg);
    // The option's attributes are sent as "", the others as null (as today).
    expect(api.sent).to.deep.equal([
      {
        op: 'create',
        body: {
          prefix: '',
          label: '',
          suffix: '',
          note: null,
          title: 't',
          filler: null,
          part: [{ tag: '', memo: null }],
        },
      },
    ]);
    expect(state).to.deep.include({ prefix: '', label: '', suffix: '', note: '', filler: 'auto' });
    expect(state.part).to.deep.equal([{ tag: '', memo: '' }]);
    const refreshed = await read(state);
    expect(refreshed).to.deep.equal(state);
    const again = await plan(refreshed, cfg);
    expect(valueEquals(type, again.planned, refreshed), 'no diff on re-plan').to.equal(true);
    expect(again.requiresReplace).to.deep.equal([]);
    // Applying that plan sends nothing.
    await apply(refreshed, cfg);
    expect(api.sent).to.have.length(1);
  });

  it('a change between "" and null is a change for the option, none without it', async () => {
    const empty = config({ prefix: '', note: '' });
    const state = await apply(null, empty);
    // The note from "" to null: the same to the platform, nothing is sent.
    const noteUnset = await apply(state, config({ prefix: '', note: null }));
    expect(api.sent).to.have.length(1);
    // The prefix from "" to null is planned and sent.
    const unset = config({ prefix: null, note: null });
    const planned = (await plan(noteUnset, unset)).planned!;
    expect(planned.prefix).to.equal(null);
    const cleared = await apply(noteUnset, unset);
    expect(api.sent.map((s) => [s.op, s.body.prefix])).to.deep.equal([
      ['create', ''],
      ['update', null],
    ]);
    expect(cleared.prefix).to.equal(null);
    // And back from null to "".
    await apply(cleared, empty);
    expect(api.sent.map((s) => [s.op, s.body.prefix])).to.deep.equal([
      ['create', ''],
      ['update', null],
      ['update', ''],
    ]);
  });

  it('inside a block: a tag from "" to null is a change, a memo from "" to null is not', async () => {
    const state = await apply(null, config({ part: [{ tag: '', memo: '' }] }));
    await apply(state, config({ part: [{ tag: '', memo: null }] }));
    expect(api.sent).to.have.length(1);
    await apply(state, config({ part: [{ tag: null, memo: '' }] }));
    expect(api.sent.map((s) => [s.op, s.body.part])).to.deep.equal([
      ['create', [{ tag: '', memo: null }]],
      ['update', [{ tag: null, memo: null }]],
    ]);
  });

  it('an optional and computed argument set to "": planned "" with the option, the platform\'s value without', async () => {
    const state = await apply(null, config({}));
    expect(state).to.deep.include({ suffix: 'auto', filler: 'auto' });
    const cfg = config({ suffix: '', filler: '' });
    const planned = (await plan(state, cfg)).planned!;
    expect(planned).to.deep.include({ suffix: '', filler: 'auto' });
    const changed = await apply(state, cfg);
    expect(api.sent.at(-1)!.body).to.deep.include({ suffix: '', filler: 'auto' });
    expect(changed).to.deep.include({ suffix: '', filler: 'auto' });
  });

  it('reads "" where the state has null as the platform\'s value with the option, as unset without', async () => {
    const state = await apply(null, config({}));
    const held = api.held.get(state.id as string)!;
    held.prefix = '';
    held.note = '';
    const refreshed = await read(state);
    expect(refreshed).to.deep.include({ prefix: '', note: null });
    // The configuration that leaves the prefix unset now plans a change to null: the platform holds "".
    const planned = (await plan(refreshed, config({}))).planned!;
    expect(planned.prefix).to.equal(null);
  });

  it('refuses the option on an attribute that is not a string', () => {
    const wrong = resourceSchema(
      { count: attr.number({ optional: true, emptyString: 'value', ...d('a count') }) },
      d('wrong'),
    );
    expect(() => wrong.block).to.throw(/count declares what an empty string is, but is not a string/);
  });
});
