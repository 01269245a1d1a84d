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
import { validators, type Validator } from '../../schema/define.js';
import { VDB_FIELD_ENUMS, VDB_FIELD_RULES, VDB_FIELD_TYPES } from '../../wire/vdb-field-rules.js';
import { futureTimestamp, goDurationBetweenHours, ipv4Cidr, uuid } from './formats.js';

const PACKAGE = 'vdb.cloud.';

type Json = Record<string, unknown>;

/** The largest and smallest values of the proto integer types the API uses. */
const INTEGER_TYPES: Record<string, readonly [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
};

/**
 * The rules some attribute checks, each as `<field's full name>#<rule>`: a kind (`string`, `uint32`,
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
    else if (kind in INTEGER_TYPES) out.push(integer(field, kind, rule));
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

function integer(field: string, kind: string, rule: Json): Validator<unknown> {
  const [typeMin, typeMax] = INTEGER_TYPES[kind]!;
  const min = rule.gte !== undefined ? Number(rule.gte) : rule.gt !== undefined ? Number(rule.gt) + 1 : typeMin;
  const max = rule.lte !== undefined ? Number(rule.lte) : rule.lt !== undefined ? Number(rule.lt) - 1 : typeMax;
  unsupported(field, kind, rule, ['gte', 'gt', 'lte', 'lt']);
  return validators.intBetween(min, max) as Validator<unknown>;
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
