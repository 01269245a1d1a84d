/**
 * The plan's checks of the sec API's field rules, derived from sec's contract (src/wire/sec-contract,
 * docs/decisions.md, "One contract per platform"), as vdb's are from its .proto files
 * (../vdb/rules.ts). An attribute that sends a field names it (`secRules('Policies.limit')`) instead of
 * repeating its bounds, so that a plan accepts what the platform accepts and a rule changed in the
 * contract changes the plan too. Each rule used is recorded: test/resources/sec/api-rules.test.ts holds
 * every rule of the contract to an attribute that checks it, or a reason none does.
 *
 * What the contract says in code across fields (an object's `check`) is not derived: the resource
 * checks it where the fields meet, and the test names where.
 */
import * as forms from '../../schema/forms.js';
import { type Validator, validators } from '@keel/provider-framework';
import {
  contractField,
  contractFields,
  DEFAULT_BODY_LIMITS,
  type FieldSpec,
  NON_BLANK_PATTERN,
  type StringFormat,
} from '../../wire/sec-contract/index.js';

/**
 * What the sec platform takes in any request: its 1 MiB body, 8,192 characters of a text, 1,000 elements
 * of a list, unless a field's rule says less (ProviderDef `limits`, checked for every value at plan).
 */
export const SEC_LIMITS = {
  characters: DEFAULT_BODY_LIMITS.characters,
  items: DEFAULT_BODY_LIMITS.items,
  bodyBytes: 1024 * 1024,
} as const;

/**
 * A rule of the contract, named `<field>#<kind>`: `range` (an integer's bounds), `maxLength` (a text's
 * own bound, below the platform's limit for any text), `oneOf`, `format`, `pattern`, `minItems`,
 * `maxItems` (a list's own bound), `check` (an object's rule across its fields, in code).
 */
export type SecRuleKind = 'range' | 'maxLength' | 'oneOf' | 'format' | 'pattern' | 'minItems' | 'maxItems' | 'check';

/** Every rule of the field `spec`, by kind. */
export function rulesOfSpec(spec: FieldSpec): SecRuleKind[] {
  switch (spec.kind) {
    case 'string':
      return [
        ...(spec.maxLength !== undefined && spec.maxLength !== defaultCharacters(spec) ? (['maxLength'] as const) : []),
        ...(spec.oneOf ? (['oneOf'] as const) : []),
        ...(spec.format ? (['format'] as const) : []),
        ...(spec.pattern !== undefined ? (['pattern'] as const) : []),
      ];
    case 'integer':
      return spec.min !== undefined || spec.max !== undefined ? ['range'] : [];
    case 'array':
      return [
        ...(spec.minItems !== undefined ? (['minItems'] as const) : []),
        ...(spec.maxItems !== undefined && spec.maxItems < SEC_LIMITS.items ? (['maxItems'] as const) : []),
      ];
    case 'object':
      return spec.check ? ['check'] : [];
    default:
      return [];
  }
}

/** The bound of a text with no bound of its own: the body's for a JSON document, else the platform's for a text. */
const defaultCharacters = (spec: FieldSpec & { kind: 'string' }): number =>
  spec.format === 'json-data-url' ? DEFAULT_BODY_LIMITS.documentCharacters : SEC_LIMITS.characters;

/** Every rule of the contract, named as in {@link checkedSecRules}. */
export function secRuleNames(): string[] {
  return contractFields().flatMap(({ name, spec }) => rulesOfSpec(spec).map((kind) => `${name}#${kind}`));
}

const checked = new Set<string>();
/** The options each field's checks were derived with, for the agreement test. */
const optionsUsed = new Map<string, SecRuleOptions>();

/** The rules some attribute checks (`Policies.limit#range`), for the coverage test. */
export function checkedSecRules(): ReadonlySet<string> {
  return checked;
}

/** How an attribute wants a derived check, where the field's rule alone does not say it. */
export interface SecRuleOptions {
  /**
   * The attribute is a name people see in the console: one line of visible text (forms.name), within
   * the field's own bound or the platform's limit for a text.
   */
  readonly name?: boolean;
  /** An e-mail address the resource trims before sending: surrounding whitespace is allowed. */
  readonly trimmed?: boolean;
  /** For a pattern, values it accepts, for the property tests (a pattern cannot name them itself). */
  readonly samples?: readonly string[];
}

