/**
 * Static validation of a configuration against the declarations, written once for every resource,
 * data source and provider, each problem reported at its attribute path:
 * - a required argument set to null is missing (Terraform itself only catches one left out); an
 *   optional one set empty is unset, like null (model.ts meansNull);
 * - validators and the "not configurable" rule, for known values (unknown ones are judged again at
 *   plan time, when the engine runs this again);
 * - deprecated arguments and blocks that are used warn, naming their replacement;
 * - then the definition's own cross-argument check, on a model where unknown values are `undefined`.
 * At plan and apply time, values the stored object holds are not judged again: they were judged when
 * stored, or are the platform's own form, and `lifecycle { ignore_changes }` copies them into the
 * configuration Terraform sends (with `all`, every stored value but the computed-only ones).
 */
import type { AttrDef, BlockDef, Fields, PlatformLimits } from '../schema/define.js';
import { type AttributePath, attrStep, indexStep } from '../schema/path.js';
import { Unknown, objectOrNull, type ObjectValue, type Value } from '../schema/value.js';
import { hasNullElement, isWhollyKnown, valueEquals } from '../schema/value-ops.js';
import { meansNull, toConfigModel, valueToExactPlain, valueToPlain } from '../schema/model.js';
import { fieldList, fieldType } from '../schema/fields.js';
import type { CtyType } from '../schema/cty-type.js';
import type { ConfigCheck } from './contracts.js';
import { diagnosticFromError, type Diagnostics } from './diagnostics.js';

/** What a configuration is checked against: a schema's fields and its definition's own check. */
export interface Checked {
  readonly schema: { readonly fields: Fields };
  readonly validate?: ConfigCheck<any> | undefined;
}

/** What the client told about itself (ValidateResourceConfig's client capabilities). */
export interface ClientCapabilities {
  /** Terraform 1.11 and later: write-only arguments are supported. */
  readonly writeOnlyAttributesAllowed: boolean;
}

/** Where capabilities were not sent (plan and apply time): the validation before them judged them. */
const ANY_CLIENT: ClientCapabilities = { writeOnlyAttributesAllowed: true };

export interface CheckOptions {
  /** Titles what the definition's own check throws. */
  readonly summary?: string;
  readonly client?: ClientCapabilities;
  /** The prior state (plan and apply time): what it holds is not judged again. */
  readonly stored?: ObjectValue | null;
  /** The platform's limits on every value (ProviderDef `limits`). */
  readonly limits?: PlatformLimits | undefined;
}

/** Runs every check on `config`. */
export function checkConfig(def: Checked, config: ObjectValue, diags: Diagnostics, options: CheckOptions = {}): void {
  const { summary = 'Invalid configuration', client = ANY_CLIENT, stored = null, limits } = options;
  const sizeOk = limits === undefined || withinBody(config, limits, diags);
  if (!new Validation(diags, client, limits).fields(def.schema.fields, config, [], undefined, stored) || !sizeOk)
    return;
  if (!def.validate || holdsOnlyStored(def.schema.fields, config, stored)) return;
  try {
    def.validate(toConfigModel(def.schema.fields, config), diags);
  } catch (err) {
    diags.append([diagnosticFromError(summary, err)]);
  }
}

/**
 * An element of a set-nested block being judged. A set element cannot be addressed (protocol.md
 * §2.2), so what is inside one is reported at the set's path, and the message names the block and
 * the element (by its known, non-secret texts) instead.
 */
interface SetElement {
  readonly path: AttributePath;
  /** The block's name from the top, e.g. `permissions` or `configuration.node_selector`. */
  readonly block: string;
  /** The element as a person finds it in the configuration, e.g. 'the `labels` block with key = "team"'. */
  readonly label: string;
}

/**
 * `within`, when given, is the enclosing element of a set block (see SetElement).
 *
 * Returns false when no model should be built from the value: a required argument is null, or a
 * collection holds a null element (`["a", null]`: Terraform allows that, the models do not).
 */
