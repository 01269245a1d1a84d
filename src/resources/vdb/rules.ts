/**
 * The plan's checks of the vdb API's field rules, derived from the rules themselves: the protovalidate
 * annotations of proto/vdb (docs/api/vdb.md, "Field rules"), in the table `npm run build` writes from
 * them. An attribute that sends a field names it (`apiRules('cluster.v1.Cluster.name')`) instead of
 * repeating its bounds, so a plan accepts what the platform accepts and a rule changed in the .proto
 * changes the plan too. Each name used is recorded: test/resources/vdb/api-rules.test.ts holds every
 * rule of the table to an attribute that checks it, or a reason none does, and every derived check to
 * protovalidate on the rule's boundary values.
 *
 * What a rule says of several fields at once (a message's CEL rules, a sum of amounts) is not derived
 * here: the resource checks it where the fields meet, and the test names where.
 */
import { type CtyNumber, numberText, shown, type Validator, validators } from '@keel/provider-framework';
import { VDB_FIELD_ENUMS, VDB_FIELD_RULES, VDB_FIELD_TYPES } from '../../wire/vdb-field-rules.js';
import { futureTimestamp, goDurationBetweenHours, ipv4Cidr, uuid } from './formats.js';

const PACKAGE = 'vdb.cloud.';

type Json = Record<string, unknown>;

/** The values each proto integer kind holds: a value outside them cannot be sent at all. */
const INTEGER_KINDS: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

/** The value the wire carries of a number sent as each floating kind: a float is rounded to 32 bits. */
const FLOAT_KINDS: Record<string, (n: number) => number> = { double: (n) => n, float: Math.fround };

/**
 * The rules some attribute checks, each as `<field's full name>#<rule>`: a kind (`string`, `uint64`,
 * `enum`, `duration`, `timestamp`, `required`), a repeated field's `repeated.<rule>`, or a CEL rule's
 * `cel.<id>`; {@link apiRuleNames} names every rule of the table so. For the coverage test.
 */
const checked = new Set<string>();

export function checkedApiRules(): ReadonlySet<string> {
  return checked;
}

/** Every rule of the table, named as in {@link checkedApiRules}. */
export function apiRuleNames(): string[] {
  return Object.entries(VDB_FIELD_RULES).flatMap(([full, rules]) =>
    Object.entries(rules as Json).flatMap(([kind, rule]) => {
      if (kind === 'cel') return (rule as unknown as Json[]).map((cel) => `${full}#cel.${String(cel.id)}`);
      if (kind === 'repeated') return Object.keys(rule as Json).map((key) => `${full}#repeated.${key}`);
      return [`${full}#${kind}`];
    }),
  );
}

const mark = (field: string, rule: string) => checked.add(`${PACKAGE}${field}#${rule}`);

/** How a derived check names what it wants, where the rule's own words would be a regex. */
export interface ApiRuleOptions {
  /** What a matching text is (`letters, digits, \`-\` and \`_\``), for docs and messages. */
  readonly what?: string;
  /** Values the rule accepts, for the property tests (a pattern cannot name them itself). */
  readonly samples?: readonly string[];
  /**
   * The attribute is a distinct list, sent with each value once (src/resources/shared/platform-values.ts):
   * that keeps a `unique` rule, which the plan then need not (and a destroy must not) refuse.
   */
  readonly sentOnce?: boolean;
}

function rulesOf(field: string): Json {
  const full = `${PACKAGE}${field}`;
  const rules = VDB_FIELD_RULES[full];
  if (!rules) throw new Error(`${full} has no rules in proto/vdb: name a field with buf.validate annotations`);
  return rules as Json;
}

/**
 * The plan-time checks of the API field `field` (its full name without `vdb.cloud.`), for the
 * attribute that sends it. A rule this module cannot derive fails loudly here, at load.
 */
export function apiRules<V = string>(field: string, options: ApiRuleOptions = {}): Validator<V>[] {
  return derived(field, rulesOf(field), options) as Validator<V>[];
}

/** The one plan-time check of `field` (an enum's values, say), for an attribute that also shows it in words. */
export function apiRule<V = string>(field: string, options: ApiRuleOptions = {}): Validator<V> {
  const [only, ...more] = apiRules<V>(field, options);
  if (!only || more.length > 0) throw new Error(`${PACKAGE}${field} derives ${more.length + 1} checks, not one`);
  return only;
}

