/**
 * Encoding cty values as MessagePack (DynamicValue.msgpack), byte-for-byte as go-cty's msgpack package
 * writes them (docs/protocol.md, "Values as MessagePack"): the public entry is msgpack.ts.
 */
import { Buffer } from 'node:buffer';
import { type CtyType, typeToJSONString } from './cty-type.js';
import { formatPath } from './path.js';
import {
  Decimal,
  DynamicValue,
  Unknown,
  type CtyNumber,
  type ObjectValue,
  type Refinements,
  type Value,
} from './value.js';
import { int64Of, parseNumber } from './number.js';
import { compareStringsBytewise, conformanceError, normalizeSet, sortedAttributeNames } from './value-ops.js';
import { MAX_VALUE_DEPTH, REFINED_UNKNOWN_EXT, RefinementKey } from './msgpack-format.js';

/** go-cty truncates string prefix refinements to at most this many bytes before encoding. */
const MAX_PREFIX_BYTES = 256;

/** Thrown inside the encoder when the JS value does not fit the type; turned into a TypeError with a path. */
class NonConforming extends Error {}

/**
 * Encodes a value at a type exactly as go-cty does: smallest int forms (unsigned forms for
 * non-negative values), float64 for other exact floats, decimal text otherwise; d4 00 00 or ext 12
 * for unknowns; object attributes and map keys in bytewise order; sets in cty's canonical order;
 * `[bin(type JSON), value]` at dynamic positions. Throws TypeError for a value that does not conform.
 */
export function encodeMsgpack(type: CtyType, v: Value): Buffer {
  const w = sharedWriter.reset();
  try {
    encodeValue(w, type, v, 0);
  } catch (e) {
    if (!(e instanceof NonConforming)) throw e;
    const problem = conformanceError(type, v);
    const where = problem && problem.path.length > 0 ? ` at ${formatPath(problem.path)}` : '';
    throw new TypeError(`cannot encode value as msgpack${where}: ${problem?.message ?? e.message}`);
  }
  return w.resultBuffer();
}

function encodeValue(w: ByteWriter, type: CtyType, v: Value, depth: number): void {
  if (depth > MAX_VALUE_DEPTH) throw new NonConforming(`value nesting exceeds ${MAX_VALUE_DEPTH} levels`);
  if (type.kind === 'dynamic') return encodeDynamic(w, v, depth);
  if (v === null) return w.u8(0xc0);
  if (v instanceof Unknown) return encodeUnknown(w, type, v.refinements);
  switch (type.kind) {
    case 'string':
      if (typeof v !== 'string') throw new NonConforming('string is required');
      return w.str(v);
    case 'number':
      return encodeNumber(w, v);
    case 'bool':
      if (typeof v !== 'boolean') throw new NonConforming('bool is required');
      return w.u8(v ? 0xc3 : 0xc2);
    case 'list':
      return encodeElements(w, type.element, requireArray(v), depth);
    case 'set':
      return encodeElements(w, type.element, normalizeSet(type.element, requireArray(v)), depth);
    case 'tuple': {
      const elems = requireArray(v);
      if (elems.length !== type.elements.length) throw new NonConforming('tuple length');
      w.arrayHeader(elems.length);
      for (let i = 0; i < elems.length; i++) encodeValue(w, type.elements[i]!, elems[i]!, depth + 1);
      return;
    }
    case 'map':
      return encodeMap(w, type.element, requireObject(v), depth);
    case 'object':
      return encodeObject(w, type, requireObject(v), depth);
  }
}

function requireArray(v: Value): Value[] {
  if (!Array.isArray(v)) throw new NonConforming('an array is required');
  return v;
}

function requireObject(v: Value): ObjectValue {
  if (
    typeof v !== 'object' ||
    v === null ||
    Array.isArray(v) ||
    v instanceof Decimal ||
    v instanceof DynamicValue ||
    v instanceof Unknown
  ) {
    throw new NonConforming('an object is required');
  }
  return v;
}

function encodeElements(w: ByteWriter, elementType: CtyType, elems: Value[], depth: number): void {
  w.arrayHeader(elems.length);
  for (const e of elems) encodeValue(w, elementType, e, depth + 1);
}

function encodeMap(w: ByteWriter, elementType: CtyType, m: ObjectValue, depth: number): void {
  const keys = Object.keys(m).sort(compareStringsBytewise);
  w.mapHeader(keys.length);
  for (const k of keys) {
    w.str(k);
    encodeValue(w, elementType, m[k]!, depth + 1);
  }
}

