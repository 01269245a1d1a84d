/**
 * Keys from outside are data, whatever they are called: a map whose keys include `__proto__`,
 * `constructor` or "" keeps every entry through the engine's whole lifecycle (validate, plan, apply,
 * read, import, re-plan), with every value crossing the msgpack codec as it does between Terraform
 * and the provider. An assignment `o[key] = v` loses a `__proto__` entry (it sets the prototype); the
 * table below holds each place that builds an object from such keys to that.
 */
import { expect } from 'chai';
import { attr, block, resourceSchema, t } from '../../src/schema/define.js';
import { provider, resource, type Logger } from '../../src/engine/contracts.js';
import { ProviderEngine } from '../../src/engine/provider-engine.js';
import { proposedNew } from '../../src/engine/checks/index.js';
import { decodeMsgpack, encodeMsgpack } from '../../src/schema/msgpack.js';
import { decodeJSON, encodeJSON } from '../../src/schema/json.js';
import { impliedType } from '../../src/schema/block.js';
import {
  type CtyType,
  STRING,
  mapOf,
  objectOf,
  typeEquals,
  typeFromJSON,
  typeToJSONString,
} from '../../src/schema/cty-type.js';
import { plainToValue, valueToExactPlain, valueToPlain } from '../../src/schema/model.js';
import { setEntry } from '../../src/schema/entries.js';
import { UNKNOWN, type ObjectValue, type Value } from '../../src/schema/value.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

/** An object with these entries, `__proto__` an entry like the others. */
function entries<T = Value>(pairs: [string, T][]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of pairs) setEntry(out, k, v);
  return out;
}

/** Whether `o` holds exactly these own entries, in any order, on an ordinary prototype. */
function expectEntries(o: unknown, pairs: [string, unknown][]): void {
  expect(o).to.be.an('object');
  expect(Object.getPrototypeOf(o)).to.equal(Object.prototype);
  expect(Object.keys(o as object).sort()).to.deep.equal(pairs.map(([k]) => k).sort());
  for (const [k, v] of pairs) expect(Object.getOwnPropertyDescriptor(o, k)?.value, k).to.deep.equal(v);
}

const LABELS: [string, string][] = [
  ['__proto__', 'p'],
  ['constructor', 'c'],
  ['', 'empty'],
  ['toString', 't'],
];

