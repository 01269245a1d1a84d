import { expect } from 'chai';
import fc from 'fast-check';
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
} from '../../packages/framework/src/schema/cty-type.js';
import { Decimal, DynamicValue, Unknown, UNKNOWN, type Value } from '../../packages/framework/src/schema/value.js';
import {
  decodeJSON,
  encodeJSON,
  JSONNumberText,
  JSONObjectNode,
  parseJSONText,
  parseJSONTextExactly,
} from '../../packages/framework/src/schema/json.js';
import { MAX_VALUE_DEPTH, ValueDecodeError } from '../../packages/framework/src/schema/msgpack.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';

function decodeError(t: CtyType, text: string | Uint8Array, opts = {}): ValueDecodeError {
  try {
    decodeJSON(t, text, opts);
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(ValueDecodeError);
    return e as ValueDecodeError;
  }
  throw new Error('expected a ValueDecodeError, but decoding succeeded');
}

describe('json.ts', () => {
  describe('numbers keep full precision', () => {
    const cases: Array<[string, Value]> = [
      ['18446744073709551617', new Decimal('18446744073709551617')],
      ['9007199254740993', new Decimal('9007199254740993')],
      ['0.1', new Decimal('0.1')],
      ['0.25', 0.25],
      ['-1.5e3', -1500],
      ['1E400', new Decimal(`1${'0'.repeat(400)}`)],
      ['123456789012345678901234567890.5', new Decimal('123456789012345678901234567890.5')],
      ['"12"', 12],
      ['"0.1"', new Decimal('0.1')],
    ];
    for (const [text, value] of cases) {
      it(`${text.slice(0, 30)} → ${String(value).slice(0, 30)}`, () => {
        expect(decodeJSON(NUMBER, text)).to.deep.equal(value);
      });
    }

    it('rejects absurd exponents and non-numbers with "number is required"', () => {
      expect(decodeError(NUMBER, '1e99999').message).to.match(/^number is required/);
      expect(decodeError(NUMBER, '"abc"').message).to.match(/^number is required/);
      expect(decodeError(NUMBER, 'true').message).to.equal('number is required');
      expect(decodeError(NUMBER, '[1]').message).to.equal('number is required');
    });
  });

  describe('strings and bools (cty json conversions)', () => {
    it('decodes escapes, surrogate pairs and normalizes to NFC', () => {
      expect(decodeJSON(STRING, '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t"')).to.equal('a"b\\c/d\b\f\n\r\t');
      expect(decodeJSON(STRING, '"\\ud83d\\ude00 \\u2603"')).to.equal('\u{1F600} \u2603');
      expect(decodeJSON(STRING, '"e\\u0301"')).to.equal('\u00e9');
      expect(decodeJSON(STRING, '"e\u0301"')).to.equal('\u00e9');
      expect(decodeJSON(STRING, '"\\ud800x"'), 'lone surrogate → U+FFFD as in Go').to.equal('\ufffdx');
    });

    it('accepts a number (as written) or a bool in string position, as cty does', () => {
      expect(decodeJSON(STRING, '1.50')).to.equal('1.50');
      expect(decodeJSON(STRING, 'true')).to.equal('true');
      expect(decodeError(STRING, '{}').message).to.equal('string is required');
    });

    it('accepts "true"/"1"/"false"/"0" in bool position and nothing else', () => {
      expect(decodeJSON(BOOL, 'true')).to.equal(true);
      expect(decodeJSON(BOOL, '"1"')).to.equal(true);
      expect(decodeJSON(BOOL, '"false"')).to.equal(false);
      expect(decodeJSON(BOOL, '"0"')).to.equal(false);
      expect(decodeError(BOOL, '"TRUE"').message).to.equal('bool is required');
      expect(decodeError(BOOL, '1').message).to.equal('bool is required');
    });
  });

  describe('objects and RawState options', () => {
    const T = objectOf({ a: STRING, b: NUMBER, nested: listOf(objectOf({ port: NUMBER })) });

    it('decodes pretty-printed state JSON', () => {
      const text = '{\n  "a": "x",\n  "b": 2,\n  "nested": [\n    { "port": 80 }\n  ]\n}\n';
      expect(decodeJSON(T, text)).to.deep.equal({ a: 'x', b: 2, nested: [{ port: 80 }] });
      expect(decodeJSON(T, Buffer.from(text))).to.deep.equal({ a: 'x', b: 2, nested: [{ port: 80 }] });
    });

    it('missing attributes are errors unless missingAttributesAreNull', () => {
      const err = decodeError(T, '{"a":"x","nested":[]}');
      expect(err.message).to.equal('attribute "b" is required');
      expect(err.path).to.deep.equal([]);
      expect(decodeJSON(T, '{"a":"x","nested":[]}', { missingAttributesAreNull: true })).to.deep.equal({
        a: 'x',
        b: null,
        nested: [],
      });
    });

    it('unknown attributes are errors unless dropUnknownAttributes', () => {
      const text = '{"a":"x","b":1,"nested":[{"port":1,"old":true}],"legacy":"y"}';
      const err = decodeError(T, text);
      expect(err.message).to.equal('unsupported attribute "old"');
      expect(err.path).to.deep.equal([{ attr: 'nested' }, { index: 0 }]);
      expect(decodeJSON(T, text, { dropUnknownAttributes: true })).to.deep.equal({
        a: 'x',
        b: 1,
        nested: [{ port: 1 }],
      });
    });

    it('reports paths of nested failures', () => {
      const err = decodeError(T, '{"a":"x","b":1,"nested":[{"port":1},{"port":"eighty"}]}');
      expect(err.message).to.match(/^number is required/);
      expect(err.path).to.deep.equal([{ attr: 'nested' }, { index: 1 }, { attr: 'port' }]);
      const inMap = decodeError(mapOf(BOOL), '{"k":"maybe"}');
      expect(inMap.path).to.deep.equal([{ key: 'k' }]);
    });

    it('does not let "__proto__" keys touch prototypes', () => {
      const m = decodeJSON(mapOf(STRING), '{"__proto__":"x","toString":"y"}') as Record<string, Value>;
      expect(Object.getPrototypeOf(m)).to.equal(Object.prototype);
      expect(Object.keys(m)).to.deep.equal(['__proto__', 'toString']);
      expect(decodeError(objectOf({ a: STRING }), '{"a":"x","toString":"y"}').message).to.equal(
        'unsupported attribute "toString"',
      );
      expect(encodeJSON(mapOf(STRING), m)).to.equal('{"__proto__":"x","toString":"y"}');
    });

    it('collections and tuples', () => {
      expect(decodeJSON(setOf(STRING), '["b","a","b"]')).to.deep.equal(['b', 'a']);
      expect(decodeJSON(tupleOf([STRING, NUMBER]), '["a",1]')).to.deep.equal(['a', 1]);
      expect(decodeError(tupleOf([STRING, NUMBER]), '["a"]').message).to.equal('not enough tuple elements (need 2)');
      expect(decodeError(tupleOf([STRING]), '["a",1]').message).to.equal('too many tuple elements (need 1)');
      expect(decodeError(listOf(STRING), '{}').message).to.equal('a list is required');
      expect(decodeError(mapOf(STRING), '[]').message).to.equal('a map is required');
      expect(decodeError(T, '[]').message).to.equal('an object is required');
      expect(decodeJSON(listOf(STRING), 'null')).to.equal(null);
    });
  });

  describe('dynamic values', () => {
    it('{"value":…,"type":…} in either order; typed null; untyped null', () => {
      expect(decodeJSON(DYNAMIC, '{"type":"string","value":"x"}')).to.deep.equal(new DynamicValue(STRING, 'x'));
      expect(decodeJSON(DYNAMIC, '{"value":[1,2],"type":["list","number"]}')).to.deep.equal(
        new DynamicValue(listOf(NUMBER), [1, 2]),
      );
      expect(decodeJSON(DYNAMIC, '{"value":null,"type":"bool"}')).to.deep.equal(new DynamicValue(BOOL, null));
      expect(decodeJSON(DYNAMIC, 'null')).to.equal(null);
    });

    it('rejects malformed dynamic values', () => {
      expect(decodeError(DYNAMIC, '{"value":"x"}').message).to.equal('missing type in dynamically-typed value');
      expect(decodeError(DYNAMIC, '{"type":"string"}').message).to.equal('missing value in dynamically-typed value');
      expect(decodeError(DYNAMIC, '{"type":"string","value":"x","extra":1}').message).to.equal(
        'invalid key "extra" in dynamically-typed value',
      );
      expect(decodeError(DYNAMIC, '{"type":"strng","value":"x"}').message).to.match(
        /^failed to decode type for dynamic value/,
      );
      expect(decodeError(DYNAMIC, '"x"').message).to.match(/dynamic value must be/);
    });

    it('encodes as {"value":…,"type":…}', () => {
      expect(encodeJSON(DYNAMIC, new DynamicValue(mapOf(STRING), { k: 'v' }))).to.equal(
        '{"value":{"k":"v"},"type":["map","string"]}',
      );
      expect(encodeJSON(DYNAMIC, null)).to.equal('null');
      expect(encodeJSON(objectOf({ d: DYNAMIC }), { d: new DynamicValue(NUMBER, null) })).to.equal(
        '{"d":{"value":null,"type":"number"}}',
      );
    });
  });

  describe('encodeJSON', () => {
    it('writes numbers as plain decimal text', () => {
      expect(
        encodeJSON(listOf(NUMBER), [1e21, -0, 0.1, 1.5e-7, 2 ** 64, new Decimal('18446744073709551617')]),
      ).to.equal('[1000000000000000000000,0,0.1,0.00000015,18446744073709551616,18446744073709551617]');
    });

    it('sorts keys bytewise and sets canonically', () => {
      expect(encodeJSON(mapOf(NUMBER), { b: 1, a: 2, '\u{1F600}': 3, '\ufffd': 4 })).to.equal(
        '{"a":2,"b":1,"\ufffd":4,"\u{1F600}":3}',
      );
      expect(encodeJSON(setOf(STRING), ['z', 'a'])).to.equal('["a","z"]');
      expect(encodeJSON(objectOf({ z: BOOL, a: STRING }), { z: true, a: 'q"' })).to.equal('{"a":"q\\"","z":true}');
    });

    it('refuses unknowns, infinities and non-conforming values', () => {
      expect(() => encodeJSON(STRING, UNKNOWN)).to.throw(TypeError, /unknown/);
      expect(() => encodeJSON(listOf(STRING), ['a', new Unknown({ notNull: true })])).to.throw(TypeError, /unknown/);
      expect(() => encodeJSON(DYNAMIC, new DynamicValue(STRING, UNKNOWN))).to.throw(TypeError, /unknown/);
      expect(() => encodeJSON(NUMBER, Infinity)).to.throw(TypeError);
      expect(() => encodeJSON(objectOf({ a: STRING }), {})).to.throw(TypeError, /attribute "a" is required/);
    });

    it('round-trips a mixed value', () => {
      const t = objectOf({ s: setOf(objectOf({ k: STRING, n: NUMBER })), d: DYNAMIC, m: mapOf(listOf(BOOL)) });
      const v: Value = {
        s: [
          { k: 'b', n: new Decimal('0.1') },
          { k: 'a', n: 2 ** 53 + 2 },
        ],
        d: new DynamicValue(tupleOf([STRING, NUMBER]), ['x', 1]),
        m: { q: [true, false] },
      };
      expect(valueEquals(t, decodeJSON(t, encodeJSON(t, v)), v)).to.equal(true);
    });
  });

  describe('strict, bounded parsing', () => {
    const bad = [
      '',
      ' ',
      '01',
      '-',
      '1.',
      '.5',
      '+1',
      'NaN',
      'Infinity',
      'tru',
      'nul',
      '"abc',
      '"a\u0001"',
      '"\\x41"',
      '"\\u12G4"',
      '[1,]',
      '[1 2]',
      '{"a":1,}',
      '{"a" 1}',
      '{a:1}',
      "'a'",
      '1 2',
      '\ufeff1',
      '[',
      '{"a":[}',
    ];
    for (const text of bad) {
      it(`rejects ${JSON.stringify(text)}`, () => {
        for (const t of [NUMBER, STRING, DYNAMIC]) expect(decodeError(t, text).message).to.match(/^invalid JSON/);
      });
    }

    it('rejects invalid UTF-8 bytes', () => {
      expect(decodeError(STRING, Uint8Array.from([0x22, 0xc3, 0x28, 0x22])).message).to.equal(
        'JSON text is not valid UTF-8',
      );
    });

    it(`bounds nesting at ${MAX_VALUE_DEPTH} without stack overflows`, () => {
      expect(decodeError(NUMBER, '['.repeat(100000)).message).to.match(/maximum depth/);
      expect(decodeError(NUMBER, '{"a":'.repeat(100000)).message).to.match(/maximum depth/);
      let deep: CtyType = NUMBER;
      for (let i = 0; i < MAX_VALUE_DEPTH; i++) deep = listOf(deep);
      expect(decodeJSON(deep, `${'['.repeat(MAX_VALUE_DEPTH)}1${']'.repeat(MAX_VALUE_DEPTH)}`)).to.be.an('array');
    });

    it('reads through JSON.parse only what it reads exactly as the tokenizer does', () => {
      // Arbitrary documents, and documents whose numbers JSON.parse could round or sign.
      const awkwardNumber = fc.constantFrom('0.1', '1e5', '-0', '12345678901234567890', '1.0', '2E-3', '-0.0');
      const withAwkwardNumbers = fc
        .tuple(fc.json(), awkwardNumber)
        .map(([doc, n]) => `{"x": [${doc}, ${n}], "t": "09:12:30.506Z"}`);
      fc.assert(
        fc.property(fc.oneof(fc.json(), fc.json({ noUnicodeString: false }), withAwkwardNumbers), (text) => {
          expect(parseJSONText(text)).to.deep.equal(parseJSONTextExactly(text));
        }),
        { numRuns: 500 },
      );
      // Each reason to leave JSON.parse aside, with the value the tokenizer gives.
      const cases: [string, unknown][] = [
        ['{"s":"\\ud800"}', ['s', '\ufffd']],
        ['{"2":1,"1":2}', ['2', '1']],
        ['{"n":123456789012345678}', ['n', '123456789012345678']],
        ['{"n":-0}', ['n', '-0']],
        ['{"n":1.10}', ['n', '1.10']],
      ];
      for (const [text, [key, expected]] of cases as [string, [string, string]][]) {
        const tree = parseJSONText(text) as JSONObjectNode;
        expect(tree.members[0]![0], text).to.equal(key);
        const first = tree.members[0]![1];
        expect(first instanceof JSONNumberText ? first.text : first, text).to.equal(expected);
      }
      expect(decodeJSON(objectOf({ s: STRING }), '{"s":"\\ud800"}')).to.deep.equal({ s: '\ufffd' });
    });

    it('parseJSONText keeps number text and duplicate members', () => {
      const tree = parseJSONText('{"n": 1.10, "n": 2e5, "a": [true, null, "s"]}');
      expect(tree).to.be.instanceOf(JSONObjectNode);
      const members = (tree as JSONObjectNode).members;
      expect(members.map(([k]) => k)).to.deep.equal(['n', 'n', 'a']);
      expect(members[0]![1]).to.deep.equal(new JSONNumberText('1.10'));
      expect(members[2]![1]).to.deep.equal([true, null, 's']);
      // cty (via encoding/json) lets the last duplicate win.
      expect(decodeJSON(objectOf({ n: NUMBER }), '{"n":1,"n":2}')).to.deep.equal({ n: 2 });
    });
  });
});
