/**
 * What the plan accepts, the vdb platform accepts: the plan's checks of the API's field rules are
 * derived from the rules (src/resources/vdb/rules.ts), and this file holds them to it two ways.
 *
 * - Coverage: every rule of the .proto files is checked by some attribute, or named below with the
 *   reason no attribute needs to (the provider sets that field itself, or a resource checks the rule
 *   where several fields meet). A rule added to a .proto fails here until it is one or the other.
 * - Agreement: for every rule an attribute checks, values at and around its bounds and forms are
 *   judged by the derived checks and by protovalidate itself over the same descriptors the emulator
 *   validates with; they must agree, except where the plan is stricter on purpose (ids in lower case).
 */
import { create, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { createValidator } from '@bufbuild/protovalidate';
import { pathToString } from '@bufbuild/protobuf/reflect';
import { expect } from 'chai';
import type { Validator } from '../../../src/schema/define.js';
import { parseGoDuration } from '../../../src/resources/vdb/formats.js';
import '../../../src/resources/vdb/index.js';
import { apiRuleNames, checkedApiRules, checksOf } from '../../../src/resources/vdb/rules.js';
import { VDB_FIELD_ENUMS, VDB_FIELD_RULES } from '../../../src/wire/vdb-field-rules.js';
import { vdbRulesRegistry } from '../../../src/wire/vdb-rules.js';

const PACKAGE = 'vdb.cloud.';

/** Why a rule has no attribute that checks it, by a test on its name (`<field>#<rule>`). */
const NOT_CHECKED_AT_PLAN: readonly (readonly [RegExp, string])[] = [
  [/\.Create\w+Request\.\w+#(required|cel\.read_only)$/, 'a create sends its object, without what the server sets'],
  [/\.Update\w+Request\.\w+#(required|cel\.string\.uuid(_empty)?)$/, 'an update sends its object with the id in state'],
  [/\.List\w+Request\.page_size#int32$/, 'the client sends no page size: it reads the pages the server makes'],
  [/\.Role\.role_type#enum$/, 'the client creates custom roles only (src/clients/vdb/services/iam.ts)'],
  [/\.ListPackagesRequest\.statuses#repeated\.max_items$/, 'the booking packages data source filters by no status'],
  [/\.ClusterStorageConfiguration\.storage_tier_type#enum$/, 'the provider sends no storage configuration'],
  [/\.(Cluster|HybridCloudEnvironment)\.configuration#required$/, 'a required block of the resource'],
  [/\.DatabaseConfigurationTls\.(cert|key)#required$/, 'cluster/resource.ts: both blocks when tls is present'],
  [/\.auth\.v1\.DatabaseApiKey\.cluster_ids#repeated\.unique$/, 'a distinct list, sent with each id once'],
  [/\.DatabaseApiKey\.access_rules#cel\.access_rules\.\w+$/, 'database-api-key-v2.ts: accessRuleConflicts'],
];

/** The CEL rules of whole messages, each with where the provider checks it. */
const MESSAGE_RULES_CHECKED: Record<string, string> = {
  'vdb.cloud.cluster.v1.Cluster#cluster.hybrid_region_uuid': 'cluster/resource.ts: checkHybridRegion',
  'vdb.cloud.cluster.v1.Toleration#toleration.exists_no_value': 'common.ts: checkTolerations',
  'vdb.cloud.cluster.v1.Toleration#toleration.equal_value': 'common.ts: checkTolerations',
  'vdb.cloud.cluster.v1.Toleration#toleration.empty_key_exists': 'common.ts: checkTolerations',
  'vdb.cloud.cluster.v1.Toleration#toleration.seconds_no_execute': 'common.ts: checkTolerations',
  'vdb.cloud.booking.v1.ListPackagesRequest#region_required': 'booking-packages.ts: validate',
  'vdb.cloud.iam.v1.AssignUserRolesRequest#assign.not_empty': 'user-roles.ts sends only a change that has roles',
};

describe('vdb: the plan checks the API field rules of proto/vdb', () => {
  it('every rule is checked by an attribute, or says why none needs to', () => {
    const checked = checkedApiRules();
    const unexplained = apiRuleNames().filter(
      (name) => !checked.has(name) && !NOT_CHECKED_AT_PLAN.some(([pattern]) => pattern.test(name)),
    );
    expect(unexplained, 'rules no attribute checks: link them (apiRules) or say why not').to.deep.equal([]);
    const stale = NOT_CHECKED_AT_PLAN.filter(([pattern]) =>
      apiRuleNames().every((name) => checked.has(name) || !pattern.test(name)),
    ).map(([pattern]) => pattern.source);
    expect(stale, 'reasons that no longer name an unchecked rule').to.deep.equal([]);
    expect(checked.size, 'rules checked at plan').to.be.above(100);
  });

  it("every message rule has a named check in the provider, and the provider's page size is the API's", async () => {
    const { VDB_MESSAGE_RULES } = await import('../../../src/wire/vdb-field-rules.js');
    const rules = Object.entries(VDB_MESSAGE_RULES).flatMap(([message, rule]) =>
      ((rule as { cel?: { id: string }[] }).cel ?? []).map((cel) => `${message}#${cel.id}`),
    );
    expect(rules.sort()).to.deep.equal(Object.keys(MESSAGE_RULES_CHECKED).sort());
  });

  describe('each derived check agrees with protovalidate on the bounds and forms of its rule', () => {
    const tally = { fields: 0, values: 0, agreeing: 0, stricter: 0 };
    after(() => {
      const rules = apiRuleNames().length;
      process.stdout.write(
        `      vdb: ${rules} field rules (${checkedApiRules().size} checked at plan), ${tally.fields} fields, ` +
          `${tally.values} values tried, ${tally.agreeing} verdicts agreeing, ${tally.stricter} where the plan ` +
          'is stricter on purpose (ids in lower case)\n',
      );
    });
    const registry = vdbRulesRegistry();
    const validator = createValidator({ registry });
    const fields = [...new Set([...checkedApiRules()].map((name) => name.split('#')[0]!))].sort();

    for (const full of fields) {
      it(full.slice(PACKAGE.length), () => {
        const [typeName, fieldName] = [full.slice(0, full.lastIndexOf('.')), full.slice(full.lastIndexOf('.') + 1)];
        const message = registry.getMessage(typeName)!;
        const field = message.fields.find((f) => f.name === fieldName)!;
        const rules = checkedPart(full);
        const checks = checksOf(full.slice(PACKAGE.length), rules);
        const disagreements: string[] = [];
        let accepted = 0;
        let refused = 0;
        for (const value of candidates(full, field, rules)) {
          const plan = checks.every((check) => check.check(value as never) === undefined);
          // A list whose `unique` rule no attribute checks is a distinct one: it is sent with each value once.
          const unique = (VDB_FIELD_RULES[full] as { repeated?: { unique?: boolean } }).repeated?.unique === true;
          const sentOnce = unique && Array.isArray(value) && !checkedApiRules().has(`${full}#repeated.unique`);
          const sent = sentOnce ? [...new Set(value as unknown[])] : value;
          const platform = platformAccepts(validator, message, field, full, sent);
          if (plan) accepted++;
          else refused++;
          // The plan may be stricter only where a form says so: ids in lower case, as the platform writes them.
          const stricterOnPurpose = !plan && platform && /lower case/.test(problems(checks, value));
          tally.values++;
          if (plan === platform) tally.agreeing++;
          if (stricterOnPurpose) tally.stricter++;
          if (plan !== platform && !stricterOnPurpose)
            disagreements.push(
              `${JSON.stringify(value)}: plan ${plan ? 'accepts' : 'refuses'}, platform ${platform ? 'accepts' : 'refuses'}`,
            );
        }
        tally.fields++;
        expect(disagreements).to.deep.equal([]);
        expect(accepted, 'values the rule accepts').to.be.above(0);
        expect(refused, 'values the rule refuses').to.be.above(0);
      });
    }
  });
});

/** The rules of `full` some attribute checks (a list's bounds, say, and not the CEL rules of its items). */
function checkedPart(full: string): Record<string, Record<string, unknown>> {
  const checked = checkedApiRules();
  const out: Record<string, Record<string, unknown>> = {};
  for (const [kind, rule] of Object.entries(VDB_FIELD_RULES[full] as Record<string, Record<string, unknown>>)) {
    if (kind === 'cel') {
      const cels = (rule as unknown as { id: string }[]).filter((cel) => checked.has(`${full}#cel.${cel.id}`));
      if (cels.length > 0) out.cel = cels as unknown as Record<string, unknown>;
    } else if (kind === 'repeated') {
      const kept = Object.entries(rule).filter(([key]) => checked.has(`${full}#repeated.${key}`));
      if (kept.length > 0) out.repeated = Object.fromEntries(kept);
    } else if (checked.has(`${full}#${kind}`)) out[kind] = rule;
  }
  return out;
}

function problems(checks: readonly Validator<unknown>[], value: unknown): string {
  return checks.map((check) => check.check(value as never) ?? '').join(' ');
}

/**
 * Whether protovalidate accepts a message of `message`'s type with only `field` set to `value` (the
 * provider's form of it: an enum's name, a Go duration, an RFC 3339 time), judging only that field.
 */
function platformAccepts(
  validator: ReturnType<typeof createValidator>,
  message: DescMessage,
  field: DescField,
  full: string,
  value: unknown,
): boolean {
  const wire = toWire(full, field, value);
  if (wire === undefined) return false;
  const result = validator.validate(message, create(message, { [field.localName]: wire } as never));
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

/** The value as the message holds it, or undefined where the wire cannot carry it (an unknown enum name). */
function toWire(full: string, field: DescField, value: unknown): unknown {
  const one = (v: unknown): unknown => {
    if (field.fieldKind === 'list' && field.listKind === 'message') return {};
    if (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) {
      const entry = VDB_FIELD_ENUMS[full]?.find(([name]) => name === v);
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
function candidates(full: string, field: DescField, rules: Record<string, Record<string, unknown>>): unknown[] {
  const out: unknown[] = [];
  for (const [kind, rule] of Object.entries(rules)) {
    if (kind === 'int32' || kind === 'uint32') out.push(...integers(kind, rule));
    else if (kind === 'string' || kind === 'cel' || kind === 'required') out.push(...texts(rules.string ?? {}));
    else if (kind === 'enum') out.push(...(VDB_FIELD_ENUMS[full] ?? []).map(([name]) => name), 'NOT_A_VALUE');
    else if (kind === 'duration') out.push('1h', '23h59m59s', '24h', '86400s', '8760h', '8760h1s', '9000h', 'soon');
    else if (kind === 'timestamp') out.push('2001-01-01T00:00:00Z', '2099-01-01T00:00:00Z', new Date().toISOString());
    else if (kind === 'repeated') out.push(...lists(field, rule));
  }
  return [...new Map(out.map((v) => [JSON.stringify(v), v])).values()];
}

function integers(kind: string, rule: Record<string, unknown>): number[] {
  const bounds = ['gte', 'gt', 'lte', 'lt'].flatMap((key) => (rule[key] === undefined ? [] : [Number(rule[key])]));
  const [min, max] = kind === 'int32' ? [-(2 ** 31), 2 ** 31 - 1] : [0, 2 ** 32 - 1];
  return [min, max, 0, 1, -1, ...bounds.flatMap((b) => [b - 1, b, b + 1])].filter((n) => n >= min && n <= max);
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
