/**
 * Golden vectors from go-cty 1.12 (the ctyVectors fixture, test/fixtures/conformance): every vector is
 * encoded and compared byte for byte, decoded and compared semantically and structurally, and — where the
 * value is wholly known — checked against its JSON form.
 */
import { expect } from 'chai';
import {
  BOOL,
  DYNAMIC,
  NUMBER,
  STRING,
  listOf,
  mapOf,
  objectOf,
  setOf,
  tupleOf,
  type CtyType,
  typeFromJSON,
} from '../../packages/framework/src/schema/cty-type.js';
import type { AttributePath } from '../../packages/framework/src/schema/path.js';
import { Decimal, DynamicValue, Unknown, UNKNOWN, type Value } from '../../packages/framework/src/schema/value.js';
import { parseNumber } from '../../packages/framework/src/schema/number.js';
import { decodeMsgpack, encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import {
  decodeJSON,
  encodeJSON,
  JSONNumberText,
  JSONObjectNode,
  parseJSONText,
  type JSONNode,
} from '../../packages/framework/src/schema/json.js';
import {
  conformanceError,
  containsUnknown,
  formatValue,
  isWhollyKnown,
  normalizeSet,
  valueEquals,
} from '../../packages/framework/src/schema/value-ops.js';
import { loadAtDeclaration } from '../support/fixtures.js';

interface Vector {
  name: string;
  type: CtyType;
  value: Value;
  msgpack: string;
  /** The `json` member re-serialized with its numbers exactly as written, if the vector has one. */
  jsonText?: string;
}

/** Reads the vectors with our precision-preserving parser: `json` numbers such as 1e100 must stay exact. */
function parseVectors(text: string): Vector[] {
  const root = parseJSONText(text);
  if (!Array.isArray(root)) throw new Error('vectors file must hold an array');
  return root.map((node) => {
    const entry = membersOf(node);
    const type = typeFromJSON(plain(entry.get('type')!));
    const json = entry.get('json');
    return {
      name: plain(entry.get('name')!) as string,
      type,
      value: neutralToValue(type, plain(entry.get('value')!) as Neutral),
      msgpack: plain(entry.get('msgpack')!) as string,
      ...(json !== undefined ? { jsonText: jsonTextOf(json) } : {}),
    };
  });
}

function membersOf(node: JSONNode): Map<string, JSONNode> {
  if (!(node instanceof JSONObjectNode)) throw new Error('vector must be an object');
  return new Map(node.members.map(([k, v]) => [k, v]));
}

function plain(node: JSONNode): unknown {
  if (node instanceof JSONNumberText) return Number(node.text);
  if (Array.isArray(node)) return node.map(plain);
  if (node instanceof JSONObjectNode) return Object.fromEntries(node.members.map(([k, v]) => [k, plain(v)]));
  return node;
}

function jsonTextOf(node: JSONNode): string {
  if (node instanceof JSONNumberText) return node.text;
  if (Array.isArray(node)) return `[${node.map(jsonTextOf).join(',')}]`;
  if (node instanceof JSONObjectNode)
    return `{${node.members.map(([k, v]) => `${JSON.stringify(k)}:${jsonTextOf(v)}`).join(',')}}`;
  return JSON.stringify(node);
}

type Neutral = { [kind: string]: unknown };

/** The vectors' language-neutral value description → our Value representation. */
function neutralToValue(type: CtyType, d: Neutral): Value {
  if (d.null === true) return null;
  if (d.unknown === true) return UNKNOWN;
  if ('dynamic' in d) {
    const concrete = typeFromJSON(d.dynamic);
    return new DynamicValue(concrete, neutralToValue(concrete, d.value as Neutral));
  }
  switch (type.kind) {
    case 'string':
      return d.string as string;
    case 'number':
      return parseNumber(d.number as string);
    case 'bool':
      return d.bool as boolean;
    case 'list':
      return (d.list as Neutral[]).map((e) => neutralToValue(type.element, e));
    case 'set':
      return (d.set as Neutral[]).map((e) => neutralToValue(type.element, e));
    case 'tuple':
      return (d.tuple as Neutral[]).map((e, i) => neutralToValue(type.elements[i]!, e));
    case 'map':
      return Object.fromEntries(
        Object.entries(d.map as Record<string, Neutral>).map(([k, e]) => [k, neutralToValue(type.element, e)]),
      );
    case 'object':
      return Object.fromEntries(
        Object.entries(d.object as Record<string, Neutral>).map(([k, e]) => [
          k,
          neutralToValue(type.attributes[k]!, e),
        ]),
      );
    case 'dynamic':
      throw new Error('a value at a dynamic position must name its type');
  }
}

/** Puts every set in canonical order so that structural (deep) comparison is meaningful. */
function canonical(type: CtyType, v: Value): Value {
  if (
    v === null ||
    !(Array.isArray(v) || (typeof v === 'object' && v.constructor === Object) || v instanceof DynamicValue)
  )
    return v;
  switch (type.kind) {
    case 'dynamic':
      return v instanceof DynamicValue ? new DynamicValue(v.type, canonical(v.type, v.value)) : v;
    case 'list':
      return (v as Value[]).map((e) => canonical(type.element, e));
    case 'set':
      return normalizeSet(
        type.element,
        (v as Value[]).map((e) => canonical(type.element, e)),
      );
    case 'tuple':
      return (v as Value[]).map((e, i) => canonical(type.elements[i]!, e));
    case 'map':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, canonical(type.element, e as Value)]));
    case 'object':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, canonical(type.attributes[k]!, e as Value)]));
    default:
      return v;
  }
}