/**
 * The checks of several fields that carry the same value (every request's `account_id`): they must
 * have the same rules, which is checked here, at load.
 */
export function sharedApiRules<V = string>(fields: readonly string[], options: ApiRuleOptions = {}): Validator<V>[] {
  const [first, ...rest] = fields.map((field) => [field, rulesOf(field)] as const);
  for (const [field, rules] of rest) {
    if (JSON.stringify(rules) !== JSON.stringify(first![1]))
      throw new Error(
        `${PACKAGE}${field} has rules other than ${PACKAGE}${first![0]}: one attribute cannot check both`,
      );
    derived(field, rules, options);
  }
  return derived(first![0], first![1], options) as Validator<V>[];
}

/** The checks `rules` (some of the rules of `field`) derive, recording nothing: for tests. */
export function checksOf<V = unknown>(field: string, rules: Record<string, unknown>): Validator<V>[] {
  return derived(field, rules as Json, {}, false) as Validator<V>[];
}

/** Every field of the table whose name ends in `.<name>` (`account_id`). */
export function apiFieldsNamed(name: string): string[] {
  return Object.keys(VDB_FIELD_RULES)
    .filter((full) => full.endsWith(`.${name}`))
    .map((full) => full.slice(PACKAGE.length));
}

/** The item bounds of a repeated field, for the block or collection attribute that sends it. */
export function apiItems(field: string): { min?: number; max?: number } {
  const repeated = (rulesOf(field).repeated ?? {}) as Json;
  for (const key of ['min_items', 'max_items']) if (repeated[key] !== undefined) mark(field, `repeated.${key}`);
  return {
    ...(repeated.min_items !== undefined ? { min: Number(repeated.min_items) } : {}),
    ...(repeated.max_items !== undefined ? { max: Number(repeated.max_items) } : {}),
  };
}

/** The checks of `rules`, the rules of `field` (or of its items, `marking` false). */
function derived(field: string, rules: Json, options: ApiRuleOptions, marking = true): Validator<unknown>[] {
  const out: Validator<unknown>[] = [];
  for (const [kind, value] of Object.entries(rules)) {
    const rule = value as Json;
    if (marking && kind !== 'cel' && kind !== 'repeated') mark(field, kind);
    // A required message is the schema's (a required block); a required string must not be empty.
    if (kind === 'required') out.push(...(VDB_FIELD_TYPES[`${PACKAGE}${field}`] === 'string' ? [nonEmpty] : []));
    else if (kind in INTEGER_KINDS) out.push(...integer(field, kind, rule));
    else if (kind in FLOAT_KINDS) out.push(...floating(field, kind, rule));
    else if (kind === 'bool') out.push(boolean(field, rule));
    else if (kind === 'string') out.push(...text(field, rule, options));
    else if (kind === 'enum') out.push(enumeration(field, rule));
    else if (kind === 'repeated') out.push(...repeated(field, rule, options));
    else if (kind === 'duration') out.push(duration(field, rule));
    else if (kind === 'timestamp' && rule.gt_now === true && Object.keys(rule).length === 1) out.push(futureTimestamp);
    else if (kind === 'cel') {
      for (const cel of rule as unknown as Json[]) {
        out.push(celMatch(field, cel, options));
        if (marking) mark(field, `cel.${String(cel.id)}`);
      }
    } else
      throw new Error(`${PACKAGE}${field}: no plan check is derived from its ${kind} rule ${JSON.stringify(rule)}`);
  }
  return out;
}

const nonEmpty: Validator<string> = validators.nonEmpty<string>();

const NUMBER_RULES = ['gte', 'gt', 'lte', 'lt', 'in', 'not_in', 'const'];

/**
 * The checks of an integer kind's rules, exact at any size: the table writes a 64-bit bound as text
 * (proto JSON), a Terraform number past 2^53 comes as a `Decimal`, and both are compared as bigints.
 */