export function validateFields(
  fields: Fields,
  value: ObjectValue | null,
  diags: Diagnostics,
  path: AttributePath = [],
  within?: SetElement,
  client: ClientCapabilities = ANY_CLIENT,
  stored: ObjectValue | null = null,
  limits?: PlatformLimits,
): boolean {
  return new Validation(diags, client, limits).fields(fields, value, path, within, stored);
}

/**
 * One walk of a configuration. Each check a value passes is a small step of its own, and what is
 * said about a problem is built only when there is one, so that the walk every value takes stays
 * small: it runs for every argument of every call, and large hot functions are costly to optimise.
 */
class Validation {
  constructor(
    private readonly diags: Diagnostics,
    private readonly client: ClientCapabilities,
    private readonly limits: PlatformLimits | undefined,
  ) {}

  fields(
    fields: Fields,
    value: ObjectValue | null,
    path: AttributePath,
    within: SetElement | undefined,
    stored: ObjectValue | null,
  ): boolean {
    if (value === null) return true;
    const list = fieldList(fields);
    let modelSafe = true;
    for (let i = 0; i < list.length; i++) {
      const { name, def } = list[i]!;
      const v = value[name] ?? null;
      const held = stored === null ? null : (stored[name] ?? null);
      const safe =
        def.kind === 'block'
          ? this.block(def, name, v, held, path, within)
          : this.attribute(def, name, v, held, value, path, within, stored !== null);
      if (!safe) modelSafe = false;
    }
    return modelSafe;
  }

  private block(
    def: BlockDef<Fields>,
    name: string,
    v: Value,
    held: Value,
    path: AttributePath,
    within: SetElement | undefined,
  ): boolean {
    if (def.options.deprecated !== undefined && isUsedBlock(v)) this.deprecatedBlock(def, name, path, within);
    if (v === null || v instanceof Unknown) return true;
    const here = at(name, path, within);
    if (def.nesting === 'single' || def.nesting === 'group')
      return this.fields(def.fields, v as ObjectValue, here, inBlock(within, name), objectOrNull(held));
    if (!Array.isArray(v)) return true;
    if (this.limits !== undefined && v.length > this.limits.items) {
      this.tooManyBlocks(name, v.length, here);
      return true;
    }
    const heldElements = Array.isArray(held) ? (held as ObjectValue[]) : NO_ELEMENTS;
    let modelSafe = true;
    for (let i = 0; i < v.length; i++) {
      const e = v[i] as ObjectValue;
      const safe =
        def.nesting === 'list'
          ? this.fields(
              def.fields,
              e,
              [...here, indexStep(i)],
              within && { ...within, block: `${shownName(name, within)}[${i}]` },
              heldElements[i] ?? null,
            )
          : this.setElement(def, name, e, heldElements, here, within);
      if (!safe) modelSafe = false;
    }
    return modelSafe;
  }

  /** An element of a set block: a set element is its whole value, so one the stored set holds is the stored one. */
  private setElement(
    def: BlockDef<Fields>,
    name: string,
    e: ObjectValue,
    heldElements: readonly ObjectValue[],
    here: AttributePath,
    within: SetElement | undefined,
  ): boolean {
    if (heldElements.length > 0) {
      const elementType = (fieldType(def) as Extract<CtyType, { kind: 'set' }>).element;
      for (const h of heldElements) if (valueEquals(elementType, e, h)) return true;
    }
    const block = shownName(name, within);
    const element: SetElement = { path: here, block, label: elementLabel(block, def.fields, e, within) };
    return this.fields(def.fields, e, here, element, null);
  }

