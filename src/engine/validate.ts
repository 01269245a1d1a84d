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
import type { Fields } from '../schema/define.js';
import { type AttributePath, attrStep, indexStep } from '../schema/path.js';
import { Unknown, objectOrNull, type ObjectValue, type Value } from '../schema/value.js';
import { hasNullElement, isWhollyKnown, valueEquals } from '../schema/value-ops.js';
import { fieldType, meansNull, toConfigModel, valueToPlain } from '../schema/model.js';
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

/**
 * Runs every check on `config`; `summary` titles what the definition's own check throws. `stored`
 * (plan and apply time) is the prior state: what it holds is not judged again.
 */
export function checkConfig(def: Checked, config: ObjectValue, diags: Diagnostics, summary = 'Invalid configuration', client: ClientCapabilities = ANY_CLIENT, stored: ObjectValue | null = null): void {
  if (!validateFields(def.schema.fields, config, diags, [], undefined, client, stored) || !def.validate) return;
  if (holdsOnlyStored(def.schema.fields, config, stored)) return;
  try {
    def.validate(toConfigModel(def.schema.fields, config), diags);
  } catch (err) {
    diags.append([diagnosticFromError(summary, err)]);
  }
}

/**
 * `setPath`, when given, is the path of the enclosing set block: set elements cannot be addressed
 * (protocol.md §2.2), so everything inside one is reported on the set itself.
 *
 * Returns false when no model should be built from the value: a required argument is null, or a
 * collection holds a null element (`["a", null]`: Terraform allows that, the models do not).
 */