function integer(field: string, kind: string, rule: Json): Validator<unknown>[] {
  unsupported(field, kind, rule, NUMBER_RULES);
  const big = (v: unknown) => BigInt(String(v));
  const [typeMin, typeMax] = INTEGER_KINDS[kind]!;
  const gt = rule.gt === undefined ? undefined : big(rule.gt);
  const lt = rule.lt === undefined ? undefined : big(rule.lt);
  const lower = rule.gte !== undefined ? big(rule.gte) : gt !== undefined ? gt + 1n : undefined;
  const upper = rule.lte !== undefined ? big(rule.lte) : lt !== undefined ? lt - 1n : undefined;
  const out: Validator<unknown>[] = [];
  // protovalidate reads a lower bound above the upper one as a range the value must stay out of.
  const outside = lower !== undefined && upper !== undefined && (gt ?? lower) > (lt ?? upper);
  if (outside) out.push(wholeBetween(typeMin, typeMax), outsideOf(lower, upper, exactInteger));
  else out.push(wholeBetween(bigMax(typeMin, lower), bigMin(typeMax, upper)));
  out.push(...listed(rule, big, exactInteger));
  return out;
}

const bigMax = (a: bigint, b: bigint | undefined) => (b === undefined || a > b ? a : b);
const bigMin = (a: bigint, b: bigint | undefined) => (b === undefined || a < b ? a : b);

/** A whole Terraform number as a bigint, exactly; undefined for a fraction. */
function exactInteger(v: unknown): bigint | undefined {
  const text = numberText(v as CtyNumber);
  return /^-?\d+$/.test(text) ? BigInt(text) : undefined;
}

/**
 * A whole number in [min, max]: the schema's own check where both fit a float64 exactly (its wording
 * and samples are the docs'), else the same words checked on bigints.
 */
function wholeBetween(min: bigint, max: bigint): Validator<unknown> {
  const safe = (n: bigint) => n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);
  if (safe(min) && safe(max)) return validators.intBetween(Number(min), Number(max)) as Validator<unknown>;
  // The range makes up samples, which must be numbers a float64 holds: the safe ends of the range.
  const clamp = (n: bigint) =>
    Number(bigMin(bigMax(n, BigInt(Number.MIN_SAFE_INTEGER)), BigInt(Number.MAX_SAFE_INTEGER)));
  const span = `a whole number from ${min} to ${max}`;
  return {
    range: [clamp(min), clamp(max)],
    description: span,
    check: (v) => {
      const n = exactInteger(v);
      return n !== undefined && n >= min && n <= max ? undefined : `must be ${span}, got ${shown(v)}`;
    },
  };
}

/** The value as the wire carries it, for the comparisons of a kind; undefined where it cannot. */
type Exactly<T> = (v: unknown) => T | undefined;

/** Outside the open range between `upper` and `lower`: at most `upper` or at least `lower`. */
function outsideOf<T extends bigint | number>(lower: T, upper: T, exactly: Exactly<T>): Validator<unknown> {
  const words = `at most ${upper} or at least ${lower}`;
  return {
    description: words,
    check: (v) => {
      const n = exactly(v);
      return n !== undefined && (n <= upper || n >= lower) ? undefined : `must be ${words}, got ${shown(v)}`;
    },
  };
}

/** The checks of `in`, `not_in` and `const`, comparing values as the wire carries them. */
function listed<T extends bigint | number>(rule: Json, read: (v: unknown) => T, exactly: Exactly<T>) {
  const out: Validator<unknown>[] = [];
  const only = rule.const !== undefined ? [read(rule.const)] : (rule.in as unknown[] | undefined)?.map(read);
  if (only) {
    const words = only.length === 1 ? `${only[0]}` : `one of ${only.join(', ')}`;
    const samples = only.filter((n) => typeof n === 'number' || Number.isSafeInteger(Number(n))).map(Number);
    out.push({
      description: words,
      samples,
      check: (v) => {
        const n = exactly(v);
        return n !== undefined && only.includes(n) ? undefined : `must be ${words}, got ${shown(v)}`;
      },
    });
  }
  const notIn = ((rule.not_in as unknown[] | undefined) ?? []).map(read);
  if (notIn.length > 0)
    out.push({
      description: `not ${notIn.join(', ')}`,
      check: (v) => (notIn.includes(exactly(v) as T) ? `must not be ${shown(v)}` : undefined),
    });
  return out;
}

/**
 * The checks of a `double` or `float` rule, on the value the wire carries (a float rounded to 32 bits,
 * as protovalidate on the platform sees it), its bounds read the same way.
 */
