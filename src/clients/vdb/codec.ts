/**
 * Type-driven conversion between protobuf messages and the plain camelCase objects of api.ts.
 * Walking the protobufjs reflection types keeps the client exact without hand-written mappers per
 * message:
 * - field names: `cloud_provider_id` ⇄ `cloudProviderId`;
 * - Timestamp ⇄ RFC 3339 string, Duration ⇄ { seconds, nanos }, Struct ⇄ JSON object;
 * - enums ⇄ value names (a number this client does not know, from a newer server, reads as the
 *   enum's zero name, so that reads do not break); proto3 `optional` and unset sub-messages ⇄
 *   absent keys;
 * - repeated ⇄ arrays (always present after decoding).
 * Encoding checks every value against the field's type and refuses unknown keys, so a typo in
 * a caller's object fails loudly instead of being dropped. The emulator reads the wire with its own
 * code (src/emulators/vdb/wire-codec.ts), so that a mistake here is not made on both sides of it.
 */
import protobuf from 'protobufjs';
import { jsonName } from '../../wire/vdb-json-name.js';
import { formatTimestamp, parseTimestamp } from './time.js';

export type Plain = Record<string, unknown>;

/** A value that does not fit the message type; `path` is the camelCase field path. */
export class CodecError extends Error {
  override readonly name = 'CodecError';
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
  }
}

const TO_OBJECT: protobuf.IConversionOptions = { defaults: true, longs: Number, enums: Number, oneofs: false };

const TIMESTAMP = '.google.protobuf.Timestamp';
const DURATION = '.google.protobuf.Duration';
const STRUCT = '.google.protobuf.Struct';
/** Messages a plain object holds as one value (an RFC 3339 text, `{ seconds, nanos }`, a JSON object). */
export const ONE_VALUE_MESSAGES: ReadonlySet<string> = new Set([TIMESTAMP, DURATION, STRUCT]);

