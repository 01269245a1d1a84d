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
} from '../../packages/framework/src/schema/cty-type.js';
import { Decimal, DynamicValue, Unknown, UNKNOWN, type Value } from '../../packages/framework/src/schema/value.js';
import {
  decodeMsgpack,
  encodeMsgpack,
  MAX_VALUE_DEPTH,
  ValueDecodeError,
} from '../../packages/framework/src/schema/msgpack.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';

const hex = (s: string): Uint8Array => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const hexOf = (b: Uint8Array): string =>
  Buffer.from(b)
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ');
const enc = (t: CtyType, v: Value): string => hexOf(encodeMsgpack(t, v));
const dec = (t: CtyType, h: string): Value => decodeMsgpack(t, hex(h));

/** Decoding must fail with a ValueDecodeError (and nothing else); returns it for inspection. */
function decodeError(t: CtyType, bytes: Uint8Array | string): ValueDecodeError {
  try {
    decodeMsgpack(t, typeof bytes === 'string' ? hex(bytes) : bytes);
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(ValueDecodeError);
    return e as ValueDecodeError;
  }
  throw new Error('expected a ValueDecodeError, but decoding succeeded');
}

/** Deterministic PRNG (mulberry32) so fuzz failures reproduce. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RESOURCE = objectOf({
  id: STRING,
  name: STRING,
  ratio: NUMBER,
  rule: listOf(objectOf({ port: NUMBER })),
  secret: STRING,
  size: NUMBER,
  tags: mapOf(STRING),
});

describe('msgpack.ts', () => {
  describe('docs/protocol.md, "Example encodings"', () => {
    const rows: Array<[string, CtyType, Value, string]> = [
      ['"hello"', STRING, 'hello', 'a5 68 65 6c 6c 6f'],
      ['42', NUMBER, 42, '2a'],
      ['-1', NUMBER, -1, 'ff'],
      ['80', NUMBER, 80, '50'],
      ['200', NUMBER, 200, 'cc c8'],
      ['300', NUMBER, 300, 'cd 01 2c'],
      ['-200', NUMBER, -200, 'd1 ff 38'],
      ['1.5', NUMBER, 1.5, 'cb 3f f8 00 00 00 00 00 00'],
      ['0.25', NUMBER, 0.25, 'cb 3f d0 00 00 00 00 00 00'],
      ['0.1 (decimal string)', NUMBER, new Decimal('0.1'), 'a3 30 2e 31'],
      ['true', BOOL, true, 'c3'],
      ['false', BOOL, false, 'c2'],
      ['null', STRING, null, 'c0'],
      ['unknown', STRING, UNKNOWN, 'd4 00 00'],
      ['list(string)', listOf(STRING), ['a', 'b'], '92 a1 61 a1 62'],
      ['set(number)', setOf(NUMBER), [2, 1], '92 01 02'],
      ['map(string)', mapOf(STRING), { k: 'v' }, '81 a1 6b a1 76'],
      [
        'object, sorted keys',
        objectOf({ id: STRING, count: NUMBER }),
        { id: 'x', count: 1 },
        '82 a5 63 6f 75 6e 74 01 a2 69 64 a1 78',
      ],
      [
        'provider config {endpoint = null}',
        objectOf({ endpoint: STRING }),
        { endpoint: null },
        '81 a8 65 6e 64 70 6f 69 6e 74 c0',
      ],
      ['LIST block, no blocks', listOf(objectOf({ port: NUMBER })), [], '90'],
      ['LIST block, one block', listOf(objectOf({ port: NUMBER })), [{ port: 80 }], '91 81 a4 70 6f 72 74 50'],
      [
        '"hi" in a dynamic attribute',
        DYNAMIC,
        new DynamicValue(STRING, 'hi'),
        '92 c4 08 22 73 74 72 69 6e 67 22 a2 68 69',
      ],
      [
        '["a"] in a dynamic attribute',
        DYNAMIC,
        new DynamicValue(listOf(STRING), ['a']),
        '92 c4 11 5b 22 6c 69 73 74 22 2c 22 73 74 72 69 6e 67 22 5d 91 a1 61',
      ],
    ];
    for (const [name, type, value, bytes] of rows) {
      it(`${name}: encodes to ${bytes} and decodes back`, () => {
        expect(enc(type, value)).to.equal(bytes);
        const decoded = dec(type, bytes);
        expect(valueEquals(type, decoded, value)).to.equal(true);
      });
    }

    it('2^64: decodes the decimal-string form Terraform sends; encodes float64 as go-cty 1.12 does (vectors)', () => {
      const fromString = dec(NUMBER, 'b4 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 36');
      expect(fromString).to.equal(2 ** 64);
      expect(enc(NUMBER, 2 ** 64)).to.equal('cb 43 f0 00 00 00 00 00 00');
    });

    it('decodes and re-encodes the full TF 1.11.4 resource config byte for byte', () => {
      const bytes =
        '87 a2 69 64 c0 a4 6e 61 6d 65 a5 61 6c 70 68 61 a5 72 61 74 69 6f a3 30 2e 31 a4 72 75 6c 65 91 81 a4 70 6f 72 74 50 a6 73 65 63 72 65 74 c0 a4 73 69 7a 65 c0 a4 74 61 67 73 81 a1 6b a1 76';
      const v = dec(RESOURCE, bytes);
      expect(v).to.deep.equal({
        id: null,
        name: 'alpha',
        ratio: new Decimal('0.1'),
        rule: [{ port: 80 }],
        secret: null,
        size: null,
        tags: { k: 'v' },
      });
      expect(enc(RESOURCE, v)).to.equal(bytes);
    });
  });

  describe('unknowns and refinements (docs/protocol.md, "Refined unknowns")', () => {
    const refined: Array<[string, CtyType, Unknown, string]> = [
      [
        'string, not null, prefix "pre-"',
        STRING,
        new Unknown({ notNull: true, stringPrefix: 'pre-' }),
        'c7 09 0c 82 01 c2 02 a4 70 72 65 2d',
      ],
      ['not null', STRING, new Unknown({ notNull: true }), 'c7 03 0c 81 01 c2'],
      [
        'number ≥ 0 inclusive, not null',
        NUMBER,
        new Unknown({ notNull: true, numberLower: [0, true] }),
        'c7 07 0c 82 01 c2 03 92 00 c3',
      ],
      [
        'list with ≥ 1 element, not null',
        listOf(STRING),
        new Unknown({ notNull: true, lengthLower: 1 }),
        'c7 05 0c 82 01 c2 05 01',
      ],
      [
        'number in (0.5, 0.1]',
        NUMBER,
        new Unknown({ numberLower: [0.5, false], numberUpper: [new Decimal('0.1'), true] }),
        'c7 14 0c 82 03 92 cb 3f e0 00 00 00 00 00 00 c2 04 92 a3 30 2e 31 c3',
      ],
      // Payloads of exactly 4, 8 and 16 bytes use the fixext forms, as vmihailenco's EncodeExtHeader does.
      ['fixext4: list length ≥ 255', listOf(STRING), new Unknown({ lengthLower: 255 }), 'd6 0c 81 05 cc ff'],
      [
        'fixext8: not null, length 1..255',
        setOf(STRING),
        new Unknown({ notNull: true, lengthLower: 1, lengthUpper: 255 }),
        'd7 0c 83 01 c2 05 01 06 cc ff',
      ],
      [
        'fixext16: not null, prefix "hello-world"',
        STRING,
        new Unknown({ notNull: true, stringPrefix: 'hello-world' }),
        'd8 0c 82 01 c2 02 ab 68 65 6c 6c 6f 2d 77 6f 72 6c 64',
      ],
    ];
    for (const [name, type, value, bytes] of refined) {
      it(`${name}: ${bytes}`, () => {
        expect(enc(type, value)).to.equal(bytes);
        const decoded = dec(type, bytes);
        expect(decoded).to.be.instanceOf(Unknown);
        expect((decoded as Unknown).refinements).to.deep.equal(value.refinements);
      });
    }

    it('fixext1/fixext2 forms of ext 12 decode (no useful map fits; trailing payload bytes are ignored)', () => {
      expect(dec(STRING, 'd4 0c 80')).to.equal(UNKNOWN);
      expect(dec(STRING, 'd5 0c 80 00')).to.equal(UNKNOWN);
      expect(dec(STRING, 'd6 0c 81 01 c2 00')).to.deep.equal(new Unknown({ notNull: true }));
    });

    it('plain unknown for refinements that do not apply or are empty', () => {
      expect(enc(STRING, new Unknown({}))).to.equal('d4 00 00');
      expect(enc(NUMBER, new Unknown({ numberLower: [-Infinity, true], numberUpper: [Infinity, true] }))).to.equal(
        'd4 00 00',
      );
      expect(enc(DYNAMIC, new Unknown({ notNull: true }))).to.equal('d4 00 00');
      expect(enc(listOf(STRING), new Unknown({ lengthLower: 0 }))).to.equal('d4 00 00');
    });

    it('truncates long string prefixes to at most 256 bytes like go-cty', () => {
      const bytes = encodeMsgpack(STRING, new Unknown({ stringPrefix: 'a'.repeat(300) }));
      const back = decodeMsgpack(STRING, bytes) as Unknown;
      // 255 bytes kept, then the trailing letter dropped (it might combine with what follows).
      expect(back.refinements!.stringPrefix).to.equal('a'.repeat(254));
      const delimited = decodeMsgpack(
        STRING,
        encodeMsgpack(STRING, new Unknown({ stringPrefix: `${'a'.repeat(254)}-${'b'.repeat(50)}` })),
      ) as Unknown;
      expect(delimited.refinements!.stringPrefix).to.equal(`${'a'.repeat(254)}-`);
    });

    const plainUnknowns: Array<[string, string]> = [
      ['d4 00 00 (canonical)', 'd4 00 00'],
      ['d4 05 00 (any type code with ≤ 1 byte)', 'd4 05 00'],
      ['c7 00 00 (zero-length ext8)', 'c7 00 00'],
      ['c7 00 0c (zero-length ext 12)', 'c7 00 0c'],
      ['d5 00 91 00 (other ext type, longer payload: accepted leniently)', 'd5 00 91 00'],
      ['c8 00 01 07 00 (ext16)', 'c8 00 01 07 00'],
      ['c9 00 00 00 01 07 00 (ext32)', 'c9 00 00 00 01 07 00'],
    ];
    for (const [name, bytes] of plainUnknowns) {
      it(`decodes ${name} as a plain unknown at any type`, () => {
        for (const t of [STRING, NUMBER, listOf(STRING), RESOURCE, DYNAMIC]) expect(dec(t, bytes)).to.equal(UNKNOWN);
      });
    }

    it('accepts ext 12 in any position (attribute, list element, map value)', () => {
      const t = objectOf({ a: STRING, l: listOf(STRING), m: mapOf(STRING) });
      const v = dec(t, '83 a1 61 c7 03 0c 81 01 c2 a1 6c 91 c7 03 0c 81 01 c2 a1 6d 81 a1 6b c7 03 0c 81 01 c2');
      const u = new Unknown({ notNull: true });
      expect(v).to.deep.equal({ a: u, l: [u], m: { k: u } });
    });

    it('skips refinement keys it does not know, including nested values', () => {
      expect(dec(STRING, 'c7 0a 0c 82 09 92 01 81 a1 78 02 01 c2')).to.deep.equal(new Unknown({ notNull: true }));
    });

    it('ignores refinements of a dynamic unknown', () => {
      expect(dec(DYNAMIC, 'c7 03 0c 81 01 c2')).to.equal(UNKNOWN);
    });

    it('collapses refinements that pin the value down (cty RefinementBuilder.NewValue)', () => {
      expect(dec(STRING, 'c7 03 0c 81 01 c3'), 'definitely null').to.equal(null);
      expect(dec(NUMBER, 'c7 0b 0c 83 01 c2 03 92 05 c3 04 92 05 c3'), 'bounds [5, 5]').to.equal(5);
      expect(dec(listOf(STRING), 'c7 05 0c 82 01 c2 06 00'), 'length 0').to.deep.equal([]);
      expect(dec(mapOf(STRING), 'c7 05 0c 82 01 c2 06 00'), 'length 0').to.deep.equal({});
      expect(dec(listOf(STRING), 'c7 07 0c 83 01 c2 05 02 06 02'), 'length 2').to.deep.equal([UNKNOWN, UNKNOWN]);
      expect(dec(setOf(STRING), 'c7 07 0c 83 01 c2 05 01 06 01'), 'length 1').to.deep.equal([UNKNOWN]);
      // Without "not null" nothing collapses.
      expect(dec(listOf(STRING), 'c7 03 0c 81 06 00')).to.deep.equal(new Unknown({ lengthUpper: 0 }));
    });

    const badRefinements: Array<[string, CtyType, string, RegExp]> = [
      ['payload not a map', STRING, 'd5 0c 01 02', /extension body: not a map/],
      ['prefix on a number', NUMBER, 'c7 03 0c 81 02 a0', /string prefix refinement for non-string type/],
      ['bounds on a string', STRING, 'c7 05 0c 81 03 92 00 c3', /numeric bound refinement for non-number type/],
      ['length on a string', STRING, 'c7 03 0c 81 05 01', /length bound refinement for non-collection type/],
      ['non-boolean nullness', STRING, 'c7 03 0c 81 01 a0', /null refinement is not boolean/],
      ['non-integer key', STRING, 'c7 04 0c 81 a1 61 c2', /non-integer key/],
      ['bad number bound', NUMBER, 'c7 03 0c 81 03 01', /\[number, bool\]/],
      ['negative length', listOf(STRING), 'c7 03 0c 81 05 ff', /non-negative integer/],
      ['truncated payload map', STRING, 'c7 03 0c 82 01 c2', /unexpected end/],
    ];
    for (const [name, type, bytes, message] of badRefinements) {
      it(`rejects a malformed ext 12 payload: ${name}`, () => {
        const err = decodeError(type, bytes);
        expect(err.message).to.match(/^failed to decode msgpack extension body: /);
        expect(err.message).to.match(message);
      });
    }

    it('rejects an oversize refinement payload (> 1024 bytes)', () => {
      const payload = Buffer.concat([hex('81 02 da 03 fd'), Buffer.alloc(0x3fd, 0x61)]);
      const bytes = Buffer.concat([
        hex('c8'),
        Buffer.from([payload.length >> 8, payload.length & 0xff]),
        hex('0c'),
        payload,
      ]);
      expect(decodeError(STRING, bytes).message).to.equal('oversize unknown value refinement');
    });
  });

  describe('numbers', () => {
    const decodes: Array<[string, string, Value]> = [
      ['uint64 max', 'cf ff ff ff ff ff ff ff ff', new Decimal('18446744073709551615')],
      ['uint64 2^53+1', 'cf 00 20 00 00 00 00 00 01', new Decimal('9007199254740993')],
      ['uint64 2^60 (exact double)', 'cf 10 00 00 00 00 00 00 00', 2 ** 60],
      ['int64 min', 'd3 80 00 00 00 00 00 00 00', -(2 ** 63)],
      ['int64 -(2^53+1)', 'd3 ff df ff ff ff ff ff ff', new Decimal('-9007199254740993')],
      ['int64 -1', 'd3 ff ff ff ff ff ff ff ff', -1],
      ['uint32 max', 'ce ff ff ff ff', 4294967295],
      ['int32 min', 'd2 80 00 00 00', -2147483648],
      ['uint8 in a wide form', 'cf 00 00 00 00 00 00 00 05', 5],
      ['float32 1.5', 'ca 3f c0 00 00', 1.5],
      ['float64 +Inf', 'cb 7f f0 00 00 00 00 00 00', Infinity],
      ['"0.1" string in number position', 'a3 30 2e 31', new Decimal('0.1')],
      ['"1e3" string', 'a3 31 65 33', 1000],
      ['"0.25" string', 'a4 30 2e 32 35', 0.25],
    ];
    for (const [name, bytes, value] of decodes) {
      it(`decodes ${name} exactly`, () => {
        expect(dec(NUMBER, bytes)).to.deep.equal(value);
      });
    }

    const encodes: Array<[string, Value, string]> = [
      ['-0', -0, '00'],
      ['Decimal 2^53+1 → uint64', new Decimal('9007199254740993'), 'cf 00 20 00 00 00 00 00 01'],
      ['Decimal -(2^53+1) → int64', new Decimal('-9007199254740993'), 'd3 ff df ff ff ff ff ff ff'],
      ['-(2^63) → int64', -(2 ** 63), 'd3 80 00 00 00 00 00 00 00'],
      ['2^63 (beyond int64, exact double) → float64', 2 ** 63, 'cb 43 e0 00 00 00 00 00 00'],
      [
        'uint64 max (not an exact double) → decimal string',
        new Decimal('18446744073709551615'),
        'b4 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 35',
      ],
      ['-40000', -40000, 'd2 ff ff 63 c0'],
      ['-3000000000', -3000000000, 'd3 ff ff ff ff 4d 2f a2 00'],
      ['4294967296', 4294967296, 'cf 00 00 00 01 00 00 00 00'],
      ['+Inf', Infinity, 'cb 7f f0 00 00 00 00 00 00'],
      ['a Decimal that is really an exact double', new Decimal('0.5'), 'cb 3f e0 00 00 00 00 00 00'],
    ];
    for (const [name, value, bytes] of encodes) {
      it(`encodes ${name}`, () => {
        expect(enc(NUMBER, value)).to.equal(bytes);
      });
    }

    it('rejects NaN, non-numeric strings and other kinds with "number is required"', () => {
      for (const bytes of ['cb 7f f8 00 00 00 00 00 00', 'a3 61 62 63', 'c3', '90', 'a0']) {
        expect(decodeError(NUMBER, bytes).message, bytes).to.match(/^number is required/);
      }
    });
  });

  describe('strings', () => {
    it('normalizes to NFC and keeps a BOM', () => {
      expect(dec(STRING, 'a3 65 cc 81')).to.equal('\u00e9');
      expect(dec(STRING, 'a3 ef bb bf')).to.equal('\ufeff');
      const long = 'e\u0301'.repeat(20);
      expect(decodeMsgpack(STRING, encodeMsgpack(STRING, long))).to.equal('\u00e9'.repeat(20));
    });

    it('round-trips non-ASCII and astral characters in every length class', () => {
      for (const s of [
        'h\u00e9llo \u2603 \u{1F600}',
        '\u00e9'.repeat(40),
        '\u2603'.repeat(1000),
        '\u{1F600}'.repeat(20000),
      ]) {
        expect(decodeMsgpack(STRING, encodeMsgpack(STRING, s))).to.equal(s);
      }
    });

    const invalid = ['a2 c3 28', 'a2 c0 80', 'a3 ed a0 80', 'a1 ff', 'a4 f4 90 80 80', `b1 ${'61 '.repeat(16)}ff`];
    for (const bytes of invalid) {
      it(`rejects invalid UTF-8 ${bytes.slice(0, 20)}`, () => {
        expect(decodeError(STRING, bytes).message).to.equal('string is not valid UTF-8');
      });
    }
  });

  describe('objects, maps, collections and their errors', () => {
    const SEVEN = objectOf({ a: STRING, b: STRING, c: STRING, d: STRING, e: STRING, f: STRING, g: STRING });

    it('reports a wrong attribute count like Terraform', () => {
      const six = '86 a1 61 c0 a1 62 c0 a1 63 c0 a1 64 c0 a1 65 c0 a1 66 c0';
      const err = decodeError(SEVEN, six);
      expect(err.message).to.equal('an object with 7 attributes is required (6 given)');
      expect(err.path).to.deep.equal([]);
    });

    it('reports the path of a nested failure', () => {
      const t = objectOf({ rule: listOf(objectOf({ port: NUMBER })) });
      const err = decodeError(t, '81 a4 72 75 6c 65 92 81 a4 70 6f 72 74 50 81 a4 70 6f 72 74 c3');
      expect(err.message).to.equal('number is required');
      expect(err.path).to.deep.equal([{ attr: 'rule' }, { index: 1 }, { attr: 'port' }]);
      const inMap = decodeError(mapOf(listOf(STRING)), '81 a1 6b 91 01');
      expect(inMap.path).to.deep.equal([{ key: 'k' }, { index: 0 }]);
      expect(inMap.message).to.equal('string is required');
    });

    it('stops the path at a set (set elements are not addressable)', () => {
      const t = objectOf({ s: setOf(objectOf({ n: NUMBER })) });
      expect(decodeError(t, '81 a1 73 91 81 a1 6e c2').path).to.deep.equal([{ attr: 's' }]);
    });

    it('accepts attributes in any order', () => {
      const t = objectOf({ id: STRING, count: NUMBER });
      expect(dec(t, '82 a2 69 64 a1 78 a5 63 6f 75 6e 74 01')).to.deep.equal({ id: 'x', count: 1 });
    });

    it('rejects unknown, duplicate and non-string attribute keys', () => {
      const t = objectOf({ id: STRING, count: NUMBER });
      expect(decodeError(t, '82 a2 69 64 a1 78 a1 78 01').message).to.equal('unsupported attribute "x"');
      expect(decodeError(t, '82 a2 69 64 a1 78 a2 69 64 a1 79').message).to.equal('duplicate attribute "id"');
      expect(decodeError(t, '82 01 a1 78 a5 63 6f 75 6e 74 01').message).to.equal('all keys must be strings');
      expect(decodeError(t, '92 a1 78 01').message).to.equal('an object is required');
      expect(decodeError(objectOf({ a: STRING }), '81 a8 74 6f 53 74 72 69 6e 67 c0').message).to.equal(
        'unsupported attribute "toString"',
      );
    });

    it('keeps "__proto__" as an ordinary map key', () => {
      const v = dec(mapOf(STRING), '81 a9 5f 5f 70 72 6f 74 6f 5f 5f a1 78') as Record<string, Value>;
      expect(Object.getPrototypeOf(v)).to.equal(Object.prototype);
      expect(Object.keys(v)).to.deep.equal(['__proto__']);
      expect(enc(mapOf(STRING), v)).to.equal('81 a9 5f 5f 70 72 6f 74 6f 5f 5f a1 78');
    });

    it('wrong kinds give Terraform-style messages', () => {
      expect(decodeError(STRING, '01').message).to.equal('string is required');
      expect(decodeError(BOOL, 'a0').message).to.equal('bool is required');
      expect(decodeError(listOf(STRING), '80').message).to.equal('a list is required');
      expect(decodeError(setOf(STRING), 'a0').message).to.equal('a set is required');
      expect(decodeError(mapOf(STRING), '90').message).to.equal('a map is required');
      expect(decodeError(tupleOf([STRING, NUMBER]), '91 a0').message).to.equal('a tuple of length 2 is required');
      expect(decodeError(mapOf(STRING), '81 01 a0').message).to.equal('non-string key in map');
      expect(decodeError(DYNAMIC, '93 c4 01 22 c0 c0').message).to.equal(
        'dynamic value array must have exactly two elements',
      );
      expect(decodeError(DYNAMIC, '92 c4 05 22 62 61 64 22 c0').message).to.match(/^invalid type in dynamic value/);
    });

    it('dynamic: typed null, unknown inside, str-typed type JSON, nested "dynamic" type', () => {
      expect(dec(DYNAMIC, '92 c4 08 22 73 74 72 69 6e 67 22 c0')).to.deep.equal(new DynamicValue(STRING, null));
      expect(dec(DYNAMIC, '92 c4 08 22 73 74 72 69 6e 67 22 d4 00 00')).to.deep.equal(
        new DynamicValue(STRING, UNKNOWN),
      );
      expect(dec(DYNAMIC, '92 a8 22 73 74 72 69 6e 67 22 a1 78')).to.deep.equal(new DynamicValue(STRING, 'x'));
      expect(dec(DYNAMIC, '92 c4 09 22 64 79 6e 61 6d 69 63 22 92 c4 06 22 62 6f 6f 6c 22 c3')).to.deep.equal(
        new DynamicValue(BOOL, true),
      );
      expect(enc(DYNAMIC, new DynamicValue(STRING, UNKNOWN))).to.equal('92 c4 08 22 73 74 72 69 6e 67 22 d4 00 00');
    });

    it('sets: duplicates collapse on decode', () => {
      expect(dec(setOf(STRING), '93 a1 61 a1 62 a1 61')).to.deep.equal(['a', 'b']);
      expect(dec(setOf(NUMBER), '93 01 a1 31 cb 3f f0 00 00 00 00 00 00')).to.deep.equal([1]);
    });

    it('encoder refuses values that do not conform, naming the path', () => {
      const t = objectOf({ id: STRING, rule: listOf(objectOf({ port: NUMBER })) });
      expect(() => encodeMsgpack(t, { id: 'x' })).to.throw(TypeError, /attribute "rule" is required/);
      expect(() => encodeMsgpack(t, { id: 'x', rule: [{ port: 'eighty' }] })).to.throw(
        TypeError,
        /rule\[0\]\.port: |at rule\[0\]\.port: number is required/,
      );
      expect(() => encodeMsgpack(t, { id: 'x', rule: [], extra: 1 })).to.throw(
        TypeError,
        /unsupported attribute "extra"/,
      );
      expect(() => encodeMsgpack(DYNAMIC, 'bare string')).to.throw(TypeError, /DynamicValue/);
      expect(() => encodeMsgpack(NUMBER, NaN)).to.throw(TypeError, /NaN/);
    });
  });

  describe('set order (go-cty setRules.Less)', () => {
    it('strings by UTF-8 bytes, not UTF-16 units', () => {
      // U+FFFD (ef bf bd) sorts before U+1F600 (f0 9f 98 80) bytewise; JS '<' would say the opposite.
      expect(enc(setOf(STRING), ['\u{1F600}', '\ufffd', 'b', 'a'])).to.equal(
        '94 a1 61 a1 62 a3 ef bf bd a4 f0 9f 98 80',
      );
    });

    it('numbers by value across forms, false before true', () => {
      expect(enc(setOf(NUMBER), [new Decimal('0.1'), 30, -2, 1.5, new Decimal('-18446744073709551617')])).to.equal(
        '95 b5 2d 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 37 fe a3 30 2e 31 cb 3f f8 00 00 00 00 00 00 1e',
      );
      expect(enc(setOf(BOOL), [true, false])).to.equal('92 c2 c3');
    });

    it('known elements, then unknowns (in given order), then null; duplicates removed', () => {
      const u1 = new Unknown({ notNull: true });
      expect(enc(setOf(STRING), [null, UNKNOWN, 'b', u1, 'a', 'b'])).to.equal(
        '95 a1 61 a1 62 d4 00 00 c7 03 0c 81 01 c2 c0',
      );
    });

    it('objects by their hash bytes: Go-quoted strings, so "a\\"" sorts after "a#"', () => {
      // hash bytes <"a\"";> vs <"a#";>: '\' (0x5c) > '#' (0x23), although '"' (0x22) < '#' as raw text.
      const t = setOf(objectOf({ k: STRING }));
      expect(enc(t, [{ k: 'a"' }, { k: 'a#' }])).to.equal('92 81 a1 6b a2 61 23 81 a1 6b a2 61 22');
    });

    it('objects holding numbers order by %g text: 1e+10 sorts before 2', () => {
      const t = setOf(objectOf({ n: NUMBER }));
      expect(enc(t, [{ n: 2 }, { n: 1e10 }])).to.equal('92 81 a1 6e cf 00 00 00 02 54 0b e4 00 81 a1 6e 02');
    });

    it('lists of strings by hash bytes (["a";"z";] < ["a";] since \'"\' < \']\'), partially unknown objects by their "?"', () => {
      expect(enc(setOf(listOf(STRING)), [['b'], ['a'], ['a', 'z']])).to.equal('93 92 a1 61 a1 7a 91 a1 61 91 a1 62');
      const t = setOf(objectOf({ k: STRING }));
      // <"x";> (0x22 after '<') sorts before <?;> (0x3f): partially unknown elements are still "known".
      expect(enc(t, [{ k: UNKNOWN }, { k: 'x' }])).to.equal('92 81 a1 6b a1 78 81 a1 6b d4 00 00');
    });

    it('partially unknown elements are never merged (cty Equals is unknown for them)', () => {
      const t = setOf(objectOf({ k: STRING }));
      expect(enc(t, [{ k: UNKNOWN }, { k: UNKNOWN }])).to.equal('92 81 a1 6b d4 00 00 81 a1 6b d4 00 00');
    });
  });

  describe('robustness', () => {
    const sample = objectOf({
      name: STRING,
      n: NUMBER,
      tags: mapOf(STRING),
      rules: listOf(objectOf({ port: NUMBER, cidrs: setOf(STRING) })),
      extra: DYNAMIC,
      pair: tupleOf([STRING, BOOL]),
    });
    const sampleValue: Value = {
      name: 'svc',
      n: new Decimal('0.1'),
      tags: { a: 'x', b: 'y' },
      rules: [
        { port: 443, cidrs: ['10.0.0.0/8', '192.168.0.0/16'] },
        { port: 70000, cidrs: [] },
      ],
      extra: new DynamicValue(listOf(NUMBER), [1, 2.5]),
      pair: ['p', new Unknown({ notNull: true })],
    };
    const sampleBytes = encodeMsgpack(sample, sampleValue);

    it('the sample round-trips', () => {
      expect(valueEquals(sample, decodeMsgpack(sample, sampleBytes), sampleValue)).to.equal(true);
    });

    it('every truncation of a valid encoding is a ValueDecodeError', () => {
      for (let len = 0; len < sampleBytes.length; len++) decodeError(sample, sampleBytes.subarray(0, len));
    });

    it('trailing bytes are a ValueDecodeError', () => {
      expect(decodeError(sample, Buffer.concat([sampleBytes, hex('00')])).message).to.match(/trailing/);
      expect(decodeError(STRING, 'a0 a0').message).to.match(/trailing/);
    });

    it('random garbage and random byte flips never throw anything but ValueDecodeError', () => {
      const rand = prng(1234);
      const types = [sample, STRING, NUMBER, DYNAMIC, listOf(DYNAMIC), mapOf(setOf(NUMBER))];
      for (let i = 0; i < 3000; i++) {
        const t = types[i % types.length]!;
        let bytes: Uint8Array;
        if (i % 2 === 0) {
          bytes = Uint8Array.from({ length: 1 + Math.floor(rand() * 40) }, () => Math.floor(rand() * 256));
        } else {
          bytes = Uint8Array.from(sampleBytes);
          for (let k = 0; k < 3; k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
        }
        try {
          decodeMsgpack(t, bytes);
        } catch (e) {
          expect(e, `input ${Buffer.from(bytes).toString('hex')}: ${String(e)}`).to.be.instanceOf(ValueDecodeError);
        }
      }
    });

    it(`bounds nesting depth at ${MAX_VALUE_DEPTH}`, () => {
      let deep: CtyType = STRING;
      for (let i = 0; i < 300; i++) deep = listOf(deep);
      const bytes = Buffer.concat([Buffer.alloc(300, 0x91), hex('a0')]);
      expect(decodeError(deep, bytes).message).to.match(/maximum depth/);
      // Nested dynamic values carry their own types: a hostile sender cannot recurse without bound either.
      const nestedDynamic = Buffer.concat([Buffer.from(`92c409${Buffer.from('"dynamic"').toString('hex')}`, 'hex')]);
      const hostile = Buffer.concat([...Array<Buffer>(20000).fill(nestedDynamic), hex('c0')]);
      expect(decodeError(DYNAMIC, hostile).message).to.match(/maximum depth/);
      let ok: CtyType = STRING;
      for (let i = 0; i < MAX_VALUE_DEPTH; i++) ok = listOf(ok);
      expect(decodeMsgpack(ok, Buffer.concat([Buffer.alloc(MAX_VALUE_DEPTH, 0x91), hex('a0')]))).to.be.an('array');
    });

    it('huge length prefixes fail fast without allocating', () => {
      expect(decodeError(listOf(STRING), 'dd ff ff ff ff').message).to.match(/unexpected end/);
      expect(decodeError(mapOf(STRING), 'df ff ff ff ff a0').message).to.match(/unexpected end/);
      expect(decodeError(STRING, 'db ff ff ff ff 61').message).to.match(/unexpected end/);
      expect(decodeError(STRING, 'c9 ff ff ff ff 0c').message).to.match(/unexpected end/);
      expect(decodeError(DYNAMIC, '92 c6 ff ff ff ff').message).to.match(/unexpected end/);
    });

    it('a hostile dynamic type JSON is a ValueDecodeError', () => {
      const typeJSON = Buffer.from('['.repeat(100000));
      const bytes = Buffer.concat([
        hex('92 c6'),
        Buffer.from([0, (typeJSON.length >> 16) & 0xff, (typeJSON.length >> 8) & 0xff, typeJSON.length & 0xff]),
        typeJSON,
        hex('c0'),
      ]);
      expect(decodeError(DYNAMIC, bytes).message).to.match(/^invalid type in dynamic value/);
    });
  });
});
