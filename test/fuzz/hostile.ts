/**
 * Hostile tfplugin6 requests as fast-check arbitraries, shared by the in-process handler properties
 * and the protocol fuzzer against the real executable: each sample is the request's protobuf bytes,
 * the RPC, a category and whether the request is certainly invalid (`mustFail`: the answer has to
 * carry an error diagnostic). Requests that are not valid protobuf are marked `wellFormed: false`;
 * the server may answer those with a gRPC status instead.
 *
 * A DynamicValue gets one of: a value that fits the schema, its msgpack truncated or with bytes
 * changed, random bytes, values of the wrong kind at some position, invalid UTF-8, missing or extra
 * attributes, length prefixes far beyond the data, nesting up to 100k levels, huge strings and
 * collections, numbers with absurd exponents, and the same ideas as JSON.
 */
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { impliedType, type SchemaBlock } from '../../packages/framework/src/schema/block.js';
import {
  BOOL,
  DYNAMIC,
  NUMBER,
  STRING,
  listOf,
  objectOf,
  type CtyType,
} from '../../packages/framework/src/schema/cty-type.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import { encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { encodeJSON } from '../../packages/framework/src/schema/json.js';
import { Decimal, Unknown, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import type { FunctionDef } from '../../packages/framework/src/engine/functions/index.js';
import { SERVICE_NAMES, encodeMessage, rpcTypes, type RpcName } from '../../packages/framework/src/server/proto.js';
import { blockValueArb, valueArb } from './values.js';
import { protoSourcesRoot } from '../support/proto-sources.js';

// =============================================================================================
// What a provider offers, taken from its definition.
// =============================================================================================

export interface SchemaEntry {
  readonly name: string;
  readonly block: SchemaBlock;
  readonly fields: Fields;
  readonly type: CtyType;
  readonly version: number;
}

export interface Catalogue {
  readonly provider: SchemaEntry;
  readonly resources: readonly SchemaEntry[];
  readonly dataSources: readonly SchemaEntry[];
  readonly functions: readonly FunctionDef[];
}

export function catalogueOf(def: ProviderDef<any, any>): Catalogue {
  const entry = (name: string, s: { block: SchemaBlock; fields: Fields; version: number }): SchemaEntry => ({
    name,
    block: s.block,
    fields: s.fields,
    type: impliedType(s.block),
    version: s.version,
  });
  return {
    provider: entry(def.name, def.schema),
    resources: def.resources.map((r) => entry(r.typeName, r.schema)),
    dataSources: def.dataSources.map((d) => entry(d.typeName, d.schema)),
    functions: def.functions ?? [],
  };
}

/** Sizes of the big payloads: kept smaller for the in-process properties. */
export interface Scale {
  readonly hugeBytes: readonly [number, number];
  readonly deepLevels: readonly [number, number];
  readonly hugeCount: readonly [number, number];
}

export const IN_PROCESS_SCALE: Scale = {
  hugeBytes: [64 * 1024, 2 * 1024 * 1024],
  deepLevels: [1_000, 100_000],
  hugeCount: [10_000, 100_000],
};
export const WIRE_SCALE: Scale = {
  hugeBytes: [256 * 1024, 4 * 1024 * 1024],
  deepLevels: [1_000, 100_000],
  hugeCount: [10_000, 100_000],
};

/** Nesting depths: mostly a few thousand levels, one in ten up to the maximum (100k). */
const levelsArb = (scale: Scale): fc.Arbitrary<number> =>
  fc.oneof(
    {
      weight: 9,
      arbitrary: fc.integer({
        min: scale.deepLevels[0],
        max: Math.max(scale.deepLevels[0], Math.min(scale.deepLevels[1], 4096)),
      }),
    },
    { weight: 1, arbitrary: fc.integer({ min: scale.deepLevels[0], max: scale.deepLevels[1] }) },
  );

// =============================================================================================
// A msgpack writer that can also write what no encoder would: raw string bytes, lying headers.
// =============================================================================================

class MsgpackWriter {
  private readonly chunks: Buffer[] = [];
  private small: number[] = [];

  private flush(): void {
    if (this.small.length > 0) this.chunks.push(Buffer.from(this.small));
    this.small = [];
  }
  bytes(...b: number[]): void {
    for (const x of b) this.small.push(x & 0xff);
  }
  raw(buf: Uint8Array): void {
    this.flush();
    this.chunks.push(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
  }
  nil(): void {
    this.bytes(0xc0);
  }
  bool(b: boolean): void {
    this.bytes(b ? 0xc3 : 0xc2);
  }
  number(n: number): void {
    if (Number.isInteger(n) && n >= 0 && n <= 0xffffffff) {
      if (n < 128) this.bytes(n);
      else this.bytes(0xce, n >>> 24, n >>> 16, n >>> 8, n);
    } else if (Number.isInteger(n) && n < 0 && n >= -0x80000000) {
      this.bytes(0xd2, n >> 24, n >> 16, n >> 8, n);
    } else {
      const b = Buffer.alloc(9);
      b[0] = 0xcb;
      b.writeDoubleBE(n, 1);
      this.raw(b);
    }
  }
  /** A str whose bytes are given as they are (valid UTF-8 or not). */
  strBytes(b: Uint8Array): void {
    const n = b.length;
    if (n < 32) this.bytes(0xa0 | n);
    else if (n < 0x100) this.bytes(0xd9, n);
    else if (n < 0x10000) this.bytes(0xda, n >> 8, n);
    else this.bytes(0xdb, n >>> 24, n >>> 16, n >>> 8, n);
    this.raw(b);
  }
  str(s: string): void {
    this.strBytes(Buffer.from(s, 'utf8'));
  }
  array(n: number): void {
    if (n < 16) this.bytes(0x90 | n);
    else if (n < 0x10000) this.bytes(0xdc, n >> 8, n);
    else this.bytes(0xdd, n >>> 24, n >>> 16, n >>> 8, n);
  }
  map(n: number): void {
    if (n < 16) this.bytes(0x80 | n);
    else if (n < 0x10000) this.bytes(0xde, n >> 8, n);
    else this.bytes(0xdf, n >>> 24, n >>> 16, n >>> 8, n);
  }
  /** The plain unknown value (docs/protocol.md, "Unknown values"). */
  unknown(): void {
    this.bytes(0xd4, 0, 0);
  }
  ext(type: number, data: Uint8Array): void {
    this.bytes(0xc8, data.length >> 8, data.length, type);
    this.raw(data);
  }
  finish(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }
}

/** Writes a plain JSON-like value with no schema in mind (wrong-shape payloads). */
function writeUntyped(w: MsgpackWriter, v: unknown): void {
  if (v === null || v === undefined) return w.nil();
  if (typeof v === 'boolean') return w.bool(v);
  if (typeof v === 'number') return w.number(v);
  if (typeof v === 'string') return w.str(v);
  if (Array.isArray(v)) {
    w.array(v.length);
    for (const e of v) writeUntyped(w, e);
    return;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  w.map(entries.length);
  for (const [k, e] of entries) {
    w.str(k);
    writeUntyped(w, e);
  }
}

// =============================================================================================
// Typed emission with one position replaced.
// =============================================================================================

/** Replaces the value at one position (pre-order index) while writing a typed value. */
type Replacement = (w: MsgpackWriter, type: CtyType, value: Value) => void;

/** The types of every position of `value`, in the order `writeTyped` visits them. */
function positions(type: CtyType, value: Value, out: CtyType[] = []): CtyType[] {
  out.push(type);
  if (value === null || value instanceof Unknown) return out;
  switch (type.kind) {
    case 'list':
    case 'set':
      for (const e of value as Value[]) positions(type.element, e, out);
      break;
    case 'map':
      for (const e of Object.values(value as ObjectValue)) positions(type.element, e, out);
      break;
    case 'object':
      for (const name of Object.keys(type.attributes).sort())
        positions(type.attributes[name]!, (value as ObjectValue)[name] ?? null, out);
      break;
    default:
  }
  return out;
}

function writeTyped(
  w: MsgpackWriter,
  type: CtyType,
  value: Value,
  target: { index: number; at: number; replace: Replacement },
): void {
  if (target.at++ === target.index) return target.replace(w, type, value);
  if (value === null) return w.nil();
  if (value instanceof Unknown) return w.unknown();
  switch (type.kind) {
    case 'string':
      return w.str(value as string);
    case 'bool':
      return w.bool(value as boolean);
    case 'number':
      return value instanceof Decimal ? w.str(value.text) : w.number(value as number);
    case 'list':
    case 'set': {
      const elems = value as Value[];
      w.array(elems.length);
      for (const e of elems) writeTyped(w, type.element, e, target);
      return;
    }
    case 'map': {
      const entries = Object.entries(value as ObjectValue);
      w.map(entries.length);
      for (const [k, e] of entries) {
        w.str(k);
        writeTyped(w, type.element, e, target);
      }
      return;
    }
    case 'object': {
      const names = Object.keys(type.attributes).sort();
      w.map(names.length);
      for (const name of names) {
        w.str(name);
        writeTyped(w, type.attributes[name]!, (value as ObjectValue)[name] ?? null, target);
      }
      return;
    }
    default:
      return w.nil();
  }
}

const INVALID_UTF8: readonly number[][] = [
  [0xff],
  [0xc0, 0xaf], // overlong "/"
  [0xed, 0xa0, 0x80], // a UTF-16 surrogate
  [0xe2, 0x82], // cut short
  [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
  [0x80],
];

function invalidUtf8(variant: number, padding: number): Buffer {
  return Buffer.concat([
    Buffer.from('a'.repeat(padding)),
    Buffer.from(INVALID_UTF8[variant % INVALID_UTF8.length]!),
    Buffer.from('z'),
  ]);
}

const isPrimitive = (t: CtyType) => t.kind === 'string' || t.kind === 'number' || t.kind === 'bool';

/** A position-level attack: which positions it applies to and what it writes there. */
interface PositionAttack {
  readonly category: string;
  readonly mustFail: boolean;
  readonly applies: (t: CtyType) => boolean;
  readonly write: (w: MsgpackWriter, t: CtyType, v: Value) => void;
}

function positionAttacks(knobs: { variant: number; size: number; levels: number; count: number }): PositionAttack[] {
  const { variant, size, levels, count } = knobs;
  return [
    {
      category: 'wrong-kind',
      mustFail: true,
      applies: () => true,
      // An array is never a primitive, a bool never a collection or object.
      write: (w, t) => {
        if (!isPrimitive(t)) return w.bool(true);
        w.array(1);
        w.nil();
      },
    },
    {
      category: 'invalid-utf8',
      mustFail: true,
      applies: (t) => t.kind === 'string' || t.kind === 'map' || t.kind === 'object',
      write: (w, t) => {
        if (t.kind === 'string') return w.strBytes(invalidUtf8(variant, variant % 3 === 0 ? 20 : 2));
        w.map(1);
        w.strBytes(invalidUtf8(variant, 1));
        w.nil();
      },
    },
    {
      category: 'missing-attribute',
      mustFail: true,
      applies: (t) => t.kind === 'object' && Object.keys(t.attributes).length > 0,
      write: (w, t) => {
        const names = Object.keys((t as Extract<CtyType, { kind: 'object' }>).attributes).sort();
        const drop = variant % names.length;
        w.map(names.length - 1);
        for (const [i, n] of names.entries()) {
          if (i === drop) continue;
          w.str(n);
          w.nil();
        }
      },
    },
    {
      category: 'extra-attribute',
      mustFail: true,
      applies: (t) => t.kind === 'object',
      write: (w, t) => {
        const names = Object.keys((t as Extract<CtyType, { kind: 'object' }>).attributes).sort();
        w.map(names.length + 1);
        for (const n of names) {
          w.str(n);
          w.nil();
        }
        w.str('zz_not_an_attribute');
        w.nil();
      },
    },
    {
      category: 'lying-length',
      mustFail: true,
      applies: () => true,
      // A 4 GiB string, array or map header with almost nothing behind it.
      write: (w) => w.bytes([0xdb, 0xdd, 0xdf, 0xc6][variant % 4]!, 0xff, 0xff, 0xff, 0xf0, 0x01, 0x02),
    },
    {
      category: 'deep-nesting',
      mustFail: true,
      applies: () => true,
      write: (w) => {
        const unit = [[0x91], [0x81, 0xa1, 0x61], [0x92, 0xc0]][variant % 3]!;
        const b = Buffer.alloc(unit.length * levels + 1, 0xc0);
        for (let i = 0; i < levels; i++) b.set(unit, i * unit.length);
        w.raw(b);
      },
    },
    {
      category: 'huge-string',
      mustFail: false,
      applies: (t) => t.kind === 'string',
      write: (w) => w.raw(hugeStr(size, variant)),
    },
    {
      category: 'huge-collection',
      mustFail: false,
      applies: (t) => t.kind === 'list' || t.kind === 'set' || t.kind === 'map',
      write: (w, t) => {
        const element = (t as Extract<CtyType, { kind: 'list' | 'set' | 'map' }>).element;
        if (t.kind === 'map') w.map(count);
        else w.array(count);
        for (let i = 0; i < count; i++) {
          if (t.kind === 'map') w.str(`k${i}`);
          if (element.kind === 'string') w.str(`e${i}`);
          else if (element.kind === 'number') w.number(i);
          else w.nil();
        }
      },
    },
    {
      category: 'absurd-number',
      mustFail: false,
      applies: (t) => t.kind === 'number',
      write: (w) =>
        w.str(
          [
            '1e999999999',
            '9'.repeat(size % 200_000),
            `-0.${'0'.repeat(size % 100_000)}1`,
            '1e-999999999',
            'NaN',
            'Infinity',
          ][variant % 6]!,
        ),
    },
    {
      category: 'odd-unknown',
      mustFail: false,
      applies: () => true,
      // Refinement payloads (ext 12) and other ext types with random bodies.
      write: (w) =>
        w.ext(
          variant % 2 === 0 ? 12 : variant % 128,
          Buffer.from(Array.from({ length: (variant * 37) % 1500 }, (_, i) => (i * 131 + variant) & 0xff)),
        ),
    },
  ];
}

/** A str holding `size` bytes; every third variant ends in invalid UTF-8 (then the value is invalid). */
function hugeStr(size: number, variant: number): Buffer {
  const header = Buffer.from([0xdb, size >>> 24, size >>> 16, size >>> 8, size & 0xff]);
  const body = Buffer.alloc(size, variant % 2 === 0 ? 0x61 : 0x7a);
  return Buffer.concat([header, body]);
}

// =============================================================================================
// DynamicValue payloads.
// =============================================================================================

export interface Payload {
  readonly category: string;
  readonly mustFail: boolean;
  /** The DynamicValue message, or null for an absent field. */
  readonly dv: { msgpack?: Buffer; json?: Buffer } | null;
  /** True when the payload is a non-null value that fits the schema. */
  readonly fits: boolean;
}

/** Knobs drawn once per payload: which variant of an attack, and how big. */
const knobsArb = (scale: Scale) =>
  fc.record({
    variant: fc.nat({ max: 1_000_000 }),
    size: fc.integer({ min: scale.hugeBytes[0], max: scale.hugeBytes[1] }),
    levels: levelsArb(scale),
    count: fc.integer({ min: scale.hugeCount[0], max: scale.hugeCount[1] }),
  });

/** Every kind of DynamicValue for an object type; `only` restricts to certainly-invalid ones. */
export function payloadArb(
  entry: SchemaEntry,
  scale: Scale,
  opts: { onlyInvalid?: boolean; big?: boolean } = {},
): fc.Arbitrary<Payload> {
  const key = `${opts.onlyInvalid === true}/${opts.big === true}/${scale.hugeBytes.join()}/${scale.deepLevels.join()}/${scale.hugeCount.join()}`;
  let byOptions = payloadArbCache.get(entry);
  if (!byOptions) payloadArbCache.set(entry, (byOptions = new Map()));
  let arb = byOptions.get(key);
  if (!arb) byOptions.set(key, (arb = buildPayloadArb(entry, scale, opts)));
  return arb;
}

const payloadArbCache = new WeakMap<SchemaEntry, Map<string, fc.Arbitrary<Payload>>>();

function buildPayloadArb(
  entry: SchemaEntry,
  scale: Scale,
  opts: { onlyInvalid?: boolean; big?: boolean },
): fc.Arbitrary<Payload> {
  const { type, block, fields } = entry;
  const value = fc.oneof(blockValueArb(block, 'config', fields), blockValueArb(block, 'state', fields));
  const msgpack = (bytes: Buffer, category: string, mustFail: boolean, fits = false): Payload => ({
    category,
    mustFail,
    dv: { msgpack: bytes },
    fits,
  });
  const json = (text: string | Buffer, category: string, mustFail: boolean): Payload => ({
    category,
    mustFail,
    dv: { json: Buffer.from(text) },
    fits: false,
  });

  const positional = fc.tuple(value, knobsArb(scale), fc.nat(), fc.nat()).map(([v, knobs, which, where]) => {
    const attacks = positionAttacks(knobs).filter((a) => opts.big || !a.category.startsWith('huge'));
    const usable = opts.onlyInvalid ? attacks.filter((a) => a.mustFail) : attacks;
    const attack = usable[which % usable.length]!;
    const types = positions(type, v);
    const candidates = types.map((t, i) => (attack.applies(t) ? i : -1)).filter((i) => i >= 0);
    if (candidates.length === 0) return msgpack(encodeMsgpack(type, v), 'valid', false, true);
    const w = new MsgpackWriter();
    writeTyped(w, type, v, { index: candidates[where % candidates.length]!, at: 0, replace: attack.write });
    return msgpack(w.finish(), attack.category, attack.mustFail);
  });

  const truncated = fc.tuple(value, fc.nat()).map(([v, cut]) => {
    const b = encodeMsgpack(type, v);
    // A strict, non-empty prefix of a self-delimiting encoding is never a whole value.
    return msgpack(b.subarray(0, 1 + (cut % (b.length - 1))), 'truncated', true);
  });
  const jsonDeep = fc
    .tuple(levelsArb(scale), fc.boolean())
    .map(([n, arrays]) =>
      json(arrays ? '['.repeat(n) + ']'.repeat(n) : `${'{"a":'.repeat(n)}null${'}'.repeat(n)}`, 'json-deep', true),
    );
  const invalidOnly: fc.Arbitrary<Payload>[] = [positional, truncated, jsonDeep];
  if (opts.onlyInvalid) return fc.oneof(...invalidOnly);

  const mutated = fc
    .tuple(value, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 4 }))
    .map(([v, edits]) => {
      const b = encodeMsgpack(type, v);
      for (const [at, byte] of edits) b[at % b.length] = byte;
      return msgpack(b, 'mutated', false);
    });
  const stateJson = blockValueArb(block, 'state', fields).map((v) => encodeJSON(type, v));
  return fc.oneof(
    { weight: 3, arbitrary: value.map((v) => msgpack(encodeMsgpack(type, v), 'valid', false, true)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Payload>(
        { category: 'absent', mustFail: false, dv: null, fits: false },
        msgpack(Buffer.from([0xc0]), 'null', false),
      ),
    },
    { weight: 6, arbitrary: positional },
    { weight: 2, arbitrary: truncated },
    { weight: 2, arbitrary: mutated },
    {
      weight: 2,
      arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => msgpack(Buffer.from(b), 'random-bytes', false)),
    },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 3 }).map((j) => {
        const w = new MsgpackWriter();
        writeUntyped(w, j);
        return msgpack(w.finish(), 'untyped-value', false);
      }),
    },
    { weight: 1, arbitrary: stateJson.map((t) => json(t, 'json-valid', false)) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.string({ maxLength: 200 }),
          fc.jsonValue({ maxDepth: 3 }).map((j) => JSON.stringify(j)),
        )
        .map((t) => json(t, 'json-garbage', false)),
    },
    { weight: 1, arbitrary: jsonDeep },
    {
      weight: 1,
      arbitrary: fc.tuple(stateJson, fc.nat(), fc.nat()).map(([t, at, variant]) => {
        // Raw invalid bytes inside the first string of the document (or in front of it).
        const b = Buffer.from(t);
        const quote = b.indexOf(0x22, at % b.length);
        const cut = quote < 0 ? 0 : quote + 1;
        return json(
          Buffer.concat([
            b.subarray(0, cut),
            Buffer.from(INVALID_UTF8[variant % INVALID_UTF8.length]!),
            b.subarray(cut),
          ]),
          'json-invalid-utf8',
          false,
        );
      }),
    },
  );
}