function encodeObject(w: ByteWriter, type: Extract<CtyType, { kind: 'object' }>, o: ObjectValue, depth: number): void {
  // Each name's msgpack bytes are made once per type, as the decoder matches them (objectLayout).
  const { names, encodedNames, types } = objectLayout(type);
  if (Object.keys(o).length !== names.length) throw new NonConforming('object attributes do not match the type');
  w.mapHeader(names.length);
  // Texts and bools, most attributes, are written here rather than through encodeValue (its own
  // nesting check passes for them below the deepest level).
  const leavesHere = depth < MAX_VALUE_DEPTH;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (!Object.hasOwn(o, name)) throw new NonConforming(`attribute ${JSON.stringify(name)} is required`);
    w.bytes(encodedNames[i]!);
    const type = types[i]!;
    const v = o[name]!;
    if (leavesHere && typeof v === 'string' && type.kind === 'string') w.str(v);
    else if (leavesHere && typeof v === 'boolean' && type.kind === 'bool') w.u8(v ? 0xc3 : 0xc2);
    else encodeValue(w, type, v, depth + 1);
  }
}

/**
 * docs/protocol.md, "Dynamic values": untyped null = nil, unknown = bare ext,
 * otherwise [bin(type JSON), value].
 */
function encodeDynamic(w: ByteWriter, v: Value, depth: number): void {
  if (v === null) return w.u8(0xc0);
  if (v instanceof Unknown) return w.bytes(PLAIN_UNKNOWN); // cty.DynamicVal never carries refinements
  if (!(v instanceof DynamicValue) || v.type.kind === 'dynamic') throw new NonConforming('a DynamicValue is required');
  w.arrayHeader(2);
  w.bin(typeJSONBytes(v.type));
  encodeValue(w, v.type, v.value, depth + 1);
}

const typeJSONCache = new WeakMap<CtyType, Uint8Array>();

function typeJSONBytes(t: CtyType): Uint8Array {
  let bytes = typeJSONCache.get(t);
  if (!bytes) {
    bytes = Buffer.from(typeToJSONString(t), 'utf8');
    typeJSONCache.set(t, bytes);
  }
  return bytes;
}

/**
 * go-cty marshal for numbers: an int64 → int; else (go-cty 1.12, as the vectors show, including
 * integers beyond int64 such as 2^64) an exact float64 → float64; else the decimal text as a string.
 */
function encodeNumber(w: ByteWriter, n: Value): void {
  if (typeof n === 'number') {
    if (Number.isSafeInteger(n)) return w.int(n);
    if (Number.isNaN(n)) throw new NonConforming('NaN is not a number');
    const asInt = int64Of(n);
    return asInt !== undefined ? w.bigInt(asInt) : w.f64(n);
  }
  if (!(n instanceof Decimal)) throw new NonConforming('number is required');
  const asInt = int64Of(n);
  if (asInt !== undefined) return w.bigInt(asInt);
  let parsed: CtyNumber;
  try {
    parsed = parseNumber(n.text);
  } catch {
    throw new NonConforming(`invalid number text ${JSON.stringify(n.text.slice(0, 40))}`);
  }
  if (typeof parsed === 'number') return encodeNumber(w, parsed);
  w.str(parsed.text);
}

const PLAIN_UNKNOWN = Uint8Array.of(0xd4, 0x00, 0x00);

/**
 * docs/protocol.md, "Refined unknowns": the plain unknown is d4 00 00; with refinements that fit
 * the type it is ext 12 holding a map {1: false (not null), 2: prefix, 3/4: [bound, inclusive],
 * 5/6: length bounds}, keys in that order, exactly as go-cty's marshalUnknownValue writes them.
 */
function encodeUnknown(w: ByteWriter, type: CtyType, r: Readonly<Refinements> | null): void {
  if (!r) return w.bytes(PLAIN_UNKNOWN);
  const body = new ByteWriter(32);
  let entries = 0;
  if (r.notNull) {
    body.u8(RefinementKey.Nullness);
    body.u8(0xc2);
    entries++;
  }
  switch (type.kind) {
    case 'number':
      entries += encodeNumberBound(body, RefinementKey.NumberMin, r.numberLower, -Infinity);
      entries += encodeNumberBound(body, RefinementKey.NumberMax, r.numberUpper, Infinity);
      break;
    case 'string':
      if (r.stringPrefix) {
        body.u8(RefinementKey.StringPrefix);
        body.str(truncatePrefix(r.stringPrefix));
        entries++;
      }
      break;
    case 'list':
    case 'set':
    case 'map':
      if (r.lengthLower !== undefined && r.lengthLower !== 0) {
        body.u8(RefinementKey.LengthMin);
        body.int(r.lengthLower);
        entries++;
      }
      if (r.lengthUpper !== undefined && Number.isSafeInteger(r.lengthUpper)) {
        body.u8(RefinementKey.LengthMax);
        body.int(r.lengthUpper);
        entries++;
      }
      break;
  }
  if (entries === 0) return w.bytes(PLAIN_UNKNOWN); // never send ext 12 with an empty map
  const payload = new ByteWriter(body.length + 5);
  payload.mapHeader(entries);
  payload.bytes(body.result());
  w.ext(REFINED_UNKNOWN_EXT, payload.result());
}

