/**
 * The language of sec's contract (docs/decisions.md, "One contract per platform"): a declarative
 * description of the API's JSON request bodies. The emulator validates with it (a 400 with a precise,
 * path-qualified message), the provider's plan-time checks are derived from it
 * (src/resources/sec/rules.ts), and its JSON Schema (./json-schema.ts) is the API's `/openapi.json`.
 */
export type FieldSpec = StringSpec | IntegerSpec | FlagSpec | BooleanSpec | ObjectSpec | ArraySpec | UnionSpec;

interface CommonSpec {
  /** Absent or null is accepted. */
  readonly optional?: boolean;
  /** Never echoed in messages; replaced by "" when an object is shown to clients. */
  readonly secret?: boolean;
  /**
   * A credential the platform shows on reads (unlike a secret) but, like a secret, keeps when an
   * update leaves it out: clients holding it write-only never have to send it again.
   */
  readonly credential?: boolean;
}

export type StringFormat = 'email' | 'url' | 'https-url' | 'json-data-url' | 'pem-private-key';

/**
 * What a string or an array of a body may hold when its spec names no bound of its own. The sec
 * platform publishes no such limits besides its 1 MiB body (http-server.ts), so these are chosen:
 * generous for every field it has (a 4096-bit RSA private key in PEM is about 3.3 KB; no list the
 * provider sends comes near a thousand entries), and they keep an absurd request from being
 * stored and echoed.
 */
export const DEFAULT_BODY_LIMITS = {
  characters: 8192,
  items: 1000,
  /** A JSON document uploaded as a data URL (templates, account mapping files): the body bounds it. */
  documentCharacters: 1024 * 1024,
} as const;

/** At most this many characters of a client's value are quoted back in a message. */
const MAX_QUOTED_CHARACTERS = 64;

export interface StringSpec extends CommonSpec {
  readonly kind: 'string';
  readonly oneOf?: readonly string[];
  readonly format?: StringFormat;
  /** "" is refused unless set. */
  readonly allowEmpty?: boolean;
  /** Default DEFAULT_BODY_LIMITS.characters (documentCharacters for `json-data-url`). */
  readonly maxLength?: number;
  /** A regular expression (JavaScript, `u` flag) a non-empty value must match; `patternRule` says it in words. */
  readonly pattern?: string;
  /** What `pattern` requires, as a message and the docs say it: `letters, digits, "_" and "-"`. */
  readonly patternRule?: string;
}

export interface IntegerSpec extends CommonSpec {
  readonly kind: 'integer';
  readonly min?: number;
  readonly max?: number;
}

/** The platform's integer booleans: exactly 0 or 1. */
export interface FlagSpec extends CommonSpec {
  readonly kind: 'flag';
}

export interface BooleanSpec extends CommonSpec {
  readonly kind: 'boolean';
}

export interface ObjectSpec extends CommonSpec {
  readonly kind: 'object';
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Cross-field rules; throw `invalid(...)` to refuse. */
  readonly check?: (value: Record<string, unknown>, path: string) => void;
  /** What `check` refuses, in words, for the published description (json-schema.ts `x-checks`). */
  readonly checkRule?: string;
}

export interface ArraySpec extends CommonSpec {
  readonly kind: 'array';
  readonly items: FieldSpec;
  readonly minItems?: number;
  /** Default DEFAULT_BODY_LIMITS.items. */
  readonly maxItems?: number;
}

/**
 * A value of one of several shapes, taken when one of them takes it (a constraint's value: a text, or a key
 * with its values). Each shape is of another JSON type, so a value's type says which shape judges it.
 */
export interface UnionSpec extends CommonSpec {
  readonly kind: 'union';
  readonly options: readonly FieldSpec[];
  /** What the shapes are, as a message and the docs say it: `a non-empty string or an object {key, value}`. */
  readonly rule: string;
}

type Options<S> = Omit<S, 'kind'>;
type Checks = 'fields' | 'check' | 'checkRule';
type NoOptions = Record<never, never>;

/** A builder of a spec without parts of its own: its kind, and its options with their literal types. */
const scalar =
  <S extends StringSpec | IntegerSpec | FlagSpec | BooleanSpec>(kind: S['kind']) =>
  <const O extends Options<S> = Options<S>>(options: O = {} as O): S & O =>
    ({ kind, ...options }) as S & O;

/**
 * Builders, so tables read `field.string({ optional: true })`. Each keeps its options' literal types
 * (`optional: true`, an enum's values, an object's fields), so that what a client reads can be typed
 * from the very spec (src/clients/sec/contract-answers.ts).
 */
