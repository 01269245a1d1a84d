/**
 * Keys from outside are data, whatever they are called. An assignment `o[key] = v` loses a
 * `__proto__` entry (it sets the prototype), zod's record leaves it out, and `key in o` finds
 * `constructor` or `toString` in any object. The tables below hold each place that builds an object
 * from keys that come from Terraform or from a platform to keeping every entry: Terraform's values
 * and types (codecs, model, engine), and the platforms' data (the sec client's maps and account
 * mappings, the vdb client's and emulator's Structs, the emulators' store and body checks, the
 * operator settings' YAML). Then a map keeps every entry through the engine's whole lifecycle
 * (validate, plan, apply, read, import, re-plan), each value crossing the msgpack codec as it does
 * between Terraform and the provider. The same through the real executables and emulators:
 * test/resources/vdb/hybrid.test.ts (operator settings, storage-class parameters) and
 * test/resources/sec/governance.test.ts (resource-group filters). A constant table (an UPPER_CASE
 * object) is looked up by a key from outside only through packages/framework/src/wire/own-entry.ts, never as
 * `TABLE[key]` or `key in TABLE`, which find `constructor` and its kin (test/invariants/table-keys.test.ts).
 */
import { expect } from 'chai';
import { attr, block, resourceSchema, t } from '../../packages/framework/src/schema/define.js';
import { provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import { decodeMsgpack, encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { decodeJSON, encodeJSON } from '../../packages/framework/src/schema/json.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import {
  type CtyType,
  STRING,
  mapOf,
  objectOf,
  typeEquals,
  typeFromJSON,
  typeToJSONString,
} from '../../packages/framework/src/schema/cty-type.js';
import { plainToValue, valueToExactPlain, valueToPlain } from '../../packages/framework/src/schema/model.js';
import { setEntry } from '../../packages/framework/src/schema/entries.js';
import { UNKNOWN, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';
import { z } from 'zod';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { keyedRecord } from '../../src/clients/sec/wire.js';
import { decodeAccountMappings, encodeAccountMappings } from '../../src/clients/sec/account-mappings.js';
import { decodePlain, encodePlain } from '../../src/clients/vdb/codec.js';
import { vdbProtoRoot } from '../../src/wire/vdb-proto.js';
import { decodeMessage, encodeMessage } from '../../src/emulators/vdb/wire-codec.js';
import { MemoryStore, field, maskSecrets, validate } from '../../src/emulators/core/index.js';
import { parseSettings } from '../../src/resources/vdb/operator-settings.js';
import { quietLogger } from '../support/quiet-logger.js';

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

  describe("the platforms' data", () => {
    /** As the platforms send it: JSON, whose parser keeps `__proto__` as an entry. */
    const ANSWER = '{"__proto__":{"x":1},"constructor":"c","":"e","toString":["t"]}';
    const pairs = Object.entries(JSON.parse(ANSWER) as Record<string, unknown>);

    it('sec client: a map read with keyedRecord, its issues at their keys', () => {
      expectEntries(keyedRecord(z.unknown()).parse(JSON.parse(ANSWER)), pairs);
      const strings = keyedRecord(z.string()).safeParse(JSON.parse('{"__proto__":1,"ok":"x"}'));
      expect(strings.success).to.equal(false);
      expect(strings.error!.issues.map((i) => i.path)).to.deep.equal([['__proto__']]);
      expect(keyedRecord(z.string()).safeParse([]).success).to.equal(false);
    });

    it("sec client: no map is read with zod's own record, which drops __proto__", () => {
      const dir = join(process.cwd(), 'src', 'clients', 'sec');
      const users = readdirSync(dir).filter((f) => /\bz\s*\.\s*record\s*\(/.test(readFileSync(join(dir, f), 'utf8')));
      expect(users).to.deep.equal([]);
    });

    it('sec client: the organisation account-mapping document', () => {
      const mappings = entries<readonly string[]>([
        ['__proto__', ['1']],
        ['constructor', ['2']],
      ]);
      const back = decodeAccountMappings(encodeAccountMappings({ defaultPlatformAccount: 'd', mappings }))!;
      expectEntries(back.mappings, [
        ['__proto__', ['1']],
        ['constructor', ['2']],
      ]);
    });

    it("vdb client and emulator: a Struct through both sides' protobuf codecs, there and back", () => {
      const root = vdbProtoRoot();
      const request = root.lookupType('vdb.cloud.hybrid.v1.CreateHybridCloudEnvironmentRequest');
      const answer = root.lookupType('vdb.cloud.hybrid.v1.CreateHybridCloudEnvironmentResponse');
      const settings = JSON.parse(`{"top":${ANSWER},"__proto__":[${ANSWER}]}`);
      const environment = {
        accountId: 'a',
        name: 'n',
        configuration: { namespace: 'ns', advancedOperatorSettings: settings },
      };
      const received = decodeMessage(request, encodePlain(request, { hybridCloudEnvironment: environment }));
      const held = (received.hybridCloudEnvironment as { configuration: { advancedOperatorSettings: object } })
        .configuration.advancedOperatorSettings;
      expect(JSON.stringify(held)).to.equal(JSON.stringify(settings));
      const back = decodePlain(answer, encodeMessage(answer, received));
      const read = (back.hybridCloudEnvironment as { configuration: { advancedOperatorSettings: object } })
        .configuration.advancedOperatorSettings;
      expect(JSON.stringify(read)).to.equal(JSON.stringify(settings));
      expectEntries((read as Record<string, unknown>).top, pairs);
    });

    it('emulators: the store keeps every entry', () => {
      const store = new MemoryStore();
      store.put('c', 'id', JSON.parse(ANSWER));
      expectEntries(store.get('c', 'id'), pairs);
      expectEntries(store.list('c')[0], pairs);
    });

    it("emulators' body checks: a field named like an Object member is unknown; masking keeps every key", () => {
      const spec = field.object({ name: field.string(), secret: field.string({ secret: true }) });
      for (const name of ['constructor', 'toString', '__proto__']) {
        expect(() => validate(spec, JSON.parse(`{"name":"x","${name}":"y"}`), 'body'), name).to.throw(
          /is not a recognised field/,
        );
      }
      const masked = maskSecrets(spec, JSON.parse('{"name":"x","secret":"s","__proto__":"p","constructor":"c"}'));
      expectEntries(masked, [
        ['name', 'x'],
        ['secret', ''],
        ['__proto__', 'p'],
        ['constructor', 'c'],
      ]);
    });

    it('vdb: the operator settings read from YAML', () => {
      expectEntries(parseSettings('__proto__: {x: 1}\nconstructor: c\n"": e\ntoString: [t]\n'), pairs);
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
      quietLogger,
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
