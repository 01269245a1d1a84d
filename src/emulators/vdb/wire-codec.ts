/**
 * The emulator's own reading and writing of the vdb wire: protobuf bytes ⇄ the objects of
 * ./records.ts. It shares only the contract with the client (the .proto files, through the
 * descriptor of src/wire/vdb-proto.ts) and none of its code, so that a field the client maps
 * wrongly is read differently here instead of being mapped wrongly on both sides of the wire
 * (test/emulators/vdb-wire.test.ts holds this file against the .proto files by reflection).
 *
 * The shapes follow protobuf's JSON mapping, except that durations stay { seconds, nanos } and
 * 64-bit integers are numbers, which keeps values exact:
 * - field names are their JSON names (lowerCamelCase); timestamps RFC 3339 text in UTC, with 3, 6 or
 *   9 fractional digits only when there are nanoseconds; structs the JSON object they hold;
 * - enums are value names; a request with a number the contract does not define is refused, as the
 *   platform's validation refuses it;
 * - repeated fields are always arrays; proto3 `optional` fields and sub-messages are absent when
 *   unset, other scalars present with their zero value.
 * Writing refuses what the contract cannot carry (an unknown field, enum name or timestamp): that is
 * a fault of the emulator, answered as INTERNAL.
 */
import { parseRfc3339 } from '../../wire/rfc3339.js';
import protobuf from 'protobufjs';

/** A message as the handlers see it. */
export type WireObject = Record<string, unknown>;

/** A request that does not decode; `field` is the proto field path, e.g. `cluster.state.phase`. */
export class WireDecodeError extends Error {
  override readonly name = 'WireDecodeError';
  constructor(
    readonly field: string,
    readonly detail: string,
    /** The protovalidate-style rule id the platform names, when there is one. */
    readonly rule?: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

const TIMESTAMP = '.google.protobuf.Timestamp';
const DURATION = '.google.protobuf.Duration';
const STRUCT = '.google.protobuf.Struct';

/** protobufjs' own conversion does the field walk; names, well-known types and enums are ours. */
const READ_OPTIONS: protobuf.IConversionOptions = {
  defaults: true,
  arrays: true,
  longs: Number,
  enums: String,
  oneofs: false,
};

export function decodeMessage(type: protobuf.Type, bytes: Uint8Array): WireObject {
  let object: Record<string, unknown>;
  try {
    object = type.toObject(type.decode(bytes), READ_OPTIONS);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new WireDecodeError(type.name, `not a ${type.name} message (${why})`);
  }
  return readMessage(type, object, '');
}

export function encodeMessage(type: protobuf.Type, value: WireObject): Buffer {
  const object = writeMessage(type, value, type.name);
  const problem = type.verify(object);
  if (problem) throw new Error(`emulator answer does not fit ${type.name}: ${problem}`);
  const bytes = type.encode(type.fromObject(object)).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The proto3 JSON name of a field: underscores dropped, the letter after each one upper-cased. */
export function jsonName(protoName: string): string {
  let name = '';
  let upper = false;
  for (const char of protoName) {
    if (char === '_') upper = true;
    else {
      name += upper ? char.toUpperCase() : char;
      upper = false;
    }
  }
  return name;
}

// ---------------------------------------------------------------------------------------------
// reading

function readMessage(type: protobuf.Type, object: Record<string, unknown>, path: string): WireObject {
  const out: WireObject = {};
  for (const field of type.fieldsArray) {
    const value = object[field.name];
    if (value === undefined || value === null) continue;
    const at = path === '' ? field.name : `${path}.${field.name}`;
    out[jsonName(field.name)] = field.repeated
      ? (value as unknown[]).map((item, i) => readValue(field, item, `${at}[${i}]`))
      : readValue(field, value, at);
  }
  return out;
}

function readValue(field: protobuf.Field, value: unknown, path: string): unknown {
  const type = field.resolve().resolvedType;
  if (type instanceof protobuf.Enum) {
    // protobufjs gives the name of a defined value and the bare number of any other.
    if (typeof value === 'number') {
      const detail = `must be one of the defined enum values (got ${value})`;
      throw new WireDecodeError(path, detail, 'enum.defined_only');
    }
    return value;
  }
  if (!(type instanceof protobuf.Type)) return value;
  const object = value as Record<string, unknown>;
  switch (type.fullName) {
    case TIMESTAMP:
      return formatTimestamp(Number(object.seconds ?? 0), Number(object.nanos ?? 0));
    case DURATION:
      return { seconds: Number(object.seconds ?? 0), nanos: Number(object.nanos ?? 0) };
    case STRUCT:
      return readStruct(object);
    default:
      return readMessage(type, object, path);
  }
}

function readStruct(struct: Record<string, unknown>): Record<string, unknown> {
  const fields = (struct.fields ?? {}) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, readStructValue(value)]));
}