function floating(field: string, kind: string, rule: Json): Validator<unknown>[] {
  unsupported(field, kind, rule, [...NUMBER_RULES, 'finite']);
  const wire = FLOAT_KINDS[kind]!;
  const read = (v: unknown) => wire(Number(v));
  const carried: Exactly<number> = (v) => wire(Number(numberText(v as CtyNumber)));
  const bound = (key: string) => (rule[key] === undefined ? undefined : read(rule[key]));
  const [gt, gte, lt, lte] = [bound('gt'), bound('gte'), bound('lt'), bound('lte')];
  const lower = gt ?? gte;
  const upper = lt ?? lte;
  const out: Validator<unknown>[] = [];
  const above = (n: number) => lower === undefined || (gt !== undefined ? n > gt : n >= lower);
  const below = (n: number) => upper === undefined || (lt !== undefined ? n < lt : n <= upper);
  const outside = lower !== undefined && upper !== undefined && lower > upper;
  const words = [
    ...(lower === undefined ? [] : [`${gt !== undefined ? 'above' : 'at least'} ${lower}`]),
    ...(upper === undefined ? [] : [`${lt !== undefined ? 'below' : 'at most'} ${upper}`]),
  ].join(outside ? ' or ' : ' and ');
  const finite = rule.finite === true;
  const span = [...(finite ? ['finite'] : []), ...(words ? [words] : [])].join(', ');
  if (span)
    out.push({
      // The range makes up samples; the checks keep those inside.
      range: outside ? [-Number.MAX_VALUE, Number.MAX_VALUE] : [lower ?? -Number.MAX_VALUE, upper ?? Number.MAX_VALUE],
      description: `a number ${span}`,
      check: (v) => {
        const n = carried(v)!;
        const ok = (!finite || Number.isFinite(n)) && (outside ? above(n) || below(n) : above(n) && below(n));
        return ok ? undefined : `must be a number ${span}, got ${shown(v)}`;
      },
    });
  out.push(...listed(rule, read, carried));
  return out;
}

/** A `bool` rule: its one key, `const`. */
function boolean(field: string, rule: Json): Validator<unknown> {
  unsupported(field, 'bool', rule, ['const']);
  const only = rule.const === true;
  return {
    description: `${only}`,
    samples: [only],
    check: (v) => (v === only ? undefined : `must be ${only}, got ${shown(v)}`),
  };
}

function text(field: string, rule: Json, options: ApiRuleOptions): Validator<unknown>[] {
  unsupported(field, 'string', rule, ['min_len', 'max_len', 'pattern', 'uuid', 'ipv4_with_prefixlen']);
  const out: Validator<string>[] = [];
  if (rule.uuid === true) out.push(uuid);
  if (rule.ipv4_with_prefixlen === true) out.push(ipv4Cidr);
  const min = rule.min_len === undefined ? 0 : Number(rule.min_len);
  const max = rule.max_len === undefined ? undefined : Number(rule.max_len);
  if (min > 0 || max !== undefined) out.push(length(min, max));
  if (typeof rule.pattern === 'string') {
    const re = new RegExp(rule.pattern, 'u');
    out.push(matching(re, patternRequirement(re, options), options.samples, 'match'));
  }
  return out as Validator<unknown>[];
}

/** A length in characters (code points, as protovalidate counts them). */
function length(min: number, max: number | undefined): Validator<string> {
  const span = max === undefined ? `at least ${min}` : min === 0 ? `at most ${max}` : `${min} to ${max}`;
  return {
    description: `${span} characters`,
    check(v) {
      const n = [...v].length;
      return n < min || (max !== undefined && n > max) ? `must be ${span} characters long, got ${n}` : undefined;
    },
  };
}

/**
 * A text `re` matches (or, `avoid`, does not); `requirement` says what it must, as a message and the
 * docs say it (`must be letters, digits, \`-\` and \`_\``).
 */
function matching(re: RegExp, requirement: string, samples: readonly string[] | undefined, sense: 'match' | 'avoid') {
  const validator: Validator<string> = {
    description: requirement,
    ...(samples ? { samples } : {}),
    check: (v) => (re.test(v) === (sense === 'match') ? undefined : `${requirement}, got ${JSON.stringify(v)}`),
  };
  return validator;
}

