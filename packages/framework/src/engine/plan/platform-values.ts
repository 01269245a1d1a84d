/**
 * What the platforms refuse or cannot take, judged the same way for every argument: texts that say
 * nothing, values named twice, and values or whole configurations over the platform's limits; and the
 * write-only values a request carries.
 */
import type { AttrDef, Fields, PlatformLimits } from '../../schema/define.js';
import { NUMBER, type CtyType } from '../../schema/cty-type.js';
import { valueToPlain } from '../../schema/model.js';
import { emptyStringIsValue } from '../../schema/empty-string.js';
import { valueEquals } from '../../schema/value-ops.js';
import { Unknown, type ObjectValue } from '../../schema/value.js';
import type { Diagnostics } from '../diagnostics/index.js';

/**
 * What the platforms refuse or quietly collapse, for every argument alike: a required string that
 * is empty or only whitespace (not where its `emptyString` rule makes `""` a value: empty-string.ts),
 * a list or set element that is, and (where the schema says the platform keeps each value once) a
 * list that names a value twice.
 */
export function nothingSaid(def: AttrDef<unknown>, plain: unknown): string | undefined {
  const type = def.type.cty;
  if (type.kind === 'string' && def.options.required && isBlank(plain) && !emptyStringIsValue(def))
    return 'must not be empty or only whitespace';
  if ((type.kind === 'list' || type.kind === 'set') && type.element.kind === 'string' && Array.isArray(plain)) {
    const at = plain.findIndex(isBlank);
    if (at >= 0) return `must not hold an empty or whitespace-only element (element ${at})`;
  }
  return undefined;
}

const isBlank = (s: unknown): boolean => typeof s === 'string' && s.trim() === '';

/**
 * The model as the platform takes it: each `distinct` list with every value once (its first spelling,
 * by the attribute's `equal` where it has one), however many times the configuration names it. A
 * repeat, often unknown until apply (two references to one object), is then no reason to refuse an
 * apply, nor the plan Terraform makes before a destroy; the read gives each value once, the same list
 * to an unordered list's comparison (docs/decisions.md, "Lists the platform keeps each value of once").
 */
export function withoutRepeats<M extends object>(fields: Fields, model: M): M {
  let out: Record<string, unknown> | undefined;
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind !== 'attr' || def.options.distinct !== true) continue;
    const values = (model as Record<string, unknown>)[name];
    if (!Array.isArray(values)) continue;
    const equal = def.options.equal;
    const same = (a: unknown, b: unknown) => (equal ? equal([a], [b]) : a === b);
    const kept: unknown[] = [];
    for (const v of values) if (!kept.some((k) => same(k, v))) kept.push(v);
    if (kept.length === values.length) continue;
    out ??= { ...(model as Record<string, unknown>) };
    out[name] = kept;
  }
  return (out as M | undefined) ?? model;
}

/**
 * What exceeds the platform's limits (or the attribute's own `maxCharacters`): a text with too many
 * characters, a collection with too many elements or an element text too long.
 */
export function tooLarge(
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
export function withinBody(config: ObjectValue, limits: PlatformLimits, diags: Diagnostics): boolean {
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

/**
 * The model an operation gets, with each secret that has a write-only twin set from `<name>_wo`
 * when that value is due: on create, and on update when `<name>_wo_version` changed. Otherwise the
 * secret is null there (when given write-only), and operations leave it out of their requests, so
 * the platform keeps the one it has.
 */
export function withWriteOnlyValues<M extends object>(
  fields: Fields,
  model: M,
  config: ObjectValue | null,
  prior: ObjectValue | null,
): M {
  if (config === null) return model;
  const out = { ...model } as Record<string, unknown>;
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'block') {
      const elements = out[name];
      const configured = config[name];
      if (!Array.isArray(elements) || !Array.isArray(configured)) continue;
      const priorElements = Array.isArray(prior?.[name]) ? (prior![name] as ObjectValue[]) : [];
      // List blocks pair by position; write-only attributes never sit in set blocks.
      out[name] = elements.map((e, i) =>
        withWriteOnlyValues(
          def.fields,
          e as object,
          (configured[i] as ObjectValue | undefined) ?? null,
          priorElements[i] ?? null,
        ),
      );
      continue;
    }
    if (!def.options.writeOnlyTwin) continue;
    const wo = config[`${name}_wo`] ?? null;
    if (wo === null || wo instanceof Unknown) continue;
    const versionKey = `${name}_wo_version`;
    const due = prior === null || !valueEquals(NUMBER, prior[versionKey] ?? null, config[versionKey] ?? null);
    out[name] = due ? valueToPlain(wo) : null;
  }
  return out as M;
}
