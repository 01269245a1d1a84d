/**
 * The declaration DSL: one declaration per field feeds the wire schema, validation, planning, docs
 * and the Pulumi mapping. `attr.*` declares attributes, `block.*` nested blocks
 * (docs/decisions.md, "Nested objects are blocks"), `resourceSchema` a whole resource or data source.
 *
 * The TypeScript model type of a schema is inferred (`ModelOf<F>`), so field names are spelled once.
 */
import { type CtyType, STRING, NUMBER, BOOL, listOf, setOf, mapOf, objectOf } from './cty-type.js';
import {
  type SchemaAttribute,
  type SchemaObject,
  type SchemaBlock,
  type SchemaNestedBlock,
  type Nesting,
  type ObjectNesting,
  nestedAttributeType,
} from './block.js';
import { Decimal, type CtyNumber, type Value } from './value.js';
import { compareNumbers, numberText } from './number.js';

/** A typed CtyType: `V` is the plain JS type the model uses for it. */
export interface Typed<V> {
  readonly cty: CtyType;
  readonly __model?: V;
}
type ModelType<T> = T extends Typed<infer V> ? V : never;

export const t = {
  string: { cty: STRING } as Typed<string>,
  number: { cty: NUMBER } as Typed<number>,
  bool: { cty: BOOL } as Typed<boolean>,
  list: <V>(e: Typed<V>): Typed<V[]> => ({ cty: listOf(e.cty) }),
  set: <V>(e: Typed<V>): Typed<V[]> => ({ cty: setOf(e.cty) }),
  map: <V>(e: Typed<V>): Typed<Record<string, V>> => ({ cty: mapOf(e.cty) }),
  object: <S extends Record<string, Typed<unknown>>>(shape: S): Typed<{ [K in keyof S]: ModelType<S[K]> | null }> => {
    const attrs: Record<string, CtyType> = {};
    for (const [k, v] of Object.entries(shape)) attrs[k] = v.cty;
    return { cty: objectOf(attrs) };
  },
};

/**
 * What a platform takes in one request, for every argument of every type alike: checked at plan
 * time (engine/plan/validate.ts), so that nothing the platform would refuse for its size is sent.
 */
export interface PlatformLimits {
  /** Characters of one text (an attribute may declare its own `maxCharacters`). */
  readonly characters: number;
  /** Elements of one list, set or map, and blocks of one kind. */
  readonly items: number;
  /** Bytes of a whole configuration, as JSON: the request it becomes is about as large. */
  readonly bodyBytes: number;
}

/**
 * Where a read puts the value of a deprecated argument or block that the platform reports in a form
 * of its own: the sibling `field` that replaces it, each value (each block element) made into that
 * field's form by `convert` (the same value when absent). Terraform leaves deprecated fields out of
 * the configuration it generates for an import, and an import has no prior state to say which form
 * the user wrote, so a read keeps the deprecated field only where the prior state uses it.
 */
export interface ReadAs {
  readonly field: string;
  readonly convert?: (value: any) => unknown;
}

/** A change of an argument the platform refuses (see `AttrOptions.refusedChange`). */
export interface RefusedChange<V> {
  /** Whether the platform refuses the change from `prior` to `planned`. */
  readonly refuses: (prior: V, planned: V) => boolean;
  readonly summary: string;
  /** Why, and what to do instead. */
  readonly detail: string;
}

/** A check of a known, non-null value; returns a problem description or undefined. */
export interface Validator<V> {
  /** Markdown phrase for docs, e.g. "one of `Events`, `Resources`". */
  readonly description: string;
  /**
   * The kinds of value it judges (`string`, `number`, `list`, …): an attribute of another kind is a
   * declaration mistake, said when the provider starts. Absent: not checked (judge with care).
   */
  readonly accepts?: readonly CtyType['kind'][];
  /** For a validator of elements (`each`): the one each element is judged by, checked against the element type. */
  readonly elements?: Validator<unknown>;
  /**
   * For numbers: the smallest and largest value it accepts. Optional (this repository's providers
   * declare one for every number argument, held by a test of theirs).
   */
  readonly range?: readonly [number, number];
  /**
   * Values it accepts, for making up valid configurations (the property tests, src/schema/samples.ts).
   * Absent when it only refuses some values and cannot name a good one (e.g. "must not be empty").
   */
  readonly samples?: readonly V[];
  /**
   * Judges a value; numbers come exact (`Exact`), and a message shows a value with `shown`. The problem
   * it returns completes the sentence "The value …" (e.g. `must be at most 40 characters long`): the
   * diagnostic reads "The value must be at most 40 characters long.", at the attribute's path.
   */
  check(value: Exact<V>): string | undefined;
  /**
   * An accepted value in the spelling its documentation shows, where the platform answers another
   * spelling of the same value (`high` for `High`, `72h0m0s` for `72h`): generated configuration
   * writes it so (engine/resources/generate-config.ts). Undefined leaves the value as it is.
   */
  written?(value: V): V | undefined;
}