export const field = {
  string: scalar<StringSpec>('string'),
  integer: scalar<IntegerSpec>('integer'),
  flag: scalar<FlagSpec>('flag'),
  boolean: scalar<BooleanSpec>('boolean'),
  // `check` is typed apart from O, so that its parameters are typed from the spec's.
  object: <const F extends Record<string, FieldSpec>, const O extends Omit<Options<ObjectSpec>, Checks> = NoOptions>(
    fields: F,
    options: O & Pick<ObjectSpec, 'check' | 'checkRule'> = {} as O & Pick<ObjectSpec, 'check' | 'checkRule'>,
  ): ObjectSpec & { readonly fields: F } & O => ({ kind: 'object', fields, ...options }),
  array: <const I extends FieldSpec, const O extends Omit<Options<ArraySpec>, 'items'> = NoOptions>(
    items: I,
    options: O = {} as O,
  ): ArraySpec & { readonly items: I } & O => ({ kind: 'array', items, ...options }),
  union: <const U extends readonly FieldSpec[], const O extends Omit<Options<UnionSpec>, 'options'>>(
    options: U,
    rest: O,
  ): UnionSpec & { readonly options: U } & O => {
    const types = options.map(jsonTypeOf);
    if (new Set(types).size !== types.length) throw new Error(`a union's shapes must differ in type (${rest.rule})`);
    return { kind: 'union', options, ...rest };
  },
};

/** The JSON type a value of `spec` has, which tells a union's shapes apart. */
function jsonTypeOf(spec: FieldSpec): string {
  if (spec.kind === 'flag' || spec.kind === 'integer') return 'number';
  return spec.kind === 'union' ? 'union' : spec.kind;
}

/** The JSON type of `value`, as {@link jsonTypeOf} names a spec's. */
const jsonTypeOfValue = (value: unknown): string =>
  Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;

/** A request the contract refuses: the platform answers 400 with `message`. */
export class RuleViolation extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'RuleViolation';
  }
}

/** The refusal of a rule, for a cross-field `check` to throw. */
export function invalid(message: string): RuleViolation {
  return new RuleViolation(message);
}

/**
 * Throws a RuleViolation describing the first problem found. `held` is what the platform holds at
 * this place of the object being replaced (on an update): a field no spec names is refused, unless
 * the object holds it with that very value, as a read returned it (see {@link heldFields}).
 */
export function validate(spec: FieldSpec, value: unknown, path: string, held?: unknown): void {
  if (value === undefined || value === null) {
    if (spec.optional) return;
    throw invalid(`${path} is required`);
  }
  switch (spec.kind) {
    case 'string':
      return validateString(spec, value, path);
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw invalid(`${path} must be an integer${got(value)}`);
      if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
        throw invalid(`${path} must be between ${spec.min ?? '-∞'} and ${spec.max ?? '∞'} (got ${value})`);
      }
      return;
    case 'flag':
      if (value !== 0 && value !== 1)
        throw invalid(`${path} must be 0 or 1${spec.secret ? '' : ` (got ${quote(value)})`}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(`${path} must be true or false${got(value)}`);
      return;
    case 'object':
      return validateObject(spec, value, path, held);
    case 'union': {
      // The shape of the value's type judges it, so a refusal names what is wrong inside it.
      const shape = spec.options.find((option) => jsonTypeOf(option) === jsonTypeOfValue(value));
      if (!shape) throw invalid(`${path} must be ${spec.rule}${got(value)}`);
      return validate(shape, value, path);
    }
    case 'array':
      if (!Array.isArray(value)) throw invalid(`${path} must be an array${got(value)}`);
      if (spec.minItems !== undefined && value.length < spec.minItems) {
        throw invalid(`${path} must contain at least ${spec.minItems} item${spec.minItems === 1 ? '' : 's'}`);
      }
      checkItemCount(value, spec.maxItems ?? DEFAULT_BODY_LIMITS.items, path);
      value.forEach((item, index) => validate(spec.items, item, `${path}[${index}]`));
      return;
  }
}

function validateString(spec: StringSpec, value: unknown, path: string): void {
  if (typeof value !== 'string') throw invalid(`${path} must be a string${got(value)}`);
  const defaultMax =
    spec.format === 'json-data-url' ? DEFAULT_BODY_LIMITS.documentCharacters : DEFAULT_BODY_LIMITS.characters;
  checkLength(value, spec.maxLength ?? defaultMax, path);
  const shown = spec.secret ? '' : ` (got ${quote(value)})`;
  if (value === '' && !spec.allowEmpty) throw invalid(`${path} must not be empty`);
  // As a format or a pattern, an enum judges a non-empty text: "" (where it may be) is "none".
  if (spec.oneOf && value !== '' && !spec.oneOf.includes(value)) {
    throw invalid(`${path} must be one of ${spec.oneOf.map((option) => JSON.stringify(option)).join(', ')}${shown}`);
  }
  if (value !== '' && spec.pattern !== undefined && !new RegExp(spec.pattern, 'u').test(value))
    throw invalid(`${path} must be ${spec.patternRule ?? `text matching /${spec.pattern}/`}${shown}`);
  if (value === '' || !spec.format || STRING_FORMATS[spec.format](value)) return;
  const what = FORMAT_NAMES[spec.format];
  // A document's or a key's text is never quoted back.
  const quoted = spec.format === 'json-data-url' || spec.format === 'pem-private-key' ? '' : shown;
  throw invalid(`${path} must be ${what}${quoted}`);
}

/**
 * What each string format accepts: the one definition the emulator validates with and its published
 * description names (json-schema.ts; the tests give these to ajv as its formats).
 */
export const STRING_FORMATS: Readonly<Record<StringFormat, (value: string) => boolean>> = {
  email: (v) => isEmail(v),
  url: (v) => isUrlOf(v, 'http:', 'https:'),
  'https-url': (v) => isUrlOf(v, 'https:'),
  'json-data-url': (v) => isJsonDataUrl(v),
  'pem-private-key': (v) => isPemPrivateKey(v),
};

const FORMAT_NAMES: Readonly<Record<StringFormat, string>> = {
  email: 'a valid email address',
  url: 'an http(s) URL',
  'https-url': 'an https URL',
  'json-data-url': 'a data URL "data:application/json;…;base64,<base64 of a JSON document>"',
  'pem-private-key': 'a PEM-encoded private key with a base64 body',
};

/** BEGIN/END lines of a private key around base64 lines (encapsulated headers before a blank line allowed). */
function isPemPrivateKey(value: string): boolean {
  const m = /^-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----\r?\n([\s\S]*?)\r?\n?-----END \1-----\s*$/.exec(value.trim());
  if (!m) return false;
  const lines = m[2]!.split(/\r?\n/);
  const blank = lines.indexOf('');
  const body = (lines.some((l) => /^[A-Za-z-]+: /.test(l)) && blank >= 0 ? lines.slice(blank + 1) : lines)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return body.length > 0 && body.every((l) => /^[A-Za-z0-9+/]*={0,2}$/.test(l));
}

function validateObject(spec: ObjectSpec, value: unknown, path: string, held?: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${path} must be an object${got(value)}`);
  }
  const record = value as Record<string, unknown>;
  const kept = isRecord(held) ? held : {};
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(spec.fields, key) && !holds(kept, key, record[key]))
      throw invalid(`${path}.${quoteKey(key)} is not a recognised field`);
  }
  for (const [key, fieldSpec] of Object.entries(spec.fields))
    validate(fieldSpec, record[key], `${path}.${key}`, kept[key]);
  spec.check?.(record, path);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `held` has `key` with exactly `value` (JSON-equal). */
