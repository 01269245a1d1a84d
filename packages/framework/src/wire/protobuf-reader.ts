// The protobuf wire format's reader (the writer and the generated codecs are in server/protobuf-wire.ts):
// varints of 32 and 64 bits, booleans, strings, bytes and nested messages, read as protobufjs reads
// them. Beside the plugin protocol's codecs, the engine reads a saved plan's `tfplan` entry with it
// (engine/host/saved-plan.ts).

/** The message's bytes did not parse: truncated, a malformed varint or an unknown wire type. */
export class ProtoDecodeError extends Error {}

/** Bytes fields decoded as absent share one empty Buffer (nothing can be written into it). */
export const EMPTY_BYTES: Buffer = Buffer.alloc(0);
const TWO_32 = 4_294_967_296;

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
