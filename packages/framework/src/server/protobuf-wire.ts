// The protobuf wire format under the plugin protocol's generated codecs (scripts/build-proto.mjs): a
// writer and a reader for the field kinds that tfplugin6 and go-plugin's protos use (varints of 32 and
// 64 bits, booleans, strings, bytes, nested messages), and the plain-object conversions of protobufjs'
// fromObject that the codecs keep (./codecs.ts). The generated code encodes a plain object in one pass
// and decodes straight into one: protobufjs' static code made a message instance each way as well.

/** The message's bytes did not parse: truncated, a malformed varint or an unknown wire type. */
export class ProtoDecodeError extends Error {}

/** A nested message's length is written in front of it once known; this much is reserved first. */
const RESERVED_LENGTH_BYTES = 1;
const TWO_32 = 4_294_967_296;
const TWO_63 = 2 ** 63;
/** Bytes fields decoded as absent share one empty Buffer (nothing can be written into it). */
export const EMPTY_BYTES: Buffer = Buffer.alloc(0);

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

/** Reads one message's bytes; nested messages are read up to their own end. */
export class ProtoReader {
  pos = 0;

  constructor(readonly buf: Buffer) {}

  private truncated(): never {
    throw new ProtoDecodeError(`message truncated at byte ${this.pos} of ${this.buf.length}`);
  }

  /** A varint as an unsigned 32-bit number; the bytes of a longer varint beyond 32 bits are skipped. */
  uint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    if (pos >= buf.length) this.truncated();
    let b = buf[pos++]!;
    let value = b & 127;
    if (b < 128) {
      this.pos = pos;
      return value;
    }
    for (let shift = 7; shift < 35; shift += 7) {
      if (pos >= buf.length) this.truncated();
      b = buf[pos++]!;
      value |= (b & 127) << shift;
      if (b < 128) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    // A negative int32 is ten bytes long: the rest carry only its sign.
    for (let i = 0; i < 5; i++) {
      if (pos >= buf.length) this.truncated();
      if (buf[pos++]! < 128) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    this.pos = pos;
    throw new ProtoDecodeError(`malformed varint ending at byte ${pos}`);
  }

  int32(): number {
    return this.uint32() | 0;
  }

  /** An int64 as a JS number, as protobufjs' `longs: Number` gives it (exact within ±2^53). */
  int64(): number {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let pos = this.pos;
    for (let i = 0; i < 10; i++) {
      if (pos >= buf.length) {
        this.pos = pos;
        this.truncated();
      }
      const b = buf[pos++]!;
      if (i < 4) lo |= (b & 127) << (7 * i);
      else if (i === 4) {
        lo |= (b & 15) << 28;
        hi |= (b & 127) >> 4;
      } else hi |= (b & 127) << (7 * i - 32);
      if (b < 128) {
        this.pos = pos;
        return longBitsToNumber(lo >>> 0, hi >>> 0);
      }
    }
    this.pos = pos;
    throw new ProtoDecodeError(`malformed varint ending at byte ${pos}`);
  }

  /** As protobufjs reads it: the low 32 bits of the varint, non-zero. */
  bool(): boolean {
    return this.uint32() !== 0;
  }

  /** The end of a length-delimited field that starts here (its length read). */
  lengthEnd(): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.buf.length) this.truncated();
    return end;
  }

  string(): string {
    const end = this.lengthEnd();
    const start = this.pos;
    this.pos = end;
    return this.buf.toString('utf8', start, end);
  }

  /** A view of the message's bytes (no copy), as protobufjs' Buffer reader gives it. */
  bytes(): Buffer {
    const end = this.lengthEnd();
    const start = this.pos;
    this.pos = end;
    return start === end ? EMPTY_BYTES : this.buf.subarray(start, end);
  }

  /** Skips a field of this wire type: an unknown field, or a known one sent with another wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.int64();
        return;
      case 1:
        this.advance(8);
        return;
      case 2:
        this.pos = this.lengthEnd();
        return;
      case 3:
        for (;;) {
          const key = this.uint32();
          if ((key & 7) === 4) return;
          this.skip(key & 7);
        }
      case 5:
        this.advance(4);
        return;
      default:
        throw new ProtoDecodeError(`invalid wire type ${wireType} at byte ${this.pos}`);
    }
  }

  private advance(bytes: number): void {
    if (this.pos + bytes > this.buf.length) this.truncated();
    this.pos += bytes;
  }
}

/** protobufjs' LongBits.toNumber for a signed 64-bit value. */
function longBitsToNumber(lo: number, hi: number): number {
  if (hi >>> 31) {
    const low = (~lo + 1) >>> 0;
    let high = ~hi >>> 0;
    if (!low) high = (high + 1) >>> 0;
    return -(low + high * TWO_32);
  }
  return lo + hi * TWO_32;
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