/**
 * A value as a validator is given it: numbers exact, as cty holds them (a `Decimal` where a float64
 * cannot hold the number: 12345678901234567, 0.10000000000000000001), so that a check judges the
 * number written and a message shows it as written, not rounded.
 */
export type Exact<V> = V extends number ? CtyNumber : V extends ReadonlyArray<infer E> ? Exact<E>[] : V;

/** A value in a message: a number exactly as written (cty's text), anything else JSON-quoted. */
export const shown = (v: unknown): string =>
  typeof v === 'number' || v instanceof Decimal ? numberText(v) : JSON.stringify(v);

/** Whether an exact number is whole. */
const isWhole = (v: CtyNumber): boolean => (v instanceof Decimal ? !v.text.includes('.') : Number.isInteger(v));

export interface AttrOptions<V> {
  description: string;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  /** Deprecation message; marks the attribute deprecated. */
  deprecated?: string;
  /** For a deprecated argument the platform reports in its own form: what a read puts it into. */
  readAs?: ReadAs;
  writeOnly?: boolean;
  /**
   * A secret argument that can also be given write-only (docs/decisions.md, "Write-only twins"):
   * the schema adds `<name>_wo` (write-only: never in plan or state) and `<name>_wo_version` (sends
   * the write-only value again when it changes). Declare the argument optional and sensitive; with
   * `required`, exactly one of `<name>` and `<name>_wo` must be set, otherwise at most one. The
   * engine hands operations the write-only value as `<name>` when it is to be sent, null otherwise.
   */
  writeOnlyTwin?: { readonly required: boolean };
  /** For a `<name>_wo` / `<name>_wo_version` field the schema added: the argument it belongs to. */
  twinOf?: string;
  /** Plan-time default for a null config value; implies optional+computed on the wire. */
  default?: V;
  validate?: Validator<V>[];
  /**
   * A change of this attribute forces replacement of the object; a function decides from the prior
   * and planned values (plain JS) which changes do, e.g. a switch of credential kind.
   */
  replace?: boolean | ((prior: V | null, planned: V | null) => boolean);
  /**
   * Computed-only value the platform stamps whenever the object is updated, in any part (e.g. an
   * update timestamp, also one inside a nested block): planned unknown on every update.
   */
  volatile?: boolean;
  /**
   * A change the platform cannot make, such as turning off a switch it can only turn on: judged at
   * plan, where the prior and planned values are both known (unknown or null ones are not judged), and
   * refused there at the attribute's path with this summary and detail, instead of failing at apply.
   */
  refusedChange?: RefusedChange<V>;
  /** Computed value that changes when one of these sibling attributes changes. */
  changesWith?: string[];
  /**
   * Semantic equality, for a platform that stores a value in another form than the configured one
   * (case, spacing, an equivalent JSON text): a configured value equal to the prior one keeps the prior
   * form in plan and read, and an apply whose result is equal to the plan keeps the planned form.
   * Without it, a result that differs from the plan is what the state holds, and Terraform reports the
   * inconsistent result at the attribute's path.
   */
  equal?: (a: V, b: V) => boolean;
  /**
   * What the platform holds for this argument when it is not set, a value it also takes when given
   * (a vulnerability exception's reason `Unknown`): configured, it means the same as unset. A change
   * between the two sends nothing, and the platform's value reads as unset where nothing was set.
   */
  unsetAs?: V;
  /**
   * What an empty string `""` is for this string attribute. `'unset'` (the default): it says no more
   * than null, as for every empty value (null ≡ empty): refused where the argument is required (so is a
   * text of only whitespace), sent to the platform as null where it is optional, and the same as null
   * in every comparison of plan, apply and read. `'value'`, for a platform that means something by an
   * empty text (e.g. "no prefix" against "the default prefix"): `""` is a value of its own, accepted
   * where the argument is required (a blank text too), sent as `""`, kept in the state as `""`, and a
   * change between it and null is a change. One rule (packages/framework/src/schema/empty-string.ts) that validation,
   * plan, the models operations get, apply, read and generated configuration all consult.
   */
  emptyString?: 'unset' | 'value';
  /** The API does not return this value (or masks it): reads keep the prior state's value. */
  masked?: boolean;
  /**
   * Only for a provider that replaces another (an upstream one whose configurations it accepts):
   * sensitive here, though that provider did not mark it
   * (docs/decisions.md, "Credentials are sensitive"), so a configuration written for it may output it
   * without `sensitive = true`, which Terraform refuses. The provider page's migration note names every such value.
   */
  sensitiveUnlikeUpstream?: boolean;
  /**
   * Only for a provider that replaces another (an upstream one whose configurations it accepts): an
   * argument or attribute the upstream provider does not have, and why this one has it. The provider
   * page's migration note lists each with this reason; a check of the schema against the upstream's
   * (this repository's seed conformance tests) takes it as the difference's reason.
   */
  addedOverUpstream?: string;
  /**
   * What an import sets this argument to, where the platform cannot say, and what follows at the
   * first apply after the import: the resource page's Import section says it.
   */
  onImport?: string;
  /**
   * A secret the platform returns only in the answer to the create. An object found again after
   * that answer was lost lacks it, so the engine does not adopt it as is
   * (engine/creates/create-recovery.ts).
   * Such a value is `masked` too.
   */
  oneTime?: boolean;
  /**
   * A list the platform keeps each value of once (it collapses or refuses a repeat): a value the
   * configuration names twice is sent once (engine/plan/platform-values.ts `withoutRepeats`). Only for an
   * `unordered` list, whose comparison then finds the read's list the same.
   */
  distinct?: boolean;
  /**
   * A list whose order carries no meaning (the platform does not keep it, or does not use it): compared
   * as a set everywhere, with `equal` (when given) judging elements. A reordering plans no change and
   * sends nothing; a read or an import in another order keeps the order the state (or configuration)
   * has. A list whose order means something stays a list compared in order.
   */
  unordered?: boolean;
  /**
   * The most characters this string may have, where the platform allows more (or fewer) than its
   * limit for every text (ProviderDef `limits`): a document such as a JSON template or a query.
   */
  maxCharacters?: number;
  /**
   * The platform assigns the value (an SDK-style `id`, which Pulumi shows as an input): a configuration
   * may only repeat the object's own value, as the code `pulumi import` prints does. Any value on
   * create, another value on update, or one an update would change is refused at plan
   * (engine/plan/validate.ts).
   */
  platformAssigned?: boolean;
  /**
   * A setting of the provider's own (how it creates, tests or deletes the object), never sent to the
   * platform nor read back: a change to it alone calls no API, and an imported object has its default.
   */
  providerOnly?: boolean;
  /**
   * Marks the `timeouts` attribute (engine/contracts/timeouts.ts `timeoutsAttribute`): how long each
   * operation it names may take when the configuration does not say, as a Go duration.
   */
  timeouts?: Readonly<Partial<Record<'create' | 'read' | 'update' | 'delete', string>>>;
  /**
   * The value names another object that must exist (e.g. "a cluster"): only the ids or names of real
   * objects are valid, so no value can be made up for it (src/schema/samples.ts).
   */
  refersTo?: string;
}