function encodeNumberBound(
  body: ByteWriter,
  key: RefinementKey,
  bound: [CtyNumber, boolean] | undefined,
  unbounded: number,
): number {
  if (!bound || bound[0] === unbounded) return 0;
  body.u8(key);
  body.arrayHeader(2);
  encodeNumber(body, bound[0]);
  body.u8(bound[1] ? 0xc3 : 0xc2);
  return 1;
}

/** Delimiters that can never join a following character into one grapheme (ctystrings.SafeKnownPrefix). */
const SAFE_PREFIX_END = new Set('-_:;/\\,.(){}[]|?!~ \t@#$%^&*+"\''.split(''));

/**
 * go-cty caps a prefix at 256 bytes: cut to 255 bytes, NFC-normalize, then drop the last grapheme
 * cluster unless it is a lone delimiter. (The NFC "last boundary" step of SafeKnownPrefix is covered
 * by dropping the final cluster.)
 */
function truncatePrefix(prefix: string): string {
  if (Buffer.byteLength(prefix, 'utf8') <= MAX_PREFIX_BYTES) return prefix;
  let cut = '';
  let bytes = 0;
  for (const ch of prefix) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > MAX_PREFIX_BYTES - 1) break;
    cut += ch;
    bytes += size;
  }
  const segments = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(cut.normalize('NFC'))].map(
    (s) => s.segment,
  );
  const last = segments[segments.length - 1];
  if (last !== undefined && !(last.length === 1 && SAFE_PREFIX_END.has(last))) segments.pop();
  return segments.join('');
}

const SHARED_WRITER_BYTES = 4096;
const SHARED_WRITER_KEPT_BYTES = 64 * 1024;