  private attribute(
    def: AttrDef<unknown>,
    name: string,
    v: Value,
    held: Value,
    value: ObjectValue,
    path: AttributePath,
    within: SetElement | undefined,
    isStored: boolean,
  ): boolean {
    const o = def.options;
    if (o.writeOnlyTwin) twinProblems(name, o.writeOnlyTwin.required, value, this.diags, within?.path ?? path);
    if (o.writeOnly && v !== null && !this.client.writeOnlyAttributesAllowed) {
      this.writeOnlyUnsupported(def, name, path, within);
      return true;
    }
    if (v === null) {
      if (!o.required) return true;
      this.missing(name, path, within);
      return false;
    }
    if (isStored && valueEquals(def.type.cty, v, held)) return true;
    // An empty optional argument is unset (null ≡ empty): nothing to judge, as for null.
    if (meansNull(def, v)) return true;
    if (o.deprecated !== undefined)
      this.diags.warning(`Argument "${shownName(name, within)}" is deprecated`, o.deprecated, at(name, path, within));
    if (v instanceof Unknown) return true;
    if (o.notConfigurable) {
      this.invalid(`Invalid attribute "${shownName(name, within)}"`, o.notConfigurable, name, path, within);
      return true;
    }
    if (hasNullElement(def.type.cty, v)) {
      this.invalidValue(
        name,
        'The value must not contain null elements; remove them or use a placeholder value.',
        path,
        within,
      );
      return false;
    }
    if (isWhollyKnown(def.type.cty, v)) this.knownValue(def, name, v, path, within);
    return true;
  }

  /** The checks of a wholly known value: what the platforms refuse, then the attribute's validators. */
  private knownValue(
    def: AttrDef<unknown>,
    name: string,
    v: Value,
    path: AttributePath,
    within: SetElement | undefined,
  ): void {
    const o = def.options;
    const plain = valueToPlain(v);
    const said =
      nothingSaid(def.type.cty, plain, o.required === true, o.distinct === true) ??
      tooLarge(def.type.cty, plain, o.maxCharacters, this.limits);
    if (said) {
      this.invalidValue(name, `The value ${o.sensitive ? withoutSecrets(said, plain) : said}.`, path, within);
      return;
    }
    const validate = o.validate;
    if (!validate) return;
    // Numbers exact: a 17-digit number is judged, and shown, as written, not as the float64 nearest it.
    const exact = valueToExactPlain(v);
    for (const validator of validate) {
      const problem = validator.check(exact);
      if (problem)
        this.invalidValue(name, `The value ${o.sensitive ? withoutSecrets(problem, plain) : problem}.`, path, within);
    }
  }

  // What is said about a problem: built only when there is one.

  private deprecatedBlock(def: BlockDef<Fields>, name: string, path: AttributePath, within: SetElement | undefined) {
    this.diags.warning(
      `Block "${shownName(name, within)}" is deprecated`,
      def.options.deprecated,
      at(name, path, within),
    );
  }

  private tooManyBlocks(name: string, count: number, here: AttributePath): void {
    this.diags.error(
      `Too many "${name}" blocks`,
      `The platform takes at most ${this.limits!.items} \`${name}\` blocks in one object; the configuration has ` +
        `${count}.`,
      here,
    );
  }

  private writeOnlyUnsupported(
    def: AttrDef<unknown>,
    name: string,
    path: AttributePath,
    within: SetElement | undefined,
  ) {
    this.diags.error(
      'Write-only argument not supported',
      `\`${name}\` is write-only, which needs Terraform 1.11 or later; this Terraform does not support write-only ` +
        `arguments. Use \`${def.options.twinOf ?? name}\` instead.`,
      at(name, path, within),
    );
  }

  private missing(name: string, path: AttributePath, within: SetElement | undefined): void {
    this.invalid(
      'Missing configuration for required argument',
      `The argument "${shownName(name, within)}" is required, but the configuration sets it to null. Give it a value.`,
      name,
      path,
      within,
    );
  }

  private invalidValue(name: string, detail: string, path: AttributePath, within: SetElement | undefined): void {
    this.invalid(`Invalid value for "${shownName(name, within)}"`, detail, name, path, within);
  }

  /** An error about an argument; inside a set element, the detail names the element. */
  private invalid(summary: string, detail: string, name: string, path: AttributePath, within: SetElement | undefined) {
    this.diags.error(summary, within ? `In ${within.label}: ${detail}` : detail, at(name, path, within));
  }
}

const NO_ELEMENTS: readonly ObjectValue[] = [];

/** Where a problem of a field is reported: inside a set element, at the set. */
const at = (name: string, path: AttributePath, within: SetElement | undefined): AttributePath =>
  within?.path ?? [...path, attrStep(name)];

/** A field's name as a message shows it: inside a set element, from the block down. */
const shownName = (name: string, within: SetElement | undefined): string => (within ? `${within.block}.${name}` : name);

