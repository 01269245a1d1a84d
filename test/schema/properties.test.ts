/**
 * Property-based tests of the value system (fast-check, fixed seed so failures reproduce): random
 * cty types and values round-trip through both codecs, encoding is canonical, and hostile bytes only
 * ever produce ValueDecodeError. Map keys and attribute names include those JavaScript objects treat
 * specially (`__proto__`, `constructor`, "").
 */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  type CtyType,
  STRING,
  NUMBER,
  BOOL,
  listOf,
  setOf,
  mapOf,
  objectOf,
  typeEquals,
  typeFromJSON,
  typeToJSONString,
} from '../../packages/framework/src/schema/cty-type.js';
import { UNKNOWN, Unknown, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';
import {
  blockShapeProblem,
  impliedType,
  rulesLeftAfterDecoding,
  type Nesting,
  type SchemaBlock,
  type ShapeRules,
} from '../../packages/framework/src/schema/block.js';
import { setEntry } from '../../packages/framework/src/schema/entries.js';
import { parseNumber } from '../../packages/framework/src/schema/number.js';
import {
  valueEquals,
  isWhollyKnown,
  dedupeSetElements,
  conformanceError,
} from '../../packages/framework/src/schema/value-ops.js';
import {
  encodeMsgpack,
  decodeMsgpack,
  decodeMsgpackNoting,
  ValueDecodeError,
} from '../../packages/framework/src/schema/msgpack.js';
import { encodeJSON, decodeJSON, decodeJSONExactly } from '../../packages/framework/src/schema/json.js';

const SEED = 20261122;
const RUNS = 300;

const attrName = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
/** Keys JavaScript could take for something else than an entry (`o[key] = v` sets the prototype). */
const trickyKey = fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '');
/** Map keys are any text; object attributes (of a type Terraform sends) any name. */
const mapKey = fc.oneof(
  attrName,
  trickyKey,
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => s.normalize('NFC')),
);
const attributeName = fc.oneof({ weight: 4, arbitrary: attrName }, { weight: 1, arbitrary: trickyKey });

/** An object with these entries, `__proto__` an entry like the others (as the decoders build them). */
function objectFrom<T>(names: readonly string[], values: readonly T[]): Record<string, T> {
  const out: Record<string, T> = {};
  names.forEach((name, i) => setEntry(out, name, values[i]!));
  return out;
}

const typeArb: fc.Arbitrary<CtyType> = fc.letrec<{ type: CtyType }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(STRING, NUMBER, BOOL),
    tie('type').map(listOf),
    tie('type').map(setOf),
    tie('type').map(mapOf),
    fc.dictionary(attributeName, tie('type'), { maxKeys: 4, noNullPrototype: true }).map((attrs) => objectOf(attrs)),
  ),
})).type;

const numberArb: fc.Arbitrary<Value> = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
  fc.constantFrom('0.1', '3.14159', '18446744073709551617', '-9007199254740993', '1e-7').map(parseNumber),
);

/** A value of the type; `unknowns` allows unknown leaves and collections (msgpack only). */
function valueArb(type: CtyType, unknowns: boolean, depth = 0): fc.Arbitrary<Value> {
  const maybe = (known: fc.Arbitrary<Value>): fc.Arbitrary<Value> =>
    fc.oneof(
      { weight: 8, arbitrary: known },
      { weight: 1, arbitrary: fc.constant(null) },
      ...(unknowns ? [{ weight: 1, arbitrary: fc.constant<Value>(UNKNOWN) }] : []),
    );
  const maxLength = depth > 2 ? 1 : 3;
  switch (type.kind) {
    case 'string':
      return maybe(fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.normalize('NFC')));
    case 'number':
      return maybe(numberArb);
    case 'bool':
      return maybe(fc.boolean());
    case 'list':
      return maybe(fc.array(valueArb(type.element, unknowns, depth + 1), { maxLength }));
    case 'set':
      return maybe(
        fc
          .array(valueArb(type.element, unknowns, depth + 1), { maxLength })
          .map((elems) => dedupeSetElements(type.element, elems)),
      );
    case 'map':
      return maybe(
        fc.dictionary(mapKey, valueArb(type.element, unknowns, depth + 1), {
          maxKeys: maxLength,
          noNullPrototype: true,
        }),
      );
    case 'object': {
      const names = Object.keys(type.attributes);
      const values = names.map((k) => valueArb(type.attributes[k]!, unknowns, depth + 1));
      return maybe(fc.tuple(...values).map((vs) => objectFrom(names, vs)));
    }
    default:
      return fc.constant(null);
  }
}

const typedValue = (unknowns: boolean) =>
  typeArb.chain((type) => valueArb(type, unknowns).map((value) => ({ type, value })));

