/**
 * cty values as MessagePack (DynamicValue.msgpack), byte-for-byte as go-cty's msgpack package writes
 * them (protocol.md §3.2–§3.3, /work/shared/conformance vectors), and a strict, bounded decoder.
 *
 * Hand-written rather than built on @msgpack/msgpack: the codec needs exact int64/uint64 handling,
 * ext 12 payloads, bin-typed dynamic types and type-driven decoding without an intermediate tree.
 */
import { Buffer } from 'node:buffer';
import { type CtyType, DYNAMIC, NUMBER, BOOL, tupleOf, typeFromJSON, typeToJSONString } from './cty-type.js';
import { formatPath, type AttributePath, type PathStep } from './path.js';
import {
  Decimal,
  DynamicValue,
  Unknown,
  UNKNOWN,
  type CtyNumber,
  type ObjectValue,
  type Refinements,
  type Value,
} from './value.js';
import { int64Of, numberEquals, numberFromBigInt, parseNumber } from './number.js';
import {
  compareStringsBytewise,
  conformanceError,
  dedupeSetElements,
  normalizeSet,
  sortedAttributeNames,
  nfc,
} from './value-ops.js';
import { setEntry } from './entries.js';

/** Deepest container nesting accepted by the decoders (and produced by the encoders). */
export const MAX_VALUE_DEPTH = 200;

/** Largest ext 12 refinement payload Terraform accepts (go-cty unmarshalUnknownValue). */
const MAX_REFINEMENT_PAYLOAD = 1024;

/** ext type code of a refined unknown (protocol.md §3.3). */
const REFINED_UNKNOWN_EXT = 0x0c;

/** Refinement map keys (protocol.md §3.3). */
const enum RefinementKey {
  Nullness = 1,
  StringPrefix = 2,
  NumberMin = 3,
  NumberMax = 4,
  LengthMin = 5,
  LengthMax = 6,
}

/** go-cty truncates string prefix refinements to at most this many bytes before encoding. */
const MAX_PREFIX_BYTES = 256;

/**
 * A value that does not decode at its type. `message` reads like Terraform's own errors
 * (`an object with 7 attributes is required (6 given)`); `path` locates it.
 */
export class ValueDecodeError extends Error {
  override readonly name = 'ValueDecodeError';
  constructor(
    readonly path: AttributePath,
    message: string,
  ) {
    super(message);
  }
}

// =============================================================================================
// Encoding
// =============================================================================================

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

/** protocol.md §3.2: untyped null = nil, unknown = bare ext, otherwise [bin(type JSON), value]. */
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
 * protocol.md §3.3: the plain unknown is d4 00 00; with refinements that fit the type it is ext 12
 * holding a map {1: false (not null), 2: prefix, 3/4: [bound, inclusive], 5/6: length bounds}, keys in
 * that order, exactly as go-cty's marshalUnknownValue writes them.
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

// =============================================================================================
// Decoding
// =============================================================================================

/**
 * Decodes DynamicValue.msgpack at a type. Accepts every msgpack form Terraform may use (any int
 * width, float32/64, numbers as decimal strings, keys in any order, fixext/ext8 unknowns, ext 12
 * refinements) and rejects anything else with a ValueDecodeError; never another exception type,
 * never allocation from an unchecked length prefix, nesting bounded by MAX_VALUE_DEPTH.
 */
export function decodeMsgpack(type: CtyType, bytes: Uint8Array): Value {
  return decodeMsgpackNoting(type, bytes).value;
}

/** A decoded value and what the decoder saw on the way, which spares the checks that follow a walk. */
export interface DecodedMsgpack {
  readonly value: Value;
  /** Whether an unknown was read anywhere: if not, the value is wholly known. */
  readonly sawUnknown: boolean;
  /** Whether a null was read as an element of a list, set or map: if not, no collection holds a null element. */
  readonly sawNullElement: boolean;
}

