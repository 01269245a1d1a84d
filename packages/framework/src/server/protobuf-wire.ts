// The protobuf wire format under the plugin protocol's generated codecs (scripts/build-proto.mjs): a
// writer and a reader (../wire/protobuf-reader.ts) for the field kinds that tfplugin6 and go-plugin's
// protos use (varints of 32 and 64 bits, booleans, strings, bytes, nested messages), and the
// plain-object conversions of protobufjs' fromObject that the codecs keep (./codecs.ts). The generated
// code encodes a plain object in one pass and decodes straight into one: protobufjs' static code made a
// message instance each way as well.

export { EMPTY_BYTES, ProtoDecodeError, ProtoReader } from '../wire/protobuf-reader.js';

/** A nested message's length is written in front of it once known; this much is reserved first. */
const RESERVED_LENGTH_BYTES = 1;
const TWO_32 = 4_294_967_296;
const TWO_63 = 2 ** 63;

/**
 * Writes one message at a time into a buffer that grows and is reused: `take()` copies the bytes out.
 * Nested messages reserve one byte for their length and move their bytes along when it needs more.
 */
export class ProtoWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initialBytes = 8192) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  /** The bytes written since the last take, as a Buffer of their own; the writer starts again. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.reset();
    return out;
  }

  /** Starts again (after a failed encode, too). */
  reset(): void {
    this.pos = 0;
    if (this.buf.length > 1024 * 1024) this.buf = Buffer.allocUnsafe(8192);
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** One byte: a field's key, precomputed by the generator (fields 1–15 have one-byte keys). */
  byte(value: number): void {
    this.room(1);
    this.buf[this.pos++] = value;
  }

  uint32(value: number): void {
    let v = value >>> 0;
    this.room(5);
    while (v > 127) {
      this.buf[this.pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }

  /** int32 as protobufjs writes it: a negative value is sign-extended to ten bytes. */
  int32(value: number): void {
    if (value < 0) this.varint64(value >>> 0, 0xffffffff);
    else this.uint32(value);
  }

  /** A 64-bit varint from its two 32-bit halves. */
  varint64(lo: number, hi: number): void {
    this.room(10);
    let low = lo >>> 0;
    let high = hi >>> 0;
    while (high > 0 || low > 127) {
      this.buf[this.pos++] = (low & 127) | 128;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    this.buf[this.pos++] = low;
  }

  bool(value: boolean): void {
    this.room(1);
    this.buf[this.pos++] = value ? 1 : 0;
  }

  string(value: string): void {
    const length = value.length;
    // Short ASCII is copied here: a call into Buffer's UTF-8 writer costs more than the copy.
    if (length < 64) {
      this.room(1 + length);
      const start = this.pos;
      let at = start + 1;
      for (let i = 0; i < length; i++) {
        const c = value.charCodeAt(i);
        if (c > 127) return this.utf8(value);
        this.buf[at++] = c;
      }
      this.buf[start] = length;
      this.pos = at;
      return;
    }
    this.utf8(value);
  }

  private utf8(value: string): void {
    const bytes = Buffer.byteLength(value, 'utf8');
    this.uint32(bytes);
    this.room(bytes);
    this.pos += this.buf.write(value, this.pos, bytes, 'utf8');
  }

  bytes(value: Uint8Array): void {
    this.uint32(value.length);
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** Starts a nested message; `end` with what this returns writes its length in front of it. */
  begin(): number {
    this.room(RESERVED_LENGTH_BYTES);
    const at = this.pos;
    this.pos += RESERVED_LENGTH_BYTES;
    return at;
  }

  end(at: number): void {
    const length = this.pos - at - RESERVED_LENGTH_BYTES;
    if (length < 128) {
      this.buf[at] = length;
      return;
    }
    const lengthBytes = varintSize(length);
    this.room(lengthBytes - RESERVED_LENGTH_BYTES);
    this.buf.copyWithin(at + lengthBytes, at + RESERVED_LENGTH_BYTES, this.pos);
    this.pos += lengthBytes - RESERVED_LENGTH_BYTES;
    let v = length;
    let p = at;
    while (v > 127) {
      this.buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[p] = v;
  }
}

function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/** Messages nested deeper than this are refused, as by protobufjs (protoc's default recursion limit). */
export const MAX_DEPTH = 100;

/** The halves of the last int64Bits; one object, reused, as the generated code reads them at once. */
const LONG_BITS = { lo: 0, hi: 0 };

/**
 * An int64 field's value as protobufjs' fromObject takes it (through long.js): a number (truncated
 * toward zero, NaN as 0, saturating at ±2^63), a decimal string (wrapping to 64 bits), a bigint, or an
 * object with `low` and `high` halves. The result is overwritten by the next call.
 */
export function int64Bits(value: unknown): { readonly lo: number; readonly hi: number } {
  if (typeof value === 'number') {
    if (value >= 0 && value <= 0xffffffff && Number.isInteger(value)) {
      LONG_BITS.lo = value;
      LONG_BITS.hi = 0;
    } else [LONG_BITS.lo, LONG_BITS.hi] = numberToLongBits(value);
  } else if (typeof value === 'string' || typeof value === 'bigint') {
    const big = BigInt.asUintN(64, typeof value === 'bigint' ? value : parseDecimalBigInt(value));
    LONG_BITS.lo = Number(big & 0xffffffffn);
    LONG_BITS.hi = Number(big >> 32n);
  } else {
    const halves = value as { low?: unknown; high?: unknown };
    LONG_BITS.lo = Number(halves.low) >>> 0;
    LONG_BITS.hi = Number(halves.high) >>> 0;
  }
  return LONG_BITS;
}

function numberToLongBits(value: number): [number, number] {
  if (Number.isNaN(value)) return [0, 0];
  if (value <= -TWO_63) return [0, 0x80000000];
  if (value + 1 >= TWO_63) return [0xffffffff, 0x7fffffff];
  const negative = value < 0;
  const magnitude = Math.trunc(Math.abs(value));
  let lo = (magnitude % TWO_32) >>> 0;
  let hi = Math.floor(magnitude / TWO_32) >>> 0;
  if (negative) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
    if (++lo > 0xffffffff) {
      lo = 0;
      if (++hi > 0xffffffff) hi = 0;
    }
  }
  return [lo, hi];
}

/** long.js' fromString for radix 10: digits after an optional minus sign; anything else is an error. */
function parseDecimalBigInt(text: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new TypeError(`not an int64: ${JSON.stringify(text.slice(0, 40))}`);
  return BigInt(text);
}

/** A bytes field's value as fromObject takes it: base64 text, or any array-like of bytes. */
export function bytesOf(value: unknown): Uint8Array | undefined {
  if (typeof value === 'string') return Buffer.from(value, 'base64');
  if (value instanceof Uint8Array) return value;
  const arrayLike = value as { length?: unknown };
  if (typeof arrayLike.length === 'number' && arrayLike.length >= 0) return Buffer.from(arrayLike as ArrayLike<number>);
  return undefined;
}

/** A map field's entry set as decoded: a key "__proto__" is an entry, never the object's prototype. */
export { setEntry as setMapEntry } from '../schema/entries.js';