describe('value system properties (fast-check)', function () {
  this.timeout(60_000);

  it('random values of random types are well-formed by construction', () => {
    fc.assert(
      fc.property(typedValue(true), ({ type, value }) => {
        expect(conformanceError(type, value)).to.equal(null);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('msgpack round-trips every value, unknowns included, and encodes canonically', () => {
    fc.assert(
      fc.property(typedValue(true), ({ type, value }) => {
        const bytes = encodeMsgpack(type, value);
        const back = decodeMsgpack(type, bytes);
        expect(valueEquals(type, back, value)).to.equal(true);
        // One value, one encoding: decoding and re-encoding gives the same bytes.
        expect(encodeMsgpack(type, back).equals(Buffer.from(bytes))).to.equal(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('JSON round-trips every wholly known value', () => {
    fc.assert(
      fc.property(typedValue(false), ({ type, value }) => {
        expect(isWhollyKnown(type, value)).to.equal(true);
        const back = decodeJSON(type, encodeJSON(type, value));
        expect(valueEquals(type, back, value)).to.equal(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("decodeJSON reads JSON.parse's value as it reads the tokenizer's tree: the same value, or the same error", () => {
    const outcome = (decode: () => Value) => {
      try {
        return { value: decode() };
      } catch (err) {
        expect(err).to.be.instanceOf(ValueDecodeError);
        return { error: (err as ValueDecodeError).message, path: (err as ValueDecodeError).path };
      }
    };
    // Texts of the type, texts of another value (most do not fit), and documents of any shape.
    const texts = typedValue(false).chain(({ type, value }) =>
      fc.tuple(
        fc.constant(type),
        fc.oneof(
          fc.constant(encodeJSON(type, value)),
          typedValue(false).map((other) => encodeJSON(other.type, other.value)),
          fc.json(),
        ),
        fc.record({ missingAttributesAreNull: fc.boolean(), dropUnknownAttributes: fc.boolean() }),
      ),
    );
    fc.assert(
      fc.property(texts, ([type, text, options]) => {
        expect(outcome(() => decodeJSON(type, text, options))).to.deep.equal(
          outcome(() => decodeJSONExactly(type, text, options)),
        );
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });

  it('the shape checks left after msgpack decoding find exactly what the whole checks find', () => {
    // Blocks of random attributes and nested blocks of every nesting, values of their implied types
    // with nulls and unknowns anywhere (null and unknown block elements too), under each rule set.
    const blockArb = fc.letrec<{ block: SchemaBlock }>((tie) => ({
      block: fc
        .record({
          attributes: fc.dictionary(attrName, typeArb, { maxKeys: 3, noNullPrototype: true }),
          blockTypes: fc.oneof(
            { depthSize: 'small', withCrossShrink: true },
            fc.constant({}),
            fc.dictionary(
              attrName.map((n) => `b_${n}`),
              fc.record({
                nesting: fc.constantFrom<Nesting>('single', 'group', 'list', 'set', 'map'),
                minItems: fc.nat(2),
                maxItems: fc.nat(3),
                block: tie('block'),
              }),
              { maxKeys: 2, noNullPrototype: true },
            ),
          ),
        })
        .map(
          ({ attributes, blockTypes }) =>
            ({
              attributes: Object.fromEntries(Object.entries(attributes).map(([name, type]) => [name, { name, type }])),
              blockTypes: Object.fromEntries(
                Object.entries(blockTypes).map(([name, nb]) => [name, { typeName: name, ...nb }]),
              ),
            }) as unknown as SchemaBlock,
        ),
    })).block;
    const blockAndValue = blockArb.chain((block) =>
      valueArb(impliedType(block), true)
        .filter((v) => v !== null && !(v instanceof Unknown))
        .map((value) => ({ block, value: value as ObjectValue })),
    );
    const ruleSets: ShapeRules[] = [
      { itemCounts: true, noNullElements: false, known: false },
      { itemCounts: true, noNullElements: true, known: false },
      { itemCounts: false, noNullElements: true, known: true },
    ];
    fc.assert(
      fc.property(blockAndValue, ({ block, value }) => {
        const decoded = decodeMsgpackNoting(impliedType(block), encodeMsgpack(impliedType(block), value));
        for (const rules of ruleSets) {
          const left = rulesLeftAfterDecoding(rules, decoded);
          const value = decoded.value as ObjectValue;
          expect(left === null ? null : blockShapeProblem(block, value, left)).to.deep.equal(
            blockShapeProblem(block, value, rules),
          );
        }
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });

  it('types round-trip through their JSON form, attribute names of any kind included', () => {
    fc.assert(
      fc.property(typeArb, (type) => {
        const back = typeFromJSON(JSON.parse(typeToJSONString(type)));
        expect(typeEquals(back, type)).to.equal(true);
        expect(typeToJSONString(back)).to.equal(typeToJSONString(type));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('random and mutated bytes decode to a value or a ValueDecodeError, never anything else', () => {
    const bytesFor = typedValue(true).chain(({ type, value }) =>
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }).map((b) => ({ type, bytes: b })),
        fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat()).map(([at, byte, cut]) => {
          const b = encodeMsgpack(type, value);
          if (b.length > 0) b[at % b.length] = byte;
          return { type, bytes: b.subarray(0, b.length === 0 ? 0 : cut % (b.length + 1)) };
        }),
      ),
    );
    fc.assert(
      fc.property(bytesFor, ({ type, bytes }) => {
        try {
          const v = decodeMsgpack(type, bytes);
          expect(conformanceError(type, v)).to.equal(null);
        } catch (err) {
          expect(err).to.be.instanceOf(ValueDecodeError);
        }
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });
});
