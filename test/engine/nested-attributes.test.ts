/**
 * Nested attributes (tfplugin6 `nested_type`, declared with `attr.nested`) through the in-process
 * engine, as Terraform drives it (the test kit's harness: ProposedNew, the provider's plan and
 * Terraform's checks of it, apply, read): the schema on the wire, validation at inner paths, inner
 * computed values unknown only where new or where what they follow changes, and plans of no change.
 * The provider is test/support/nested-things.ts.
 */
import { expect } from 'chai';
import { UNKNOWN } from '../../packages/framework/src/index.js';
import { HarnessError, ProviderHarness } from '../../packages/framework/src/testing.js';
import { schemaToProto } from '../../packages/framework/src/server/wire-schema.js';
import { schemaFromProto } from '../../packages/framework/src/schema/schema-from-proto.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import { planObject } from '../../packages/framework/src/engine/plan/index.js';
import { configFromState } from '../../packages/framework/src/engine/resources/generate-config.js';
import { assertPlanValid } from '../../packages/framework/src/engine/checks/plan-valid.js';
import { typeToJSONString } from '../../packages/framework/src/schema/cty-type.js';
import { attr, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { Rack, nesterProvider, serverSchema } from '../support/nested-things.js';

const TYPE = 'nester_server';

describe('nested attributes (attr.nested, tfplugin6 nested_type)', () => {
  let rack: Rack;
  let nester: ProviderHarness;
  beforeEach(async () => {
    rack = new Rack();
    nester = await ProviderHarness.start(nesterProvider(rack));
  });

  it('the wire carries nested_type (attributes and nesting) and no type; the implied type is object(...)', () => {
    const proto = schemaToProto({ version: 0, block: serverSchema.block }) as any;
    const byName = Object.fromEntries(proto.block.attributes.map((a: any) => [a.name, a]));
    expect(byName.name.type).to.be.instanceOf(Buffer);
    expect(byName.settings).to.not.have.property('type');
    expect(byName.settings.nested_type.nesting).to.equal(1);
    expect(byName.rules.nested_type.nesting).to.equal(2);
    expect(byName.members.nested_type.nesting).to.equal(3);
    expect(byName.ports.nested_type.nesting).to.equal(4);
    const inner = byName.rules.nested_type.attributes.map((a: any) => [a.name, a.required, a.optional, a.computed]);
    expect(inner).to.deep.equal([
      ['port', true, false, false],
      ['protocol', false, true, true],
      ['rule_id', false, false, true],
    ]);
    expect(JSON.parse(Buffer.from(byName.rules.nested_type.attributes[0].type).toString())).to.equal('number');
    expect(typeToJSONString(serverSchema.block.attributes.rules!.type)).to.equal(
      '["list",["object",{"port":"number","protocol":"string","rule_id":"string"}]]',
    );
    // Read back as Terraform would, by the rules it checks when it loads a schema.
    const back = schemaFromProto(proto, TYPE);
    expect(back.block.attributes.settings!.nestedType!.nesting).to.equal('single');
    expect(typeToJSONString(back.block.attributes.ports!.type)).to.equal(
      typeToJSONString(serverSchema.block.attributes.ports!.type),
    );
  });

  it('refuses what Terraform refuses in a nested attribute', () => {
    const bad =
      (attributes: Record<string, any>, more: Record<string, unknown> = {}) =>
      () =>
        resourceSchema(
          { n: attr.nested({ nesting: 'list', description: 'n', optional: true, attributes, ...more } as any) },
          { description: 'x' },
        ).block;
    expect(bad({ s: attr.string({ optional: true, writeOnly: true, description: 's' }) })).to.throw(/write-only/);
    expect(bad({ s: attr.string({ description: 's' } as any) })).to.throw(/must be required, optional or computed/);
    expect(bad({ s: attr.string({ required: true, description: 's' }) }, { optional: false, computed: true })).to.throw(
      /argument inside the computed-only/,
    );
  });

  it('validates inner attributes at their paths: a missing required one, a refused value', () => {
    const errors = (config: Record<string, unknown>) =>
      nester
        .validate(TYPE, config)
        .filter((d) => d.severity === 'error')
        .map((d) => [d.path, d.summary]);
    expect(errors({ name: 'a', settings: { mode: 'fast' }, rules: [{ port: 80 }, { port: 443 }] })).to.deep.equal([]);
    expect(errors({ name: 'a', settings: { retries: 2 } })).to.deep.equal([
      ['settings.mode', 'Missing configuration for required argument'],
    ]);
    expect(errors({ name: 'a', rules: [{ port: 80 }, { port: 70000 }] })).to.deep.equal([
      ['rules[1].port', 'Invalid value for "port"'],
    ]);
    expect(errors({ name: 'a', ports: { web: { number: null } } })).to.deep.equal([
      ['ports["web"].number', 'Missing configuration for required argument'],
    ]);
    expect(errors({ name: 'a', settings: { mode: 'slow' } })[0]![0]).to.equal('settings.mode');
  });

  it('plans a create with inner computed values unknown, applies it, and re-plans no change', async () => {
    const config = {
      name: 'a',
      settings: { mode: 'fast', retries: 2 },
      rules: [{ port: 80 }, { port: 443, protocol: 'udp' }],
      members: [{ name: 'ann' }, { name: 'bob' }],
      ports: { web: { number: 8080 } },
    };
    const plan = await nester.plan(TYPE, { config });
    expect(plan.action).to.equal('create');
    expect(plan.planned).to.deep.include({
      settings: { mode: 'fast', retries: 2, fingerprint: UNKNOWN },
      rules: [
        { port: 80, protocol: UNKNOWN, rule_id: UNKNOWN },
        { port: 443, protocol: 'udp', rule_id: UNKNOWN },
      ],
      ports: { web: { number: 8080, label: UNKNOWN } },
    });
    expect(plan.planned!.members).to.have.deep.members([
      { name: 'ann', joined: UNKNOWN },
      { name: 'bob', joined: UNKNOWN },
    ]);
    const created = await nester.create(TYPE, config);
    expect(created).to.deep.include({
      settings: { mode: 'fast', retries: 2, fingerprint: 'fp-fast' },
      rules: [
        { port: 80, protocol: 'tcp', rule_id: 'r-2' },
        { port: 443, protocol: 'udp', rule_id: 'r-3' },
      ],
      ports: { web: { number: 8080, label: 'p8080' } },
    });
    const again = await nester.plan(TYPE, { prior: created, config });
    expect([again.action, again.changes, again.planned]).to.deep.equal(['no-op', [], created]);
    expect(await nester.read(TYPE, created)).to.deep.equal(created);
  });

  it('a change of one inner value changes it and what follows it, nothing else', async () => {
    const config = { name: 'a', settings: { mode: 'fast' }, rules: [{ port: 80 }, { port: 443 }] };
    const created = await nester.create(TYPE, config);
    const writes = rack.writes;

    const retried = await nester.plan(TYPE, {
      prior: created,
      config: { ...config, settings: { mode: 'fast', retries: 5 } },
    });
    expect([retried.action, retried.changes]).to.deep.equal(['update', ['settings.retries']]);
    expect(retried.planned!.settings).to.deep.equal({ mode: 'fast', retries: 5, fingerprint: 'fp-fast' });

    const moded = { ...config, settings: { mode: 'safe' } };
    const plan = await nester.plan(TYPE, { prior: created, config: moded });
    expect(plan.changes).to.deep.equal(['settings.mode', 'settings.fingerprint']);
    const updated = await nester.apply(TYPE, { prior: created, config: moded });
    expect(updated!.settings).to.deep.equal({ mode: 'safe', retries: null, fingerprint: 'fp-safe' });
    expect(updated!.rules).to.deep.equal(created.rules);

    // A port changes: the rule keeps its id and protocol (kept from the prior object at its index).
    const ported = { ...moded, rules: [{ port: 81 }, { port: 443 }, { port: 22 }] };
    const portPlan = await nester.plan(TYPE, { prior: updated, config: ported });
    expect(portPlan.planned!.rules).to.deep.equal([
      { port: 81, protocol: 'tcp', rule_id: (created.rules as any)[0].rule_id },
      (created.rules as any)[1],
      { port: 22, protocol: UNKNOWN, rule_id: UNKNOWN },
    ]);
    const after = await nester.apply(TYPE, { prior: updated, config: ported });
    expect((await nester.plan(TYPE, { prior: after, config: ported })).action).to.equal('no-op');
    expect(rack.writes).to.equal(writes + 2);
  });

  it('set-nested: a member added is new (its computed value unknown), the others keep theirs', async () => {
    const config = { name: 'a', members: [{ name: 'ann' }, { name: 'bob' }] };
    const created = await nester.create(TYPE, config);
    expect(created.members).to.have.deep.members([
      { name: 'ann', joined: 'j-ann' },
      { name: 'bob', joined: 'j-bob' },
    ]);
    expect((await nester.plan(TYPE, { prior: created, config })).action).to.equal('no-op');
    const more = { name: 'a', members: [{ name: 'ann' }, { name: 'bob' }, { name: 'cy' }] };
    const plan = await nester.plan(TYPE, { prior: created, config: more });
    expect(plan.planned!.members).to.have.deep.members([
      { name: 'ann', joined: 'j-ann' },
      { name: 'bob', joined: 'j-bob' },
      { name: 'cy', joined: UNKNOWN },
    ]);
    const updated = await nester.apply(TYPE, { prior: created, config: more });
    expect((await nester.plan(TYPE, { prior: updated, config: more })).action).to.equal('no-op');
  });

  it('map-nested: objects correlate by key; a changed number plans its label unknown, a new key all new', async () => {
    const config = { name: 'a', ports: { web: { number: 80 }, db: { number: 5432 } } };
    const created = await nester.create(TYPE, config);
    expect(created.ports).to.deep.equal({ web: { number: 80, label: 'p80' }, db: { number: 5432, label: 'p5432' } });
    const changed = { name: 'a', ports: { web: { number: 8080 }, db: { number: 5432 }, ssh: { number: 22 } } };
    const plan = await nester.plan(TYPE, { prior: created, config: changed });
    expect(plan.planned!.ports).to.deep.equal({
      web: { number: 8080, label: UNKNOWN },
      db: { number: 5432, label: 'p5432' },
      ssh: { number: 22, label: UNKNOWN },
    });
    const updated = await nester.apply(TYPE, { prior: created, config: changed });
    expect((await nester.plan(TYPE, { prior: updated, config: changed })).action).to.equal('no-op');
    // Removing the attribute plans it null.
    const removed = await nester.plan(TYPE, { prior: updated, config: { name: 'a' } });
    expect([removed.action, removed.planned!.ports]).to.deep.equal(['update', null]);
  });

  it("Terraform's checks: ProposedNew keeps inner computed values, AssertPlanValid refuses a changed inner argument", () => {
    const block = serverSchema.block;
    const prior = {
      id: 's-1',
      name: 'a',
      settings: { mode: 'fast', retries: null, fingerprint: 'fp-fast' },
      rules: [{ port: 80, protocol: 'tcp', rule_id: 'r-1' }],
      members: null,
      ports: null,
    };
    const config = {
      id: null,
      name: 'a',
      settings: { mode: 'fast', retries: 3, fingerprint: null },
      rules: [
        { port: 81, protocol: null, rule_id: null },
        { port: 22, protocol: null, rule_id: null },
      ],
      members: null,
      ports: null,
    };
    const proposed = proposedNew(block, prior, config) as any;
    expect(proposed.settings).to.deep.equal({ mode: 'fast', retries: 3, fingerprint: 'fp-fast' });
    expect(proposed.rules).to.deep.equal([
      { port: 81, protocol: 'tcp', rule_id: 'r-1' },
      { port: 22, protocol: null, rule_id: null },
    ]);
    expect(assertPlanValid(block, prior, config, proposed)).to.deep.equal([]);
    const wrong = { ...proposed, rules: [{ ...proposed.rules[0], port: 82 }, proposed.rules[1]] };
    expect(assertPlanValid(block, prior, config, wrong).map((p) => p.message)).to.deep.equal([
      'planned value 82 does not match config value 81 nor prior value 80',
    ]);
    const short = { ...proposed, rules: [proposed.rules[0]] };
    expect(assertPlanValid(block, prior, config, short).map((p) => p.message)).to.deep.equal([
      'count in plan (1) disagrees with count in config (2)',
    ]);
  });

  it('generated configuration writes a nested attribute without its computed inner values', async () => {
    const config = {
      name: 'a',
      settings: { mode: 'fast' },
      rules: [{ port: 80 }],
      members: [{ name: 'ann' }],
      ports: { web: { number: 80 } },
    };
    const created = await nester.create(TYPE, config);
    const state = Object.fromEntries(Object.entries(created).map(([k, v]) => [k, v as never]));
    const { config: generated } = configFromState(serverSchema.fields, state);
    expect(generated).to.deep.equal({
      id: null,
      name: 'a',
      settings: { mode: 'fast', retries: null, fingerprint: null },
      rules: [{ port: 80, protocol: null, rule_id: null }],
      members: [{ name: 'ann', joined: null }],
      ports: { web: { number: 80, label: null } },
    });
  });

  it('a nested attribute not known yet, or an object of it, is planned as configured', async () => {
    const whole = await nester.plan(TYPE, { config: { name: 'a', rules: UNKNOWN, settings: UNKNOWN } });
    expect(whole.planned).to.deep.include({ rules: UNKNOWN, settings: UNKNOWN });
    const element = await nester.plan(TYPE, { config: { name: 'a', rules: [{ port: 80 }, UNKNOWN] } });
    expect(element.planned!.rules).to.deep.equal([{ port: 80, protocol: UNKNOWN, rule_id: UNKNOWN }, UNKNOWN]);
    const inner = await nester.plan(TYPE, { config: { name: 'a', settings: { mode: UNKNOWN } } });
    expect(inner.planned!.settings).to.deep.equal({ mode: UNKNOWN, retries: null, fingerprint: UNKNOWN });
  });

  it('an optional+computed nested attribute left unset keeps the prior object, and is unknown on create', () => {
    const schema = resourceSchema(
      {
        opts: attr.nested({
          nesting: 'single',
          optional: true,
          computed: true,
          description: 'Options the platform fills when unset.',
          attributes: {
            a: attr.string({ optional: true, description: 'a' }),
            b: attr.string({ computed: true, description: 'b' }),
          },
        }),
      },
      { description: 'x' },
    );
    const plan = (prior: any, config: any) => {
      const proposed = proposedNew(schema.block, prior, config) as any;
      const { planned } = planObject(schema.fields, prior, proposed, config);
      expect(assertPlanValid(schema.block, prior, config, planned)).to.deep.equal([]);
      return planned.opts;
    };
    expect(plan(null, { opts: null })).to.equal(UNKNOWN);
    const prior = { opts: { a: 'x', b: 'y' } };
    expect(plan(prior, { opts: null })).to.deep.equal({ a: 'x', b: 'y' });
    expect(plan(prior, { opts: { a: 'x', b: null } })).to.deep.equal({ a: 'x', b: 'y' });
    expect(plan(prior, { opts: { a: 'z', b: null } })).to.deep.equal({ a: 'z', b: 'y' });
  });

  it('a missing inner argument stops the plan with its path', async () => {
    try {
      await nester.plan(TYPE, { config: { name: 'a', rules: [{ protocol: 'tcp' }] } });
      expect.fail('planned');
    } catch (err) {
      expect(err).to.be.instanceOf(HarnessError);
      expect((err as HarnessError).errors.map((d) => d.path)).to.deep.equal(['rules[0].port']);
    }
  });
});