/** The enclosing set element, for a single block inside it. */
const inBlock = (within: SetElement | undefined, name: string): SetElement | undefined =>
  within && { ...within, block: shownName(name, within) };

/** Whether a block is written in the configuration (a deprecated one warns then). */
const isUsedBlock = (v: Value): boolean => v instanceof Unknown || (Array.isArray(v) ? v.length > 0 : v !== null);

/**
 * A set element as a person finds it in the configuration: its block and up to two of its known,
 * non-secret texts (shortened), e.g. 'the `labels` block with key = "team", value = "a b"'.
 */
function elementLabel(block: string, fields: Fields, element: ObjectValue, within: SetElement | undefined): string {
  const texts = Object.entries(fields)
    .filter(
      ([n, d]) => d.kind === 'attr' && !d.options.sensitive && !d.options.writeOnly && typeof element[n] === 'string',
    )
    .slice(0, 2)
    .map(([n]) => {
      const text = element[n] as string;
      return `${n} = ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`;
    });
  const own = `the \`${block}\` block${texts.length > 0 ? ` with ${texts.join(', ')}` : ''}`;
  return within ? `${own}, in ${within.label}` : own;
}

/**
 * Whether every value of `config` is null or the stored one: then the configuration says nothing the
 * stored object did not, and the rules between arguments were judged when it was stored.
 */
export function holdsOnlyStored(fields: Fields, config: ObjectValue, stored: ObjectValue | null): boolean {
  if (stored === null) return false;
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const v = config[name] ?? null;
    if (v !== null && !valueEquals(fieldType(def), v, stored[name] ?? null)) return false;
  }
  return true;
}

/** The rules between a secret argument and its write-only twin (define.ts `writeOnlyTwin`). */
function twinProblems(
  name: string,
  required: boolean,
  value: ObjectValue,
  diags: Diagnostics,
  at: AttributePath,
): void {
  const plain = value[name] ?? null;
  const wo = value[`${name}_wo`] ?? null;
  const version = value[`${name}_wo_version`] ?? null;
  const step = (n: string) => [...at, attrStep(n)];
  // A secret one of the pair must give is required in all but name: a blank one says nothing.
  if (required) {
    for (const [n, v] of [
      [name, plain],
      [`${name}_wo`, wo],
    ] as const) {
      if (typeof v === 'string' && v.trim() === '')
        diags.error(`Invalid value for "${n}"`, 'The value must not be empty or only whitespace.', step(n));
    }
  }
  // An unknown value may yet be null: the rules between the pair wait until it is known.
  if ([plain, wo, version].some((v) => v instanceof Unknown)) return;
  if (plain !== null && wo !== null) {
    diags.error('Conflicting arguments', `Set \`${name}\` or \`${name}_wo\`, not both.`, step(`${name}_wo`));
  } else if (required && plain === null && wo === null) {
    diags.error(
      'Missing configuration for required argument',
      `The argument "${name}" is required: set \`${name}\`, or \`${name}_wo\` to keep the value out of the state.`,
      step(name),
    );
  }
  if (version !== null && wo === null) {
    diags.error(
      'Invalid argument',
      `\`${name}_wo_version\` only applies with \`${name}_wo\`.`,
      step(`${name}_wo_version`),
    );
  }
}

/**
 * What the platforms refuse or quietly collapse, for every argument alike: a required string that
 * is empty or only whitespace, a list or set element that is, and (where the schema says the
 * platform keeps each value once) a list that names a value twice.
 */
function nothingSaid(type: CtyType, plain: unknown, required: boolean, distinct: boolean): string | undefined {
  if (type.kind === 'string' && required && isBlank(plain)) return 'must not be empty or only whitespace';
  if ((type.kind === 'list' || type.kind === 'set') && type.element.kind === 'string' && Array.isArray(plain)) {
    const at = plain.findIndex(isBlank);
    if (at >= 0) return `must not hold an empty or whitespace-only element (element ${at})`;
    if (type.kind === 'list' && distinct) {
      const twice = firstRepeated(plain);
      if (twice !== undefined)
        return `lists ${JSON.stringify(twice)} more than once; the platform keeps each value once`;
    }
  }
  return undefined;
}