export function decodePlain(type: protobuf.Type, bytes: Uint8Array): Plain {
  let object: Record<string, unknown>;
  try {
    object = type.toObject(type.decode(bytes), TO_OBJECT);
  } catch (error) {
    throw new CodecError(
      type.name,
      `not a valid ${type.name} message (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return messageToPlain(type, object, '');
}

export function encodePlain(type: protobuf.Type, value: Plain): Buffer {
  const message = type.fromObject(plainToMessage(type, value, ''));
  const bytes = type.encode(message).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// ---------------------------------------------------------------------------------------------
// decoding

function messageToPlain(type: protobuf.Type, object: Record<string, unknown>, path: string): Plain {
  const plain: Plain = {};
  for (const field of type.fieldsArray) {
    const value = object[field.name];
    if (value === undefined || value === null) continue;
    const key = jsonName(field.name);
    const fieldPath = join(path, key);
    if (field.repeated) {
      plain[key] = (value as unknown[]).map((item, i) => valueToPlain(field, item, `${fieldPath}[${i}]`));
    } else {
      plain[key] = valueToPlain(field, value, fieldPath);
    }
  }
  return plain;
}

function valueToPlain(field: protobuf.Field, value: unknown, path: string): unknown {
  const resolved = field.resolve().resolvedType;
  if (resolved instanceof protobuf.Enum) return enumName(resolved, value as number);
  if (resolved instanceof protobuf.Type) {
    const object = value as Record<string, unknown>;
    switch (resolved.fullName) {
      case TIMESTAMP:
        return formatTimestamp({ seconds: Number(object.seconds ?? 0), nanos: Number(object.nanos ?? 0) });
      case DURATION:
        return { seconds: Number(object.seconds ?? 0), nanos: Number(object.nanos ?? 0) };
      case STRUCT:
        return structToJson(object);
      default:
        return messageToPlain(resolved, object, path);
    }
  }
  return value;
}

function enumName(type: protobuf.Enum, number: number): string {
  return type.valuesById[number] ?? type.valuesById[0] ?? String(number);
}

function structToJson(struct: Record<string, unknown>): Record<string, unknown> {
  const fields = (struct.fields ?? {}) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, valueToJson(value)]));
}

function valueToJson(value: Record<string, unknown>): unknown {
  if (value.structValue != null) return structToJson(value.structValue as Record<string, unknown>);
  if (value.listValue != null) {
    return (((value.listValue as Record<string, unknown>).values ?? []) as Record<string, unknown>[]).map(valueToJson);
  }
  if (value.stringValue != null) return value.stringValue;
  if (value.numberValue != null) return value.numberValue;
  if (value.boolValue != null) return value.boolValue;
  return null;
}

// ---------------------------------------------------------------------------------------------
// encoding

const fieldsByCamelName = new WeakMap<protobuf.Type, Map<string, protobuf.Field>>();

/** The fields of a message by their names in plain objects (`cloud_provider_id` → `cloudProviderId`). */
export function camelFields(type: protobuf.Type): ReadonlyMap<string, protobuf.Field> {
  let fields = fieldsByCamelName.get(type);
  if (!fields) {
    fields = new Map(type.fieldsArray.map((field) => [jsonName(field.name), field]));
    fieldsByCamelName.set(type, fields);
  }
  return fields;
}

function plainToMessage(type: protobuf.Type, value: unknown, path: string): Record<string, unknown> {
  if (!isObject(value)) throw new CodecError(path || type.name, `expected an object for ${type.name}`);
  const fields = camelFields(type);
  const message: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    const fieldPath = join(path, key);
    const field = fields.get(key);
    if (!field) throw new CodecError(fieldPath, `${type.name} has no field ${key}`);
    if (field.repeated) {
      if (!Array.isArray(item)) throw new CodecError(fieldPath, 'expected a list');
      message[field.name] = item.map((element, i) => valueToMessage(field, element, `${fieldPath}[${i}]`));
    } else {
      message[field.name] = valueToMessage(field, item, fieldPath);
    }
  }
  return message;
}

function valueToMessage(field: protobuf.Field, value: unknown, path: string): unknown {
  const resolved = field.resolve().resolvedType;
  if (resolved instanceof protobuf.Enum) {
    if (typeof value !== 'string' || !(value in resolved.values)) {
      throw new CodecError(
        path,
        `expected one of ${Object.keys(resolved.values).join(', ')} (got ${JSON.stringify(value)})`,
      );
    }
    return resolved.values[value];
  }
  if (resolved instanceof protobuf.Type) {
    switch (resolved.fullName) {
      case TIMESTAMP: {
        const timestamp = typeof value === 'string' ? parseTimestamp(value) : undefined;
        if (!timestamp) throw new CodecError(path, `expected an RFC 3339 timestamp (got ${JSON.stringify(value)})`);
        return timestamp;
      }
      case DURATION:
        return durationToMessage(value, path);
      case STRUCT:
        if (!isObject(value)) throw new CodecError(path, 'expected a JSON object');
        return jsonToStruct(value, path);
      default:
        return plainToMessage(resolved, value, path);
    }
  }
  return scalar(field.type, value, path);
}

function durationToMessage(value: unknown, path: string): { seconds: number; nanos: number } {
  const seconds = isObject(value) ? value.seconds : undefined;
  const nanos = isObject(value) ? (value.nanos ?? 0) : undefined;
  if (
    !Number.isSafeInteger(seconds) ||
    !Number.isInteger(nanos) ||
    Math.abs(nanos as number) > 999_999_999 ||
    ((seconds as number) > 0 && (nanos as number) < 0) ||
    ((seconds as number) < 0 && (nanos as number) > 0)
  ) {
    throw new CodecError(path, `expected a duration { seconds, nanos } (got ${JSON.stringify(value)})`);
  }
  return { seconds: seconds as number, nanos: nanos as number };
}

function jsonToStruct(value: Record<string, unknown>, path: string): Record<string, unknown> {
  return {
    fields: Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonToValue(item, join(path, key))])),
  };
}

function jsonToValue(value: unknown, path: string): Record<string, unknown> {
  if (value === null) return { nullValue: 0 };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CodecError(path, 'numbers must be finite');
    return { numberValue: value };
  }
  if (Array.isArray(value))
    return { listValue: { values: value.map((item, i) => jsonToValue(item, `${path}[${i}]`)) } };
  if (isObject(value)) return { structValue: jsonToStruct(value, path) };
  throw new CodecError(path, `not JSON data (${typeof value})`);
}

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  sint32: [-(2 ** 31), 2 ** 31 - 1],
  sfixed32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  fixed32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  sint64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  sfixed64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  fixed64: [0, Number.MAX_SAFE_INTEGER],
};

function scalar(type: string, value: unknown, path: string): unknown {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') throw new CodecError(path, `expected a string (got ${typeof value})`);
      return value;
    case 'bool':
      if (typeof value !== 'boolean') throw new CodecError(path, `expected a boolean (got ${typeof value})`);
      return value;
    case 'double':
    case 'float':
      if (typeof value !== 'number' || Number.isNaN(value))
        throw new CodecError(path, `expected a number (got ${typeof value})`);
      return value;
    default: {
      const range = INTEGER_RANGES[type];
      if (!range) throw new CodecError(path, `unsupported field type ${type}`);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1]) {
        throw new CodecError(
          path,
          `expected a ${type} integer between ${range[0]} and ${range[1]} (got ${JSON.stringify(value)})`,
        );
      }
      return value;
    }
  }
}

// ---------------------------------------------------------------------------------------------

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