export interface AttrDef<V, R extends boolean = boolean> {
  readonly kind: 'attr';
  readonly type: Typed<V>;
  readonly options: AttrOptions<V>;
  /** A nested attribute (`attr.nested`): its inner attributes and how they nest. `type` is their implied type. */
  readonly nested?: NestedAttributes<Fields>;
  /** Type-level only: whether the attribute is required (the model then has no null). */
  readonly __required?: R;
}

export interface BlockOptions {
  description: string;
  min?: number;
  max?: number;
  deprecated?: string;
  /** For a deprecated block the platform reports in its own form: the block a read puts its elements into. */
  readAs?: ReadAs;
  /** As for attributes: true, or a function of the prior and planned block values (plain JS). */
  replace?: boolean | ((prior: any, planned: any) => boolean);
  /**
   * An element that sets nothing (every field null, empty or its default) means the same as no
   * element: the platform keeps nothing for it. A change between the two changes nothing, and an
   * import (which cannot tell them apart) reads no element.
   */
  emptyMeansAbsent?: boolean;
}

export interface BlockDef<F extends Fields> {
  readonly kind: 'block';
  readonly nesting: Nesting;
  readonly fields: F;
  readonly options: BlockOptions;
}

/** The inner attributes of a nested attribute (tfplugin6 `Schema.Object`), and how its objects nest. */
export interface NestedAttributes<F extends Fields> {
  readonly nesting: ObjectNesting;
  readonly fields: F;
}

/** What a nested attribute's inner attributes may be: attributes only, as Terraform allows. */
export type AttrFields = { readonly [name: string]: AttrDef<any> };

