/**
 * A resource's plan-modification hook (ResourceDef `modifyPlan`,
 * packages/framework/src/engine/resources/plan-modification.ts),
 * through the in-process engine: it sees the configuration, prior and planned models and the configured
 * client; it may plan a computed value (known or unknown), ask for replacement, and warn or fail; and a
 * plan that breaks Terraform's rules is refused with an error at the attribute's path. Every plan the
 * engine answers without errors is also judged by our port of Terraform's checks.
 */
import { expect } from 'chai';
import { attr, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import type { PlanContext } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { attrStep } from '../../packages/framework/src/schema/path.js';
import { UNKNOWN, type ObjectValue } from '../../packages/framework/src/schema/value.js';
import { checkApplyResult, checkPlannedState, proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import { quietLogger } from '../support/quiet-logger.js';

const schema = resourceSchema(
  {
    id: attr.computedId(),
    name: attr.string({ required: true, description: 'name' }),
    size: attr.number({ optional: true, description: 'size' }),
    zone: attr.string({ optional: true, description: 'zone' }),
    color: attr.string({ optional: true, computed: true, description: 'the platform picks one when unset' }),
    fingerprint: attr.string({ computed: true, description: 'what the platform derives from the name' }),
    revision: attr.number({ computed: true, description: 'the platform counts changes' }),
  },
  { description: 'a thing with a plan hook' },
);
type Fields = typeof schema.fields;
const TYPE = 'fake_hooked';

class Api {
  readonly prefix = 'fp';
  seq = 0;
  things = new Map<string, { name: string; size: number | null; zone: string | null; color: string; rev: number }>();
}

type Hook = (ctx: PlanContext<Fields, Api>) => void;

function engineWith(api: Api, hook: () => Hook | undefined) {
  const model = (id: string) => {
    const t = api.things.get(id)!;
    return { id, ...t, fingerprint: `${api.prefix}-${t.name}`, revision: t.rev };
  };
  const hooked = resource<Fields, Api>({
    typeName: TYPE,
    schema,
    modifyPlan(ctx) {
      hook()?.(ctx);
    },
    async create(plan, ctx) {
      const id = `t-${++ctx.client.seq}`;
      ctx.client.things.set(id, {
        name: plan.name,
        size: plan.size,
        zone: plan.zone,
        color: plan.color ?? 'red',
        rev: 1,
      });
      return model(id);
    },
    async read(prior) {
      return api.things.has(prior.id!) ? model(prior.id!) : null;
    },
    async update(plan, prior, ctx) {
      const t = ctx.client.things.get(prior.id!)!;
      Object.assign(t, { name: plan.name, size: plan.size, zone: plan.zone, color: plan.color ?? t.color });
      t.rev++;
      return model(prior.id!);
    },
    async delete(prior, ctx) {
      ctx.client.things.delete(prior.id!);
    },
  });
  const def = provider({
    name: 'fake',
    version: '0.0.1',
    schema: resourceSchema({}, { description: 'fake provider' }),
    configure: async () => api,
    resources: [hooked],
    dataSources: [],
  });
  return new ProviderEngine(def, quietLogger, {});
}

function config(values: Partial<Record<keyof Fields, unknown>>): ObjectValue {
  const base = { id: null, name: 'x', size: null, zone: null, color: null, fingerprint: null, revision: null };
  return { ...base, ...(values as ObjectValue) };
}

describe("engine: a resource's plan-modification hook (modifyPlan)", () => {
  let api: Api;
  let engine: ProviderEngine<Api>;
  let hook: Hook | undefined;
  beforeEach(async () => {
    api = new Api();
    hook = undefined;
    engine = engineWith(api, () => hook);
    expect((await engine.configureProvider('1.11.4', {})).items).to.deep.equal([]);
  });

  const plan = (prior: ObjectValue | null, cfg: ObjectValue) =>
    engine.planResourceChange(TYPE, prior, proposedNew(schema.block, prior, cfg) as ObjectValue, cfg, {});

  /** A plan Terraform accepts, with no diagnostics. */
  function accepted(prior: ObjectValue | null, cfg: ObjectValue) {
    const out = plan(prior, cfg);
    expect(out.diags.items).to.deep.equal([]);
    expect(checkPlannedState(schema.block, prior, cfg, out.planned)).to.deep.equal([]);
    return out;
  }

  async function created(cfg: ObjectValue): Promise<ObjectValue> {
    const out = accepted(null, cfg);
    const applied = await engine.applyResourceChange(TYPE, null, out.planned, out.plannedPrivate, cfg);
    expect(applied.diags.items).to.deep.equal([]);
    expect(checkApplyResult(schema.block, out.planned, applied.state, false)).to.deep.equal([]);
    return applied.state!;
  }

  it('sees the typed configuration, prior and planned models and the configured client', async () => {
    const seen: unknown[] = [];
    hook = (ctx) => {
      const name: string | undefined = ctx.config.name;
      seen.push({ name, prior: ctx.prior?.name ?? null, id: ctx.planned.id, client: ctx.client === api });
    };
    const state = await created(config({ name: 'a' }));
    accepted(state, config({ name: 'b' }));
    expect(seen).to.deep.equal([
      { name: 'a', prior: null, id: undefined, client: true },
      { name: 'b', prior: 'a', id: 't-1', client: true },
    ]);
  });

  it('plans a computed value, known or unknown, and apply keeps it', async () => {
    hook = (ctx) => {
      // The platform derives the fingerprint from the name: known at plan, from the provider's client.
      if (ctx.config.name !== undefined) ctx.setPlanned('fingerprint', `${ctx.client!.prefix}-${ctx.config.name}`);
      if (ctx.prior !== null && ctx.config.size !== ctx.prior.size) ctx.setUnknown('revision');
    };
    const first = accepted(null, config({ name: 'a' }));
    expect(first.planned!.fingerprint).to.equal('fp-a');
    const state = await created(config({ name: 'a' }));
    expect(state).to.deep.include({ fingerprint: 'fp-a', revision: 1 });
    // A change of size makes the revision unknown, where the engine alone kept it.
    const resized = accepted(state, config({ name: 'a', size: 3 }));
    expect(resized.planned!.revision).to.equal(UNKNOWN);
    const renamed = accepted(state, config({ name: 'b' }));
    expect(renamed.planned).to.deep.include({ fingerprint: 'fp-b', revision: 1 });
    // What the hook planned shows in ctx.planned at once.
    let shown: unknown;
    hook = (ctx) => {
      ctx.setUnknown('color');
      ctx.setPlanned('fingerprint', 'fp-c');
      shown = { color: ctx.planned.color, fingerprint: ctx.planned.fingerprint };
    };
    accepted(state, config({ name: 'c' }));
    expect(shown).to.deep.equal({ color: undefined, fingerprint: 'fp-c' });
  });

  it("forces replacement: the response's requires_replace holds the path", async () => {
    hook = (ctx) => {
      const [was, now] = [ctx.prior?.size ?? null, ctx.config.size];
      if (was !== null && typeof now === 'number' && now < was) ctx.requireReplace('size');
    };
    const state = await created(config({ size: 5 }));
    expect(accepted(state, config({ size: 7 })).requiresReplace).to.deep.equal([]);
    expect(accepted(state, config({ size: 2 })).requiresReplace).to.deep.equal([[{ attr: 'size' }]]);
    // Beside the engine's own, each path once.
    hook = (ctx) => {
      ctx.requireReplace([attrStep('zone')]);
      ctx.requireReplace('zone');
    };
    expect(accepted(state, config({ size: 5, zone: 'b' })).requiresReplace).to.deep.equal([[{ attr: 'zone' }]]);
    // A path that names no field is the hook's error.
    hook = (ctx) => ctx.requireReplace([attrStep('constructor')]);
    const wrong = plan(state, config({ size: 5 })).diags.items;
    expect(wrong.map((d) => [d.severity, d.summary])).to.deep.equal([['error', 'Invalid plan modification']]);
    expect(wrong[0]!.detail).to.contain('asked for replacement at constructor, which names no field');
  });

  it('adds a warning at a path, and the plan stands', () => {
    hook = (ctx) => {
      if (ctx.config.zone === 'old')
        ctx.diags.warning('Zone being retired', 'Zone `old` closes next year; choose another.', [attrStep('zone')]);
    };
    const cfg = config({ zone: 'old' });
    const out = plan(null, cfg);
    expect(out.diags.items).to.deep.equal([
      {
        severity: 'warning',
        summary: 'Zone being retired',
        detail: 'Zone `old` closes next year; choose another.',
        path: [{ attr: 'zone' }],
      },
    ]);
    expect(out.planned!.zone).to.equal('old');
    expect(checkPlannedState(schema.block, null, cfg, out.planned)).to.deep.equal([]);
  });

  it('an error it adds, or throws, fails the plan', () => {
    hook = (ctx) => void ctx.diags.error('Size refused', 'Too big for this zone.', [attrStep('size')]);
    const refused = plan(null, config({ size: 9 }));
    expect(refused.diags.items.map((d) => [d.severity, d.summary, d.path])).to.deep.equal([
      ['error', 'Size refused', [{ attr: 'size' }]],
    ]);
    hook = () => {
      throw new Error('boom');
    };
    const thrown = plan(null, config({}));
    expect(thrown.diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([
      ['error', 'Cannot plan fake_hooked'],
    ]);
  });

  describe("a plan that breaks Terraform's rules is refused, naming the attribute", () => {
    const refusal = (prior: ObjectValue | null, cfg: ObjectValue, path: string) => {
      const items = plan(prior, cfg).diags.items;
      expect(items.map((d) => [d.severity, d.summary, d.path])).to.deep.equal([
        ['error', 'Invalid plan modification', [{ attr: path }]],
      ]);
      expect(items[0]!.detail).to.contain(`The plan modification of ${TYPE} (modifyPlan) planned \`${path}\``);
      return items[0]!.detail;
    };

    it('a configured argument changed', () => {
      hook = (ctx) => ctx.setPlanned('name', 'other');
      expect(refusal(null, config({ name: 'a' }), 'name')).to.contain(
        'planned value "other" does not match config value "a"',
      );
    });

    it('an optional and computed argument set in the configuration changed, or made unknown', async () => {
      hook = undefined;
      const state = await created(config({ color: 'red' }));
      hook = (ctx) => ctx.setPlanned('color', 'blue');
      expect(refusal(state, config({ color: 'green' }), 'color')).to.contain('does not match config value');
      hook = (ctx) => ctx.setUnknown('color');
      refusal(null, config({ color: 'green' }), 'color');
      // Unset in the configuration, it is the hook's to plan.
      hook = (ctx) => ctx.setPlanned('color', 'blue');
      expect(accepted(null, config({})).planned!.color).to.equal('blue');
    });

    it('a value for an optional argument left unset', () => {
      hook = (ctx) => ctx.setPlanned('zone', 'a');
      expect(refusal(null, config({}), 'zone')).to.contain('for a non-computed attribute');
    });

    it('a value of the wrong type', () => {
      hook = (ctx) => ctx.setPlanned('fingerprint', 7 as never);
      const items = plan(null, config({})).diags.items;
      expect(items.map((d) => [d.severity, d.summary, d.path])).to.deep.equal([
        ['error', 'Invalid plan modification', [{ attr: 'fingerprint' }]],
      ]);
      expect(items[0]!.detail).to.contain('planned a value of the wrong type (fingerprint: expected a string');
    });
  });

  it('is not called for a destroy', async () => {
    let calls = 0;
    hook = () => void calls++;
    const state = await created(config({}));
    const destroy = engine.planResourceChange(TYPE, state, null, null, {});
    expect(destroy.planned).to.equal(null);
    expect(calls).to.equal(1);
  });

  it('gets no client while the provider is not configured', () => {
    const fresh = engineWith(new Api(), () => hook);
    let client: unknown = 'not called';
    hook = (ctx) => void (client = ctx.client);
    const cfg = config({});
    fresh.planResourceChange(TYPE, null, proposedNew(schema.block, null, cfg) as ObjectValue, cfg, {});
    expect(client).to.equal(undefined);
  });
});
