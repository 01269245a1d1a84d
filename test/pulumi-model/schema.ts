/**
 * A model, for tests, of the Pulumi package schema that pulumi-terraform-bridge's dynamic bridge ("any
 * Terraform provider") generates from our Terraform schemas
 * (docs/protocol.md, "The Pulumi bridge"). Users get the bridge's own schema
 * (`pulumi package add terraform-provider …`); this model exists to read the seeds, which show the providers in Pulumi's
 * terms, against our Terraform schemas without Go, and test/acceptance/pulumi.test.ts holds it to
 * the real bridge's output. The bridge only sees the tfplugin6 GetProviderSchema answer, through
 * its `pkg/pf/proto` shim, and runs tfgen on it; this module follows that code path step by step.
 * Sources (pulumi/pulumi-terraform-bridge):
 *
 * - `pkg/pf/proto/{attribute,block,element,object}.go`: how the wire schema looks to tfgen. Numbers
 *   are floats (Pulumi `number`, never `integer`); LIST and SET blocks are lists whose `max_items` is
 *   visible; SINGLE/GROUP/MAP blocks are objects (maps of objects); a block is required iff
 *   `min_items > 0` and is never computed or sensitive; attributes report `max_items` 0; fields of an
 *   object-typed attribute (`list(object({...}))`) are required unless listed as optional attributes of
 *   the cty object type (before bridge PR #3466, June 2026; see BuildOptions); deprecation is a bool, so
 *   the message is the literal "Deprecated"; ForceNew and defaults are not visible.
 * - `pkg/tfgen/generate.go`: gatherResource/gatherDataSource/gatherConfig/gatherProvider, propertyVariable,
 *   makePropertyType (MaxItems=1 flattening), isOptional (inputs optional when optional or computed or
 *   auto-named; outputs optional only when optional, not computed and not auto-named), input()
 *   (optional or required fields are inputs).
 * - `pkg/tfgen/generate_schema.go`: nested type naming (`<Resource><Title(property)>`, list/set property
 *   names singularized), merging of same-named types (the last declaration wins; `required` comes from
 *   it, `language.nodejs.requiredOutputs`/`requiredInputs` record the differing sets), genProperty
 *   (secret from `sensitive`), genResourceType (`id` left out; `stateInputs`), genDatasourceFunc, the
 *   provider's `terraformConfig` method and its inputs mirrored as outputs.
 * - `dynamic/info.go` and `pkg/tfbridge/tokens`: tokens, `id` renaming, auto-naming (see naming.ts).
 *
 * Only resources, data sources and the provider are gathered: actions (Terraform 1.14 `action` blocks)
 * have no counterpart in a Pulumi package and are left out.
 *
 * Deliberate differences from the bridge (each marked where it happens):
 * - `default`: the bridge cannot surface plan-time defaults of a protocol-6 provider (they are applied
 *   inside the provider and are not part of the wire schema; `attribute.HasDefault()` is always false),
 *   so it never writes `default`. We record SchemaAttribute.default under `default` on input positions
 *   (resource and provider inputs, nested types, config variables), because the seeds show defaults and
 *   the SDKs can use them. Pass `{ includeDefaults: false }` for the bridge's exact output.
 * - Provider settings with a default are treated as Optional, not Computed (providerConfigFields): the
 *   DSL's plan-time-default encoding does not apply to a provider block, which is never planned.
 *   Settings the mapping lists in `requiredConfig` are shown Required although Terraform serves them
 *   Optional: the provider demands them at configure time, with an environment fallback (vdb `api_key`).
 * - A resource or data source whose Terraform schema is deprecated gets `deprecationMessage`
 *   "Deprecated" (the wire carries only a flag). The bridge reads it from ResourceInfo/DataSourceInfo,
 *   which hand-written mappings fill and the dynamic bridge leaves empty; the seeds mark deprecated
 *   resources (vdb AccountsAuthKey).
 * - Descriptions: the bridge's text clean-up (`reformatText`) is reduced to trimming and note markers;
 *   it also rewrites Markdown links and wraps code-like words in per-language `<span>`s, which we do not.
 * - The package-level `language` and `attribution` blocks are left out.
 *
 * The package-level `parameterization` block is the dynamic bridge's (`dynamic/info.go`,
 * SchemaPostProcessor): base provider `terraform-provider` at the bridge's own version, and as the
 * parameter the JSON `parameterize.Value` of a local provider, `{"local":{"path":…}}`, base64-encoded
 * (Go's encoding of `[]byte`); the package is then versioned 0.0.0. It is written only when
 * `BuildOptions.localProviderPath` is given.
 */
import type { SchemaAttribute, SchemaBlock, SchemaNestedBlock } from '../../packages/framework/src/schema/block.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { Decimal, type Value } from '../../packages/framework/src/schema/value.js';
import type { ProviderDescription } from './description.js';
import { singularize } from '../../packages/framework/src/schema/pulumi/inflector.js';
import {
  computeTokens,
  inferResourcePrefix,
  reservedFieldRename,
  renamedIdField,
  terraformToPulumiName,
  titleCase,
  tokenName,
  type FieldShape,
} from '../../packages/framework/src/schema/pulumi/naming.js';