/** What a pattern rule requires: the attribute's words for it, or the pattern itself. */
const patternRequirement = (re: RegExp, options: ApiRuleOptions) =>
  `must be ${options.what ?? `text matching \`${re.source}\``}`;

/**
 * A field CEL rule of the forms the .proto files use for formats protovalidate has no name for:
 * `this.matches('re')`, `this == '' || this.matches('re')` and `!this.matches('re')`. Its message is
 * the rule's own (`must be a valid Kubernetes label key`), or the attribute's words for a format.
 */
function celMatch(field: string, cel: Json, options: ApiRuleOptions): Validator<unknown> {
  const expression = String(cel.expression);
  const form = /^(this == '' \|\| |!)?this\.matches\('((?:[^'\\]|\\.)*)'\)$/.exec(expression);
  if (!form) throw new Error(`${PACKAGE}${field}: no plan check is derived from the CEL rule ${expression}`);
  // CEL's string literal escapes (\\, \x00) read as a JavaScript regex's source reads them.
  const re = new RegExp(form[2]!.replace(/\\\\/g, '\\'), 'u');
  const own = String(cel.message ?? '');
  const requirement = options.what && own.startsWith('must be ') ? `must be ${options.what}` : own;
  const inner = matching(re, requirement, options.samples, form[1] === '!' ? 'avoid' : 'match');
  if (form[1] !== "this == '' || ") return inner as Validator<unknown>;
  return { ...inner, check: (v: string) => (v === '' ? undefined : inner.check(v)) } as Validator<unknown>;
}

function enumeration(field: string, rule: Json): Validator<unknown> {
  unsupported(field, 'enum', rule, ['defined_only', 'not_in', 'in']);
  const values = VDB_FIELD_ENUMS[`${PACKAGE}${field}`] ?? [];
  const notIn = (rule.not_in as number[] | undefined) ?? [];
  const only = rule.in as number[] | undefined;
  const allowed = values
    .filter(([, number]) => !notIn.includes(number) && (only === undefined || only.includes(number)))
    .map(([name]) => name);
  return validators.oneOf(...allowed) as Validator<unknown>;
}

function repeated(field: string, rule: Json, options: ApiRuleOptions): Validator<unknown>[] {
  unsupported(field, 'repeated', rule, ['min_items', 'max_items', 'unique', 'items']);
  for (const key of Object.keys(rule)) if (key !== 'unique' || !options.sentOnce) mark(field, `repeated.${key}`);
  const out: Validator<unknown[]>[] = [];
  const min = rule.min_items === undefined ? 0 : Number(rule.min_items);
  const max = rule.max_items === undefined ? undefined : Number(rule.max_items);
  if (min > 0 || max !== undefined) {
    const span = max === undefined ? `at least ${min}` : min === 0 ? `at most ${max}` : `${min} to ${max}`;
    out.push({
      description: `${span} entries`,
      check: (vs) =>
        vs.length < min || (max !== undefined && vs.length > max)
          ? `must have ${span} entries, got ${vs.length}`
          : undefined,
    });
  }
  if (rule.unique === true && !options.sentOnce) {
    out.push({
      description: 'no entry twice',
      check: (vs) => {
        const repeat = vs.find((v, i) => vs.indexOf(v) !== i);
        return repeat === undefined ? undefined : `must not hold ${JSON.stringify(repeat)} twice`;
      },
    });
  }
  for (const item of rule.items === undefined ? [] : derived(field, rule.items as Json, options, false))
    out.push(validators.each(item) as Validator<unknown[]>);
  return out as Validator<unknown>[];
}

const SECONDS_PER_HOUR = 3600n;

/** A Go duration string within the rule's bounds (`"86400s"` in the table), which are whole hours. */
function duration(field: string, rule: Json): Validator<unknown> {
  unsupported(field, 'duration', rule, ['gte', 'lte']);
  const hours = (bound: unknown) => {
    const seconds = BigInt(String(bound).replace(/s$/, ''));
    if (seconds % SECONDS_PER_HOUR !== 0n) throw new Error(`${PACKAGE}${field}: a bound of ${bound} is no whole hour`);
    return Number(seconds / SECONDS_PER_HOUR);
  };
  const max = rule.lte === undefined ? Number.MAX_SAFE_INTEGER : hours(rule.lte);
  return goDurationBetweenHours(rule.gte === undefined ? 0 : hours(rule.gte), max) as Validator<unknown>;
}

function unsupported(field: string, kind: string, rule: Json, known: readonly string[]): void {
  const other = Object.keys(rule).filter((key) => !known.includes(key));
  if (other.length > 0)
    throw new Error(`${PACKAGE}${field}: no plan check is derived from ${kind}.${other.join(', ')}`);
}