/** The model of a nested attribute: one object, an array of them (list, set) or a record of them (map). */
export type NestedModel<F extends Fields, N extends ObjectNesting> = N extends 'single'
  ? ModelOf<F>
  : N extends 'map'
    ? Record<string, ModelOf<F>>
    : ModelOf<F>[];

/** What `attr.nested` is given: the options of an attribute, the inner attributes and their nesting. */
export type NestedOptions<F extends AttrFields, N extends ObjectNesting, R extends boolean> = Omit<
  AttrOptions<NestedModel<F, N>>,
  'required' | 'writeOnly' | 'writeOnlyTwin' | 'unordered' | 'distinct' | 'emptyString' | 'maxCharacters'
> & { nesting: N; attributes: F; required?: R };

export type FieldDef = AttrDef<any> | BlockDef<any>;
export type Fields = { readonly [name: string]: FieldDef };

/** The plain model a resource works with. Required attributes are non-null; the rest may be null. */
export type ModelOf<F extends Fields> = {
  -readonly [K in keyof F]: F[K] extends { kind: 'attr'; type: Typed<infer V>; __required?: infer R }
    ? R extends true
      ? V
      : V | null
    : F[K] extends BlockDef<infer G>
      ? ModelOf<G>[]
      : never;
};

/**
 * A configuration as validation sees it: like the model, but a value not known yet (it depends on
 * another resource, or on a `dynamic` block's `for_each`) is `undefined`, distinct from null.
 * Checks skip what they cannot judge yet; the engine runs them again at plan time.
 */
export type ConfigModelOf<F extends Fields> = {
  -readonly [K in keyof F]: F[K] extends { kind: 'attr'; type: Typed<infer V>; __required?: infer R }
    ? R extends true
      ? V | undefined
      : V | null | undefined
    : F[K] extends BlockDef<infer G>
      ? ConfigModelOf<G>[] | undefined
      : never;
};

function attrOf<V>(type: Typed<V>) {
  return <const R extends boolean = false>(
    options: Omit<AttrOptions<V>, 'required'> & { required?: R },
  ): AttrDef<V, R> => ({ kind: 'attr', type, options });
}

export const attr = {
  string: attrOf(t.string),
  number: attrOf(t.number),
  bool: attrOf(t.bool),
  stringList: attrOf(t.list(t.string)),
  stringSet: attrOf(t.set(t.string)),
  stringMap: attrOf(t.map(t.string)),
  of: <V>(type: Typed<V>) => attrOf(type),
  /**
   * A whole number (the plugin framework's Int64Attribute): a number attribute whose value may have no
   * fraction ("The value must be a whole number"). Bound it with `validators.intBetween`, which says the
   * same, so the check is not said twice.
   */
  int: <const R extends boolean = false>(
    options: Omit<AttrOptions<number>, 'required'> & { required?: R },
  ): AttrDef<number, R> => {
    const bounded = options.validate?.some((v) => v.description.startsWith('a whole number')) === true;
    const validate = bounded ? (options.validate ?? []) : [validators.whole(), ...(options.validate ?? [])];
    return attrOf(t.number)({ ...options, validate });
  },
  /**
   * A nested attribute (tfplugin6 `nested_type`; the plugin framework's Single/List/Set/MapNestedAttribute):
   * an attribute whose value is an object of `attributes` (each with its own required, optional, computed,
   * sensitive and description), or a list, set or map of them. Written `name = { ... }` or
   * `name = [{ ... }]`, not as a block; its model is the inner attributes' model (an array for a list or
   * set, a record for a map). Inner computed attributes are planned as the resource's are: kept from the
   * prior state, unknown where they are new or follow a value that changes (`changesWith`).
   */
  nested: <const F extends AttrFields, const N extends ObjectNesting, const R extends boolean = false>(
    options: NestedOptions<F, N, R>,
  ): AttrDef<NestedModel<F, N>, R> => {
    const { nesting, attributes, ...rest } = options;
    const types: Record<string, CtyType> = {};
    for (const [name, def] of Object.entries(attributes)) types[name] = def.type.cty;
    return {
      kind: 'attr',
      type: { cty: nestedAttributeType(types, nesting) },
      options: rest as AttrOptions<NestedModel<F, N>>,
      nested: { nesting, fields: attributes },
    };
  },
  /**
   * Only for a provider that replaces one written with Terraform's SDK, whose `id` configurations
   * may name: the SDK-style `id`, Optional+Computed so the Pulumi bridge shows `<resource>Id`
   * (docs/decisions.md, "Every resource has a string id"), but the platform assigns it, so a
   * configuration may only repeat the object's own (`platformAssigned`). Others use `attr.computedId`.
   */
  sdkId: (description = 'The identifier the platform assigned to this object.', changesWith?: string[]) =>
    attrOf(t.string)({
      description,
      ...(changesWith ? { changesWith } : {}),
      optional: true,
      computed: true,
      platformAssigned: true,
    }),
  /** A computed-only `id`. */
  computedId: (description = 'The identifier the platform assigned to this object.') =>
    attrOf(t.string)({ description, computed: true }),
};

