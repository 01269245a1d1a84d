/**
 * The fields of a schema as the reference pages list them: one bullet per argument (required first,
 * then optional) and per read-only attribute, with its type, flags, sensitivity note, validators,
 * default and replacement, and a section for each nested block, nested attribute (its inner
 * attributes) and object-typed attribute after its parent's bullets. Also the phrases other parts of
 * the pages share: type names, defaults and validator sentences.
 */
import type {
  AttrOptions,
  BlockOptions,
  FieldDef,
  Fields,
  ResourceSchema,
} from '../../packages/framework/src/schema/define.js';
import type {
  SchemaAttribute,
  SchemaBlock,
  SchemaNestedBlock,
  SchemaObject,
} from '../../packages/framework/src/schema/block.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import type { Value } from '../../packages/framework/src/schema/value.js';
import {
  constraintSentence,
  formatDefault,
  statesDefault,
  typeName,
} from '../../packages/framework/src/release/page-phrases.js';
import { anchor, sentence } from './text.js';

export { constraintSentence, formatDefault, typeName };

interface Rendered {
  /** Bullets of the top level's arguments (required first, then optional). */
  arguments: string[];
  /** Bullets of the top level's read-only attributes. */
  attributes: string[];
  /** Sections of nested blocks and object-typed attributes, in document order. */
  nested: string[];
}

interface Context {
  what: 'resource' | 'data source' | 'ephemeral resource' | 'list resource' | 'action' | 'provider';
}

/** One field as the declaration and the wire schema together describe it. */
interface FieldDoc {
  name: string;
  path: string[];
  def: FieldDef;
  attribute?: SchemaAttribute;
  nested?: SchemaNestedBlock;
}

export function renderFieldsOf(schema: ResourceSchema<Fields>, ctx: Context): Rendered {
  const rendered: Rendered = { arguments: [], attributes: [], nested: [] };
  renderLevel(schema.fields, schema.block, [], ctx, rendered, true);
  return rendered;
}

function fieldsAt(fields: Fields, block: SchemaBlock, path: string[]): FieldDoc[] {
  return Object.keys(fields)
    .sort()
    .map((name) => {
      const def = fields[name]!;
      const base = { name, path: [...path, name], def };
      return def.kind === 'attr'
        ? { ...base, attribute: block.attributes[name]! }
        : { ...base, nested: block.blockTypes[name]! };
    });
}

/** An argument is anything the configuration may set; an `id` the platform assigns is not one. */
function isArgument(f: FieldDoc): boolean {
  if (f.def.kind === 'block') return true;
  const a = f.attribute!;
  return (a.required || a.optional) && (f.def.options as AttrOptions<unknown>).platformAssigned !== true;
}

function isRequired(f: FieldDoc): boolean {
  return f.def.kind === 'block' ? f.nested!.minItems > 0 : f.attribute!.required;
}

function renderLevel(
  fields: Fields,
  block: SchemaBlock,
  path: string[],
  ctx: Context,
  out: Rendered,
  top: boolean,
): { args: string[]; attrs: string[] } {
  const all = fieldsAt(fields, block, path);
  const args = [
    ...all.filter((f) => isArgument(f) && isRequired(f)),
    ...all.filter((f) => isArgument(f) && !isRequired(f)),
  ];
  const attrs = all.filter((f) => !isArgument(f));
  const argLines = args.map((f) => bullet(f, ctx));
  const attrLines = attrs.map((f) => bullet(f, ctx));
  if (top) {
    out.arguments.push(...argLines);
    out.attributes.push(...attrLines);
  }
  // Nested sections follow their parent's bullets, arguments' blocks first.
  for (const f of [...args, ...attrs]) {
    if (f.def.kind === 'block') renderBlockSection(f, ctx, out);
    else if (f.attribute!.nestedType) renderNestedAttributeSection(f, ctx, out);
    else if (objectTypeOf(f.attribute!.type)) renderObjectAttributeSection(f.path, f.attribute!.type, out);
  }
  return { args: argLines, attrs: attrLines };
}