// =============================================================================================
// Whole requests.
// =============================================================================================

export interface HostileRequest {
  readonly rpc: RpcName;
  readonly category: string;
  /** The answer must carry an error diagnostic (or, for unimplemented RPCs, UNIMPLEMENTED). */
  readonly mustFail: boolean;
  /** The bytes are a valid encoding of the request message: no gRPC status error is acceptable. */
  readonly wellFormed: boolean;
  readonly bytes: Buffer;
}

/**
 * RPCs whose generated requests (a random type name) always get an error: a feature this provider
 * does not offer (moves, functions), or a resource, ephemeral, list or action type it does not have.
 */
const UNSUPPORTED_RPCS: readonly RpcName[] = [
  'MoveResourceState',
  'UpgradeResourceIdentity',
  'ValidateEphemeralResourceConfig',
  'OpenEphemeralResource',
  'RenewEphemeralResource',
  'CloseEphemeralResource',
  'ValidateListResourceConfig',
  'ValidateActionConfig',
  'PlanAction',
];
const INFO_RPCS: readonly RpcName[] = ['GetMetadata', 'GetResourceIdentitySchemas', 'GetFunctions', 'StopProvider'];
/** Left to grpc-js's UNIMPLEMENTED answer. */
export const UNIMPLEMENTED_RPCS: readonly RpcName[] = [
  'ValidateStateStoreConfig',
  'ConfigureStateStore',
  'LockState',
  'UnlockState',
  'GetStates',
  'DeleteState',
];

