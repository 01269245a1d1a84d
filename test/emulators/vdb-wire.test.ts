/**
 * The vdb emulator judges the client, so it must not share the client's reading of the wire. It
 * reads and writes protobuf with its own code (src/emulators/vdb/wire-codec.ts), and here that code
 * is held against the .proto files parsed afresh by protobufjs (proto/vdb/**, field names as
 * protobufjs spells them), for every message type of the contract: every field of a message filled
 * by reflection is read back under its JSON name with its value, unset fields as the conventions
 * say, and what the emulator writes decodes to the same message. Then the proof that matters: a
 * client whose picture of a message is wrong (two fields' numbers swapped) is seen by the emulator,
 * where a server decoding with the client's own codec and picture agrees with it and sees nothing.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import protobuf from 'protobufjs';
import { decodePlain, encodePlain } from '../../src/clients/vdb/codec.js';
import { WireDecodeError, decodeMessage, encodeMessage, formatTimestamp } from '../../src/emulators/vdb/wire-codec.js';
import { findProtoSourceDir } from '../../src/proto-location.js';
import { vdbProtoRoot } from '../../src/wire/vdb-proto.js';
import { rootWithValidateImport } from '../../src/wire/validate-import.js';

/** proto/vdb/** parsed by protobufjs with its own (camel-cased) field names: the reference reading. */
function referenceRoot(): protobuf.Root {
  const protoDir = findProtoSourceDir('vdb', [process.cwd()]);
  if (!protoDir) throw new Error('no proto/vdb folder above the working directory');
  const resolveDefault = protobuf.Root.prototype.resolvePath;
  const root: protobuf.Root = rootWithValidateImport((origin, target) =>
    target.startsWith('vdb/') ? join(protoDir, target) : (resolveDefault.call(root, origin, target) as string),
  );
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? files(path) : entry.name.endsWith('.proto') ? [path] : [];
    });
  root.loadSync(files(join(protoDir, 'vdb')));
  root.resolveAll();
  return root;
}

function messageTypes(namespace: protobuf.NamespaceBase): protobuf.Type[] {
  return namespace.nestedArray.flatMap((nested) => [
    ...(nested instanceof protobuf.Type ? [nested] : []),
    ...(nested instanceof protobuf.Namespace || nested instanceof protobuf.Type ? messageTypes(nested) : []),
  ]);
}

const WELL_KNOWN = {
  timestamp: '.google.protobuf.Timestamp',
  duration: '.google.protobuf.Duration',
  struct: '.google.protobuf.Struct',
};

/** A member of a real oneof (proto3 `optional` makes a one-field oneof of its own). */
const inRealOneof = (field: protobuf.Field): boolean =>
  field.partOf !== null && field.options?.proto3_optional !== true;
const hasPresence = (field: protobuf.Field): boolean =>
  field.resolvedType instanceof protobuf.Type || field.options?.proto3_optional === true || inRealOneof(field);

/**
 * A message with every field set to a value of its own (`variant` picks the member of each real
 * oneof), in protobufjs' object form for the reference type.
 */
function sample(type: protobuf.Type, variant: number, counter = { n: 0 }, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (inRealOneof(field)) {
      const members = field.partOf!.fieldsArray;
      if (members[variant % members.length] !== field) continue;
    }
    const value = sampleValue(field, counter, depth);
    if (value === undefined) continue;
    object[field.name] = field.repeated ? [value, sampleValue(field, counter, depth)] : value;
  }
  return object;
}

function sampleValue(field: protobuf.Field, counter: { n: number }, depth: number): unknown {
  const n = ++counter.n;
  const type = field.resolve().resolvedType;
  if (type instanceof protobuf.Enum) return Math.max(...Object.values(type.values));
  if (type instanceof protobuf.Type) {
    switch (type.fullName) {
      case WELL_KNOWN.timestamp:
        return { seconds: 1_700_000_000 + n, nanos: (n % 999) * 1_000_000 + 1_000_000 };
      case WELL_KNOWN.duration:
        return { seconds: 86_400 + n, nanos: 250_000_000 };
      case WELL_KNOWN.struct:
        return {
          fields: {
            text: { stringValue: `text ${n}` },
            number: { numberValue: n + 0.5 },
            flag: { boolValue: true },
            nothing: { nullValue: 0 },
            list: { listValue: { values: [{ stringValue: 'a' }, { numberValue: 2 }] } },
            nested: { structValue: { fields: { deep: { boolValue: false } } } },
          },
        };
      default:
        return depth > 6 ? undefined : sample(type, 0, counter, depth + 1);
    }
  }
  switch (field.type) {
    case 'string':
      return `${field.name} ${n}`;
    case 'bool':
      return true;
    case 'double':
    case 'float':
      return n + 0.5;
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return 2 ** 33 + n;
    default:
      return n;
  }
}

