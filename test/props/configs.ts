/**
 * Configurations made from the schema DSL, for the property tests: random variations of a known-valid
 * base configuration (every optional argument unset, null, empty, its base value or a valid value
 * its declaration names; blocks kept, emptied or made anew), the same with values replaced by unknown,
 * and the smallest and largest accepted forms. Configurations are plain objects as the Terraform-side
 * client takes them (`configValue`): attributes by name, blocks as arrays of such objects.
 */
import fc from 'fast-check';
import type { AttrDef, BlockDef, Fields } from '../../packages/framework/src/schema/define.js';
import type { SchemaBlock } from '../../packages/framework/src/schema/block.js';
import { samplesOf } from '../../src/schema/samples.js';
import { UNKNOWN, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';
import { isEmptyValue } from '../../packages/framework/src/schema/value-ops.js';
import { attrStep, formatPath, indexStep, type AttributePath } from '../../packages/framework/src/schema/path.js';

export type Plain = Record<string, unknown>;

/** A step into a configuration: an attribute's or block's name, or a block element's index. */
export type Step = string | number;

/** The value at `steps` in a configuration, undefined where there is none. */
export function valueAt(root: Plain, steps: readonly Step[]): unknown {
  return steps.reduce<unknown>((v, step) => (v as Record<Step, unknown> | undefined)?.[step], root);
}

/** A copy of `root` with the value at `steps` replaced (undefined removes an attribute). */
export function withValue(root: Plain, steps: readonly Step[], value: unknown): Plain {
  const copy = structuredClone(root) as Record<Step, unknown>;
  let at = copy;
  for (const step of steps.slice(0, -1)) at = at[step] as Record<Step, unknown>;
  const last = steps[steps.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy as Plain;
}

/** An attribute the user sets (required, optional or defaulted), unless configuring it is refused. */
export function isArgument(def: AttrDef<unknown>): boolean {
  const o = def.options;
  return o.platformAssigned !== true && (o.required === true || o.optional === true || o.default !== undefined);
}

/**
 * The configuration of an object as a state holds it (`terraform show -json` values): its
 * arguments and blocks, without what the platform computed alone, and without empty values, which
 * say no more than leaving the argument out (an expiry the platform reports as "" is no expiry).
 */
export function configOf(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const [name, def] of Object.entries(fields)) {
    const v = values[name];
    if (def.kind === 'block') out[name] = Array.isArray(v) ? v.map((e) => configOf(def.fields, e as Plain)) : [];
    else if (isArgument(def) && v !== undefined && !isEmptyValue(v as Value)) out[name] = v;
  }
  return out;
}

/** The empty value of an attribute's type (`""`, `[]`, `{}`), which means the same as null; none for numbers and bools. */
function emptyOf(def: AttrDef<unknown>): unknown {
  switch (def.type.cty.kind) {
    case 'string':
      return '';
    case 'list':
    case 'set':
      return [];
    case 'map':
      return {};
    default:
      return undefined;
  }
}

const key = (v: unknown) => JSON.stringify(v);

function distinct<T>(values: readonly T[]): T[] {
  const seen = new Set<string>();
  return values.filter((v) => !seen.has(key(v)) && seen.add(key(v)) !== undefined);
}

/** Nested blocks below this depth are only kept as the base has them (the resource group nests four levels). */
export const MAX_NEW_DEPTH = 2;

/** The base value half of the time (arguments depend on each other), else another valid one. */
function validArb(def: AttrDef<unknown>, base: unknown): fc.Arbitrary<unknown> | null {
  const others = samplesOf(def).filter((s) => key(s) !== key(base));
  const kept = base === undefined || base === null ? [] : [{ weight: 1, arbitrary: fc.constant(base) }];
  const made = others.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...others) }] : [];
  return kept.length + made.length > 0 ? fc.oneof(...kept, ...made) : null;
}