/** The largest `<name>_wo_version` (a 32-bit count, as the major providers take it). */
const WO_VERSION_MAX = 2 ** 31 - 1;

/** `fields` with the write-only twins of every argument that declares `writeOnlyTwin`, each after its argument. */
export function withWriteOnlyTwins<F extends Fields>(fields: F, where: string, inSet: boolean): F {
  const out: Record<string, FieldDef> = {};
  for (const [name, def] of Object.entries(fields)) {
    out[name] = def;
    if (def.kind !== 'attr' || !def.options.writeOnlyTwin) continue;
    const o = def.options;
    const twin = def.options.writeOnlyTwin;
    if (inSet)
      throw new Error(`schema: ${where}.${name} is inside a set block, where Terraform allows no write-only attribute`);
    if (!o.sensitive || o.required || o.computed || !o.optional)
      throw new Error(`schema: ${where}.${name} has a write-only twin, so it must be optional and sensitive`);
    out[`${name}_wo`] = {
      kind: 'attr',
      type: def.type,
      options: {
        optional: true,
        sensitive: true,
        writeOnly: true,
        twinOf: name,
        ...(o.validate ? { validate: o.validate } : {}),
        ...(o.maxCharacters !== undefined ? { maxCharacters: o.maxCharacters } : {}),
        description:
          `Write-only form of \`${name}\`: the value is sent to the platform ` +
          `but never stored in the plan or state. Set \`${name}\` or \`${name}_wo\`` +
          `${twin.required ? ' (one of them is required)' : ', not both'}; ` +
          `change \`${name}_wo_version\` to send a new value.`,
      },
    };
    out[`${name}_wo_version`] = {
      kind: 'attr',
      type: t.number,
      options: {
        optional: true,
        twinOf: name,
        validate: [validators.intBetween(0, WO_VERSION_MAX)],
        description:
          `Any number; changing it sends \`${name}_wo\` to the platform again (a write-only value is not ` +
          `in the state, so its changes cannot be seen).`,
      },
    };
  }
  return out as F;
}

/** A required argument that configuration generated for an import may lack (`requiredUnreadable`). */
export interface Unreadable {
  /** Block names, then the argument's name. */
  readonly path: readonly string[];
  /** A secret, which generated configuration always writes as `null # sensitive`. */
  readonly secret: boolean;
}

/**
 * The required arguments that configuration Terraform generates for an import may lack: secrets
 * (sensitive, or a secret whose write-only pair is required), which it writes as `null # sensitive`
 * whatever the state holds, and values the platform may leave out of its answers (`masked`), null
 * where it did. They are filled in after generation.
 */
export function requiredUnreadable(fields: Fields, at: readonly string[] = []): Unreadable[] {
  return Object.entries(fields).flatMap(([name, def]): Unreadable[] => {
    if (def.kind === 'block') return requiredUnreadable(def.fields, [...at, name]);
    const o = def.options;
    const secret = (o.required === true && o.sensitive === true) || o.writeOnlyTwin?.required === true;
    return secret || (o.required && o.masked) ? [{ path: [...at, name], secret }] : [];
  });
}

function blockOf(nesting: Nesting) {
  return <F extends Fields>(fields: F, options: BlockOptions): BlockDef<F> => ({
    kind: 'block',
    nesting,
    fields: withWriteOnlyTwins(fields, 'block', nesting === 'set'),
    options,
  });
}

export const block = {
  list: blockOf('list'),
  set: blockOf('set'),
  /** A single object written as a block: a LIST with max_items 1 (docs/decisions.md, "Nested objects are blocks"). */
  one: <F extends Fields>(fields: F, options: Omit<BlockOptions, 'max'> & { required?: boolean }): BlockDef<F> =>
    blockOf('list')(fields, { ...options, max: 1, min: options.required ? 1 : (options.min ?? 0) }),
};

export interface ResourceSchema<F extends Fields> {
  readonly version: number;
  readonly fields: F;
  readonly block: SchemaBlock;
  /** Deprecation message of the whole resource or data source, naming what replaces it. */
  readonly deprecated?: string;
}

