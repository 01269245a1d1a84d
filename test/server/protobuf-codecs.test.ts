// The generated message codecs (scripts/proto-codegen.mjs over packages/framework/src/server/protobuf-wire.ts) against
// protobufjs' reflection over the .proto sources, for every message of tfplugin6 and go-plugin's
// services: random plain objects encode to the same bytes as fromObject + encode, and those bytes
// decode to the same object as decode + toObject with the codecs' options. Bytes that are not a
// message fail with ProtoDecodeError and nothing else.
import { expect } from 'chai';
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { messageType } from '../../packages/framework/src/server/proto.js';
import {
  ProtoDecodeError,
  ProtoReader,
  ProtoWriter,
  int64Bits,
} from '../../packages/framework/src/server/protobuf-wire.js';
import { allMessageTypes } from '../support/proto-sources.js';

/** The plain-object form's decoding options (packages/framework/src/server/codecs.ts). */
const TO_OBJECT = { defaults: true, longs: Number, enums: Number, oneofs: true } as const;
const MAX_DEPTH = 3;

const INT64_EDGES = [
  0,
  -1,
  1,
  127,
  128,
  2 ** 31,
  -(2 ** 31),
  2 ** 32,
  2 ** 53,
  -(2 ** 53),
  2 ** 62,
  -(2 ** 63),
  2 ** 63,
];

function scalar(type: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.string({ minLength: 60, maxLength: 300 }),
      );
    case 'bytes':
      return fc.oneof(
        fc.uint8Array({ maxLength: 20 }).map((a) => Buffer.from(a)),
        fc.uint8Array({ minLength: 120, maxLength: 400 }).map((a) => Buffer.from(a)),
      );
    case 'bool':
      return fc.boolean();
    case 'int32':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case 'uint32':
      return fc.integer({ min: 0, max: 2 ** 32 - 1 });
    case 'int64':
      return fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -300, max: 300 }), fc.constantFrom(...INT64_EDGES));
    default:
      throw new Error(`no arbitrary for ${type}`);
  }
}

function fieldValue(field: protobuf.Field, depth: number): fc.Arbitrary<unknown> {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) {
    return fc.oneof(
      fc.constantFrom(...Object.keys(resolved.values)),
      fc.constantFrom(...Object.values(resolved.values)),
    );
  }
  if (resolved instanceof protobuf.Type)
    return depth >= MAX_DEPTH ? fc.constant({}) : messageObject(resolved, depth + 1);
  return scalar(field.type);
}

function messageObject(type: protobuf.Type, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of type.fieldsArray) {
    const value = fieldValue(field, depth);
    fields[field.name] = field.map
      ? // A map key is any text: `__proto__` and `constructor` are entries like the others.
        fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor')), value, {
          maxKeys: 3,
        })
      : field.repeated
        ? fc.array(value, { maxLength: 3 })
        : fc.oneof(value, fc.constant(null));
  }
  return fc.record(fields, { requiredKeys: [] });
}

describe('generated protobuf codecs', () => {
  const types = allMessageTypes();

  it('cover every message of the .proto sources', () => {
    expect(types.length).to.be.greaterThan(140);
    for (const type of types) expect(() => messageType(type.fullName.slice(1)), type.fullName).not.to.throw();
  });

  it('encode and decode every message as protobufjs reflection does', function () {
    this.timeout(120_000);
    for (const type of types) {
      const name = type.fullName.slice(1);
      const ours = messageType(name);
      fc.assert(
        fc.property(messageObject(type), (object) => {
          const expected = Buffer.from(type.encode(type.fromObject(object)).finish());
          const bytes = ours.encode(object);
          expect(bytes.toString('hex'), `${name} ${JSON.stringify(object)}`).to.equal(expected.toString('hex'));
          expect(ours.decode(bytes), name).to.deep.equal(type.toObject(type.decode(expected), TO_OBJECT));
        }),
        { numRuns: 40 },
      );
    }
  });

  it('refuses what fromObject refuses, with its messages', () => {
    const nested = messageType('tfplugin6.Schema');
    expect(() => nested.encode({ block: 'not a block' })).to.throw(
      TypeError,
      '.tfplugin6.Schema.block: object expected',
    );
    const repeated = messageType('tfplugin6.Schema.Block');
    expect(() => repeated.encode({ attributes: {} })).to.throw(
      TypeError,
      '.tfplugin6.Schema.Block.attributes: array expected',
    );
    // A failed encode leaves nothing behind for the next message.
    expect(repeated.encode({ version: 1 })).to.deep.equal(Buffer.from([0x08, 0x01]));
  });

  it('fail on bytes that are not a message with ProtoDecodeError alone', function () {
    this.timeout(60_000);
    for (const type of types) {
      const ours = messageType(type.fullName.slice(1));
      const valid = messageObject(type).map((object) => ours.encode(object));
      // No filter on non-empty encodings: a message without fields has none, and fast-check's filter
      // would generate forever.
      const cut = fc.tuple(valid, fc.nat()).map(([bytes, at]) => bytes.subarray(0, at % (bytes.length + 1)));
      const flipped = fc.tuple(valid, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([bytes, at, b]) => {
        const copy = Buffer.from(bytes);
        if (copy.length > 0) copy[at % copy.length] = b;
        return copy;
      });
      const noise = fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a));
      fc.assert(
        fc.property(fc.oneof(cut, flipped, noise), (bytes) => {
          try {
            ours.decode(bytes);
          } catch (error) {
            expect(error, type.fullName).to.be.instanceOf(ProtoDecodeError);
          }
        }),
        { numRuns: 30 },
      );
    }
  });

  it('decodes a field sent with another wire type as unknown, and keeps what it knows', () => {
    // type_name (field 1, a string) sent as a varint, then version (field 2, a varint) as it should be.
    const bytes = Buffer.from([0x08, 0x05, 0x10, 0x03]);
    const decoded = messageType('tfplugin6.UpgradeResourceState.Request').decode(bytes);
    expect(decoded).to.include({ type_name: '', version: 3 });
  });

  it('writes long nested messages with multi-byte lengths in front of them', () => {
    const big = Buffer.alloc(70_000, 7);
    const bytes = messageType('tfplugin6.ReadResource.Request').encode({ current_state: { msgpack: big } });
    const decoded = messageType('tfplugin6.ReadResource.Request').decode(bytes);
    expect(decoded.current_state.msgpack.equals(big)).to.equal(true);
  });

  it('reads and writes 64-bit varints as protobufjs does at the edges', () => {
    // protobufjs' fromObject takes int64 values through long.js.
    const long = protobuf.util.Long as unknown as { fromValue(value: unknown): protobuf.Long };
    const values = [...INT64_EDGES, Number.NaN, -0.5, 3.7, -(2 ** 64), '9223372036854775807', '-9223372036854775808'];
    for (const value of values) {
      const w = new ProtoWriter(1);
      const bits = int64Bits(value);
      w.varint64(bits.lo, bits.hi);
      const ours = w.take();
      const theirs = Buffer.from(protobuf.Writer.create().int64(long.fromValue(value)).finish());
      expect(ours.toString('hex'), String(value)).to.equal(theirs.toString('hex'));
      const read = new ProtoReader(ours).int64();
      expect(read, String(value)).to.equal(protobuf.util.LongBits.from(long.fromValue(value)).toNumber());
    }
    expect(() => int64Bits('12abc')).to.throw(TypeError);
  });
});