/** decodeMsgpack, saying what it saw (DecodedMsgpack). */
export function decodeMsgpackNoting(type: CtyType, bytes: Uint8Array): DecodedMsgpack {
  const r = new MsgpackReader(bytes, 0, bytes.length);
  try {
    const value = r.decodeValue(type, 0);
    if (r.pos !== r.end) r.fail(`unexpected ${r.end - r.pos} trailing byte(s) after the value`);
    return { value, sawUnknown: r.sawUnknown, sawNullElement: r.sawNullElement };
  } catch (e) {
    throw asDecodeError(e);
  }
}

/**
 * What a decode threw, as a ValueDecodeError. Defensive: anything unexpected (e.g. a stack overflow
 * on a hostile type) becomes a decode error too.
 */
function asDecodeError(e: unknown): ValueDecodeError {
  if (e instanceof ValueDecodeError) return e;
  return new ValueDecodeError([], `malformed msgpack value: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * A decode error from inside a container, on its way out: its path (relative to the value inside)
 * now starts with the step into it. Paths are made only for a value that fails, here, rather than
 * kept for every value decoded. Inside a set element (`step` null) the path stops at the set (path.ts).
 */
function under(step: PathStep | null, e: unknown): ValueDecodeError {
  const inner = asDecodeError(e);
  return new ValueDecodeError(step === null ? [] : [step, ...inner.path], inner.message);
}

const TEXT_DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NUMBER_BOUND_TYPE = tupleOf([NUMBER, BOOL]);

/** Largest list a length refinement may collapse into (go-cty builds one; we bound the allocation). */
const MAX_COLLAPSED_LIST = 1024;

class MsgpackReader {
  pos: number;
  /** An ext (an unknown, whatever it became) was read. */
  sawUnknown = false;
  /** A null was read as a list, set or map element. */
  sawNullElement = false;
  /** Made when a multi-byte number is read: most values need none. */
  private dataView: DataView | undefined;
  private readonly buffer: Buffer;

  constructor(
    private readonly bytes: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
    // The protobuf codecs hand DynamicValue bytes over as Buffers already.
    this.buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private get view(): DataView {
    this.dataView ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    return this.dataView;
  }

  /** Fails at the value being read; the containers around it add their steps to the path (`under`). */
  fail(message: string): never {
    throw new ValueDecodeError([], message);
  }

  private need(n: number): void {
    if (this.end - this.pos < n) this.fail('unexpected end of msgpack data');
  }

  private peek(): number {
    if (this.pos >= this.end) this.fail('unexpected end of msgpack data');
    return this.bytes[this.pos]!;
  }

  decodeValue(type: CtyType, depth: number): Value {
    if (depth > MAX_VALUE_DEPTH) this.fail(`value nesting exceeds the maximum depth of ${MAX_VALUE_DEPTH}`);
    const code = this.peek();
    // Every extension is an unknown value (go-cty unmarshal), whatever the type.
    if ((code >= 0xd4 && code <= 0xd8) || (code >= 0xc7 && code <= 0xc9)) return this.decodeUnknown(type, depth);
    if (type.kind === 'dynamic') return this.decodeDynamic(depth);
    if (code === 0xc0) {
      this.pos++;
      return null;
    }
    switch (type.kind) {
      case 'string':
        return this.decodeString();
      case 'number':
        return this.decodeNumber();
      case 'bool':
        return this.decodeBool();
      case 'list':
        return this.decodeList(type.element, depth);
      case 'set':
        return this.decodeSet(type.element, depth);
      case 'tuple':
        return this.decodeTuple(type.elements, depth);
      case 'map':
        return this.decodeMap(type.element, depth);
      case 'object':
        return this.decodeObject(type, depth);
    }
  }

  // ----- primitives -----

  private decodeBool(): boolean {
    const code = this.bytes[this.pos];
    if (code !== 0xc2 && code !== 0xc3) this.fail('bool is required');
    this.pos++;
    return code === 0xc3;
  }

  private decodeString(): string {
    const len = this.strLength();
    if (len < 0) this.fail('string is required');
    return this.text(len);
  }

  /** protocol.md §3.2: ints of any width, float32/64, or a decimal string. */
  private decodeNumber(): CtyNumber {
    const code = this.bytes[this.pos]!;
    if (code <= 0x7f) {
      this.pos++;
      return code;
    }
    if (code >= 0xe0) {
      this.pos++;
      return code - 0x100;
    }
    switch (code) {
      case 0xcc:
      case 0xcd:
      case 0xce:
      case 0xcf:
      case 0xd0:
      case 0xd1:
      case 0xd2:
      case 0xd3:
        return this.readInteger(code);
      case 0xca:
      case 0xcb:
        return this.readFloat(code);
    }
    const len = this.strLength();
    if (len < 0) this.fail('number is required');
    try {
      return parseNumber(this.utf8(len));
    } catch (e) {
      if (e instanceof ValueDecodeError) throw e;
      return this.fail('number is required');
    }
  }

  private readInteger(code: number): CtyNumber {
    const p = this.pos + 1;
    const v = this.view;
    switch (code) {
      case 0xcc:
        this.need(2);
        this.pos += 2;
        return this.bytes[p]!;
      case 0xcd:
        this.need(3);
        this.pos += 3;
        return v.getUint16(p);
      case 0xce:
        this.need(5);
        this.pos += 5;
        return v.getUint32(p);
      case 0xcf: {
        this.need(9);
        this.pos += 9;
        const hi = v.getUint32(p);
        return hi < 0x200000 ? hi * 0x100000000 + v.getUint32(p + 4) : numberFromBigInt(v.getBigUint64(p));
      }
      case 0xd0:
        this.need(2);
        this.pos += 2;
        return v.getInt8(p);
      case 0xd1:
        this.need(3);
        this.pos += 3;
        return v.getInt16(p);
      case 0xd2:
        this.need(5);
        this.pos += 5;
        return v.getInt32(p);
      default: {
        this.need(9);
        this.pos += 9;
        const hi = v.getInt32(p);
        return hi >= -0x200000 && hi < 0x200000
          ? hi * 0x100000000 + v.getUint32(p + 4)
          : numberFromBigInt(v.getBigInt64(p));
      }
    }
  }

  private readFloat(code: number): number {
    const size = code === 0xca ? 4 : 8;
    this.need(1 + size);
    const f = size === 4 ? this.view.getFloat32(this.pos + 1) : this.view.getFloat64(this.pos + 1);
    if (Number.isNaN(f)) this.fail('number is required (NaN is not a number)');
    this.pos += 1 + size;
    return f;
  }

  /** Length of a str (or, leniently, bin) at pos, consuming its header; -1 if it is neither. */
  private strLength(): number {
    const code = this.peek();
    let len: number;
    let header: number;
    if (code >= 0xa0 && code <= 0xbf) {
      len = code & 0x1f;
      header = 1;
    } else if (code === 0xd9 || code === 0xc4) {
      this.need(2);
      len = this.bytes[this.pos + 1]!;
      header = 2;
    } else if (code === 0xda || code === 0xc5) {
      this.need(3);
      len = this.view.getUint16(this.pos + 1);
      header = 3;
    } else if (code === 0xdb || code === 0xc6) {
      this.need(5);
      len = this.view.getUint32(this.pos + 1);
      header = 5;
    } else return -1;
    this.pos += header;
    this.need(len);
    return len;
  }

  /**
   * A string's `len` bytes as cty holds text: NFC, which ASCII (the usual text) is already. Valid
   * UTF-8 decodes to as many UTF-16 units as it has bytes only when every byte is ASCII.
   */
  private text(len: number): string {
    const s = this.utf8(len);
    return s.length === len ? s : nfc(s);
  }

  /** Decodes `len` bytes of strict UTF-8 (invalid sequences are errors, a BOM is kept). */
  private utf8(len: number): string {
    const start = this.pos;
    const end = start + len;
    this.pos = end;
    if (len <= 16) {
      let s = '';
      for (let i = start; i < end; i++) {
        const b = this.bytes[i]!;
        if (b > 0x7f) return this.utf8Slow(start, end);
        s += String.fromCharCode(b);
      }
      return s;
    }
    return this.utf8Slow(start, end);
  }

  private utf8Slow(start: number, end: number): string {
    const s = this.buffer.toString('utf8', start, end);
    // Buffer decoding replaces bad sequences with U+FFFD; only then pay for a strict check.
    if (s.includes('\ufffd')) {
      try {
        TEXT_DECODER.decode(this.bytes.subarray(start, end));
      } catch {
        this.fail('string is not valid UTF-8');
      }
    }
    return s;
  }

  // ----- containers -----

  private arrayLength(what: string): number {
    const code = this.peek();
    let len: number;
    if (code >= 0x90 && code <= 0x9f) {
      this.pos++;
      len = code & 0x0f;
    } else if (code === 0xdc) {
      this.need(3);
      len = this.view.getUint16(this.pos + 1);
      this.pos += 3;
    } else if (code === 0xdd) {
      this.need(5);
      len = this.view.getUint32(this.pos + 1);
      this.pos += 5;
    } else return this.fail(what);
    // Every element takes at least one byte: a larger count cannot be honest.
    this.need(len);
    return len;
  }

  private mapLength(what: string): number {
    const code = this.peek();
    let len: number;
    if (code >= 0x80 && code <= 0x8f) {
      this.pos++;
      len = code & 0x0f;
    } else if (code === 0xde) {
      this.need(3);
      len = this.view.getUint16(this.pos + 1);
      this.pos += 3;
    } else if (code === 0xdf) {
      this.need(5);
      len = this.view.getUint32(this.pos + 1);
      this.pos += 5;
    } else return this.fail(what);
    this.need(len * 2);
    return len;
  }

  private decodeList(elementType: CtyType, depth: number): Value[] {
    const n = this.arrayLength('a list is required');
    const out: Value[] = new Array(n);
    let i = 0;
    try {
      for (; i < n; i++) if ((out[i] = this.decodeValue(elementType, depth + 1)) === null) this.sawNullElement = true;
    } catch (e) {
      throw under({ index: i }, e);
    }
    return out;
  }

  private decodeSet(elementType: CtyType, depth: number): Value[] {
    const n = this.arrayLength('a set is required');
    const out: Value[] = new Array(n);
    try {
      for (let i = 0; i < n; i++)
        if ((out[i] = this.decodeValue(elementType, depth + 1)) === null) this.sawNullElement = true;
    } catch (e) {
      throw under(null, e);
    }
    // Duplicates collapse, as in cty.SetVal; the wire order is kept (it is already canonical from Terraform).
    return n < 2 ? out : dedupeSetElements(elementType, out);
  }

  private decodeTuple(types: readonly CtyType[], depth: number): Value[] {
    const n = this.arrayLength('a tuple is required');
    if (n !== types.length) this.fail(`a tuple of length ${types.length} is required`);
    const out: Value[] = new Array(n);
    let i = 0;
    try {
      for (; i < n; i++) out[i] = this.decodeValue(types[i]!, depth + 1);
    } catch (e) {
      throw under({ index: i }, e);
    }
    return out;
  }

  private decodeMap(elementType: CtyType, depth: number): ObjectValue {
    const n = this.mapLength('a map is required');
    const out: ObjectValue = {};
    for (let i = 0; i < n; i++) {
      const key = this.decodeKey('non-string key in map');
      let v: Value;
      try {
        v = this.decodeValue(elementType, depth + 1);
      } catch (e) {
        throw under({ key }, e);
      }
      if (v === null) this.sawNullElement = true;
      setEntry(out, key, v);
    }
    return out;
  }

  private decodeObject(type: Extract<CtyType, { kind: 'object' }>, depth: number): ObjectValue {
    const { names, encodedNames: predicted, types } = objectLayout(type);
    const expected = names.length;
    const n = this.mapLength('an object is required');
    if (n !== expected) this.fail(`an object with ${expected} attributes is required (${n} given)`);
    const out: ObjectValue = {};
    // While every key is the one expected at its place, each is a distinct attribute of the type.
    let inOrder = true;
    // Texts, bools and nulls, most attributes, are read here in one step rather than through
    // decodeValue, whose checks they pass below the deepest level.
    const leavesHere = depth < MAX_VALUE_DEPTH;
    for (let i = 0; i < n; i++) {
      // Terraform sends attributes in sorted order: try the expected name's bytes before decoding text.
      let key: string;
      let attributeType: CtyType;
      if (inOrder && this.matchKey(predicted[i]!)) {
        key = names[i]!;
        attributeType = types[i]!;
      } else {
        inOrder = false;
        key = this.decodeKey('all keys must be strings');
        if (!Object.hasOwn(type.attributes, key)) this.fail(`unsupported attribute ${JSON.stringify(key)}`);
        if (Object.hasOwn(out, key)) this.fail(`duplicate attribute ${JSON.stringify(key)}`);
        attributeType = type.attributes[key]!;
      }
      try {
        const code = leavesHere && this.pos < this.end ? this.bytes[this.pos]! : -1;
        let v: Value;
        if (code === 0xc0) {
          this.pos++;
          v = null;
        } else if (code >= 0xa0 && code <= 0xbf && attributeType.kind === 'string') {
          this.pos++;
          const len = code & 0x1f;
          this.need(len);
          v = this.text(len);
        } else if ((code === 0xc2 || code === 0xc3) && attributeType.kind === 'bool') {
          this.pos++;
          v = code === 0xc3;
        } else v = this.decodeValue(attributeType, depth + 1);
        setEntry(out, key, v);
      } catch (e) {
        throw under({ attr: key }, e);
      }
    }
    return out;
  }

  /** Consumes the key if it is exactly `encoded` (a str with its header), without building a string. */
  private matchKey(encoded: Uint8Array): boolean {
    const len = encoded.length;
    if (this.end - this.pos < len) return false;
    const bytes = this.bytes;
    const at = this.pos;
    for (let i = 0; i < len; i++) if (bytes[at + i] !== encoded[i]) return false;
    this.pos += len;
    return true;
  }

  private decodeKey(what: string): string {
    const code = this.peek();
    if (!((code >= 0xa0 && code <= 0xbf) || code === 0xd9 || code === 0xda || code === 0xdb)) this.fail(what);
    return this.utf8(this.strLength());
  }

  /** protocol.md §3.2: nil = untyped null; otherwise [type JSON as bin (or str), value]. */
  private decodeDynamic(depth: number): Value {
    if (this.bytes[this.pos] === 0xc0) {
      this.pos++;
      return null;
    }
    const n = this.arrayLength('a dynamic value must be a [type, value] array');
    if (n !== 2) this.fail('dynamic value array must have exactly two elements');
    const len = this.strLength();
    if (len < 0) this.fail('the type of a dynamic value must be JSON bytes');
    const type = this.parseDynamicType(this.utf8(len));
    // A "dynamic" concrete type just nests another dynamic value (cty does the same).
    if (type.kind === 'dynamic') return this.decodeValue(DYNAMIC, depth + 1);
    return new DynamicValue(type, this.decodeValue(type, depth + 1));
  }

  private parseDynamicType(json: string): CtyType {
    const cached = dynamicTypeCache.get(json);
    if (cached) return cached;
    let type: CtyType;
    try {
      type = typeFromJSON(JSON.parse(json));
    } catch (e) {
      return this.fail(`invalid type in dynamic value: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (dynamicTypeCache.size >= 256) dynamicTypeCache.clear();
    dynamicTypeCache.set(json, type);
    return type;
  }

  // ----- unknowns -----

  private readExtHeader(): { extType: number; length: number } {
    const code = this.bytes[this.pos]!;
    let length: number;
    let header: number;
    if (code >= 0xd4 && code <= 0xd8) {
      length = 1 << (code - 0xd4);
      header = 1;
    } else if (code === 0xc7) {
      this.need(2);
      length = this.bytes[this.pos + 1]!;
      header = 2;
    } else if (code === 0xc8) {
      this.need(3);
      length = this.view.getUint16(this.pos + 1);
      header = 3;
    } else {
      this.need(5);
      length = this.view.getUint32(this.pos + 1);
      header = 5;
    }
    this.need(header + 1 + length);
    const extType = this.view.getInt8(this.pos + header);
    this.pos += header + 1;
    return { extType, length };
  }

  /**
   * protocol.md §3.3: an ext with ≤ 1 payload byte is a plain unknown; ext 12 carries refinements.
   * Other ext types with longer payloads are read as plain unknowns too (Terraform rejects them; we
   * are lenient since they cannot mean anything else).
   */
  private decodeUnknown(type: CtyType, depth: number): Value {
    this.sawUnknown = true;
    const { extType, length } = this.readExtHeader();
    const bodyStart = this.pos;
    this.pos += length;
    if (length <= 1 || extType !== REFINED_UNKNOWN_EXT) return UNKNOWN;
    if (length > MAX_REFINEMENT_PAYLOAD) this.fail('oversize unknown value refinement');
    const body = new MsgpackReader(this.bytes, bodyStart, bodyStart + length);
    try {
      return readRefinedUnknown(body, type, depth);
    } catch (e) {
      if (e instanceof ValueDecodeError) this.fail(`failed to decode msgpack extension body: ${e.message}`);
      throw e;
    }
  }

  // ----- helpers for the refinement payload -----

  readMapLength(): number {
    return this.mapLength('not a map');
  }

  readRefinementKey(): number {
    const code = this.peek();
    const isInt = code <= 0x7f || code >= 0xe0 || (code >= 0xcc && code <= 0xd3);
    if (!isInt) this.fail('non-integer key in map');
    const k = this.decodeNumber();
    return typeof k === 'number' ? k : -1;
  }

  readBool(what: string): boolean {
    const code = this.peek();
    if (code !== 0xc2 && code !== 0xc3) this.fail(what);
    this.pos++;
    return code === 0xc3;
  }

  readPrefix(): string {
    const code = this.peek();
    if (!((code >= 0xa0 && code <= 0xbf) || code === 0xd9 || code === 0xda || code === 0xdb))
      this.fail('string prefix refinement is not string');
    return this.text(this.strLength());
  }

  readLength(): number {
    const code = this.peek();
    const isInt = code <= 0x7f || code >= 0xe0 || (code >= 0xcc && code <= 0xd3);
    const n = isInt ? this.decodeNumber() : -1;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
      this.fail('length bound refinement must be a non-negative integer');
    return n;
  }

  readNumberBound(depth: number): [CtyNumber, boolean] {
    let bound: Value;
    try {
      bound = this.decodeValue(NUMBER_BOUND_TYPE, depth + 1);
    } catch {
      return this.fail('number bound refinement must be [number, bool] array');
    }
    const [n, inclusive] = Array.isArray(bound) ? bound : [];
    if (!(typeof n === 'number' || n instanceof Decimal) || typeof inclusive !== 'boolean') {
      this.fail('number bound refinement must be [number, bool] array');
    }
    return [n, inclusive];
  }

  /** Skips one msgpack value of any kind (unknown refinement keys), bounded in depth. */
  skipValue(depth: number): void {
    if (depth > MAX_VALUE_DEPTH) this.fail(`value nesting exceeds the maximum depth of ${MAX_VALUE_DEPTH}`);
    const code = this.peek();
    if (code <= 0x7f || code >= 0xe0 || code === 0xc0 || code === 0xc2 || code === 0xc3) {
      this.pos++;
      return;
    }
    if (
      (code >= 0xa0 && code <= 0xbf) ||
      code === 0xd9 ||
      code === 0xda ||
      code === 0xdb ||
      (code >= 0xc4 && code <= 0xc6)
    ) {
      const len = this.strLength(); // advances past the header first
      this.pos += len;
      return;
    }
    if ((code >= 0xd4 && code <= 0xd8) || (code >= 0xc7 && code <= 0xc9)) {
      const { length } = this.readExtHeader();
      this.pos += length;
      return;
    }
    const fixedSizes: Record<number, number> = {
      202: 4,
      203: 8,
      204: 1,
      205: 2,
      206: 4,
      207: 8,
      208: 1,
      209: 2,
      210: 4,
      211: 8,
    };
    const size = fixedSizes[code];
    if (size !== undefined) {
      this.need(1 + size);
      this.pos += 1 + size;
      return;
    }
    if ((code >= 0x90 && code <= 0x9f) || code === 0xdc || code === 0xdd) {
      const n = this.arrayLength('');
      for (let i = 0; i < n; i++) this.skipValue(depth + 1);
      return;
    }
    if ((code >= 0x80 && code <= 0x8f) || code === 0xde || code === 0xdf) {
      const n = this.mapLength('');
      for (let i = 0; i < 2 * n; i++) this.skipValue(depth + 1);
      return;
    }
    this.fail(`invalid msgpack code 0x${code.toString(16)}`);
  }
}