function attributeArb(def: AttrDef<unknown>, base: unknown): fc.Arbitrary<unknown> | null {
  const valid = validArb(def, base);
  if (def.options.required) return valid;
  const empty = emptyOf(def);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    ...(empty === undefined ? [] : [{ weight: 1, arbitrary: fc.constant(empty) }]),
    ...(valid !== null ? [{ weight: 3, arbitrary: valid }] : []),
  );
}

/** One block element: its base varied, or (base null) made anew; null when a required argument has no value. */
function elementArb(fields: Fields, base: Plain | null, depth: number): fc.Arbitrary<Plain> | null {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'block') {
      shape[name] = blockArb(def, (base?.[name] as Plain[] | undefined) ?? [], depth + 1);
      continue;
    }
    if (!isArgument(def) || def.options.twinOf !== undefined) continue;
    if (def.options.writeOnlyTwin) {
      const pair = twinArb(name, def, fields, base);
      if (pair === null) return null;
      shape[`${TWIN}${name}`] = pair;
      continue;
    }
    const arb = attributeArb(def, base?.[name]);
    if (arb === null) return null;
    shape[name] = arb;
  }
  return fc.record(shape).map(withTwinsSpread);
}

/** Marks the generated value of a secret and its write-only twin, spread into their three arguments. */
const TWIN = '\0twin:';

function withTwinsSpread(element: Plain): Plain {
  const out: Plain = {};
  for (const [k, v] of Object.entries(element)) {
    if (k.startsWith(TWIN)) Object.assign(out, v as Plain);
    else out[k] = v;
  }
  return out;
}

/**
 * A secret with a write-only twin: given as `<name>`, or as `<name>_wo` with or without a
 * `<name>_wo_version`, or (when the pair is optional) not at all; never both, as validation requires.
 */
function twinArb(name: string, def: AttrDef<unknown>, fields: Fields, base: Plain | null): fc.Arbitrary<Plain> | null {
  const [wo, version] = [`${name}_wo`, `${name}_wo_version`];
  const given = base?.[name] ?? base?.[wo] ?? undefined;
  const value = validArb(def, given);
  const required = def.options.writeOnlyTwin!.required;
  if (value === null) return required ? null : fc.constant({ [name]: null, [wo]: null, [version]: null });
  const versionDef = fields[version];
  const versions = versionDef?.kind === 'attr' ? samplesOf(versionDef) : [];
  const versionArb = fc.oneof(fc.constant(null), ...(versions.length > 0 ? [fc.constantFrom(...versions)] : []));
  return fc.oneof(
    value.map((v) => ({ [name]: v, [wo]: null, [version]: null })),
    fc.tuple(value, versionArb).map(([v, n]) => ({ [name]: null, [wo]: v, [version]: n })),
    ...(required ? [] : [fc.constant({ [name]: null, [wo]: null, [version]: null })]),
  );
}

function blockArb(def: BlockDef<Fields>, base: Plain[], depth: number): fc.Arbitrary<Plain[]> {
  const min = def.options.min ?? 0;
  const max = def.options.max || Number.POSITIVE_INFINITY;
  const choices: fc.Arbitrary<Plain[]>[] = [];
  if (min === 0) choices.push(fc.constant([]));
  if (base.length > 0) choices.push(fc.constant(base));
  const varied = base.map((b) => elementArb(def.fields, b, depth));
  if (base.length > 0 && varied.every((a) => a !== null)) choices.push(fc.tuple(...(varied as fc.Arbitrary<Plain>[])));
  // New elements start from the first base element, so arguments that name other objects keep real ids.
  const fresh = depth < MAX_NEW_DEPTH || base.length > 0 ? elementArb(def.fields, base[0] ?? null, depth) : null;
  if (fresh !== null) {
    const least = Math.max(min, 1);
    choices.push(fc.array(fresh, { minLength: least, maxLength: Math.min(max, least + 1) }));
  }
  const arb = choices.length > 0 ? fc.oneof(...choices) : fc.constant(base);
  // A set holds each element once; a list with the same element twice says it once too many.
  return arb
    .map((elements) => distinct(elements))
    .filter((elements) => elements.length >= min && elements.length <= max);
}