function renderBlockSection(f: FieldDoc, ctx: Context, out: Rendered): void {
  const def = f.def as Extract<FieldDef, { kind: 'block' }>;
  const nb = f.nested!;
  const section: string[] = [`<a id="${anchor(f.path)}"></a>`, `### \`${f.path.join('.')}\` block`, ''];
  out.nested.push(...section);
  // Reserve the place of this section's body; deeper sections are appended after it.
  const body: string[] = [];
  const at = out.nested.length;
  const { args, attrs } = renderLevel(def.fields, nb.block, f.path, ctx, out, false);
  if (args.length > 0) body.push(`The \`${f.name}\` block supports:`, '', ...args, '');
  if (attrs.length > 0)
    body.push(args.length > 0 ? 'It also exports:' : `The \`${f.name}\` block exports:`, '', ...attrs, '');
  if (body.length === 0) body.push(`The \`${f.name}\` block has no fields.`, '');
  out.nested.splice(at, 0, ...body);
}

/** A nested attribute's section: its inner attributes, listed as a block's fields are. */
function renderNestedAttributeSection(f: FieldDoc, ctx: Context, out: Rendered): void {
  const nested = (f.def as Extract<FieldDef, { kind: 'attr' }>).nested!;
  const object = f.attribute!.nestedType!;
  const block: SchemaBlock = {
    attributes: object.attributes,
    blockTypes: {},
    description: '',
    descriptionKind: 'markdown',
    deprecated: false,
  };
  out.nested.push(`<a id="${anchor(f.path)}"></a>`, `### \`${f.path.join('.')}\` attribute`, '');
  const body: string[] = [];
  const at = out.nested.length;
  const { args, attrs } = renderLevel(nested.fields, block, f.path, ctx, out, false);
  const whose =
    object.nesting === 'single' ? `The \`${f.name}\` object` : `Each object of \`${f.name}\` (${nestedShape(object)})`;
  if (args.length > 0) body.push(`${whose} supports:`, '', ...args, '');
  if (attrs.length > 0) body.push(args.length > 0 ? 'It also exports:' : `${whose} exports:`, '', ...attrs, '');
  out.nested.splice(at, 0, ...body);
}

/** A nested attribute's shape, as the registry's pages name it: "Attributes", "Attributes List", ... */
function nestedShape(object: SchemaObject): string {
  const kinds = { single: '', list: ' List', set: ' Set', map: ' Map' } as const;
  return `Attributes${kinds[object.nesting]}`;
}

function renderObjectAttributeSection(path: string[], type: CtyType, out: Rendered): void {
  const obj = objectTypeOf(type)!;
  const optional = new Set(obj.optional ?? []);
  const lines: string[] = [`<a id="${anchor(path)}"></a>`, `### \`${path.join('.')}\` elements`, ''];
  lines.push(`Each element of \`${path[path.length - 1]}\` has:`, '');
  const names = Object.keys(obj.attributes).sort();
  for (const name of names) {
    const t = obj.attributes[name]!;
    const link = objectTypeOf(t) ? ` See [\`${[...path, name].join('.')}\`](#${anchor([...path, name])}) below.` : '';
    lines.push(`* \`${name}\` (${typeName(t)}${optional.has(name) ? ', optional' : ''}).${link}`);
  }
  lines.push('');
  out.nested.push(...lines);
  for (const name of names) {
    const t = obj.attributes[name]!;
    if (objectTypeOf(t)) renderObjectAttributeSection([...path, name], t, out);
  }
}

function bullet(f: FieldDoc, ctx: Context): string {
  return f.def.kind === 'block' ? blockBullet(f, ctx) : attributeBullet(f, ctx);
}

/** Where a sensitive value ends up, which depends on what holds it. */
function sensitivityNote(a: SchemaAttribute, o: AttrOptions<unknown>, ctx: Context): string {
  const hidden = 'This value is sensitive: Terraform does not show it in plan output';
  if (a.writeOnly) {
    const writeOnly = 'as it is write-only (Terraform 1.11 and later) it is not stored in the plan or the state either';
    return `${hidden}, and ${writeOnly}.`;
  }
  if (ctx.what === 'provider') return `${hidden}; provider settings are not stored in the state.`;
  if (ctx.what === 'ephemeral resource')
    return `${hidden}; an ephemeral resource's values are not stored in the plan or the state.`;
  if (ctx.what === 'action') return `${hidden}; it is stored in the plan, and an action keeps no state.`;
  // Whatever a resource or data source stores, a configuration can output.
  if (o.writeOnlyTwin) {
    return `${hidden}, but it is stored in the state: set \`${a.name}_wo\` instead to keep it out. ${SENSITIVE_OUTPUT}`;
  }
  return `${hidden}, but it is stored in the state. ${SENSITIVE_OUTPUT}`;
}

