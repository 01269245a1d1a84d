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
import type { Fields, PlatformLimits } from '../schema/define.js';
import { type AttributePath, attrStep, indexStep } from '../schema/path.js';
import { Unknown, objectOrNull, type ObjectValue, type Value } from '../schema/value.js';
import { hasNullElement, isWhollyKnown, valueEquals } from '../schema/value-ops.js';
import { fieldType, meansNull, toConfigModel, valueToExactPlain, valueToPlain } from '../schema/model.js';
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
  if (
    !validateFields(def.schema.fields, config, diags, [], undefined, client, stored, limits) ||
    !sizeOk ||
    !def.validate
  )
    return;
  if (holdsOnlyStored(def.schema.fields, config, stored)) return;
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
  if (value === null) return true;
  let modelSafe = true;
  for (const [name, def] of Object.entries(fields)) {
    const v = value[name] ?? null;
    const held = stored?.[name] ?? null;
    // Where a problem is reported, made only for a problem (most values have none). Inside a set
    // element: the name from the block down, and the element named in the detail.
    const at = (): AttributePath => within?.path ?? [...path, attrStep(name)];
    const shown = (): string => (within ? `${within.block}.${name}` : name);
    const inElement = (detail: string) => (within ? `In ${within.label}: ${detail}` : detail);
    if (def.kind === 'block') {
      const here = at();
      const block = shown();
      const used = v instanceof Unknown || (Array.isArray(v) ? v.length > 0 : v !== null);
      if (def.options.deprecated !== undefined && used)
        diags.warning(`Block "${block}" is deprecated`, def.options.deprecated, here);
      if (v === null || v instanceof Unknown) continue;
      if (def.nesting === 'single' || def.nesting === 'group')
        modelSafe =
          validateFields(
            def.fields,
            v as ObjectValue,
            diags,
            here,
            within && { ...within, block },
            client,
            objectOrNull(held),
            limits,
          ) && modelSafe;
      else if (Array.isArray(v)) {
        if (limits && v.length > limits.items) {
          diags.error(
            `Too many "${name}" blocks`,
            `The platform takes at most ${limits.items} \`${name}\` blocks in one object; the configuration has ` +
              `${v.length}.`,
            here,
          );
          continue;
        }
        const heldElements = Array.isArray(held) ? (held as ObjectValue[]) : [];
        const type = fieldType(def);
        v.forEach((e, i) => {
          if (def.nesting === 'list') {
            modelSafe =
              validateFields(
                def.fields,
                e as ObjectValue,
                diags,
                [...here, indexStep(i)],
                within && { ...within, block: `${block}[${i}]` },
                client,
                heldElements[i] ?? null,
                limits,
              ) && modelSafe;
            return;
          }
          // A set element is its whole value: one the stored set holds is the stored one.
          if (type.kind === 'set' && heldElements.some((h) => valueEquals(type.element, e, h))) return;
          const element: SetElement = {
            path: here,
            block,
            label: elementLabel(block, def.fields, e as ObjectValue, within),
          };
          modelSafe =
            validateFields(def.fields, e as ObjectValue, diags, here, element, client, null, limits) && modelSafe;
        });
      }
      continue;
    }
    const o = def.options;
    if (o.writeOnlyTwin) twinProblems(name, o.writeOnlyTwin.required, value, diags, within?.path ?? path);
    if (o.writeOnly && v !== null && !client.writeOnlyAttributesAllowed) {
      diags.error(
        'Write-only argument not supported',
        `\`${name}\` is write-only, which needs Terraform 1.11 or later; this Terraform does not support write-only ` +
          `arguments. Use \`${o.twinOf ?? name}\` instead.`,
        at(),
      );
      continue;
    }
    if (v === null) {
      if (o.required) {
        diags.error(
          'Missing configuration for required argument',
          inElement(`The argument "${shown()}" is required, but the configuration sets it to null. Give it a value.`),
          at(),
        );
        modelSafe = false;
      }
      continue;
    }
    if (stored !== null && valueEquals(def.type.cty, v, held)) continue;
    // An empty optional argument is unset (null ≡ empty): nothing to judge, as for null.
    if (meansNull(def, v)) continue;
    if (o.deprecated !== undefined) diags.warning(`Argument "${shown()}" is deprecated`, o.deprecated, at());
    if (v instanceof Unknown) continue;
    if (o.notConfigurable) {
      diags.error(`Invalid attribute "${shown()}"`, inElement(o.notConfigurable), at());
      continue;
    }
    if (hasNullElement(def.type.cty, v)) {
      diags.error(
        `Invalid value for "${shown()}"`,
        inElement('The value must not contain null elements; remove them or use a placeholder value.'),
        at(),
      );
      modelSafe = false;
      continue;
    }
    if (!isWhollyKnown(def.type.cty, v)) continue;
    const plain = valueToPlain(v as Value);
    const said =
      nothingSaid(def.type.cty, plain, o.required === true, o.distinct === true) ??
      tooLarge(def.type.cty, plain, o.maxCharacters, limits);
    if (said) {
      diags.error(
        `Invalid value for "${shown()}"`,
        inElement(`The value ${o.sensitive ? withoutSecrets(said, plain) : said}.`),
        at(),
      );
      continue;
    }
    if (!o.validate) continue;
    // Numbers exact: a 17-digit number is judged, and shown, as written, not as the float64 nearest it.
    const exact = valueToExactPlain(v as Value);
    for (const validator of o.validate) {
      const problem = validator.check(exact);
      if (problem)
        diags.error(
          `Invalid value for "${shown()}"`,
          inElement(`The value ${o.sensitive ? withoutSecrets(problem, plain) : problem}.`),
          at(),
        );
    }
  }
  return modelSafe;
}

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
  return Object.entries(fields).every(([name, def]) => {
    const v = config[name] ?? null;
    return v === null || valueEquals(fieldType(def), v, stored[name] ?? null);
  });
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
  const blank = (s: unknown) => typeof s === 'string' && s.trim() === '';
  if (type.kind === 'string' && required && blank(plain)) return 'must not be empty or only whitespace';
  if ((type.kind === 'list' || type.kind === 'set') && type.element.kind === 'string' && Array.isArray(plain)) {
    const at = plain.findIndex(blank);
    if (at >= 0) return `must not hold an empty or whitespace-only element (element ${at})`;
    if (type.kind === 'list' && distinct) {
      const twice = firstRepeated(plain);
      if (twice !== undefined)
        return `lists ${JSON.stringify(twice)} more than once; the platform keeps each value once`;
    }
  }
  return undefined;
}

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
  const long = (s: unknown) =>
    characters !== undefined && typeof s === 'string' && s.length > characters && [...s].length > characters;
  if (long(plain))
    return `is ${[...(plain as string)].length} characters long; the platform takes at most ${characters}`;
  const elements = Array.isArray(plain)
    ? plain
    : plain !== null && typeof plain === 'object' && type.kind === 'map'
      ? Object.values(plain)
      : undefined;
  if (elements === undefined) return undefined;
  if (limits && elements.length > limits.items)
    return `has ${elements.length} elements; the platform takes at most ${limits.items}`;
  const at = elements.findIndex(long);
  return at >= 0
    ? `has an element ${[...(elements[at] as string)].length} characters long (element ${at}); the platform takes ` +
        `at most ${characters}`
    : undefined;
}

/** The whole configuration within the platform's request size, once it is wholly known. */
function withinBody(config: ObjectValue, limits: PlatformLimits, diags: Diagnostics): boolean {
  let unknown = false;
  const json = JSON.stringify(config, (_key, v: unknown) => {
    if (v instanceof Unknown) unknown = true;
    return v instanceof Unknown ? null : typeof v === 'bigint' ? v.toString() : v;
  });
  const bytes = Buffer.byteLength(json ?? '', 'utf8');
  if (unknown || bytes <= limits.bodyBytes) return true;
  diags.error(
    'Configuration too large',
    `This object's configuration is ${bytes} bytes; the platform takes requests of at most ${limits.bodyBytes} ` +
      `bytes. Split it into several objects or shorten its values.`,
  );
  return false;
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