/**
 * A resource/data-source/provider schema. Its fields (with their write-only twins) and its block are
 * built, and the declaration checked, on first use rather than when the module loads: a provider
 * process serves a few of its types, or none (the schema answers are built ahead, see
 * src/providers/prebuilt-schemas.ts), and building them all cost every start several milliseconds.
 * The tests that walk every type's schema find a declaration error as before.
 */
export function resourceSchema<F extends Fields>(
  declared: F,
  options: { description: string; version?: number; deprecated?: string; planned?: boolean },
): ResourceSchema<F> {
  let fields: F | undefined;
  let block: SchemaBlock | undefined;
  const schema: ResourceSchema<F> = {
    version: options.version ?? 0,
    get fields() {
      fields ??= withWriteOnlyTwins(declared, 'resource', false);
      return fields;
    },
    get block() {
      block ??= toSchemaBlock(schema.fields, options.description, options.deprecated, [], options.planned ?? true);
      return block;
    },
    ...(options.deprecated !== undefined ? { deprecated: options.deprecated } : {}),
  };
  return schema;
}

/**
 * A provider block's schema. Terraform never plans a provider block, so a setting's default is not
 * filled in at plan time: `configure` applies it (after any environment variable), and the setting is
 * served Optional, not Computed (pulumi-terraform-bridge lists a computed setting as required
 * configuration).
 */
export function providerSchema<F extends Fields>(
  declared: F,
  options: { description: string; deprecated?: string },
): ResourceSchema<F> {
  return resourceSchema(declared, { ...options, planned: false });
}

function toSchemaBlock(
  fields: Fields,
  description: string,
  deprecated: string | undefined,
  at: string[],
  planned: boolean,
): SchemaBlock {
  const attributes: Record<string, SchemaAttribute> = {};
  const blockTypes: Record<string, SchemaNestedBlock> = {};
  for (const [name, def] of Object.entries(fields)) {
    const where = [...at, name].join('.');
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`schema: invalid field name ${where}`);
    const readAs = def.options.readAs;
    if (readAs && (def.options.deprecated === undefined || fields[readAs.field]?.kind !== def.kind)) {
      const must = `a sibling ${def.kind} that replaces this deprecated one`;
      throw new Error(`schema: ${where} is read as ${readAs.field}, which must be ${must}`);
    }
    if (def.kind === 'attr') attributes[name] = toSchemaAttribute(name, def, where, planned);
    else {
      const { min = 0, max = 0 } = def.options;
      if (max !== 0 && min > max) throw new Error(`schema: ${where} has min_items > max_items`);
      blockTypes[name] = {
        typeName: name,
        nesting: def.nesting,
        minItems: min,
        maxItems: max,
        block: toSchemaBlock(
          def.fields,
          withOrderNote(def.options.description, def.nesting === 'set', def.options.deprecated),
          def.options.deprecated,
          [...at, name],
          planned,
        ),
      };
    }
  }
  return {
    attributes,
    blockTypes,
    // A nested block's description has its note already (withOrderNote); a type's gets it here.
    description: at.length === 0 ? withDeprecation(description, deprecated) : description,
    descriptionKind: 'markdown',
    deprecated: deprecated !== undefined,
    ...(deprecated !== undefined ? { deprecationMessage: deprecated } : {}),
  };
}

function toSchemaAttribute(name: string, def: AttrDef<unknown>, where: string, planned: boolean): SchemaAttribute {
  const o = def.options;
  const hasDefault = o.default !== undefined;
  const required = o.required === true;
  // A default is filled in at plan time, which Terraform only allows for computed attributes.
  const computed = o.computed === true || (hasDefault && planned);
  const optional = o.optional === true || hasDefault;
  if (required && (optional || computed)) throw new Error(`schema: ${where} cannot be required and optional/computed`);
  if (!required && !optional && !computed) throw new Error(`schema: ${where} must be required, optional or computed`);
  if (o.unordered && def.type.cty.kind !== 'list') throw new Error(`schema: ${where} is unordered but not a list`);
  if (o.distinct && !o.unordered) throw new Error(`schema: ${where} is distinct but not unordered`);
  if (o.emptyString !== undefined && def.type.cty.kind !== 'string')
    throw new Error(`schema: ${where} declares what an empty string is, but is not a string`);
  if ((o.volatile || o.changesWith) && !computed) throw new Error(`schema: ${where} is volatile but not computed`);
  if (o.sensitiveUnlikeUpstream && !o.sensitive) {
    throw new Error(`schema: ${where} is marked sensitive unlike upstream but is not sensitive`);
  }
  if (o.addedOverUpstream !== undefined && o.addedOverUpstream.trim() === '')
    throw new Error(`schema: ${where} is added over upstream without saying why`);
  // The planner makes a volatile value unknown on every update, whatever the configuration says.
  if (o.volatile && (required || optional)) {
    throw new Error(`schema: ${where} is volatile, so the platform's alone: it cannot be an argument`);
  }
  return {
    name,
    type: def.type.cty,
    description: withOrderNote(o.description, def.type.cty.kind === 'set' || o.unordered === true, o.deprecated),
    descriptionKind: 'markdown',
    required,
    optional,
    computed,
    sensitive: o.sensitive === true,
    deprecated: o.deprecated !== undefined,
    ...(o.deprecated !== undefined ? { deprecationMessage: o.deprecated } : {}),
    writeOnly: o.writeOnly === true,
    ...(hasDefault ? { default: o.default as Value } : {}),
    ...(def.nested ? { nestedType: toSchemaObject(def.nested, where, planned, computed && !optional) } : {}),
  };
}