export function validateFields(
  fields: Fields,
  value: ObjectValue | null,
  diags: Diagnostics,
  path: AttributePath = [],
  setPath?: AttributePath,
  client: ClientCapabilities = ANY_CLIENT,
  stored: ObjectValue | null = null,
): boolean {
  if (value === null) return true;
  let modelSafe = true;
  for (const [name, def] of Object.entries(fields)) {
    const v = value[name] ?? null;
    const held = stored?.[name] ?? null;
    const here = setPath ?? [...path, attrStep(name)];
    if (def.kind === 'block') {
      const used = v instanceof Unknown || (Array.isArray(v) ? v.length > 0 : v !== null);
      if (def.options.deprecated !== undefined && used) diags.warning(`Block "${name}" is deprecated`, def.options.deprecated, here);
      if (v === null || v instanceof Unknown) continue;
      if (def.nesting === 'single' || def.nesting === 'group') modelSafe = validateFields(def.fields, v as ObjectValue, diags, here, setPath, client, objectOrNull(held)) && modelSafe;
      else if (Array.isArray(v)) {
        const heldElements = Array.isArray(held) ? (held as ObjectValue[]) : [];
        const type = fieldType(def);
        v.forEach((e, i) => {
          if (def.nesting === 'list') {
            modelSafe = validateFields(def.fields, e as ObjectValue, diags, [...here, indexStep(i)], setPath, client, heldElements[i] ?? null) && modelSafe;
            return;
          }
          // A set element is its whole value: one the stored set holds is the stored one.
          if (type.kind === 'set' && heldElements.some((h) => valueEquals(type.element, e, h))) return;
          modelSafe = validateFields(def.fields, e as ObjectValue, diags, here, here, client) && modelSafe;
        });
      }
      continue;
    }
    const o = def.options;
    if (o.writeOnlyTwin) twinProblems(name, o.writeOnlyTwin.required, value, diags, setPath ?? path);
    if (o.writeOnly && v !== null && !client.writeOnlyAttributesAllowed) {
      diags.error(
        'Write-only argument not supported',
        `\`${name}\` is write-only, which needs Terraform 1.11 or later; this Terraform does not support write-only arguments. Use \`${o.twinOf ?? name}\` instead.`,
        here,
      );
      continue;
    }
    if (v === null) {
      if (o.required) {
        diags.error('Missing configuration for required argument', `The argument "${name}" is required, but the configuration sets it to null. Give it a value.`, here);
        modelSafe = false;
      }
      continue;
    }
    if (stored !== null && valueEquals(def.type.cty, v, held)) continue;
    // An empty optional argument is unset (null ≡ empty): nothing to judge, as for null.
    if (meansNull(def, v)) continue;
    if (o.deprecated !== undefined) diags.warning(`Argument "${name}" is deprecated`, o.deprecated, here);
    if (v instanceof Unknown) continue;
    if (o.notConfigurable) {
      diags.error(`Invalid attribute "${name}"`, o.notConfigurable, here);
      continue;
    }
    if (hasNullElement(def.type.cty, v)) {
      diags.error(`Invalid value for "${name}"`, 'The value must not contain null elements; remove them or use a placeholder value.', here);
      modelSafe = false;
      continue;
    }
    if (!isWhollyKnown(def.type.cty, v)) continue;
    const plain = valueToPlain(v as Value);
    const said = nothingSaid(def.type.cty, plain, o.required === true, o.distinct === true);
    if (said) {
      diags.error(`Invalid value for "${name}"`, `The value ${o.sensitive ? withoutSecrets(said, plain) : said}.`, here);
      continue;
    }
    if (!o.validate) continue;
    for (const validator of o.validate) {
      const problem = validator.check(plain);
      if (problem) diags.error(`Invalid value for "${name}"`, `The value ${o.sensitive ? withoutSecrets(problem, plain) : problem}.`, here);
    }
  }
  return modelSafe;
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
function twinProblems(name: string, required: boolean, value: ObjectValue, diags: Diagnostics, at: AttributePath): void {
  const plain = value[name] ?? null;
  const wo = value[`${name}_wo`] ?? null;
  const version = value[`${name}_wo_version`] ?? null;
  const step = (n: string) => [...at, attrStep(n)];
  // A secret one of the pair must give is required in all but name: a blank one says nothing.
  if (required) {
    for (const [n, v] of [[name, plain], [`${name}_wo`, wo]] as const) {
      if (typeof v === 'string' && v.trim() === '') diags.error(`Invalid value for "${n}"`, 'The value must not be empty or only whitespace.', step(n));
    }
  }
  // An unknown value may yet be null: the rules between the pair wait until it is known.
  if ([plain, wo, version].some((v) => v instanceof Unknown)) return;
  if (plain !== null && wo !== null) {
    diags.error('Conflicting arguments', `Set \`${name}\` or \`${name}_wo\`, not both.`, step(`${name}_wo`));
  } else if (required && plain === null && wo === null) {
    diags.error('Missing configuration for required argument', `The argument "${name}" is required: set \`${name}\`, or \`${name}_wo\` to keep the value out of the state.`, step(name));
  }
  if (version !== null && wo === null) {
    diags.error('Invalid argument', `\`${name}_wo_version\` only applies with \`${name}_wo\`.`, step(`${name}_wo_version`));
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
      const twice = plain.find((s, i) => plain.indexOf(s) !== i);
      if (twice !== undefined) return `lists ${JSON.stringify(twice)} more than once; the platform keeps each value once`;
    }
  }
  return undefined;
}

const HIDDEN = '(sensitive value)';

/**
 * A validator's message with every text of a sensitive value replaced: validators usually quote the
 * value they refuse, and a secret must never reach a diagnostic.
 */
export function withoutSecrets(problem: string, value: unknown): string {
  const texts: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string' && v !== '') texts.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(value);
  // Longest first, quoted before bare, so no part of a longer text survives a shorter one's
  // replacement. A text of a few characters is replaced only where quoted: bare, it would match
  // ordinary words of the message, and it is no secret anyway.
  let out = problem;
  for (const text of texts.sort((a, b) => b.length - a.length)) {
    out = out.replaceAll(JSON.stringify(text), HIDDEN);
    if (text.length >= 4) out = out.replaceAll(text, HIDDEN);
  }
  return out;
}