const isBlank = (s: unknown): boolean => typeof s === 'string' && s.trim() === '';

/** The first element that an earlier one already named; linear, as a list may hold 100,000 values. */
function firstRepeated(values: readonly unknown[]): unknown {
  const seen = new Set<unknown>();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/**
 * What exceeds the platform's limits (or the attribute's own `maxCharacters`): a text with too many
 * characters, a collection with too many elements or an element text too long.
 */
function tooLarge(
  type: CtyType,
  plain: unknown,
  maxCharacters: number | undefined,
  limits: PlatformLimits | undefined,
): string | undefined {
  const characters = maxCharacters ?? limits?.characters;
  if (isLonger(plain, characters))
    return `is ${[...(plain as string)].length} characters long; the platform takes at most ${characters}`;
  const elements = Array.isArray(plain)
    ? plain
    : plain !== null && typeof plain === 'object' && type.kind === 'map'
      ? Object.values(plain)
      : undefined;
  if (elements === undefined) return undefined;
  if (limits && elements.length > limits.items)
    return `has ${elements.length} elements; the platform takes at most ${limits.items}`;
  for (let at = 0; at < elements.length; at++) {
    if (isLonger(elements[at], characters))
      return (
        `has an element ${[...(elements[at] as string)].length} characters long (element ${at}); the platform ` +
        `takes at most ${characters}`
      );
  }
  return undefined;
}

/** A text with more than `characters` characters (code points: a UTF-16 length over it may be fewer). */
const isLonger = (s: unknown, characters: number | undefined): boolean =>
  characters !== undefined && typeof s === 'string' && s.length > characters && [...s].length > characters;

/**
 * The whole configuration within the platform's request size, once it is wholly known: its JSON, as
 * the request it becomes is about as large. JSON.stringify with a replacer called back for every
 * value was a visible share of each validation; the walk for unknowns is done once, without one.
 */
function withinBody(config: ObjectValue, limits: PlatformLimits, diags: Diagnostics): boolean {
  if (holdsUnknown(config)) return true;
  const bytes = Buffer.byteLength(jsonOfKnown(config), 'utf8');
  if (bytes <= limits.bodyBytes) return true;
  diags.error(
    'Configuration too large',
    `This object's configuration is ${bytes} bytes; the platform takes requests of at most ${limits.bodyBytes} ` +
      `bytes. Split it into several objects or shorten its values.`,
  );
  return false;
}

/** Whether an Unknown is anywhere in the data (every own enumerable value, as JSON.stringify visits them). */
function holdsUnknown(v: object): boolean {
  if (v instanceof Unknown) return true;
  // Texts, numbers and bools, most values, are not visited: only an object may be or hold an Unknown.
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      if (typeof e === 'object' && e !== null && holdsUnknown(e)) return true;
    }
    return false;
  }
  for (const key in v) {
    const e: unknown = (v as Record<string, unknown>)[key];
    if (typeof e === 'object' && e !== null && Object.hasOwn(v, key) && holdsUnknown(e)) return true;
  }
  return false;
}

/** The JSON of a configuration that holds no unknown: a bigint, which no value holds, written as its digits. */
function jsonOfKnown(config: ObjectValue): string {
  try {
    return JSON.stringify(config);
  } catch {
    return JSON.stringify(config, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
}

const HIDDEN = '(sensitive value)';

/**
 * A validator's message with every text of a sensitive value hidden: validators quote the value they
 * refuse (JSON-quoted, as every validator here writes a value; an invariant test holds them to it),
 * and a secret must never reach a diagnostic. Only quoted texts are replaced, so the message's own
 * words stay, even where a short value happens to equal one ("an http:// or https:// URL").
 */
export function withoutSecrets(problem: string, value: unknown): string {
  const texts: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string' && v !== '') texts.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(value);
  let out = problem;
  // Longest first, so no part of a longer quoted text survives a shorter one's replacement.
  for (const text of texts.sort((a, b) => b.length - a.length)) out = out.replaceAll(JSON.stringify(text), HIDDEN);
  return out;
}
