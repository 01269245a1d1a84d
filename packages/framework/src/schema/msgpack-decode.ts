/**
 * Decoding DynamicValue.msgpack into cty values: strict and bounded
 * (docs/protocol.md, "Values as MessagePack"); the public entry is msgpack.ts.
 */
import { Buffer } from 'node:buffer';
import { type CtyType, DYNAMIC, NUMBER, BOOL, tupleOf, typeFromJSON } from './cty-type.js';
import type { AttributePath, PathStep } from './path.js';
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
import { numberEquals, numberFromBigInt, parseNumber } from './number.js';
import { dedupeSetElements, nfc } from './value-ops.js';
import { setEntry } from './entries.js';
import { MAX_VALUE_DEPTH, REFINED_UNKNOWN_EXT, RefinementKey } from './msgpack-format.js';
import { objectLayout } from './msgpack-encode.js';

/** Largest ext 12 refinement payload Terraform accepts (go-cty unmarshalUnknownValue). */
const MAX_REFINEMENT_PAYLOAD = 1024;

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

  /** docs/protocol.md, "Numbers on the wire": ints of any width, float32/64, or a decimal string. */
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

  /** docs/protocol.md, "Dynamic values": nil = untyped null; otherwise [type JSON as bin (or str), value]. */
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
   * docs/protocol.md, "Unknown values": an ext with ≤ 1 payload byte is a plain unknown; ext 12
   * carries refinements. Other ext types with longer payloads are read as plain unknowns too
   * (Terraform rejects them; we are lenient since they cannot mean anything else).
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