export function holds(held: unknown, key: string, value: unknown): boolean {
  return isRecord(held) && Object.hasOwn(held, key) && JSON.stringify(held[key]) === JSON.stringify(value);
}

/** Refuses a string longer than `max` characters (code points), naming the field and the bound. */
export function checkLength(value: string, max: number, path: string): void {
  const count = characterCount(value);
  if (count > max) throw invalid(`${path} must be at most ${max} characters long (got ${count})`);
}

/** Refuses a list (or map) of more than `max` entries, naming the field and the bound. */
export function checkItemCount(items: readonly unknown[], max: number, path: string, what = 'items'): void {
  if (items.length > max) throw invalid(`${path} must contain at most ${max} ${what} (got ${items.length})`);
}

function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** A client's value quoted in a message, cut short when long (answers stay small whatever was sent). */
export function quote(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value)?.slice(0, MAX_QUOTED_CHARACTERS) ?? String(value);
  const characters = [...value];
  if (characters.length <= MAX_QUOTED_CHARACTERS) return JSON.stringify(value);
  return `${JSON.stringify(characters.slice(0, MAX_QUOTED_CHARACTERS).join(''))}… (${characters.length} characters)`;
}

function got(value: unknown): string {
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return ` (got ${type})`;
}

// Deliberately simple: local@domain.tld, no spaces, one @.
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;.]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** A URL whose scheme is one of `protocols` (`'https:'`, as URL spells them). */
function isUrlOf(value: string, ...protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function isJsonDataUrl(value: string): boolean {
  const match = /^data:application\/json(;[^,;]+)*;base64,(.*)$/s.exec(value);
  if (!match) return false;
  try {
    JSON.parse(Buffer.from(match[2]!, 'base64').toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** An object key a client sent, as it appears in a path: short ones as they are. */
export function quoteKey(key: string): string {
  return [...key].length <= MAX_QUOTED_CHARACTERS ? key : quote(key);
}

/** The pattern of a text that is not blank: at least one character that is not white space. */
export const NON_BLANK_PATTERN = '\\S';

/** A contract's request bodies by name (`Policies`, `AlertChannels:EmailUser`): see ./index.ts. */
export type ContractBodies = Readonly<Record<string, FieldSpec>>;