const requestType = (rpc: RpcName) => rpcTypes(SERVICE_NAMES.provider, rpc).request;
/** Field number of a request's type_name, from the .proto sources. */
const requestTypeNameField = (rpc: RpcName) =>
  protoSourcesRoot().lookupService(SERVICE_NAMES.provider).methods[rpc]!.resolvedRequestType!.fields.type_name!.id;

/** Appends a length-delimited field with raw bytes; for a string field the last occurrence wins. */
function withRawField(bytes: Buffer, fieldNumber: number, raw: Uint8Array): Buffer {
  const extra = protobuf.Writer.create()
    .uint32((fieldNumber << 3) | 2)
    .bytes(raw)
    .finish();
  return Buffer.concat([bytes, Buffer.from(extra)]);
}

function encode(rpc: RpcName, request: Record<string, unknown>): Buffer {
  return encodeMessage(requestType(rpc), request);
}

interface TypeName {
  readonly category: string | null;
  readonly hostile: boolean;
  readonly text?: string;
  readonly raw?: Buffer;
}

/** A real type name most of the time, otherwise one no provider has. */
function typeNameArb(
  real: readonly string[],
  others: readonly string[],
  scale: Scale,
  big: boolean,
): fc.Arbitrary<TypeName> {
  const taken = new Set([...real]);
  const unknown = (text: string, category: string): TypeName => ({ category, hostile: true, text });
  const hostile = fc.oneof(
    fc
      .string({ maxLength: 40 })
      .filter((s) => !taken.has(s))
      .map((s) => unknown(s, 'unknown-type-name')),
    fc
      .constantFrom(
        '',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'sec_%s%n%x',
        'vdb_cluster\u0000',
        'SEC_ALERT_CHANNEL_EMAIL',
        'vdb_cluster ',
        '../../etc/passwd',
      )
      .filter((s) => !taken.has(s))
      .map((s) => unknown(s, 'unknown-type-name')),
    ...(others.length > 0
      ? [
          fc
            .constantFrom(...others)
            .filter((s) => !taken.has(s))
            .map((s) => unknown(s, 'wrong-kind-type-name')),
        ]
      : []),
    fc.tuple(fc.nat(), fc.constantFrom(...real)).map(
      ([v, name]): TypeName => ({
        category: 'invalid-utf8-type-name',
        hostile: true,
        raw: Buffer.concat([Buffer.from(name), invalidUtf8(v, 0)]),
      }),
    ),
    ...(big
      ? [
          fc
            .integer({ min: scale.hugeBytes[0], max: scale.hugeBytes[1] })
            .map((n) => unknown('r'.repeat(n), 'huge-type-name')),
        ]
      : []),
  );
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...real).map((text): TypeName => ({ category: null, hostile: false, text })),
    },
    { weight: 1, arbitrary: hostile },
  );
}