/**
 * The plan-time checks of the contract's field `field` (`Policies.limit`, `AlertChannels:Siem.hostPort`),
 * for the attribute that sends it. A list's checks judge its items too (`each`). A rule this module cannot
 * derive fails loudly here, at load.
 */
export function secRules<V = string>(field: string, options: SecRuleOptions = {}): Validator<V>[] {
  optionsUsed.set(field, options);
  return derive(field, contractField(field), options) as Validator<V>[];
}

/** The fields some attribute derived checks for, by the name it gave. */
export function derivedFields(): string[] {
  return [...optionsUsed.keys()];
}

/**
 * The checks the attributes derived for `field`, with the options they gave, recording nothing: for the
 * test that holds them to the contract's own judgement. Undefined where no attribute derived any.
 */
export function derivedChecks(field: string): { checks: Validator<unknown>[]; options: SecRuleOptions } | undefined {
  const options = optionsUsed.get(field);
  if (!options) return undefined;
  return { checks: derive(field, contractField(field), options, false), options };
}

/** The one plan-time check of `field`, for an attribute that also shows it in words. */
export function secRule<V = string>(field: string, options: SecRuleOptions = {}): Validator<V> {
  const [only, ...more] = secRules<V>(field, options);
  if (!only || more.length > 0) throw new Error(`sec contract: ${field} derives ${more.length + 1} checks, not one`);
  return only;
}

/** The item bounds of the list field `field`, for the block that sends it. */
export function secItems(field: string): { min?: number; max?: number } {
  const spec = contractField(field);
  if (spec.kind !== 'array') throw new Error(`sec contract: ${field} is not a list`);
  const kinds = rulesOfSpec(spec);
  for (const kind of kinds) checked.add(`${field}#${kind}`);
  return {
    ...(spec.minItems !== undefined ? { min: spec.minItems } : {}),
    ...(kinds.includes('maxItems') ? { max: spec.maxItems } : {}),
  };
}

/**
 * The bound of the text field `field` where it is above the platform's limit for any text (a query's
 * text), for the attribute's `maxCharacters`: the plan's limits would refuse it at 8,192 characters.
 */
export function secMaxCharacters(field: string): number {
  const spec = contractField(field);
  if (spec.kind !== 'string' || spec.maxLength === undefined || spec.maxLength <= SEC_LIMITS.characters)
    throw new Error(`sec contract: ${field} is no text with a bound above the limit for any text`);
  checked.add(`${field}#maxLength`);
  return spec.maxLength;
}

/**
 * Where the provider checks a rule of the contract itself, rather than by the checks `secRules` derives:
 *
 * - `sameAs`: the rule is another field's, which an attribute derives its checks from (an update's body
 *   takes what the create's does, and one attribute sends both). The agreement test holds the two rules
 *   equal, so a bound changed in one body and not the other fails.
 * - `checks`: the checks of the attribute that sends the field, the very ones it declares (the test finds
 *   each on an attribute of the provider's schema), tried on values at and around the rule as derived checks
 *   are. `sent` is what the platform is sent for the attribute's value where the two differ (a severity's
 *   name sent as its number; undefined for a value that sends nothing); `stricter` says why the attribute
 *   refuses values the platform takes, where it does so on purpose, and those values are counted apart.
 * - `inCode`: a rule across fields, or over a value the resource builds, checked in the resource's code
 *   where the fields meet, and held by that resource's tests.
 */
export type RuleClaim =
  | { readonly sameAs: string }
  | {
      readonly checks: readonly Validator<any>[];
      readonly sent?: (value: unknown) => unknown;
      readonly stricter?: string;
    }
  | { readonly inCode: string };

const claims = new Map<string, RuleClaim>();

/** The rules the provider claims to check itself (`Policies:update.limit#range`), with where. */
export function claimedSecRules(): ReadonlyMap<string, RuleClaim> {
  return claims;
}