/** Every set reversed (recursively): the encoder must still produce the canonical bytes. */
function reverseSets(type: CtyType, v: Value): Value {
  if (
    v === null ||
    !(Array.isArray(v) || (typeof v === 'object' && v.constructor === Object) || v instanceof DynamicValue)
  )
    return v;
  switch (type.kind) {
    case 'dynamic':
      return v instanceof DynamicValue ? new DynamicValue(v.type, reverseSets(v.type, v.value)) : v;
    case 'list':
      return (v as Value[]).map((e) => reverseSets(type.element, e));
    case 'set':
      return (v as Value[]).map((e) => reverseSets(type.element, e)).reverse();
    case 'tuple':
      return (v as Value[]).map((e, i) => reverseSets(type.elements[i]!, e));
    case 'map':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, reverseSets(type.element, e as Value)]));
    case 'object':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, reverseSets(type.attributes[k]!, e as Value)]));
    default:
      return v;
  }
}

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const containsSet = (t: CtyType): boolean =>
  t.kind === 'set' ||
  ((t.kind === 'list' || t.kind === 'map') && containsSet(t.element)) ||
  (t.kind === 'tuple' && t.elements.some(containsSet)) ||
  (t.kind === 'object' && Object.values(t.attributes).some(containsSet));

describe('conformance vectors (go-cty msgpack and json)', () => {
  const loaded = loadAtDeclaration('ctyVectors', parseVectors);
  const vectors = loaded.value ?? [];
  before(() => {
    if (loaded.error) throw loaded.error;
  });

  it('loads a non-trivial number of vectors', () => {
    expect(vectors.length).to.be.greaterThan(50);
  });

  for (const v of vectors) {
    describe(v.name, () => {
      it('encodes to the exact golden bytes', () => {
        expect(hexOf(encodeMsgpack(v.type, v.value))).to.equal(v.msgpack);
      });

      if (containsSet(v.type)) {
        it('encodes sets in canonical order whatever order they are given in', () => {
          expect(hexOf(encodeMsgpack(v.type, reverseSets(v.type, v.value)))).to.equal(v.msgpack);
        });
      }

      it('decodes the golden bytes to the value', () => {
        const decoded = decodeMsgpack(v.type, Buffer.from(v.msgpack, 'hex'));
        expect(valueEquals(v.type, decoded, v.value), 'valueEquals').to.equal(true);
        expect(canonical(v.type, decoded)).to.deep.equal(canonical(v.type, v.value));
      });

      if (v.jsonText !== undefined && isWhollyKnown(v.type, v.value)) {
        it('decodes the JSON form to the value', () => {
          const decoded = decodeJSON(v.type, v.jsonText!);
          expect(valueEquals(v.type, decoded, v.value), 'valueEquals').to.equal(true);
          expect(canonical(v.type, decoded)).to.deep.equal(canonical(v.type, v.value));
        });

        it('round-trips through encodeJSON', () => {
          const text = encodeJSON(v.type, v.value);
          expect(valueEquals(v.type, decodeJSON(v.type, text), v.value)).to.equal(true);
          expect(valueEquals(v.type, decodeJSON(v.type, text), decodeJSON(v.type, v.jsonText!))).to.equal(true);
        });
      }
    });
  }
});

