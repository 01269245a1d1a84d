/**
 * The agreement test's generator (test/resources/vdb/api-rules.test.ts, and api-rule-kinds.test.ts
 * for the kinds no .proto of the API uses yet): values at and around the bounds and forms of a field's
 * rules, in the provider's form (a Terraform number exact, as a `Decimal` past what a float64 holds),
 * and protovalidate's verdict on each, on the value as the wire carries it.
 */
import { create, fromBinary, ScalarType, toBinary, type DescField, type DescMessage } from '@bufbuild/protobuf';
import type { createValidator } from '@bufbuild/protovalidate';
import { pathToString } from '@bufbuild/protobuf/reflect';
import { parseGoDuration } from '../../../src/resources/vdb/formats.js';
import { numberFromBigInt, numberText } from '../../../packages/framework/src/schema/number.js';
import type { CtyNumber } from '../../../packages/framework/src/schema/value.js';

/** The values (name, number) of an enum field, by the field's full name. */
export type EnumValues = Readonly<Record<string, readonly (readonly [string, number])[]>>;

/**
 * Whether protovalidate accepts a message of `message`'s type with only `field` set to `value` (the
 * provider's form of it: an enum's name, a Go duration, an RFC 3339 time), judging only that field.
 */
export function platformAccepts(
  validator: ReturnType<typeof createValidator>,
  message: DescMessage,
  field: DescField,
  full: string,
  value: unknown,
  enums: EnumValues,
): boolean {
  const wire = toWire(full, field, value, enums);
  if (wire === undefined) return false;
  // Through the wire and back: the platform judges what arrives (a float rounded to 32 bits).
  const sent = toBinary(message, create(message, { [field.localName]: wire } as never));
  const result = validator.validate(message, fromBinary(message, sent));
  if (result.kind === 'error') throw result.error;
  if (result.kind === 'valid') return true;
  // A list of messages is judged by its own rules; its items' are their fields'.
  const ofItems = field.fieldKind === 'list' && field.listKind === 'message';
  return !result.error.violations.some((v) => {
    const path = pathToString(v.field);
    return (
      path === field.name || (!ofItems && (path.startsWith(`${field.name}[`) || path.startsWith(`${field.name}.`)))
    );
  });
}

/**
 * The value as the message holds it, or undefined where the wire cannot carry it (an unknown enum
 * name, a number its type does not hold).
 */
function toWire(full: string, field: DescField, value: unknown, enums: EnumValues): unknown {
  const one = (v: unknown): unknown => {
    if (field.fieldKind === 'list' && field.listKind === 'message') return {};
    if (field.fieldKind === 'scalar' && field.scalar !== ScalarType.STRING) return scalar(field.scalar, v);
    if (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) {
      const entry = enums[full]?.find(([name]) => name === v);
      return entry?.[1];
    }
    const typeName = field.message?.typeName;
    if (typeName === 'google.protobuf.Duration') {
      const ns = parseGoDuration(String(v));
      return ns === undefined ? undefined : { seconds: ns / 1_000_000_000n, nanos: Number(ns % 1_000_000_000n) };
    }
    if (typeName === 'google.protobuf.Timestamp') {
      const ms = Date.parse(String(v));
      return Number.isNaN(ms) ? undefined : { seconds: BigInt(Math.floor(ms / 1000)), nanos: 0 };
    }
    return v;
  };
  if (Array.isArray(value)) {
    const items = value.map(one);
    return items.includes(undefined) ? undefined : items;
  }
  return one(value);
}

/** Texts of the forms the rules name, right and wrong. */
const TEXTS = [
  '',
  'a',
  'ab',
  'abc',
  'abcd',
  'A',
  'Ab-9_x',
  'bad name!',
  'with space',
  'tab\there',
  'ctl\u0007',
  'ünïcode',
  '-lead',
  'trail-',
  'a.b',
  'a..b',
  'example.com/team',
  'Example.com/team',
  '/team',
  'team/',
  'v1.13.0',
  'latest',
  'v1.13',
  '1.13.0',
  '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  '3F1C2D4E-5A6B-4C7D-8E9F-0A1B2C3D4E5F',
  '3f1c2d4e5a6b4c7d8e9f0a1b2c3d4e5f',
  '10.0.0.0/8',
  '10.0.0.1/32',
  '10.0.0.0/33',
  '10.0.0.0',
  '256.0.0.0/8',
  '010.0.0.0/8',
  'http://proxy.internal:3128',
  'https://user@proxy.example/path?q=1',
  'proxy.internal:3128',
  'http:///nohost',
  'http://white space',
  'oci://registry.example.com/charts',
  'charts.example.com',
  'registry.example.com',
  'registry.example.com:5000/mirror',
  'https://registry.example.com',
  'read:backups',
  'write:hybrid_cloud_environments',
  // Kubernetes names, part by part: a label of 63 and 64, a name of 63 and 64, a prefix of 253 and 254.
  `${'a'.repeat(63)}.com`,
  `${'a'.repeat(64)}.com`,
  `x/${'n'.repeat(63)}`,
  `x/${'n'.repeat(64)}`,
  `${'p.'.repeat(126)}p/name`,
  `${'p.'.repeat(126)}pq/name`,
  'Upper.example/x',
  'a_b.example/x',
];