/** A nested attribute's object: its inner attributes, checked as the resource's are and by Terraform's rules. */
function toSchemaObject(
  nested: NestedAttributes<Fields>,
  where: string,
  planned: boolean,
  computedOnly: boolean,
): SchemaObject {
  const attributes: Record<string, SchemaAttribute> = {};
  for (const [name, def] of Object.entries(nested.fields)) {
    const inner = `${where}.${name}`;
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`schema: invalid field name ${inner}`);
    if (def.kind !== 'attr') throw new Error(`schema: ${inner} is a block, which a nested attribute cannot hold`);
    const o = def.options;
    if (o.writeOnly || o.writeOnlyTwin) throw new Error(`schema: ${inner} is write-only inside a nested attribute`);
    if (o.volatile || o.readAs || o.masked || o.platformAssigned)
      throw new Error(`schema: ${inner} declares what a nested attribute's inner attribute cannot (yet)`);
    attributes[name] = toSchemaAttribute(name, def, inner, planned);
    if (computedOnly && (o.required || o.optional))
      throw new Error(`schema: ${inner} is an argument inside the computed-only ${where}`);
  }
  return { attributes, nesting: nested.nesting };
}

/**
 * Said of every collection whose order means nothing (a set, or a list declared `unordered`): a client
 * that shows it as an ordered list, as Pulumi does (an array, which reads may return sorted), tells
 * its users from the description alone.
 */
export const ORDER_NOTE = 'The order of its entries does not matter.';

function withOrderNote(description: string, unordered: boolean, deprecated?: string): string {
  const noted = !unordered ? description : description === '' ? ORDER_NOTE : `${trimEnd(description)} ${ORDER_NOTE}`;
  return withDeprecation(noted, deprecated);
}

/**
 * Said at the end of every deprecated thing's description, as the deprecation's message says it:
 * a tool that shows only the description (terraform-ls shows it as the deprecation's reason, Pulumi's
 * SDKs as the doc comment) tells what to use instead. The message is also sent as such on the wire.
 */
export const deprecationNote = (message: string): string => `**Deprecated:** ${message}`;

export function withDeprecation(description: string, deprecated: string | undefined): string {
  if (deprecated === undefined) return description;
  return description === '' ? deprecationNote(deprecated) : `${trimEnd(description)} ${deprecationNote(deprecated)}`;
}

/** The description as declared, without the note withDeprecation added (for pages that say it apart). */
export function withoutDeprecation(description: string, deprecated: string | undefined): string {
  if (deprecated === undefined) return description;
  const note = deprecationNote(deprecated);
  return description.endsWith(note) ? description.slice(0, -note.length).trimEnd() : description;
}

const trimEnd = (text: string): string => text.replace(/\s+$/, '');

/**
 * What `validator` says of a value, where a validator of its own that throws (it judges another kind of
 * value) is said to be the provider's mistake, at the attribute's path, rather than crashing the call.
 */
export function judged<V>(validator: Validator<V>, value: Exact<V>): string | undefined {
  try {
    return validator.check(value);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const said = `${validator.description}: ${why}`;
    return `could not be judged by its validator (${said}), a mistake in the provider's declaration`;
  }
}

/** The values a form validator names as refused (src/schema/forms.ts), if it is one. */
const refusedOf = <V>(v: Validator<V>): readonly V[] | undefined =>
  (v as { counterexamples?: readonly V[] }).counterexamples;