// ---------------------------------------------------------------------------------------------------
// Pulumi package schema (the subset the bridge produces)

export interface PulumiTypeSpec {
  type?: string;
  items?: PulumiTypeSpec;
  additionalProperties?: PulumiTypeSpec;
  $ref?: string;
}

export interface PulumiPropertySpec extends PulumiTypeSpec {
  description?: string;
  default?: string | number | boolean;
  deprecationMessage?: string;
  secret?: boolean;
}

export interface PulumiObjectTypeSpec {
  description?: string;
  properties?: Record<string, PulumiPropertySpec>;
  type: string;
  required?: string[];
  language?: { nodejs?: { requiredInputs?: string[]; requiredOutputs?: string[] } };
}

export interface PulumiResourceSpec {
  description?: string;
  properties?: Record<string, PulumiPropertySpec>;
  required?: string[];
  inputProperties?: Record<string, PulumiPropertySpec>;
  requiredInputs?: string[];
  stateInputs?: PulumiObjectTypeSpec;
  deprecationMessage?: string;
  methods?: Record<string, string>;
}

export interface PulumiFunctionSpec {
  description?: string;
  inputs?: PulumiObjectTypeSpec;
  outputs?: PulumiObjectTypeSpec;
  deprecationMessage?: string;
}

export interface PulumiPackageSchema {
  name: string;
  version: string;
  description?: string;
  meta: { moduleFormat: string };
  /**
   * `defaults` lists the *required* variables: pulumi's `ConfigSpec.Required` is serialized under that
   * name (`json:"defaults"`), and the metaschema allows no other.
   */
  config: { variables?: Record<string, PulumiPropertySpec>; defaults?: string[] };
  types: Record<string, PulumiObjectTypeSpec>;
  provider: PulumiResourceSpec;
  resources: Record<string, PulumiResourceSpec>;
  functions: Record<string, PulumiFunctionSpec>;
  parameterization?: PulumiParameterization;
}

/** pulumi's `ParameterizationSpec`: which plugin an SDK runs, and the parameter it hands that plugin. */
export interface PulumiParameterization {
  baseProvider: { name: string; version: string };
  /** base64 */
  parameter: string;
}

/**
 * The dynamic bridge's plugin (`baseProviderName` in `dynamic/main.go`) and the release an SDK
 * generated from our schema installs: pulumi/pulumi-terraform-provider v1.1.3 (2026-05-27), the
 * newest release at the time of writing, whose dynamic bridge reads the parameter written below.
 */
export const DYNAMIC_BRIDGE_PLUGIN = { name: 'terraform-provider', version: '1.1.3' } as const;

/** The parameterization the dynamic bridge writes for a provider run from a local path. */
export function localProviderParameterization(providerPath: string): PulumiParameterization {
  // parameterize.Value{Local: &LocalValue{Path}} as JSON (Go would also escape `<`, `>` and `&`, which
  // reads back the same).
  const value = JSON.stringify({ local: { path: providerPath } });
  return { baseProvider: { ...DYNAMIC_BRIDGE_PLUGIN }, parameter: Buffer.from(value, 'utf8').toString('base64') };
}

export interface BuildOptions {
  /**
   * Which bridge to imitate. 'seed-era' (default) is the bridge of early 2026 that the seeds were made
   * with, and what pulumi-terraform-bridge v3.120.0, which CI builds, still gives for both providers
   * (test/acceptance/pulumi.test.ts); 'latest' adds two later changes: fields of an object-typed attribute without an
   * optional-attribute list become optional instead of required (PR #3466, June 2026; the seeds show
   * such output types with every field required), and data sources without an `id` attribute no longer
   * get a synthesized `id` output (PR #3541, July 2026).
   */
  bridge?: 'seed-era' | 'latest';
  /** Record SchemaAttribute.default as `default` (see the header); default true. */
  includeDefaults?: boolean;
  /**
   * Mark a resource or data source whose Terraform schema is deprecated with `deprecationMessage`, as
   * the seeds' hand-written mappings do (see the header); default true. The dynamic bridge does not.
   */
  includeDeprecations?: boolean;
  /**
   * The provider executable an SDK generated from the schema should run (an absolute path is best:
   * the SDK keeps it as given). Adds the dynamic bridge's `parameterization` block (see the header).
   */
  localProviderPath?: string;
}