/** Said of every sensitive value a configuration can output (Terraform's "Output refers to sensitive values"). */
export const SENSITIVE_OUTPUT =
  'An `output` that shows it must set `sensitive = true`; Terraform refuses it otherwise.';

function attributeBullet(f: FieldDoc, ctx: Context): string {
  const a = f.attribute!;
  const o = f.def.options as AttrOptions<unknown>;
  const argument = isArgument(f);
  const tags: string[] = [];
  if (argument) tags.push(a.required ? 'Required' : 'Optional');
  tags.push(a.nestedType ? nestedShape(a.nestedType) : typeName(a.type));
  if (a.sensitive) tags.push('Sensitive');
  if (a.writeOnly) tags.push('Write-only');
  if (a.deprecated) tags.push('Deprecated');
  const sentences: string[] = [sentence(a.description)];
  if (a.sensitive) sentences.push(sensitivityNote(a, o, ctx));
  for (const v of o.validate ?? []) sentences.push(constraintSentence(v.description));
  // A description that already states the default ("Default `true`.") is not repeated.
  if (o.default !== undefined) {
    if (!statesDefault(a.description, formatDefault(o.default as Value)))
      sentences.push(`Defaults to \`${formatDefault(o.default as Value)}\`.`);
  } else if (argument && a.optional && a.computed) sentences.push('Computed when not set.');
  if (o.replace && ctx.what === 'resource') sentences.push('Changing this forces a new resource.');
  if (o.readAs) sentences.push(readAsNote(o.readAs.field));
  if (objectTypeOf(a.type)) sentences.push(`See [\`${f.path.join('.')}\`](#${anchor(f.path)}) below.`);
  return `* \`${f.name}\` - (${tags.join(', ')}) ${sentences.filter((s) => s !== '').join(' ')}`;
}

function blockBullet(f: FieldDoc, ctx: Context): string {
  const nb = f.nested!;
  const o = f.def.options as BlockOptions;
  const tags: string[] = [nb.minItems > 0 ? 'Required' : 'Optional', blockShape(nb)];
  if (o.deprecated !== undefined) tags.push('Deprecated');
  // The schema's description: what Terraform and the bridge show (a set's says order does not matter).
  const sentences = [sentence(nb.block.description)];
  // Only a managed resource is replaced; other kinds share blocks with resources but have no objects to replace.
  if (o.replace && ctx.what === 'resource') sentences.push('Changing this forces a new resource.');
  if (o.readAs) sentences.push(readAsNote(o.readAs.field));
  sentences.push(`See [\`${f.path.join('.')}\`](#${anchor(f.path)}) below.`);
  return `* \`${f.name}\` - (${tags.join(', ')}) ${sentences.filter((s) => s !== '').join(' ')}`;
}

/** Where a read puts what the platform holds in a deprecated form (`readAs`). */
function readAsNote(field: string): string {
  const where = 'A read keeps values in this form only where the state has them so';
  return `${where}; an import reads them into \`${field}\`, which says the same.`;
}

/** "Block, exactly one", "Block list, at least 1, at most 20", "Block set". */
function blockShape(nb: SchemaNestedBlock): string {
  if (nb.maxItems === 1) return nb.minItems >= 1 ? 'Block, exactly one' : 'Block, at most one';
  const kind =
    nb.nesting === 'set'
      ? 'Block set'
      : nb.nesting === 'map'
        ? 'Block map'
        : nb.nesting === 'list'
          ? 'Block list'
          : 'Block';
  const limits: string[] = [];
  if (nb.minItems > 0) limits.push(`at least ${nb.minItems}`);
  if (nb.maxItems > 0) limits.push(`at most ${nb.maxItems}`);
  return [kind, ...limits].join(', ');
}

function objectTypeOf(t: CtyType): Extract<CtyType, { kind: 'object' }> | undefined {
  if (t.kind === 'object') return t;
  if (t.kind === 'list' || t.kind === 'set' || t.kind === 'map') return objectTypeOf(t.element);
  return undefined;
}