/** What the emulator must hand its handlers for a sample, derived from the reference type alone. */
function expectedView(type: protobuf.Type, object: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const value = object[field.name];
    if (value === undefined) {
      if (field.repeated) view[field.name] = [];
      else if (!hasPresence(field)) view[field.name] = zeroValue(field);
      continue;
    }
    view[field.name] = field.repeated
      ? (value as unknown[]).map((item) => expectedValue(field, item))
      : expectedValue(field, value);
  }
  return view;
}

function zeroValue(field: protobuf.Field): unknown {
  const type = field.resolvedType;
  if (type instanceof protobuf.Enum) return type.valuesById[0];
  return field.type === 'string' ? '' : field.type === 'bool' ? false : 0;
}

function expectedValue(field: protobuf.Field, value: unknown): unknown {
  const type = field.resolvedType;
  if (type instanceof protobuf.Enum) return type.valuesById[value as number];
  if (!(type instanceof protobuf.Type)) return value;
  const object = value as Record<string, unknown>;
  switch (type.fullName) {
    case WELL_KNOWN.timestamp:
      return new Date((object.seconds as number) * 1000 + (object.nanos as number) / 1e6).toISOString();
    case WELL_KNOWN.duration:
      return object;
    case WELL_KNOWN.struct:
      return structJson(object);
    default:
      return expectedView(type, object);
  }
}

function structJson(struct: Record<string, unknown>): Record<string, unknown> {
  const json = (value: Record<string, unknown>): unknown => {
    if (value.structValue) return structJson(value.structValue as Record<string, unknown>);
    if (value.listValue) return ((value.listValue as { values: Record<string, unknown>[] }).values ?? []).map(json);
    return value.stringValue ?? value.numberValue ?? value.boolValue ?? null;
  };
  const fields = struct.fields as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, json(value)]));
}

const reference = referenceRoot();
const shared = vdbProtoRoot();
const types = messageTypes(reference.lookup('vdb') as protobuf.Namespace);
const sharedType = (type: protobuf.Type): protobuf.Type => shared.lookupType(type.fullName);
const variants = (type: protobuf.Type): number =>
  Math.max(1, ...type.oneofsArray.map((oneof) => oneof.fieldsArray.length));
const READ_BACK: protobuf.IConversionOptions = { longs: Number, enums: String };