/** Standard validators. */
export const validators = {
  oneOf: <V extends string | number>(...allowed: V[]): Validator<V> => ({
    accepts: [...new Set(allowed.map((a) => (typeof a === 'number' ? ('number' as const) : ('string' as const))))],
    samples: allowed,
    ...(allowed.every((a) => typeof a === 'number')
      ? { range: [Math.min(...(allowed as number[])), Math.max(...(allowed as number[]))] as const }
      : {}),
    description: `one of ${allowed.map((a) => `\`${a}\``).join(', ')}`,
    check: (v) =>
      allowed.includes(v as V) ? undefined : `must be one of ${allowed.map(shown).join(', ')}, got ${shown(v)}`,
  }),
  /** A text that does not hold `part`; `why` says what it would do there. */
  excludes: (part: string, why: string): Validator<string> => ({
    accepts: ['string'],
    description: `must not hold \`${part}\` (${why})`,
    check: (v) => (v.includes(part) ? `must not hold ${JSON.stringify(part)} (${why}), got ${shown(v)}` : undefined),
  }),
  nonEmpty: <V extends string | unknown[]>(): Validator<V> => ({
    accepts: ['string', 'list', 'set'],
    description: 'must not be empty',
    check: (v) => (v.length === 0 ? 'must not be empty' : undefined),
  }),
  /** A text matching `re`; `samples` are texts that do (a pattern cannot name them itself). */
  matches: (re: RegExp, what: string, samples: readonly string[] = []): Validator<string> => ({
    accepts: ['string'],
    description: what,
    samples,
    check: (v) => (re.test(v) ? undefined : `must be ${what}, got ${JSON.stringify(v)}`),
  }),
  /**
   * A whole number in [min, max]. Its samples are the bounds, where the platform's limits and ours
   * are most likely to disagree, unless the call names others: for a bound that is only the wire
   * type's, beyond what any account's quota allows.
   */
  intBetween: (
    min: number,
    max: number,
    samples: readonly number[] = min === max ? [min] : [min, max],
  ): Validator<number> => ({
    accepts: ['number'],
    range: [min, max],
    samples,
    description: `a whole number from ${min} to ${max}`,
    check: (v) =>
      isWhole(v) && compareNumbers(v, min) >= 0 && compareNumbers(v, max) <= 0
        ? undefined
        : `must be a whole number from ${min} to ${max}, got ${shown(v)}`,
  }),
  /** A number with no fraction. */
  whole: (): Validator<number> => ({
    accepts: ['number'],
    description: 'a whole number',
    check: (v) => (isWhole(v) ? undefined : `must be a whole number, got ${shown(v)}`),
  }),
  /**
   * A text of `min` to `max` characters, counted as Unicode code points (as the plugin framework's
   * `stringvalidator.LengthBetween` counts them): "é" is one, an emoji of two code points two.
   */
  lengthBetween: (min: number, max: number): Validator<string> => ({
    accepts: ['string'],
    description: min === max ? `exactly ${min} characters long` : `${min} to ${max} characters long`,
    samples: [...new Set([Math.max(min, 1), max])].filter((n) => n <= max).map((n) => 'a'.repeat(n)),
    check: (v) => {
      const length = [...v].length;
      return length >= min && length <= max
        ? undefined
        : `must be ${min === max ? `exactly ${min}` : `${min} to ${max}`} characters long, got ${length}`;
    },
  }),
  /** A list, set or map of `min` to `max` elements (the plugin framework's `SizeBetween`). */
  sizeBetween: <V extends unknown[] | Record<string, unknown>>(min: number, max: number): Validator<V> => ({
    accepts: ['list', 'set', 'map'],
    description: `${min} to ${max} elements`,
    check: (v) => {
      const size = Array.isArray(v) ? v.length : Object.keys(v).length;
      return size >= min && size <= max ? undefined : `must hold ${min} to ${max} elements, got ${size}`;
    },
  }),
  /**
   * Applies an element validator to every element of a list or set (a form's refused values refused as elements too).
   */
  each: <V>(inner: Validator<V>): Validator<V[]> => ({
    accepts: ['list', 'set'],
    elements: inner as Validator<unknown>,
    description: `each element ${inner.description}`,
    ...(inner.samples && inner.samples.length > 0
      ? { samples: [inner.samples.slice(0, 1), inner.samples.slice(0, 3)] }
      : {}),
    ...(refusedOf(inner)
      ? { form: (inner as { form?: unknown }).form, counterexamples: refusedOf(inner)!.map((c) => [c]) }
      : {}),
    ...(inner.written ? { written: (vs: V[]) => vs.map((v) => inner.written!(v) ?? v) } : {}),
    check: (vs) => {
      for (const [i, v] of vs.entries()) {
        const problem = inner.check(v);
        if (problem) return `element ${i} ${problem}`;
      }
      return undefined;
    },
  }),
};