function readStructValue(value: Record<string, unknown>): unknown {
  if ('structValue' in value) return readStruct(value.structValue as Record<string, unknown>);
  if ('listValue' in value) {
    const values = ((value.listValue as Record<string, unknown>).values ?? []) as Record<string, unknown>[];
    return values.map(readStructValue);
  }
  if ('stringValue' in value) return value.stringValue;
  if ('numberValue' in value) return value.numberValue;
  if ('boolValue' in value) return value.boolValue;
  return null;
}

// ---------------------------------------------------------------------------------------------
// writing

const fieldsByJsonName = new WeakMap<protobuf.Type, Map<string, protobuf.Field>>();

function fieldOf(type: protobuf.Type, name: string): protobuf.Field | undefined {
  let fields = fieldsByJsonName.get(type);
  if (!fields) {
    fields = new Map(type.fieldsArray.map((field) => [jsonName(field.name), field]));
    fieldsByJsonName.set(type, fields);
  }
  return fields.get(name);
}

function writeMessage(type: protobuf.Type, value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${path}: not an object for ${type.name}`);
  }
  const object: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    const field = fieldOf(type, key);
    if (!field) throw new Error(`${path}: ${type.name} has no field ${key}`);
    const at = `${path}.${field.name}`;
    if (field.repeated && !Array.isArray(item)) throw new Error(`${at}: not a list`);
    object[field.name] = field.repeated
      ? (item as unknown[]).map((element, i) => writeValue(field, element, `${at}[${i}]`))
      : writeValue(field, item, at);
  }
  return object;
}

function writeValue(field: protobuf.Field, value: unknown, path: string): unknown {
  const type = field.resolve().resolvedType;
  if (type instanceof protobuf.Enum) {
    const number = typeof value === 'string' ? type.values[value] : undefined;
    if (number === undefined) throw new Error(`${path}: ${JSON.stringify(value)} is not a value of ${type.name}`);
    return number;
  }
  if (!(type instanceof protobuf.Type)) return value;
  switch (type.fullName) {
    case TIMESTAMP: {
      const timestamp = typeof value === 'string' ? parseTimestamp(value) : undefined;
      if (!timestamp) throw new Error(`${path}: ${JSON.stringify(value)} is not an RFC 3339 timestamp`);
      return timestamp;
    }
    case DURATION:
      return value;
    case STRUCT:
      return writeStruct(value as Record<string, unknown>);
    default:
      return writeMessage(type, value, path);
  }
}

function writeStruct(json: Record<string, unknown>): Record<string, unknown> {
  return { fields: Object.fromEntries(Object.entries(json).map(([key, item]) => [key, writeStructValue(item)])) };
}

function writeStructValue(value: unknown): Record<string, unknown> {
  if (value === null) return { nullValue: 0 };
  if (Array.isArray(value)) return { listValue: { values: value.map(writeStructValue) } };
  switch (typeof value) {
    case 'string':
      return { stringValue: value };
    case 'number':
      return { numberValue: value };
    case 'boolean':
      return { boolValue: value };
    case 'object':
      return { structValue: writeStruct(value as Record<string, unknown>) };
    default:
      throw new Error(`not JSON data (${typeof value})`);
  }
}

// ---------------------------------------------------------------------------------------------
// timestamps

/** RFC 3339 in UTC; the fraction in 3, 6 or 9 digits, and only when there are nanoseconds. */
export function formatTimestamp(seconds: number, nanos: number): string {
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${whole}Z`;
  const digits = String(nanos).padStart(9, '0');
  const length = digits.endsWith('000000') ? 3 : digits.endsWith('000') ? 6 : 9;
  return `${whole}.${digits.slice(0, length)}Z`;
}

/** The emulator's clock reading as a timestamp. */
export function timestampAt(millis: number): string {
  const seconds = Math.floor(millis / 1000);
  return formatTimestamp(seconds, Math.round(millis - seconds * 1000) * 1_000_000);
}

/** Seconds and nanos of an RFC 3339 date-time, or undefined (strictly: no 30 February). */
export function parseTimestamp(text: string): { seconds: number; nanos: number } | undefined {
  return parseRfc3339(text);
}