const dynamicTypeCache = new Map<string, CtyType>();

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
function objectLayout(type: Extract<CtyType, { kind: 'object' }>): ObjectLayout {
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

/**
 * Reads the ext 12 refinement map (go-cty unmarshalUnknownValue): keys that cannot apply to the type
 * are errors, as in Terraform; keys we do not know are skipped; trailing payload bytes are ignored.
 */
function readRefinedUnknown(body: MsgpackReader, type: CtyType, depth: number): Value {
  const entries = body.readMapLength();
  if (type.kind === 'dynamic') return UNKNOWN; // cty ignores refinements of a dynamic unknown
  const r: Refinements = {};
  let isNull = false;
  for (let i = 0; i < entries; i++) {
    const key = body.readRefinementKey();
    switch (key) {
      case RefinementKey.Nullness:
        if (body.readBool('null refinement is not boolean')) isNull = true;
        else r.notNull = true;
        break;
      case RefinementKey.StringPrefix:
        if (type.kind !== 'string') body.fail('string prefix refinement for non-string type');
        r.stringPrefix = body.readPrefix();
        break;
      case RefinementKey.NumberMin:
      case RefinementKey.NumberMax:
        if (type.kind !== 'number') body.fail('numeric bound refinement for non-number type');
        if (key === RefinementKey.NumberMin) r.numberLower = body.readNumberBound(depth);
        else r.numberUpper = body.readNumberBound(depth);
        break;
      case RefinementKey.LengthMin:
      case RefinementKey.LengthMax:
        if (type.kind !== 'list' && type.kind !== 'set' && type.kind !== 'map')
          body.fail('length bound refinement for non-collection type');
        if (key === RefinementKey.LengthMin) r.lengthLower = body.readLength();
        else r.lengthUpper = body.readLength();
        break;
      default:
        body.skipValue(depth + 1);
    }
  }
  if (isNull) return null; // "definitely null" is just null (cty RefinementBuilder.NewValue)
  return collapseRefinedUnknown(type, r);
}

/**
 * cty's RefinementBuilder.NewValue turns a not-null unknown whose refinements pin it down into a
 * known value: equal inclusive number bounds → that number; equal length bounds → an empty collection,
 * a list of that many unknowns (bounded here), or a one-element set of an unknown.
 */
function collapseRefinedUnknown(type: CtyType, r: Refinements): Value {
  if (Object.keys(r).length === 0) return UNKNOWN;
  if (r.notNull) {
    if (
      type.kind === 'number' &&
      r.numberLower &&
      r.numberUpper &&
      r.numberLower[1] &&
      r.numberUpper[1] &&
      numberEquals(r.numberLower[0], r.numberUpper[0])
    ) {
      return r.numberLower[0];
    }
    const isCollection = type.kind === 'list' || type.kind === 'set' || type.kind === 'map';
    if (isCollection && r.lengthUpper !== undefined && (r.lengthLower ?? 0) === r.lengthUpper) {
      const n = r.lengthUpper;
      if (n === 0) return type.kind === 'map' ? {} : [];
      if (type.kind === 'list' && n <= MAX_COLLAPSED_LIST) return new Array<Value>(n).fill(UNKNOWN);
      if (type.kind === 'set' && n === 1) return [UNKNOWN];
    }
  }
  return new Unknown(r);
}

/** cty strings are NFC (cty.StringVal normalizes); ASCII needs no work. */