describe('keys from outside survive as entries', () => {
  describe('every place that builds an object from them', () => {
    const mapType = mapOf(STRING);
    const labels = entries(LABELS);
    const cases: [string, () => unknown][] = [
      ['msgpack decode', () => decodeMsgpack(mapType, encodeMsgpack(mapType, labels))],
      ['JSON decode', () => decodeJSON(mapType, encodeJSON(mapType, labels))],
      ['model: valueToPlain', () => valueToPlain(labels)],
      ['model: valueToExactPlain', () => valueToExactPlain(labels)],
      ['model: plainToValue', () => plainToValue(mapType, JSON.parse(JSON.stringify(labels)))],
    ];
    for (const [name, build] of cases) {
      it(name, () => expectEntries(build(), LABELS));
    }

    it('types: an object type whose attributes are named __proto__ and constructor, through its JSON form', () => {
      const type = objectOf(
        entries<CtyType>([
          ['__proto__', STRING],
          ['constructor', mapType],
        ]),
        ['__proto__'],
      );
      const back = typeFromJSON(JSON.parse(typeToJSONString(type)));
      expect(typeEquals(back, type)).to.equal(true);
      expectEntries((back as { attributes: object }).attributes, [
        ['__proto__', STRING],
        ['constructor', mapType],
      ]);
      // A name the attribute map does not hold is not an optional attribute, even one every object inherits.
      expect(() => typeFromJSON(['object', { a: 'string' }, ['toString']])).to.throw(TypeError, /optional/);
      expect(() => typeFromJSON(['object', { a: 'string' }, ['__proto__']])).to.throw(TypeError, /optional/);
      // Values of that type keep the attribute.
      const value = entries<Value>([
        ['__proto__', 'x'],
        ['constructor', labels],
      ]);
      expectEntries(decodeMsgpack(back, encodeMsgpack(back, value)), [
        ['__proto__', 'x'],
        ['constructor', labels],
      ]);
      expectEntries(plainToValue(back, JSON.parse(JSON.stringify(value))), [
        ['__proto__', 'x'],
        ['constructor', labels],
      ]);
    });

    it('an object attribute its model does not hold is null, not what every object inherits', () => {
      const type = objectOf(
        entries<CtyType>([
          ['__proto__', STRING],
          ['constructor', STRING],
        ]),
      );
      expectEntries(plainToValue(type, {}), [
        ['__proto__', null],
        ['constructor', null],
      ]);
    });

    it("Terraform's proposed new state for a block nested as a map, keyed by its labels", () => {
      const schema = resourceSchema(
        { id: attr.computedId('id'), name: attr.string({ required: true, description: 'name' }) },
        { description: 'x' },
      ).block;
      const block_ = {
        ...schema,
        blockTypes: {
          rule: {
            nesting: 'map' as const,
            block: { attributes: { v: { type: STRING, optional: true } }, blockTypes: {} },
          },
        },
      };
      const config = { id: null, name: 'n', rule: entries(LABELS.map(([k, v]) => [k, { v }])) };
      const proposed = proposedNew(block_ as never, null, config) as ObjectValue;
      expectEntries(
        proposed.rule,
        LABELS.map(([k, v]) => [k, { v }]),
      );
    });
  });

  it('a map argument and a computed map keep __proto__ through validate, plan, apply, read, import and re-plan', async () => {
    const schema = resourceSchema(
      {
        id: attr.computedId('id'),
        labels: attr.stringMap({ optional: true, description: 'labels' }),
        echoed: attr.of(t.map(t.string))({ computed: true, description: 'the labels as the platform holds them' }),
        rule: block.list({ tags: attr.stringMap({ optional: true, description: 'tags' }) }, { description: 'rules' }),
      },
      { description: 'a thing with labels' },
    );
    type Stored = { labels: Record<string, string>; tags: Record<string, string>[] };
    const platform = new Map<string, Stored>();
    // The platform answers in JSON, as an API does: the keys come back from JSON.parse.
    const answer = (id: string) => {
      const s = JSON.parse(JSON.stringify(platform.get(id))) as Stored;
      return { id, labels: s.labels, echoed: s.labels, rule: s.tags.map((tags) => ({ tags })) };
    };
    const thing = resource<typeof schema.fields, null>({
      typeName: 'fake_labelled',
      schema,
      importState: async (id) => ({ id }),
      async create(plan) {
        const id = `t-${platform.size + 1}`;
        platform.set(id, { labels: plan.labels ?? {}, tags: plan.rule.map((r) => r.tags ?? {}) });
        return answer(id);
      },
      read: async (prior) => answer(prior.id!),
      async update(plan, prior) {
        platform.set(prior.id!, { labels: plan.labels ?? {}, tags: plan.rule.map((r) => r.tags ?? {}) });
        return answer(prior.id!);
      },
      async delete(prior) {
        platform.delete(prior.id!);
      },
    });
    const engine = new ProviderEngine(
      provider({
        name: 'fake',
        version: '0.0.1',
        schema: resourceSchema({}, { description: 'fake' }),
        configure: async () => null,
        resources: [thing],
        dataSources: [],
      }),
      silent,
      {},
    );
    expect((await engine.configureProvider('1.11.4', {})).items).to.deep.equal([]);
    const type = impliedType(schema.block);
    /** As Terraform sends a value to the provider and back. */
    const wire = (v: ObjectValue | null) =>
      v === null ? null : (decodeMsgpack(type, encodeMsgpack(type, v)) as ObjectValue);

    const labels = entries(LABELS);
    const config = wire({ id: null, labels, echoed: null, rule: [{ tags: entries([['__proto__', 'r']]) }] })!;
    expect(engine.validateResourceConfig('fake_labelled', config).items).to.deep.equal([]);
    const plan = engine.planResourceChange(
      'fake_labelled',
      null,
      wire(proposedNew(schema.block, null, config) as ObjectValue),
      config,
      {},
    );
    expect(plan.diags.items).to.deep.equal([]);
    expectEntries(plan.planned!.labels, LABELS);
    expect(plan.planned!.echoed).to.equal(UNKNOWN);
    const applied = await engine.applyResourceChange(
      'fake_labelled',
      null,
      wire(plan.planned),
      plan.plannedPrivate,
      config,
    );
    expect(applied.diags.items).to.deep.equal([]);
    const state = wire(applied.state)!;
    expectEntries(platform.get('t-1')!.labels, LABELS);
    expectEntries(platform.get('t-1')!.tags[0], [['__proto__', 'r']]);
    expectEntries(state.labels, LABELS);
    expectEntries(state.echoed, LABELS);
    expectEntries((state.rule as ObjectValue[])[0]!.tags, [['__proto__', 'r']]);

    const read = await engine.readResource('fake_labelled', state, {});
    expect(read.state).to.deep.equal(state);
    const imported = await engine.importResourceState('fake_labelled', 't-1');
    const refreshed = await engine.readResource('fake_labelled', wire(imported.state)!, imported.private);
    expectEntries(refreshed.state!.labels, LABELS);
    for (const prior of [state, wire(refreshed.state)!]) {
      const again = engine.planResourceChange(
        'fake_labelled',
        prior,
        wire(proposedNew(schema.block, prior, config) as ObjectValue),
        config,
        {},
      );
      expect(again.diags.items).to.deep.equal([]);
      expect(again.planned).to.deep.equal(prior);
    }

    // Without the __proto__ entry it is a change: the key is seen, not skipped.
    const fewer = wire({ ...config, labels: entries(LABELS.slice(1)) })!;
    const changed = engine.planResourceChange(
      'fake_labelled',
      state,
      wire(proposedNew(schema.block, state, fewer) as ObjectValue),
      fewer,
      {},
    );
    expectEntries(changed.planned!.labels, LABELS.slice(1));
  });
});