/** Growable output buffer with msgpack primitives in their smallest forms. */
class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.pos;
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }

  /** Starts over; a buffer grown for a large value is not kept. */
  reset(): this {
    this.pos = 0;
    if (this.buf.length > SHARED_WRITER_KEPT_BYTES) {
      this.buf = new Uint8Array(SHARED_WRITER_BYTES);
      this.view = new DataView(this.buf.buffer);
    }
    return this;
  }

  /** The bytes written, in a Buffer of their own size (small ones from node's pool, not a new allocation). */
  resultBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    out.set(this.buf.subarray(0, this.pos));
    return out;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  private u8u16(code: number, n: number): void {
    this.ensure(3);
    this.buf[this.pos] = code;
    this.view.setUint16(this.pos + 1, n);
    this.pos += 3;
  }

  private u8u32(code: number, n: number): void {
    this.ensure(5);
    this.buf[this.pos] = code;
    this.view.setUint32(this.pos + 1, n);
    this.pos += 5;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A safe integer in the smallest form: non-negative → fixint/uint8..64, negative → fixint/int8..64. */
  int(n: number): void {
    if (n >= 0) {
      if (n < 0x80) return this.u8(n);
      if (n <= 0xff) {
        this.ensure(2);
        this.buf[this.pos++] = 0xcc;
        this.buf[this.pos++] = n;
        return;
      }
      if (n <= 0xffff) return this.u8u16(0xcd, n);
      if (n <= 0xffffffff) return this.u8u32(0xce, n);
      this.ensure(9);
      this.buf[this.pos] = 0xcf;
      this.view.setUint32(this.pos + 1, Math.floor(n / 0x100000000));
      this.view.setUint32(this.pos + 5, n >>> 0);
      this.pos += 9;
      return;
    }
    if (n >= -32) return this.u8(n & 0xff);
    if (n >= -0x80) {
      this.ensure(2);
      this.buf[this.pos++] = 0xd0;
      this.buf[this.pos++] = n & 0xff;
      return;
    }
    if (n >= -0x8000) return this.u8u16(0xd1, n & 0xffff);
    if (n >= -0x80000000) return this.u8u32(0xd2, n >>> 0);
    this.bigInt(BigInt(n));
  }

  /** An int64 value (already range-checked by the caller). */
  bigInt(b: bigint): void {
    if (b >= -0x80000000n && b <= MAX_SAFE_BIGINT) return this.int(Number(b));
    this.ensure(9);
    if (b >= 0n) {
      this.buf[this.pos] = 0xcf;
      this.view.setBigUint64(this.pos + 1, b);
    } else {
      this.buf[this.pos] = 0xd3;
      this.view.setBigInt64(this.pos + 1, b);
    }
    this.pos += 9;
  }

  f64(x: number): void {
    this.ensure(9);
    this.buf[this.pos] = 0xcb;
    this.view.setFloat64(this.pos + 1, x);
    this.pos += 9;
  }

  str(s: string): void {
    // Short ASCII, the usual string, is copied in one pass behind a fixstr header.
    if (s.length < 32 && this.fixAscii(s)) return;
    const len = Buffer.byteLength(s, 'utf8');
    if (len < 32) this.u8(0xa0 | len);
    else if (len <= 0xff) {
      this.u8(0xd9);
      this.u8(len);
    } else if (len <= 0xffff) this.u8u16(0xda, len);
    else this.u8u32(0xdb, len);
    this.utf8(s, len);
  }

  /** Writes `s` as a fixstr if it is ASCII (and shorter than 32); false, with nothing written, if not. */
  private fixAscii(s: string): boolean {
    const length = s.length;
    this.ensure(1 + length);
    const buf = this.buf;
    const at = this.pos;
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) return false;
      buf[at + 1 + i] = c;
    }
    buf[at] = 0xa0 | length;
    this.pos = at + 1 + length;
    return true;
  }

  bin(b: Uint8Array): void {
    if (b.length <= 0xff) {
      this.u8(0xc4);
      this.u8(b.length);
    } else if (b.length <= 0xffff) this.u8u16(0xc5, b.length);
    else this.u8u32(0xc6, b.length);
    this.bytes(b);
  }

  arrayHeader(n: number): void {
    if (n < 16) this.u8(0x90 | n);
    else if (n <= 0xffff) this.u8u16(0xdc, n);
    else this.u8u32(0xdd, n);
  }

  mapHeader(n: number): void {
    if (n < 16) this.u8(0x80 | n);
    else if (n <= 0xffff) this.u8u16(0xde, n);
    else this.u8u32(0xdf, n);
  }

  /** Ext header in vmihailenco's choice of form: fixext for 1/2/4/8/16 bytes, else ext8/16/32. */
  ext(type: number, payload: Uint8Array): void {
    const n = payload.length;
    const fixed = FIXEXT_CODES.get(n);
    if (fixed !== undefined) this.u8(fixed);
    else if (n <= 0xff) {
      this.u8(0xc7);
      this.u8(n);
    } else if (n <= 0xffff) this.u8u16(0xc8, n);
    else this.u8u32(0xc9, n);
    this.u8(type);
    this.bytes(payload);
  }

  private utf8(s: string, byteLength: number): void {
    this.ensure(byteLength);
    UTF8_ENCODER.encodeInto(s, this.buf.subarray(this.pos, this.pos + byteLength));
    this.pos += byteLength;
  }
}

/**
 * The writer every encodeMsgpack call uses (encoding is synchronous, so one at a time): a new one per
 * value allocated two ArrayBuffers and a DataView, a visible share of each RPC
 * (docs/benchmarks.md, "Refresh and plan against a Go provider (2026-11-23 to 2026-11-24)").
 */
const sharedWriter = new ByteWriter(SHARED_WRITER_BYTES);

const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

const FIXEXT_CODES = new Map([
  [1, 0xd4],
  [2, 0xd5],
  [4, 0xd6],
  [8, 0xd7],
  [16, 0xd8],
]);

const UTF8_ENCODER = new TextEncoder();

/** An object type as its codecs walk it, in the order they write it (bytewise by name). */
interface ObjectLayout {
  readonly names: readonly string[];
  /** Each name as msgpack str bytes (header included): what the encoder writes and matchKey expects. */
  readonly encodedNames: readonly Uint8Array[];
  /** Each attribute's type, at its name's place. */
  readonly types: readonly CtyType[];
}

const objectLayouts = new WeakMap<CtyType, ObjectLayout>();

/** The layout of an object type, made once per type. */
export function objectLayout(type: Extract<CtyType, { kind: 'object' }>): ObjectLayout {
  let layout = objectLayouts.get(type);
  if (!layout) {
    const names = sortedAttributeNames(type);
    layout = {
      names,
      encodedNames: names.map((name) => {
        const w = new ByteWriter(name.length * 3 + 5);
        w.str(name);
        return w.result();
      }),
      types: names.map((name) => type.attributes[name]!),
    };
    objectLayouts.set(type, layout);
  }
  return layout;
}