const privateArb = (scale: Scale): fc.Arbitrary<{ category: string | null; mustFail: boolean; bytes: Buffer }> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant({ category: null, mustFail: false, bytes: Buffer.alloc(0) }) },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
        .map((o) => ({ category: null, mustFail: false, bytes: Buffer.from(JSON.stringify(o)) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 60 })
        .map((s) => ({ category: 'private-not-json', mustFail: true, bytes: Buffer.from(`{${s}`) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 60 })
        .map((b) => ({ category: 'private-random-bytes', mustFail: false, bytes: Buffer.from(b) })),
    },
    {
      weight: 1,
      arbitrary: levelsArb(scale).map((n) => ({
        category: 'private-deep',
        mustFail: false,
        bytes: Buffer.from('['.repeat(n) + ']'.repeat(n)),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{"__proto__":{"polluted":true}}',
          '{"constructor":{"prototype":{"polluted":true}}}',
          '[1,2,3]',
          'null',
          '"text"',
          '{"a":"\\ud800"}',
        )
        .map((s) => ({
          category: 'private-odd-json',
          mustFail: false,
          bytes: Buffer.from(s),
        })),
    },
  );

/** Field-level hostility in well-formed protobuf, per RPC. */
function requestArbs(
  cat: Catalogue,
  scale: Scale,
  opts: { big: boolean; configureOnlyInvalid: boolean },
): fc.Arbitrary<HostileRequest>[] {
  const resourceNames = cat.resources.map((r) => r.name);
  const dataNames = cat.dataSources.map((d) => d.name);
  const big = opts.big;
  const byName = new Map([...cat.resources, ...cat.dataSources].map((e) => [e.name, e] as const));

  /** A request on a resource or data source whose type name and DynamicValue fields may be hostile. */
  const typed = (
    rpc: RpcName,
    names: readonly string[],
    otherNames: readonly string[],
    dvFields: readonly { field: string; decoded: boolean }[],
    extra: (entry: SchemaEntry) => fc.Arbitrary<{
      fields: Record<string, unknown>;
      category: string | null;
      mustFail: boolean;
      needsValue?: boolean;
    }> = () => fc.constant({ fields: {}, category: null, mustFail: false }),
  ): fc.Arbitrary<HostileRequest> => {
    // The payloads of each type, built once (chain would rebuild them for every sample).
    const fieldsOf = new Map(
      names.map((name) => {
        const entry = byName.get(name)!;
        const dvs = dvFields.map((f) => payloadArb(entry, scale, { big }).map((p) => ({ ...f, p })));
        return [name, fc.tuple(fc.tuple(...dvs), extra(entry))] as const;
      }),
    );
    return typeNameArb(names, otherNames, scale, big).chain((tn) => {
      const fields = fieldsOf.get(tn.raw || !fieldsOf.has(tn.text!) ? names[0]! : tn.text!)!;
      return fields.map(([payloads, ex]): HostileRequest => {
        const request: Record<string, unknown> = { ...ex.fields };
        if (tn.text !== undefined) request.type_name = tn.text;
        for (const { field, p } of payloads) if (p.dv) request[field] = p.dv;
        let bytes = encode(rpc, request);
        if (tn.raw) bytes = withRawField(bytes, requestTypeNameField(rpc), tn.raw);
        const decodedFail = payloads.some(({ decoded, p }) => decoded && p.mustFail);
        // Extra fields that only matter once a decoded value exists (ReadResource's private).
        const extraFail = ex.mustFail && (!ex.needsValue || payloads[0]!.p.fits);
        const hostileDv = payloads.find(
          ({ p }) => p.category !== 'valid' && p.category !== 'absent' && p.category !== 'null',
        );
        return {
          rpc,
          category: tn.category ?? ex.category ?? hostileDv?.p.category ?? 'valid',
          mustFail: tn.hostile || decodedFail || extraFail,
          // proto3 strings must be UTF-8: protobuf itself rejects such a request, as Go's does.
          wellFormed: tn.raw === undefined,
          bytes,
        };
      });
    });
  };

  const privateField = (field: string, needsValue: boolean) => () =>
    privateArb(scale).map((p) => ({
      fields: { [field]: p.bytes },
      category: p.category,
      mustFail: p.mustFail,
      needsValue,
    }));

  const provider = (rpc: RpcName, extraFields: Record<string, unknown>) =>
    payloadArb(cat.provider, scale, { big, onlyInvalid: rpc === 'ConfigureProvider' && opts.configureOnlyInvalid }).map(
      (p): HostileRequest => ({
        rpc,
        category: p.category,
        mustFail: p.mustFail,
        wellFormed: true,
        bytes: encode(rpc, { ...extraFields, ...(p.dv ? { config: p.dv } : {}) }),
      }),
    );

  const hugeText = big
    ? fc.oneof(
        fc.string({ maxLength: 64 }),
        fc.integer({ min: scale.hugeBytes[0], max: scale.hugeBytes[1] }).map((n) => 'v'.repeat(n)),
      )
    : fc.string({ maxLength: 64 });

  return [
    provider('ValidateProviderConfig', {}),
    hugeText.chain((v) => provider('ConfigureProvider', { terraform_version: v })),
    typed('ValidateResourceConfig', resourceNames, dataNames, [{ field: 'config', decoded: true }]),
    typed('ValidateDataResourceConfig', dataNames, resourceNames, [{ field: 'config', decoded: true }]),
    typed('ReadDataSource', dataNames, resourceNames, [
      { field: 'config', decoded: true },
      { field: 'provider_meta', decoded: false },
    ]),
    typed(
      'ReadResource',
      resourceNames,
      dataNames,
      [
        { field: 'current_state', decoded: true },
        { field: 'provider_meta', decoded: false },
      ],
      privateField('private', true),
    ),
    typed(
      'PlanResourceChange',
      resourceNames,
      dataNames,
      [
        { field: 'prior_state', decoded: true },
        { field: 'proposed_new_state', decoded: true },
        { field: 'config', decoded: true },
        { field: 'provider_meta', decoded: false },
      ],
      privateField('prior_private', false),
    ),
    typed(
      'ApplyResourceChange',
      resourceNames,
      dataNames,
      [
        { field: 'prior_state', decoded: true },
        { field: 'planned_state', decoded: true },
        { field: 'config', decoded: false },
        { field: 'provider_meta', decoded: false },
      ],
      privateField('planned_private', false),
    ),
    typed('GenerateResourceConfig', resourceNames, dataNames, [{ field: 'state', decoded: true }]),
    typed('ImportResourceState', resourceNames, dataNames, [], () =>
      fc
        .oneof(
          hugeText,
          fc.nat().map((v) => invalidUtf8(v, 4).toString('latin1')),
        )
        .map((id) => ({ fields: { id }, category: id.length > 1000 ? 'huge-import-id' : null, mustFail: false })),
    ),
    typed('UpgradeResourceState', resourceNames, dataNames, [], (entry) =>
      fc
        .tuple(
          fc.oneof(
            { weight: 3, arbitrary: fc.constant(entry.version) },
            {
              weight: 1,
              arbitrary: fc.oneof(
                fc.integer({ min: -1000, max: -1 }),
                fc.integer({ min: entry.version + 1, max: 1000 }),
                fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
              ),
            },
          ),
          fc.oneof(
            blockValueArb(entry.block, 'state', entry.fields).map((v) => ({
              category: null as string | null,
              mustFail: false,
              raw: { json: Buffer.from(encodeJSON(entry.type, v)) },
            })),
            fc
              .string({ maxLength: 100 })
              .map((s) => ({ category: 'raw-state-garbage', mustFail: false, raw: { json: Buffer.from(s) } })),
            levelsArb(scale).map((n) => ({
              category: 'raw-state-deep',
              mustFail: true,
              raw: { json: Buffer.from(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`) },
            })),
            fc
              .dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { minKeys: 1, maxKeys: 4 })
              .map((flatmap) => ({ category: 'raw-state-flatmap', mustFail: true, raw: { flatmap } })),
            fc.constant({ category: 'raw-state-absent', mustFail: false, raw: null as unknown as { json: Buffer } }),
          ),
        )
        .map(([version, raw]) => ({
          fields: { version, ...(raw.raw ? { raw_state: raw.raw } : {}) },
          category: version !== entry.version ? 'state-version' : raw.category,
          mustFail: version !== entry.version || raw.mustFail,
        })),
    ),
    ...functionCallArbs(cat, scale, big),
    fc.constantFrom(...UNSUPPORTED_RPCS).chain((rpc) =>
      fc.string({ maxLength: 30 }).map(
        (s): HostileRequest => ({
          rpc,
          category: 'unsupported-rpc',
          mustFail: true,
          wellFormed: true,
          // PlanAction names its type `action_type`.
          bytes: encode(rpc, { type_name: s, action_type: s, name: s }),
        }),
      ),
    ),
    fc
      .constantFrom(...INFO_RPCS)
      .map(
        (rpc): HostileRequest => ({ rpc, category: 'info', mustFail: false, wellFormed: true, bytes: encode(rpc, {}) }),
      ),
  ];
}

/**
 * CallFunction of every function the provider declares, and of names it does not, with hostile
 * arguments: values of the parameter's type (null and unknown among them), of another type, huge
 * strings, deep lists, bytes that are no msgpack, absent values, and one argument too few or too many.
 * Any answer will do but a crash or a failure that blames the function (answers.ts).
 */
function functionCallArbs(cat: Catalogue, scale: Scale, big: boolean): fc.Arbitrary<HostileRequest>[] {
  const named = cat.functions.map((fn) => fc.constant({ name: fn.name, fn }));
  const unnamed = fc.string({ maxLength: 40 }).map((name) => ({ name, fn: undefined as FunctionDef | undefined }));
  const anyType = fc.constantFrom<CtyType>(STRING, NUMBER, BOOL, listOf(STRING), objectOf({ a: STRING }), DYNAMIC);
  const argument = (type: CtyType): fc.Arbitrary<{ dv: Record<string, unknown> | undefined; category: string }> =>
    fc.oneof(
      { weight: 4, arbitrary: valueArb(type, { unknowns: true, nulls: true }).map((v) => typed(type, v, 'valid')) },
      {
        weight: 2,
        arbitrary: anyType.chain((t) =>
          valueArb(t, { unknowns: true, nulls: true }).map((v) => typed(t, v, 'wrong-type')),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 1, max: big ? scale.hugeBytes[1] : 4096 })
          .map((n) => typed(STRING, 'x'.repeat(n), 'huge-argument')),
      },
      {
        weight: 1,
        arbitrary: levelsArb(scale).map((n) => ({
          dv: { msgpack: Buffer.concat([Buffer.alloc(n, 0x91), Buffer.from([0xc0])]) },
          category: 'deep-argument',
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .uint8Array({ maxLength: 64 })
          .map((b) => ({ dv: { msgpack: Buffer.from(b) }, category: 'random-bytes' })),
      },
      { weight: 1, arbitrary: fc.constant({ dv: undefined, category: 'absent-argument' }) },
    );
  const typed = (type: CtyType, v: Value, category: string) => {
    try {
      return { dv: { msgpack: encodeMsgpack(type, v) }, category };
    } catch {
      return { dv: { msgpack: Buffer.from([0xc0]) }, category: 'null' };
    }
  };
  return [
    fc.oneof(...(named.length > 0 ? named : []), unnamed).chain(({ name, fn }) => {
      const types = fn ? fn.parameters.map((p) => p.type) : [STRING];
      const extra = fn?.variadic ? fn.variadic.type : STRING;
      return fc
        .tuple(fc.integer({ min: -1, max: 3 }), fc.array(argument(extra), { maxLength: 3 }))
        .chain(([arity, more]) =>
          fc.tuple(...types.map(argument)).map((given): HostileRequest => {
            const args = [...given, ...(fn?.variadic ? more : [])];
            const sent = arity < 0 ? args.slice(0, -1) : arity > 2 ? [...args, ...more.slice(0, 1)] : args;
            const category =
              sent.find((a) => a.category !== 'valid')?.category ?? (fn ? 'function-call' : 'no-such-function');
            return {
              rpc: 'CallFunction',
              category,
              mustFail: fn === undefined,
              wellFormed: true,
              bytes: encode('CallFunction', { name, arguments: sent.map((a) => a.dv ?? {}) }),
            };
          }),
        );
    }),
  ];
}

const ALL_RPCS: readonly RpcName[] = [
  'CallFunction',
  'GetMetadata',
  'GetResourceIdentitySchemas',
  'GetFunctions',
  'ValidateProviderConfig',
  'ValidateResourceConfig',
  'ValidateDataResourceConfig',
  'UpgradeResourceState',
  'ReadResource',
  'PlanResourceChange',
  'ApplyResourceChange',
  'ImportResourceState',
  'GenerateResourceConfig',
  'ReadDataSource',
  'StopProvider',
  ...UNSUPPORTED_RPCS,
];

/** Bytes that are not a valid request, or valid only by accident: any answer but a crash is fine. */
function malformedArbs(
  scale: Scale,
  wellFormedRequest: fc.Arbitrary<HostileRequest>,
  opts: { withUnimplemented: boolean; configureOnlyInvalid: boolean },
): fc.Arbitrary<HostileRequest>[] {
  const rpcs = fc.constantFrom(...ALL_RPCS);
  const anyAnswer = (rpc: RpcName, category: string, bytes: Buffer): HostileRequest => ({
    rpc,
    category,
    mustFail: false,
    wellFormed: false,
    bytes,
  });
  const arbs: fc.Arbitrary<HostileRequest>[] = [
    fc
      .tuple(rpcs, fc.uint8Array({ maxLength: 400 }))
      .map(([rpc, b]) => anyAnswer(rpc, 'protobuf-random-bytes', Buffer.from(b))),
    fc
      .tuple(wellFormedRequest, fc.nat())
      .map(([r, cut]) =>
        anyAnswer(r.rpc, 'protobuf-truncated', r.bytes.subarray(0, r.bytes.length === 0 ? 0 : cut % r.bytes.length)),
      ),
    fc
      .tuple(wellFormedRequest, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 3 }))
      .map(([r, edits]) => {
        const b = Buffer.from(r.bytes);
        if (b.length > 0) for (const [at, byte] of edits) b[at % b.length] = byte;
        return anyAnswer(r.rpc, 'protobuf-mutated', b);
      }),
    // Unknown fields of every wire type (6 and 7 do not exist), appended to a valid request.
    fc
      .tuple(
        wellFormedRequest,
        fc.integer({ min: 100, max: 536_870_911 }),
        fc.nat({ max: 7 }),
        fc.uint8Array({ maxLength: 20 }),
      )
      .map(([r, field, wire, payload]) => {
        const w = protobuf.Writer.create().uint32((field << 3) | wire);
        if (wire === 0) w.uint64(payload.length * 1_000_003);
        else if (wire === 1) w.fixed64(payload.length);
        else if (wire === 2) w.bytes(payload);
        else if (wire === 5) w.fixed32(payload.length);
        else if (wire === 3) w.uint32((field << 3) | 4);
        return anyAnswer(r.rpc, 'protobuf-unknown-field', Buffer.concat([r.bytes, Buffer.from(w.finish())]));
      }),
    // Groups nested 1k–100k deep: protobuf's own nesting attack.
    fc
      .tuple(rpcs, levelsArb(scale))
      .map(([rpc, n]) =>
        anyAnswer(
          rpc,
          'protobuf-deep-groups',
          Buffer.concat([Buffer.alloc(n, (15 << 3) | 3), Buffer.alloc(n, (15 << 3) | 4)]),
        ),
      ),
    // A length-delimited field claiming far more bytes than follow.
    fc.tuple(rpcs, fc.integer({ min: 1, max: 15 })).map(([rpc, field]) =>
      anyAnswer(
        rpc,
        'protobuf-lying-length',
        Buffer.from(
          protobuf.Writer.create()
            .uint32((field << 3) | 2)
            .uint32(0x7fffffff)
            .finish(),
        ),
      ),
    ),
  ];
  if (opts.withUnimplemented) {
    arbs.push(
      fc.tuple(fc.constantFrom(...UNIMPLEMENTED_RPCS), fc.uint8Array({ maxLength: 40 })).map(([rpc, b]) => ({
        rpc,
        category: 'unimplemented-rpc',
        mustFail: true,
        wellFormed: false,
        bytes: Buffer.from(b),
      })),
    );
  }
  // Mangling a ConfigureProvider request could drop its (invalid) configuration: see RequestOptions.
  return arbs.map((a) => (opts.configureOnlyInvalid ? a.filter((r) => r.rpc !== 'ConfigureProvider') : a));
}

export interface RequestOptions {
  /** Include megabyte-sized payloads. */
  readonly big?: boolean;
  /** Include RPCs without a handler (the wire answers UNIMPLEMENTED). */
  readonly withUnimplemented?: boolean;
  /**
   * ConfigureProvider only with configurations that cannot decode: a configuration that happened
   * to be valid would point a long-lived provider at some API, which is not what is tested here.
   */
  readonly configureOnlyInvalid?: boolean;
}

/** Any hostile request for the provider: 3 in 4 well-formed protobuf, the rest malformed. */
export function hostileRequestArb(
  cat: Catalogue,
  scale: Scale,
  opts: RequestOptions = {},
): fc.Arbitrary<HostileRequest> {
  const o = {
    big: opts.big ?? false,
    withUnimplemented: opts.withUnimplemented ?? false,
    configureOnlyInvalid: opts.configureOnlyInvalid ?? true,
  };
  const wellFormed = fc.oneof(...requestArbs(cat, scale, o));
  return fc
    .oneof(
      { weight: 3, arbitrary: wellFormed },
      { weight: 1, arbitrary: fc.oneof(...malformedArbs(scale, wellFormed, o)) },
    )
    .map(described);
}

/** Counterexamples print as RPC, category and the start of the bytes, not megabytes of numbers. */
function described(r: HostileRequest): HostileRequest {
  const text = `${r.rpc} ${r.category} mustFail=${r.mustFail} wellFormed=${r.wellFormed} ${r.bytes.length} bytes: ${r.bytes.subarray(0, 160).toString('hex')}`;
  return Object.assign({ ...r }, { [fc.toStringMethod]: () => text });
}