export interface BuildResult {
  schema: PulumiPackageSchema;
  /** Things the bridge does silently that may hide a mistake (same-named nested types that differ). */
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// The wire schema as the bridge's shim presents it

type ShimType = 'bool' | 'float' | 'string' | 'list' | 'map' | 'dynamic' | 'invalid';

interface FieldView {
  readonly optional: boolean;
  readonly required: boolean;
  readonly computed: boolean;
  readonly sensitive: boolean;
  readonly writeOnly: boolean;
  readonly deprecated: boolean;
  readonly description: string;
  readonly maxItems: number;
  readonly type: ShimType;
  readonly elem?: FieldView | ObjectView;
  /** Our extension: the plan-time default (not on the wire). */
  readonly default?: Value;
}

interface ObjectView {
  readonly kind: 'object';
  readonly fields: ReadonlyMap<string, FieldView>;
  /** Explicit nested type name (typeNameOverrides), like SchemaInfo.TypeName. */
  readonly typeName?: string;
}

const isObjectView = (x: FieldView | ObjectView | undefined): x is ObjectView =>
  (x as ObjectView | undefined)?.kind === 'object';

interface ViewContext {
  /** `<tf type>` or `data.<tf type>`, the prefix of typeNameOverrides keys. */
  readonly overrideRoot: string;
  readonly overrides: Readonly<Record<string, string>>;
  readonly objectFieldsOptional: boolean;
}

function shimTypeOf(t: CtyType): ShimType {
  switch (t.kind) {
    case 'bool':
      return 'bool';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
    case 'list':
    case 'set':
      return 'list';
    case 'map':
    case 'object':
      return 'map';
    case 'dynamic':
      return 'dynamic';
    case 'tuple':
      return 'invalid';
  }
}

/** proto `element.Elem()`. */
function elementElem(t: CtyType, path: string, ctx: ViewContext): FieldView | ObjectView | undefined {
  switch (t.kind) {
    case 'object': {
      const optional = new Set(t.optional ?? []);
      const noOptionality = optional.size === 0;
      const fields = new Map<string, FieldView>();
      for (const [k, at] of Object.entries(t.attributes)) {
        fields.set(k, elementView(at, noOptionality ? ctx.objectFieldsOptional : optional.has(k), `${path}.${k}`, ctx));
      }
      return { kind: 'object', fields, ...typeNameAt(path, ctx) };
    }
    case 'list':
    case 'set':
    case 'map':
      return elementView(t.element, false, path, ctx);
    default:
      return undefined;
  }
}

function elementView(t: CtyType, optional: boolean, path: string, ctx: ViewContext): FieldView {
  return {
    optional,
    required: false,
    computed: false,
    sensitive: false,
    writeOnly: false,
    deprecated: false,
    description: '',
    maxItems: 0,
    type: shimTypeOf(t),
    elem: elementElem(t, path, ctx),
  };
}

function attributeView(a: SchemaAttribute, path: string, ctx: ViewContext): FieldView {
  return {
    optional: a.optional,
    required: a.required,
    computed: a.computed,
    sensitive: a.sensitive,
    writeOnly: a.writeOnly,
    deprecated: a.deprecated,
    description: a.description,
    maxItems: 0,
    type: shimTypeOf(a.type),
    elem: elementElem(a.type, path, ctx),
    ...(a.default !== undefined ? { default: a.default } : {}),
  };
}

function blockView(nb: SchemaNestedBlock, path: string, ctx: ViewContext): FieldView {
  const isMapLike = nb.nesting === 'single' || nb.nesting === 'group' || nb.nesting === 'map';
  return {
    optional: !(nb.minItems > 0),
    required: nb.minItems > 0,
    computed: false,
    sensitive: false,
    writeOnly: false,
    deprecated: nb.block.deprecated,
    description: nb.block.description,
    maxItems: nb.maxItems,
    type: isMapLike ? 'map' : 'list',
    // A MAP block is a map whose element is the same block in SINGLE mode.
    elem: nb.nesting === 'map' ? blockView({ ...nb, nesting: 'single' }, path, ctx) : objectView(nb.block, path, ctx),
  };
}

function typeNameAt(path: string, ctx: ViewContext): { typeName?: string } {
  const name = ctx.overrides[`${ctx.overrideRoot}.${path}`];
  return name ? { typeName: name } : {};
}

function blockFields(block: SchemaBlock, path: string, ctx: ViewContext): Map<string, FieldView> {
  const fields = new Map<string, FieldView>();
  const at = (k: string) => (path === '' ? k : `${path}.${k}`);
  for (const [k, a] of Object.entries(block.attributes)) fields.set(k, attributeView(a, at(k), ctx));
  for (const [k, nb] of Object.entries(block.blockTypes)) fields.set(k, blockView(nb, at(k), ctx));
  return fields;
}

function objectView(block: SchemaBlock, path: string, ctx: ViewContext): ObjectView {
  return { kind: 'object', fields: blockFields(block, path, ctx), ...typeNameAt(path, ctx) };
}

/**
 * Deliberate difference (see the header): a provider attribute with a default is Optional, not
 * Computed. Our declaration DSL marks every defaulted attribute computed because resource defaults
 * are filled in at plan time, but a provider block is never planned: its default is the configure-time
 * fallback, the way an SDKv2 provider declares `Optional` + `Default` (served Optional only). Seen as
 * computed, the bridge would make such a setting a *required* config variable.
 * Settings named in `requiredConfig` (PulumiMappingOptions) are shown Required instead of Optional.
 */
function providerConfigFields(
  fields: Map<string, FieldView>,
  requiredConfig: ReadonlySet<string>,
): Map<string, FieldView> {
  return new Map(
    [...fields].map(([k, f]) => {
      if (requiredConfig.has(k)) return [k, { ...f, optional: false, required: true, computed: false }];
      return [k, f.default !== undefined && f.optional && f.computed ? { ...f, computed: false } : f];
    }),
  );
}

const shapeCache = new WeakMap<ReadonlyMap<string, FieldView>, Map<string, FieldShape>>();
function shapes(fields: ReadonlyMap<string, FieldView>): Map<string, FieldShape> {
  let s = shapeCache.get(fields);
  if (!s) {
    s = new Map([...fields].map(([k, f]) => [k, { collection: f.type === 'list', maxItems: f.maxItems }]));
    shapeCache.set(fields, s);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------
// tfgen's model: variables and property types

type Kind = 'bool' | 'float' | 'string' | 'list' | 'map' | 'object';

interface PType {
  kind: Kind;
  element?: PType | null;
  properties?: PVar[];
  /** Set when the type is declared (nested object types). */
  name?: string;
  typeName?: string;
}

/** SchemaInfo, reduced to what the dynamic bridge sets: renames and auto-naming. */
interface FieldInfo {
  name?: string;
  /** Auto-named (`SchemaInfo.Default` set). */
  hasDefault?: boolean;
}

interface PVar {
  key: string;
  name: string;
  out: boolean;
  /** `stateVar.opt = true`. */
  forcedOpt: boolean;
  config: boolean;
  field: FieldView;
  info?: FieldInfo;
  typ: PType | null;
  doc: string;
  rawdoc: string;
  /** Where our `default` extension is written (input positions). */
  withDefault: boolean;
}

function isOptional(v: PVar): boolean {
  if (v.forcedOpt) return true;
  const customDefault = !v.config && v.info?.hasDefault === true;
  if (v.out) return v.field.optional && !v.field.computed && !customDefault;
  return v.field.optional || v.field.computed || customDefault;
}

const isInput = (f: FieldView) => f.optional || f.required;

/** Where a property's description goes: tfgen's `rawdoc` (top level), `doc` (nested, newline-terminated), none. */
type DocMode = 'raw' | 'doc' | 'none';

function makePropertyType(field: FieldView, out: boolean): PType | null {
  switch (field.type) {
    case 'bool':
    case 'float':
    case 'string':
      return { kind: field.type };
    default:
      break;
  }
  // Single-nested objects (SINGLE/GROUP blocks, object-typed attributes).
  if (field.type === 'map' && isObjectView(field.elem)) return makeObjectType(field.elem, out);

  // MaxItems=1 flattening (tfbridge.IsMaxItemsOne): only lists/sets, and only blocks report max_items.
  const flatten = field.type === 'list' && field.maxItems === 1;
  let element: PType | null | undefined;
  if (isObjectView(field.elem)) element = makeObjectType(field.elem, out);
  else if (field.elem) element = makePropertyType(field.elem, out);
  if (flatten) return element ?? null;

  switch (field.type) {
    case 'map':
      // Terraform treats maps without an element type as map(string); so does the bridge.
      return { kind: 'map', element: element ?? { kind: 'string' } };
    case 'list':
      return { kind: 'list', element: element ?? null };
    case 'dynamic':
      return null; // pulumi.json#/Any
    default:
      throw new Error('unsupported Terraform type (tuple) in a schema the bridge would have to map');
  }
}

function makeObjectType(obj: ObjectView, out: boolean): PType {
  const properties: PVar[] = [];
  for (const key of [...obj.fields.keys()].sort()) {
    properties.push(propertyVariable(key, obj.fields, undefined, out, 'doc', !out));
  }
  return { kind: 'object', properties, ...(obj.typeName ? { typeName: obj.typeName } : {}) };
}

const WRITE_ONLY_NOTE =
  '**NOTE:** This field is write-only and its value will not be updated in state as part of read operations.\n';

function propertyVariable(
  key: string,
  fields: ReadonlyMap<string, FieldView>,
  infos: ReadonlyMap<string, FieldInfo> | undefined,
  out: boolean,
  docMode: DocMode,
  withDefault: boolean,
): PVar {
  const field = fields.get(key)!;
  const info = infos?.get(key);
  const name = terraformToPulumiName(key, shapes(fields), infos);
  let doc = docMode === 'doc' ? reformatText(field.description) : '';
  let rawdoc = docMode === 'raw' ? reformatText(field.description) : '';
  if (field.writeOnly) {
    if (doc !== '') doc = WRITE_ONLY_NOTE + doc;
    else if (rawdoc !== '') rawdoc = WRITE_ONLY_NOTE + rawdoc;
    else doc = WRITE_ONLY_NOTE;
  }
  return {
    key,
    name,
    out,
    forcedOpt: false,
    config: false,
    field,
    ...(info ? { info } : {}),
    typ: makePropertyType(field, out),
    doc,
    rawdoc,
    withDefault,
  };
}

/** tfgen reformatText, reduced (see the header): note markers and surrounding space. */
export function reformatText(text: string): string {
  const parts = text.split(/(```[\s\S]*?```)/);
  const cleaned = parts.map((p, i) => {
    if (i % 2 === 1) return p;
    let t = p.replaceAll('-> ', '> ').replaceAll('~> ', '> ').replaceAll('!> ', '> ');
    if (t.startsWith('\n(Required)\n')) t = t.slice('\n(Required)\n'.length);
    if (t.startsWith('\n(Optional)\n')) t = t.slice('\n(Optional)\n'.length);
    return t;
  });
  return cleaned.join('').trim();
}

/** tfgen genDocComment: every line ends with a newline; a trailing empty line is dropped. */
export function genDocComment(comment: string): string {
  const lines = comment.split('\n');
  let out = '';
  for (const [i, line] of lines.entries()) {
    if (i === lines.length - 1 && line.trim() === '') break;
    out += `${line}\n`;
  }
  return out;
}

function defaultOf(v: Value | undefined): string | number | boolean | undefined {
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  if (v instanceof Decimal) return Number(v.text);
  return undefined; // only primitive defaults are valid in a Pulumi schema
}

// ---------------------------------------------------------------------------------------------------
// Nested type declaration (schemaNestedTypes)

interface NestedType {
  typ: PType;
  declarer: string;
  module: string;
  required: Set<string>;
  requiredInputs?: Set<string>;
  requiredOutputs?: Set<string>;
}

class NestedTypes {
  readonly byName = new Map<string, NestedType>();
  constructor(
    private readonly module: string,
    private readonly warnings: string[],
  ) {}

  gatherFromProperties(declarer: string, prefix: string, vars: PVar[], isInput: boolean): void {
    for (const v of vars) {
      if (!v.typ) continue;
      const name = v.typ.kind === 'list' ? singularize(v.name) : v.name;
      this.gatherFromPropertyType(declarer, prefix, name, v.typ, isInput);
    }
  }

  gatherFromPropertyType(declarer: string, prefix: string, name: string, typ: PType, isInput: boolean): void {
    switch (typ.kind) {
      case 'list':
      case 'map':
        if (typ.element) this.gatherFromPropertyType(declarer, prefix, name, typ.element, isInput);
        return;
      case 'object': {
        const baseName = this.declare(declarer, prefix, name, typ, isInput);
        this.gatherFromProperties(declarer, baseName, typ.properties ?? [], isInput);
        return;
      }
      default:
        return;
    }
  }

  private declare(declarer: string, prefix: string, name: string, typ: PType, isInput: boolean): string {
    const typeName = typ.typeName ?? prefix + titleCase(name);
    typ.name = typeName;
    const required = new Set((typ.properties ?? []).filter((p) => !isOptional(p)).map((p) => p.name));
    const existing = this.byName.get(typeName);
    if (existing) {
      if (existing.declarer !== declarer || !typesEqual(existing.typ, typ, true)) {
        // The bridge keeps the last declaration (and asserts equality across declarers); a difference
        // here is silent in the bridge, so we report it.
        if (!typesEqual(existing.typ, typ, false))
          this.warnings.push(`nested type ${typeName} is declared with different shapes; the last one wins`);
      }
      if (isInput) existing.requiredInputs = required;
      else existing.requiredOutputs = required;
      existing.typ = typ;
      existing.required = required;
      return typeName;
    }
    this.byName.set(typeName, {
      typ,
      declarer,
      module: this.module,
      required,
      ...(isInput ? { requiredInputs: required } : { requiredOutputs: required }),
    });
    return typeName;
  }
}

/**
 * propertyType.equals, without the declared names (nested types of a later pass are named only after
 * their parent is declared); with `optionality` false, input/output optionality differences are ignored.
 */
function typesEqual(a: PType | null | undefined, b: PType | null | undefined, optionality: boolean): boolean {
  if (!a || !b) return !a && !b;
  if (a.kind !== b.kind || a.typeName !== b.typeName) return false;
  if (!typesEqual(a.element, b.element, optionality)) return false;
  const ap = a.properties ?? [];
  const bp = b.properties ?? [];
  if (ap.length !== bp.length) return false;
  return ap.every((p, i) => {
    const o = bp[i]!;
    return (
      p.name === o.name && (!optionality || isOptional(p) === isOptional(o)) && typesEqual(p.typ, o.typ, optionality)
    );
  });
}

// ---------------------------------------------------------------------------------------------------
// Spec generation

class SpecGen {
  constructor(
    private readonly pkg: string,
    private readonly includeDefaults: boolean,
  ) {}

  property(v: PVar, module: string): PulumiPropertySpec {
    const spec: PulumiPropertySpec = { ...this.typeSpec(v.typ, module) };
    const description = v.doc !== '' ? genDocComment(v.doc) : v.rawdoc;
    if (description !== '') spec.description = description;
    // Our extension (see the header): the bridge never emits `default` for a protocol-6 provider.
    if (this.includeDefaults && v.withDefault) {
      const d = defaultOf(v.field.default);
      if (d !== undefined) spec.default = d;
    }
    if (v.field.deprecated) spec.deprecationMessage = 'Deprecated';
    if (v.field.sensitive || v.field.writeOnly) spec.secret = true;
    return spec;
  }

  typeSpec(t: PType | null, module: string): PulumiTypeSpec {
    if (!t) return { $ref: 'pulumi.json#/Any' };
    switch (t.kind) {
      case 'bool':
        return { type: 'boolean' };
      case 'float':
        return { type: 'number' };
      case 'string':
        return { type: 'string' };
      case 'list':
        return { type: 'array', items: this.typeSpec(t.element ?? null, module) };
      case 'map':
        return { type: 'object', additionalProperties: this.typeSpec(t.element ?? null, module) };
      case 'object':
        return { $ref: `#/types/${this.pkg}:${module}/${t.name}:${t.name}` };
    }
  }

  objectType(
    props: PVar[],
    module: string,
    opts: { description?: string; topLevel?: boolean; nested?: NestedType },
  ): PulumiObjectTypeSpec {
    const spec: PulumiObjectTypeSpec = { type: 'object' };
    if (opts.description) spec.description = genDocComment(opts.description);
    const properties: Record<string, PulumiPropertySpec> = {};
    const required: string[] = [];
    for (const p of props) {
      if (opts.topLevel && p.name === 'id') continue;
      properties[p.name] = this.property(p, module);
      if (!isOptional(p)) required.push(p.name);
    }
    // Property order: by Pulumi name, as Go's JSON encoder writes maps.
    spec.properties = sortKeys(properties);
    if (required.length > 0) spec.required = required;
    const nt = opts.nested;
    if (nt) {
      const nodejs: { requiredInputs?: string[]; requiredOutputs?: string[] } = {};
      if (!setEquals(nt.required, nt.requiredInputs)) nodejs.requiredInputs = [...(nt.requiredInputs ?? [])].sort();
      if (!setEquals(nt.required, nt.requiredOutputs)) nodejs.requiredOutputs = [...(nt.requiredOutputs ?? [])].sort();
      if (Object.keys(nodejs).length > 0) spec.language = { nodejs };
    }
    // Key order as in the bridge's output: description, properties, type, required, language.
    return reorder(spec, ['description', 'properties', 'type', 'required', 'language']);
  }
}

function setEquals(a: Set<string>, b: Set<string> | undefined): boolean {
  const bs = b ?? new Set<string>();
  return a.size === bs.size && [...a].every((x) => bs.has(x));
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]!]),
  );
}