describe('value operations used for conformance checks (value-ops.ts)', () => {
  const OBJ = objectOf({
    id: STRING,
    n: NUMBER,
    tags: mapOf(STRING),
    rules: listOf(objectOf({ port: NUMBER })),
    s: setOf(STRING),
    d: DYNAMIC,
  });
  const good: Value = {
    id: 'x',
    n: 1,
    tags: { a: 'b' },
    rules: [{ port: 80 }],
    s: ['a', 'b'],
    d: new DynamicValue(STRING, 'v'),
  };

  describe('valueEquals', () => {
    it('numbers by value, sets ignoring order, maps/objects by key, dynamic by type and value', () => {
      expect(valueEquals(NUMBER, 0.1, new Decimal('0.1'))).to.equal(true);
      expect(valueEquals(setOf(STRING), ['a', 'b'], ['b', 'a'])).to.equal(true);
      expect(valueEquals(setOf(STRING), ['a', 'b'], ['a', 'c'])).to.equal(false);
      expect(
        valueEquals(setOf(objectOf({ n: NUMBER })), [{ n: 1 }, { n: 0.1 }], [{ n: new Decimal('0.1') }, { n: 1 }]),
      ).to.equal(true);
      expect(valueEquals(mapOf(STRING), { a: 'x', b: 'y' }, { b: 'y', a: 'x' })).to.equal(true);
      expect(valueEquals(mapOf(STRING), { a: 'x' }, { a: 'x', b: 'y' })).to.equal(false);
      expect(valueEquals(OBJ, good, { ...(good as object), rules: [{ port: 81 }] } as Value)).to.equal(false);
      expect(valueEquals(DYNAMIC, new DynamicValue(STRING, '1'), new DynamicValue(NUMBER, 1))).to.equal(false);
      expect(
        valueEquals(DYNAMIC, new DynamicValue(listOf(STRING), ['a']), new DynamicValue(listOf(STRING), ['a'])),
      ).to.equal(true);
    });

    it('unknown equals only unknown (refinements ignored); null equals only null', () => {
      expect(valueEquals(STRING, UNKNOWN, new Unknown({ notNull: true }))).to.equal(true);
      expect(valueEquals(STRING, UNKNOWN, 'a')).to.equal(false);
      expect(valueEquals(STRING, UNKNOWN, null)).to.equal(false);
      expect(valueEquals(STRING, null, '')).to.equal(false);
      expect(valueEquals(listOf(STRING), null, [])).to.equal(false);
      expect(
        valueEquals(DYNAMIC, null, new DynamicValue(STRING, null)),
        'cty: nulls are equal regardless of type',
      ).to.equal(true);
      expect(valueEquals(DYNAMIC, UNKNOWN, new DynamicValue(STRING, UNKNOWN))).to.equal(true);
    });
  });

  describe('isWhollyKnown', () => {
    it('finds unknowns at any depth, including inside dynamic values', () => {
      expect(isWhollyKnown(OBJ, good)).to.equal(true);
      expect(isWhollyKnown(OBJ, { ...(good as object), rules: [{ port: UNKNOWN }] } as Value)).to.equal(false);
      expect(
        isWhollyKnown(OBJ, { ...(good as object), d: new DynamicValue(listOf(STRING), ['a', UNKNOWN]) } as Value),
      ).to.equal(false);
      expect(isWhollyKnown(OBJ, null)).to.equal(true);
      expect(containsUnknown(STRING, UNKNOWN)).to.equal(true);
    });
  });

  describe('conformanceError', () => {
    it('accepts conforming values, nulls and unknowns anywhere', () => {
      expect(conformanceError(OBJ, good)).to.equal(null);
      expect(conformanceError(OBJ, { id: null, n: UNKNOWN, tags: null, rules: [], s: UNKNOWN, d: null })).to.equal(
        null,
      );
    });

    const problems: Array<[string, CtyType, Value, AttributePath, RegExp]> = [
      ['missing attribute', OBJ, { id: 'x' }, [], /attribute "d" is required/],
      ['extra attribute', objectOf({ a: STRING }), { a: 'x', b: 'y' }, [], /unsupported attribute "b"/],
      [
        'wrong kind in a list element',
        OBJ,
        { ...(good as object), rules: [{ port: 80 }, { port: '81' }] } as Value,
        [{ attr: 'rules' }, { index: 1 }, { attr: 'port' }],
        /number is required/,
      ],
      ['wrong kind in a map', mapOf(BOOL), { k: 'true' }, [{ key: 'k' }], /bool is required/],
      ['tuple length', tupleOf([STRING]), ['a', 'b'], [], /a tuple of length 1 is required/],
      ['set duplicates', setOf(NUMBER), [1, new Decimal('1')], [], /duplicate element/],
      ['non-canonical Decimal', NUMBER, new Decimal('1.50'), [], /not canonical/],
      ['NaN', NUMBER, NaN, [], /NaN/],
      ['unpaired surrogate', STRING, 'a\ud800', [], /surrogate/],
      ['bare value at a dynamic position', DYNAMIC, 'x', [], /DynamicValue/],
      ['refinement that does not fit', NUMBER, new Unknown({ stringPrefix: 'a' }), [], /string prefix/],
      ['array for an object', objectOf({}), [], [], /an object is required/],
    ];
    for (const [name, type, value, path, message] of problems) {
      it(`reports ${name}`, () => {
        const err = conformanceError(type, value);
        expect(err, 'a problem').not.to.equal(null);
        expect(err!.message).to.match(message);
        expect(err!.path).to.deep.equal(path);
      });
    }
  });

  describe('normalizeSet', () => {
    it('dedupes wholly known elements and orders like go-cty', () => {
      expect(normalizeSet(NUMBER, [3, new Decimal('0.1'), 0.1, -1, 3])).to.deep.equal([-1, new Decimal('0.1'), 3]);
      expect(normalizeSet(STRING, [UNKNOWN, 'b', null, UNKNOWN, 'a'])).to.deep.equal([
        'a',
        'b',
        UNKNOWN,
        UNKNOWN,
        null,
      ]);
      expect(normalizeSet(DYNAMIC, [new DynamicValue(STRING, 'b'), new DynamicValue(STRING, 'a')])).to.deep.equal([
        new DynamicValue(STRING, 'a'),
        new DynamicValue(STRING, 'b'),
      ]);
    });
  });

  describe('formatValue', () => {
    const cases: Array<[CtyType, Value, string]> = [
      [STRING, 'abc', '"abc"'],
      [NUMBER, 42, '42'],
      [NUMBER, new Decimal('0.1'), '0.1'],
      [BOOL, true, 'true'],
      [STRING, null, 'null'],
      [STRING, UNKNOWN, '(known after apply)'],
      [listOf(STRING), ['a', 'b'], '["a", "b"]'],
      [objectOf({ x: NUMBER, y: STRING }), { y: 'q', x: 1 }, '{ x = 1, y = "q" }'],
      [mapOf(STRING), { k: 'v' }, '{ "k" = "v" }'],
      [mapOf(STRING), {}, '{}'],
      [listOf(STRING), [], '[]'],
      [DYNAMIC, new DynamicValue(listOf(NUMBER), [1, 2]), '[1, 2]'],
    ];
    for (const [type, value, text] of cases) {
      it(`renders ${text}`, () => {
        expect(formatValue(type, value)).to.equal(text);
      });
    }

    it('truncates long renderings at about 200 characters', () => {
      const long = formatValue(
        listOf(NUMBER),
        Array.from({ length: 100000 }, (_, i) => i),
      );
      expect(long.length).to.be.lessThan(210);
      expect(long.endsWith('…')).to.equal(true);
      expect(formatValue(STRING, 'x'.repeat(5000)).length).to.be.lessThan(210);
    });
  });
});