/**
 * Records that the provider checks the rule `field#kind` itself, where `claim` says: the coverage test then
 * counts it as checked at plan, and the agreement test tries the claim against the contract.
 */
export function checkedBy(field: string, kind: SecRuleKind, claim: RuleClaim): void {
  if (!rulesOfSpec(contractField(field)).includes(kind))
    throw new Error(`sec contract: ${field} has no ${kind} rule for a resource to check`);
  checked.add(`${field}#${kind}`);
  claims.set(`${field}#${kind}`, claim);
}

/** The checks of `spec`, the field `field`, recording each rule as checked unless `recording` is false. */
function derive(field: string, spec: FieldSpec, options: SecRuleOptions, recording = true): Validator<unknown>[] {
  const kinds = rulesOfSpec(spec);
  if (recording) for (const kind of kinds) if (kind !== 'check') checked.add(`${field}#${kind}`);
  switch (spec.kind) {
    case 'string': {
      const out: Validator<string>[] = [];
      if (spec.oneOf) out.push(validators.oneOf(...spec.oneOf));
      if (spec.format) out.push(formatCheck(field, spec.format, options));
      // A console name's form refuses a blank text itself, and says why more precisely.
      const impliedByName = options.name === true && spec.pattern === NON_BLANK_PATTERN;
      if (spec.pattern !== undefined && !impliedByName) {
        const what = spec.patternRule ?? `text matching /${spec.pattern}/`;
        out.push(validators.matches(new RegExp(spec.pattern, 'u'), what, options.samples));
      }
      const max = spec.maxLength ?? SEC_LIMITS.characters;
      if (options.name) out.push(forms.name(max));
      else if (kinds.includes('maxLength') && max < SEC_LIMITS.characters) out.push(atMost(max));
      return out as Validator<unknown>[];
    }
    case 'integer':
      // A whole number even where the platform names no bound: 500.5 is refused at plan, not by the platform.
      return kinds.includes('range')
        ? [validators.intBetween(spec.min ?? Number.MIN_SAFE_INTEGER, spec.max ?? Number.MAX_SAFE_INTEGER)]
        : [validators.whole() as Validator<unknown>];
    case 'array': {
      const out: Validator<unknown>[] = [];
      if (spec.minItems !== undefined || kinds.includes('maxItems')) out.push(itemCount(spec.minItems, spec.maxItems));
      const items = derive(`${field}[]`, spec.items, options, recording);
      for (const item of items) out.push(validators.each(item) as Validator<unknown>);
      return out;
    }
    default:
      return [];
  }
}

/** A contract format as the plan judges it: the same forms the platform takes, said for a person. */
function formatCheck(field: string, format: StringFormat, options: SecRuleOptions): Validator<string> {
  switch (format) {
    case 'email':
      return forms.email({ trimmed: options.trimmed });
    case 'url':
      return forms.url('http', 'https');
    case 'https-url':
      return forms.url('https');
    case 'pem-private-key':
      return forms.pemPrivateKey;
    case 'json-data-url':
      throw new Error(`sec contract: ${field} is a data URL the resource writes; no attribute sends it as it is`);
  }
}

/** A text of at most `max` characters (code points, as the platform counts them). */
function atMost(max: number): Validator<string> {
  return {
    description: `at most ${max} characters`,
    check(v) {
      const n = [...v].length;
      return n > max ? `must be at most ${max} characters long, got ${n}` : undefined;
    },
  };
}

/** A list of `min` to `max` items. */
function itemCount(min: number | undefined, max: number | undefined): Validator<unknown> {
  const span =
    max === undefined ? `at least ${min}` : min === undefined || min === 0 ? `at most ${max}` : `${min} to ${max}`;
  return {
    description: `${span} element${max === 1 || (max === undefined && min === 1) ? '' : 's'}`,
    check(v) {
      const n = (v as unknown[]).length;
      return (min !== undefined && n < min) || (max !== undefined && n > max)
        ? `must have ${span} element${max === 1 || (max === undefined && min === 1) ? '' : 's'}, got ${n}`
        : undefined;
    },
  };
}