function reorder<T extends object>(o: T, keys: string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of keys) if ((o as Record<string, unknown>)[k] !== undefined) out[k] = (o as Record<string, unknown>)[k];
  for (const [k, v] of Object.entries(o)) if (!(k in out) && v !== undefined) out[k] = v;
  return out as T;
}

// ---------------------------------------------------------------------------------------------------
// Entry points

export function buildPulumiSchema(desc: ProviderDescription, options: BuildOptions = {}): PulumiPackageSchema {
  return buildPulumiSchemaWithReport(desc, options).schema;
}

export function buildPulumiSchemaWithReport(desc: ProviderDescription, options: BuildOptions = {}): BuildResult {
  const pkg = desc.name;
  const warnings: string[] = [];
  const gen = new SpecGen(pkg, options.includeDefaults !== false);
  const latest = options.bridge === 'latest';
  const objectFieldsOptional = latest;
  const overrides = desc.pulumi?.typeNameOverrides ?? {};
  const autoNameOff = new Set(desc.pulumi?.autoNameOff ?? []);
  const autoNameOn = new Set(desc.pulumi?.autoNameOn ?? []);

  const inferred = inferResourcePrefix(Object.keys(desc.resources));
  const prefix = inferred === '' ? pkg : inferred;
  const tokens = computeTokens(pkg, prefix, Object.keys(desc.resources), Object.keys(desc.dataSources));

  const types: Record<string, PulumiObjectTypeSpec> = {};
  const emitTypes = (nt: NestedTypes) => {
    for (const t of nt.byName.values()) {
      const tok = `${pkg}:${t.module}/${t.typ.name}:${t.typ.name}`;
      const spec = gen.objectType(t.typ.properties ?? [], t.module, { nested: t });
      if (types[tok] && JSON.stringify(types[tok]) !== JSON.stringify(spec)) {
        warnings.push(
          `nested type ${tok} is generated by more than one resource or function with different shapes; the last one ` +
            `wins`,
        );
      }
      types[tok] = spec;
    }
  };

  interface Member {
    module: string;
    emit: () => void;
  }
  const members: Member[] = [];

  // --- config variables (gatherConfig): out=true, config=true, raw descriptions.
  const providerCtx: ViewContext = { overrideRoot: 'provider', overrides, objectFieldsOptional };
  const providerFields = providerConfigFields(
    blockFields(desc.provider.block, '', providerCtx),
    new Set(desc.pulumi?.requiredConfig ?? []),
  );
  const configVars: PVar[] = [];
  for (const key of [...providerFields.keys()].sort()) {
    const v = propertyVariable(key, providerFields, undefined, true, 'raw', true);
    v.config = true;
    configVars.push(v);
  }
  const config: PulumiPackageSchema['config'] = {};
  {
    const nt = new NestedTypes('config', warnings);
    for (const v of configVars) if (v.typ) nt.gatherFromPropertyType(v.name, v.name, '', v.typ, false);
    members.push({ module: `${pkg}:config`, emit: () => emitTypes(nt) });
    if (configVars.length > 0) {
      const variables: Record<string, PulumiPropertySpec> = {};
      const required: string[] = [];
      for (const v of configVars) {
        variables[v.name] = gen.property(v, 'config');
        if (!isOptional(v)) required.push(v.name);
      }
      config.variables = sortKeys(variables);
      if (required.length > 0) config.defaults = required;
    }
  }

  // --- resources (gatherResource)
  const resources: Record<string, PulumiResourceSpec> = {};
  for (const tfType of Object.keys(desc.resources).sort()) {
    const schema = desc.resources[tfType]!;
    const token = tokens.resources.get(tfType)!;
    const className = tokenName(token);
    const ctx: ViewContext = { overrideRoot: tfType, overrides, objectFieldsOptional };
    const fields = blockFields(schema.block, '', ctx);
    const fieldNames = new Set(fields.keys());

    // Default fixups: `id`, `urn`, `pulumi`; then SetAutonaming.
    const infos = new Map<string, FieldInfo>();
    const idField = fields.get('id');
    const idRename = renamedIdField(
      pkg,
      prefix,
      tfType,
      idField && {
        computed: idField.computed,
        optional: idField.optional,
        required: idField.required,
        isString: idField.type === 'string',
      },
      fieldNames,
    );
    if (idRename) infos.set('id', { name: terraformToPulumiName(idRename, shapes(fields), infos) });
    for (const reserved of ['urn', 'pulumi']) {
      if (!fields.has(reserved)) continue;
      const rename = reservedFieldRename(pkg, reserved, fieldNames)!;
      infos.set(reserved, { name: terraformToPulumiName(rename, shapes(fields), infos) });
    }
    const nameField = fields.get('name');
    const autoNameable = nameField !== undefined && isInput(nameField) && nameField.type === 'string';
    if (autoNameable && (!autoNameOff.has(tfType) || autoNameOn.has(tfType))) {
      infos.set('name', { name: 'name', hasDefault: true });
    }

    const outprops: PVar[] = [];
    const inprops: PVar[] = [];
    const stateVars: PVar[] = [];
    for (const key of [...fields.keys()].sort()) {
      const f = fields.get(key)!;
      outprops.push(propertyVariable(key, fields, infos, true, 'raw', false));
      if (isInput(f)) inprops.push(propertyVariable(key, fields, infos, false, 'raw', true));
      const sv = propertyVariable(key, fields, infos, false, 'raw', false);
      sv.forcedOpt = true;
      stateVars.push(sv);
    }

    const nt = new NestedTypes('index', warnings);
    nt.gatherFromProperties(className, className, inprops, true);
    nt.gatherFromProperties(className, className, outprops, false);
    nt.gatherFromProperties(className, className, stateVars, true);
    members.push({ module: token.slice(0, token.lastIndexOf(':')), emit: () => emitTypes(nt) });

    // No `description`: the dynamic bridge takes resource descriptions from a docs repository only, and
    // a local provider has none.
    const spec: PulumiResourceSpec = {};
    const properties: Record<string, PulumiPropertySpec> = {};
    const required: string[] = [];
    for (const p of outprops) {
      if (p.name === 'id') continue;
      properties[p.name] = gen.property(p, 'index');
      if (!isOptional(p)) required.push(p.name);
    }
    spec.properties = sortKeys(properties);
    if (required.length > 0) spec.required = required;
    const inputProperties: Record<string, PulumiPropertySpec> = {};
    const requiredInputs: string[] = [];
    for (const p of inprops) {
      if (p.name === 'id') continue;
      inputProperties[p.name] = gen.property(p, 'index');
      // `!prop.optional() && !prop.schema.HasDefault()`: HasDefault is always false on the proto shim.
      if (!isOptional(p)) requiredInputs.push(p.name);
    }
    spec.inputProperties = sortKeys(inputProperties);
    if (requiredInputs.length > 0) spec.requiredInputs = requiredInputs;
    spec.stateInputs = gen.objectType(stateVars, 'index', {
      description: `Input properties used for looking up and filtering ${className} resources.`,
      topLevel: true,
    });
    // The bridge takes a resource's deprecation from its ResourceInfo only (generate_schema.go), which a
    // hand-written mapping fills; we fill it from the Terraform schema (see the header).
    if (schema.block.deprecated && options.includeDeprecations !== false) spec.deprecationMessage = 'Deprecated';
    resources[token] = spec;
  }

  // --- data sources (gatherDataSource)
  const functions: Record<string, PulumiFunctionSpec> = {};
  for (const tfType of Object.keys(desc.dataSources).sort()) {
    const schema = desc.dataSources[tfType]!;
    const token = tokens.dataSources.get(tfType)!;
    const name = tokenName(token);
    const ctx: ViewContext = { overrideRoot: `data.${tfType}`, overrides, objectFieldsOptional };
    const fields = blockFields(schema.block, '', ctx);
    const args: PVar[] = [];
    const rets: PVar[] = [];
    for (const key of [...fields.keys()].sort()) {
      const f = fields.get(key)!;
      // Top-level data source properties get their docs from the (absent) docs repository only.
      if (isInput(f)) args.push(propertyVariable(key, fields, undefined, false, 'none', true));
      rets.push(propertyVariable(key, fields, undefined, true, 'none', false));
    }
    // Before PR #3541 the bridge synthesized a computed string `id` output for a data source without
    // one; since then the proto shim (ResourceWithoutImplicitID) gets none.
    if (!latest && !fields.has('id')) {
      const idFields = new Map<string, FieldView>([
        ['id', { ...elementView({ kind: 'string' }, false, 'id', ctx), computed: true }],
      ]);
      const idVar = propertyVariable('id', idFields, undefined, true, 'none', false);
      idVar.rawdoc = 'The provider-assigned unique ID for this managed resource.';
      rets.push(idVar);
    }
    const nt = new NestedTypes('index', warnings);
    nt.gatherFromProperties(name, name, args, true);
    nt.gatherFromProperties(name, name, rets, false);
    members.push({ module: token.slice(0, token.lastIndexOf(':')), emit: () => emitTypes(nt) });

    const spec: PulumiFunctionSpec = {};
    if (args.length > 0)
      spec.inputs = gen.objectType(args, 'index', { description: `A collection of arguments for invoking ${name}.` });
    if (rets.length > 0)
      spec.outputs = gen.objectType(rets, 'index', { description: `A collection of values returned by ${name}.` });
    if (schema.block.deprecated && options.includeDeprecations !== false) spec.deprecationMessage = 'Deprecated';
    functions[token] = spec;
  }

  // Nested types are emitted module by module, in module-token order (moduleMap.values()).
  for (const m of [...members].sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0))) m.emit();

  // --- provider (gatherProvider + genPackageSpec)
  const providerInputs: PVar[] = [];
  for (const key of [...providerFields.keys()].sort()) {
    if (isInput(providerFields.get(key)!))
      providerInputs.push(propertyVariable(key, providerFields, undefined, false, 'raw', true));
  }
  {
    const nt = new NestedTypes('index', warnings);
    nt.gatherFromProperties('Provider', 'Provider', providerInputs, true);
    emitTypes(nt);
  }
  const provider: PulumiResourceSpec = {
    description: genDocComment(
      `The provider type for the ${pkg} package. By default, resources use package-wide configuration\n` +
        'settings, however an explicit `Provider` instance may be created and passed during resource\n' +
        'construction to achieve fine-grained programmatic control over provider settings. See the\n' +
        '[documentation](https://www.pulumi.com/docs/reference/programming-model/#providers) for more information.',
    ),
  };
  const providerInputProps: Record<string, PulumiPropertySpec> = {};
  const providerRequired: string[] = [];
  for (const p of providerInputs) {
    providerInputProps[p.name] = gen.property(p, 'index');
    if (!isOptional(p)) providerRequired.push(p.name);
  }
  if (providerInputs.length > 0) {
    // Inputs mirrored as outputs, without the input-only `default`.
    provider.properties = sortKeys(
      Object.fromEntries(
        Object.entries(providerInputProps).map(([k, v]) => {
          const { default: _d, ...rest } = v;
          return [k, rest];
        }),
      ),
    );
    if (providerRequired.length > 0) provider.required = providerRequired;
    provider.inputProperties = sortKeys(providerInputProps);
    if (providerRequired.length > 0) provider.requiredInputs = providerRequired;
  }
  const terraformConfigToken = `pulumi:providers:${pkg}/terraformConfig`;
  provider.methods = { terraformConfig: terraformConfigToken };
  functions[terraformConfigToken] = {
    description:
      'This function returns a Terraform config object with terraform-namecased keys,to be used with the Terraform ' +
      'Module Provider.',
    inputs: {
      properties: { __self__: { type: 'ref', $ref: '#/provider' } },
      type: terraformConfigToken,
      required: ['__self__'],
    },
    outputs: {
      properties: { result: { type: 'object', additionalProperties: { $ref: 'pulumi.json#/Any' } } },
      required: ['result'],
      type: 'object',
    },
  };

  const schema: PulumiPackageSchema = {
    name: pkg,
    // The dynamic bridge versions a package run from a local path 0.0.0 (it has no release).
    version: options.localProviderPath !== undefined ? '0.0.0' : desc.version,
    description: `A Pulumi provider dynamically bridged from ${pkg}.`,
    meta: { moduleFormat: '(.*)(?:/[^/]*)' },
    config,
    types: sortKeys(types),
    provider,
    resources: sortKeys(resources),
    functions: sortKeys(functions),
    // Last, where the bridge's SchemaPostProcessor puts it.
    ...(options.localProviderPath !== undefined
      ? { parameterization: localProviderParameterization(options.localProviderPath) }
      : {}),
  };
  return { schema, warnings };
}