describe('vdb emulator: its own reading of the wire, held against the .proto files', () => {
  it('covers the whole contract', () => {
    expect(types.length).to.be.greaterThan(100);
    expect(types.map((type) => type.fullName)).to.include.members([
      '.vdb.cloud.cluster.v1.Cluster',
      '.vdb.cloud.hybrid.v1.HybridCloudEnvironment',
    ]);
  });

  it('reads every field of every message under its JSON name, with its value; unset fields by the conventions', () => {
    for (const type of types) {
      for (let variant = 0; variant < variants(type); variant++) {
        const object = sample(type, variant);
        const bytes = type.encode(type.fromObject(object)).finish();
        const what = `${type.fullName} (variant ${variant})`;
        expect(decodeMessage(sharedType(type), bytes), what).to.deep.equal(expectedView(type, object));
      }
      const empty = decodeMessage(sharedType(type), new Uint8Array());
      expect(empty, `${type.fullName} empty`).to.deep.equal(expectedView(type, {}));
    }
  });

  it('writes every field so that protobuf decodes the same message', () => {
    for (const type of types) {
      for (let variant = 0; variant < variants(type); variant++) {
        const object = sample(type, variant);
        const written = encodeMessage(sharedType(type), expectedView(type, object));
        expect(type.toObject(type.decode(written), READ_BACK), `${type.fullName} (variant ${variant})`).to.deep.equal(
          type.toObject(type.fromObject(object), READ_BACK),
        );
      }
    }
  });

  it('refuses an enum number the contract does not define, naming the proto field path', () => {
    let checked = 0;
    for (const type of types) {
      for (const field of type.fieldsArray.filter((f) => f.resolvedType instanceof protobuf.Enum && !f.repeated)) {
        const bytes = type.encode(type.fromObject({ [field.name]: 99 })).finish();
        expect(() => decodeMessage(sharedType(type), bytes), `${type.fullName}.${field.name}`)
          .to.throw(WireDecodeError, ': must be one of the defined enum values (got 99)')
          .with.property('rule', 'enum.defined_only');
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(25);
    const create = reference.lookupType('vdb.cloud.cluster.v1.CreateClusterRequest');
    const nested = create.encode(create.fromObject({ cluster: { configuration: { serviceType: 42 } } })).finish();
    expect(() => decodeMessage(sharedType(create), nested))
      .to.throw(WireDecodeError)
      .with.property('field', 'cluster.configuration.service_type');
  });

  it('writes timestamps in RFC 3339 with 3, 6 or 9 fractional digits only when there are nanoseconds', () => {
    expect(formatTimestamp(1_700_000_000, 0)).to.equal('2023-11-14T22:13:20Z');
    expect(formatTimestamp(1_700_000_000, 120_000_000)).to.equal('2023-11-14T22:13:20.120Z');
    expect(formatTimestamp(1_700_000_000, 123_456_000)).to.equal('2023-11-14T22:13:20.123456Z');
    expect(formatTimestamp(1_700_000_000, 123_456_789)).to.equal('2023-11-14T22:13:20.123456789Z');
  });

  it('refuses to write what the contract cannot carry (a fault of the emulator, answered INTERNAL)', () => {
    const cluster = shared.lookupType('vdb.cloud.cluster.v1.Cluster');
    expect(() => encodeMessage(cluster, { id: 'x', offeredIn: 'aws' })).to.throw('has no field offeredIn');
    const sleeping = { state: { phase: 'CLUSTER_PHASE_SLEEPING' } };
    expect(() => encodeMessage(cluster, sleeping)).to.throw('is not a value of ClusterPhase');
    expect(() => encodeMessage(cluster, { createdAt: 'yesterday' })).to.throw('is not an RFC 3339 timestamp');
    expect(() => encodeMessage(cluster, { name: 42 })).to.throw('name: string expected');
  });

  it('agrees with the client on every message, both ways (each side held to the contract, not to the other)', () => {
    for (const type of types) {
      const object = sample(type, 0);
      const view = expectedView(type, object);
      const bytes = type.encode(type.fromObject(object)).finish();
      const contract = sharedType(type);
      expect(decodePlain(contract, bytes), `client reads ${type.fullName}`).to.deep.equal(view);
      const fromClient = decodeMessage(contract, encodePlain(contract, view));
      expect(fromClient, `emulator reads the client's ${type.fullName}`).to.deep.equal(view);
      const fromEmulator = decodePlain(contract, encodeMessage(contract, view));
      expect(fromEmulator, `client reads the emulator's ${type.fullName}`).to.deep.equal(view);
    }
  });

  it("sees a client with a wrong picture of a message, which a server with the client's codec could not", () => {
    let mutations = 0;
    for (const type of types) {
      const strings = type.fieldsArray.filter((f) => f.type === 'string' && !f.repeated && !hasPresence(f));
      if (strings.length < 2) continue;
      const [a, b] = strings as [protobuf.Field, protobuf.Field];
      // The client's picture: the contract with the numbers of two string fields swapped.
      const wrong = protobuf.Root.fromJSON(shared.toJSON());
      const wrongType = wrong.lookupType(type.fullName);
      const fieldA = wrongType.fieldsArray.find((f) => f.id === a.id)!;
      const fieldB = wrongType.fieldsArray.find((f) => f.id === b.id)!;
      wrongType.remove(fieldA).remove(fieldB);
      wrongType.add(new protobuf.Field(fieldA.name, b.id, 'string'));
      wrongType.add(new protobuf.Field(fieldB.name, a.id, 'string'));
      wrong.resolveAll();

      const meant = expectedView(type, sample(type, 0));
      const sent = encodePlain(wrongType, meant);
      const seen = decodeMessage(sharedType(type), sent);
      const swapped = { ...meant, [a.name]: meant[b.name], [b.name]: meant[a.name] };
      const what = `${type.fullName}: the emulator reads ${a.name} where the client meant ${b.name}`;
      expect(seen, what).to.deep.equal(swapped);
      const selfAgreement = decodePlain(wrongType, sent);
      expect(selfAgreement, `${type.fullName}: the client's codec agrees with its own picture`).to.deep.equal(meant);
      mutations++;
    }
    expect(mutations).to.be.greaterThan(40);
  });
});