/** Random variations of `base`: the configurations the lifecycle property runs. */
export function variationArb(fields: Fields, base: Plain): fc.Arbitrary<Plain> {
  const arb = elementArb(fields, base, 0);
  if (arb === null) throw new Error('the base configuration lacks a required argument');
  return arb;
}

// ---------------------------------------------------------------------------------------------------
// Unknowns

/** A small deterministic generator (the fault profile's), so fast-check's integer seed picks which values become unknown. */
export { mulberry32 as randomFrom } from '../../src/emulators/core/fault-profile.js';

/**
 * The configuration with some values unknown, as Terraform sends it when they depend on objects
 * not created yet: arguments (or one element of a collection), and whole block collections (a
 * `dynamic` block whose `for_each` is unknown).
 */
export function withUnknowns(block: SchemaBlock, value: ObjectValue, random: () => number, share: number): ObjectValue {
  const out: ObjectValue = { ...value };
  for (const [name, a] of Object.entries(block.attributes)) {
    if (a.computed && !a.optional) continue;
    const v = value[name] ?? null;
    if (random() >= share) continue;
    const collection = (a.type.kind === 'list' || a.type.kind === 'set') && Array.isArray(v) && v.length > 0;
    if (collection && random() < 0.5) {
      const elements = [...(v as Value[])];
      elements[Math.floor(random() * elements.length)] = UNKNOWN;
      out[name] = elements;
    } else out[name] = UNKNOWN;
  }
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    const v = value[name];
    if (!Array.isArray(v)) continue;
    if (random() < share / 2) out[name] = UNKNOWN;
    else out[name] = v.map((e) => withUnknowns(nb.block, e as ObjectValue, random, share));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Required arguments

/** Where validation reports an argument: set elements cannot be addressed, so a path stops at the set. */
export interface RequiredArgument {
  /** Sets the argument to null in a copy of the configuration. */
  readonly nulled: (config: Plain) => Plain;
  /** The path its diagnostic must name. */
  readonly path: string;
  readonly name: string;
}

/** Every required argument the configuration holds, at any depth. */
export function requiredArguments(fields: Fields, config: Plain): RequiredArgument[] {
  const out: RequiredArgument[] = [];
  const walk = (
    fs: Fields,
    c: Plain,
    path: AttributePath,
    inSet: boolean,
    set: (f: (c: Plain) => Plain) => (root: Plain) => Plain,
  ) => {
    for (const [name, def] of Object.entries(fs)) {
      const here = inSet ? path : [...path, attrStep(name)];
      if (def.kind === 'attr') {
        if (def.options.required)
          out.push({ name, path: formatPath(here), nulled: set((x) => ({ ...x, [name]: null })) });
        continue;
      }
      const elements = (c[name] as Plain[] | undefined) ?? [];
      elements.forEach((e, i) => {
        const inner = (f: (c: Plain) => Plain) =>
          set((x) => ({ ...x, [name]: (x[name] as Plain[]).map((y, j) => (j === i ? f(y) : y)) }));
        walk(
          def.fields,
          e,
          def.nesting === 'set' || inSet ? here : [...here, indexStep(i)],
          def.nesting === 'set' || inSet,
          inner,
        );
      });
    }
  };
  walk(fields, config, [], false, (f) => f);
  return out;
}

/** The configuration without its optional arguments and optional blocks (what "only the required arguments" leaves). */
export function onlyRequired(fields: Fields, config: Plain): Plain {
  const out: Plain = {};
  for (const [name, def] of Object.entries(fields)) {
    const v = config[name];
    if (def.kind === 'attr') {
      if (def.options.required && v !== undefined) out[name] = v;
    } else {
      const min = def.options.min ?? 0;
      out[name] =
        min === 0
          ? []
          : ((v as Plain[] | undefined) ?? []).slice(0, Math.max(min, 1)).map((e) => onlyRequired(def.fields, e));
    }
  }
  return out;
}