/** Values at and around the bounds and forms of a field's rules, in the provider's form. */
export function candidates(
  full: string,
  field: DescField,
  rules: Record<string, Record<string, unknown>>,
  enums: EnumValues,
): unknown[] {
  const out: unknown[] = [];
  for (const [kind, rule] of Object.entries(rules)) {
    if (kind in INTEGER_KINDS) out.push(...integers(kind, rule));
    else if (kind === 'double' || kind === 'float') out.push(...floats(kind, rule));
    else if (kind === 'bool') out.push(true, false);
    else if (kind === 'string' || kind === 'cel' || kind === 'required') out.push(...texts(rules.string ?? {}));
    else if (kind === 'enum') out.push(...(enums[full] ?? []).map(([name]) => name), 'NOT_A_VALUE');
    else if (kind === 'duration') out.push('1h', '23h59m59s', '24h', '86400s', '8760h', '8760h1s', '9000h', 'soon');
    else if (kind === 'timestamp') out.push('2001-01-01T00:00:00Z', '2099-01-01T00:00:00Z', new Date().toISOString());
    else if (kind === 'repeated') out.push(...lists(field, rule));
  }
  return [...new Map(out.map((v) => [JSON.stringify(v), v])).values()];
}

/** The values each integer kind holds (the test's own table: what the wire carries, not the code's). */
const INTEGER_KINDS: Record<string, readonly [bigint, bigint]> = {
  int32: [-(1n << 31n), (1n << 31n) - 1n],
  sint32: [-(1n << 31n), (1n << 31n) - 1n],
  sfixed32: [-(1n << 31n), (1n << 31n) - 1n],
  uint32: [0n, (1n << 32n) - 1n],
  fixed32: [0n, (1n << 32n) - 1n],
  int64: [-(1n << 63n), (1n << 63n) - 1n],
  sint64: [-(1n << 63n), (1n << 63n) - 1n],
  sfixed64: [-(1n << 63n), (1n << 63n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
  fixed64: [0n, (1n << 64n) - 1n],
};

const NUMBER_KEYS = ['gte', 'gt', 'lte', 'lt', 'const'];

/** The numbers a rule names: its bounds, its `const`, its `in` and `not_in` lists. */
const named = (rule: Record<string, unknown>): unknown[] => [
  ...NUMBER_KEYS.flatMap((key) => (rule[key] === undefined ? [] : [rule[key]])),
  ...((rule.in as unknown[] | undefined) ?? []),
  ...((rule.not_in as unknown[] | undefined) ?? []),
];

/** Each end of the kind, one past it, each number the rule names and its neighbours, 2^53 ± 1, a fraction. */
function integers(kind: string, rule: Record<string, unknown>): CtyNumber[] {
  const [min, max] = INTEGER_KINDS[kind]!;
  const marks = [min, max, 0n, 1n << 53n, -(1n << 53n), ...named(rule).map((n) => BigInt(String(n)))];
  const values = marks.flatMap((n) => [n - 1n, n, n + 1n]).map(numberFromBigInt);
  return [...values, 1.5];
}

/** Each number the rule names and the nearest on either side in the kind's precision, 0, ±1 and the extremes. */
function floats(kind: string, rule: Record<string, unknown>): number[] {
  const step = (n: number) => Math.max(Math.abs(n), 1e-30) * (kind === 'float' ? 2 ** -23 : 2 ** -52);
  const marks = [0, 1, -1, 0.5, ...named(rule).map(Number)];
  return [...marks.flatMap((n) => [n - step(n), n, n + step(n)]), 3.5e38, -3.5e38, 1e308, Number.MAX_VALUE];
}

/** A number as a field of `type` holds it, or undefined where the type cannot hold it. */
function scalar(type: ScalarType, v: unknown): unknown {
  if (type === ScalarType.BOOL) return typeof v === 'boolean' ? v : undefined;
  if (typeof v === 'boolean') return undefined;
  const text = numberText(v as CtyNumber);
  if (type === ScalarType.DOUBLE) return Number(text);
  // The client's float is 32 bits: past its largest, the wire carries an infinity.
  if (type === ScalarType.FLOAT) return Math.fround(Number(text));
  const kind = ScalarType[type].toLowerCase();
  const [min, max] = INTEGER_KINDS[kind]!;
  if (!/^-?\d+$/.test(text) || BigInt(text) < min || BigInt(text) > max) return undefined;
  return kind.endsWith('64') ? BigInt(text) : Number(text);
}

function texts(rule: Record<string, unknown>): string[] {
  const lengths = ['min_len', 'max_len'].flatMap((key) => (rule[key] === undefined ? [] : [Number(rule[key])]));
  const sized = lengths
    .flatMap((n) => [n - 1, n, n + 1])
    .filter((n) => n >= 0)
    .map((n) => 'a'.repeat(n));
  return [...TEXTS, ...sized];
}

/**
 * Lists of lengths around the bounds (of distinct items the items' rules accept; of empty messages for
 * a list of messages, whose own rules are their fields'), each item of the pool alone, and a repeat.
 */
function lists(field: DescField, rule: Record<string, unknown>): unknown[] {
  const lengths = ['min_items', 'max_items'].flatMap((key) => (rule[key] === undefined ? [] : [Number(rule[key])]));
  const sizes = [0, 1, 2, ...lengths.flatMap((n) => [n - 1, n, n + 1])].filter((n) => n >= 0);
  if (field.fieldKind === 'list' && field.listKind === 'message') return sizes.map((n) => Array(n).fill({}));
  const items = ((rule.items ?? {}) as Record<string, Record<string, unknown>>).string ?? {};
  const make = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      items.uuid
        ? `3f1c2d4e-5a6b-4c7d-8e9f-${i.toString(16).padStart(12, '0')}`
        : items.ipv4_with_prefixlen
          ? `10.${i % 256}.${Math.floor(i / 256)}.0/24`
          : `host-${i}.internal`,
    );
  const pool = texts(items);
  return [...sizes.map(make), ...pool.map((v) => [v]), [...make(1), ...make(1)]];
}
