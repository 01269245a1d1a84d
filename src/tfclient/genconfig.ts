/**
 * How Terraform 1.14 writes a resource configuration value as HCL, ported for the tests, so that they
 * write exactly what `terraform query -generate-config-out` and `terraform plan -generate-config-out`
 * write from a provider's GenerateResourceConfig answer. The sources (hashicorp/terraform v1.14.x,
 * hashicorp/hcl v2.24.0):
 * - internal/genconfig/generate_config.go GenerateResourceContents, writeConfigAttributesFromExisting,
 *   writeConfigBlocksFromExisting, writeConfigNestedBlockFromExisting: attributes first, then blocks,
 *   each in name order; a computed attribute whose value is null and every deprecated attribute left
 *   out; a sensitive attribute written `null # sensitive` whatever its value; a string holding a JSON
 *   object or array written as `jsonencode(<its value>)`; a block per element of a list or set block,
 *   none for a null one; `provider = <local name>` first when asked (the query's blocks);
 * - hclwrite/generate.go TokensForValue: literals, quoted strings with `${`/`%{` doubled and
 *   characters Go does not print as \u escapes, numbers in plain decimal, lists, sets (in cty's
 *   order) and tuples as `[a, b]`, maps and objects as `{ key = value }` one per line in key order,
 *   a key that is not an identifier quoted.
 * The text is what genconfig builds before its last step, hclwrite.Format, which changes spacing and
 * indentation only: `terraform fmt` applies the same formatter (the tests run it on the file).
 * Not ported, since these providers declare none: nested attribute types, map blocks.
 */
import {
  nestedBlockType,
  type SchemaBlock,
  type SchemaNestedBlock,
} from '../../packages/framework/src/schema/block.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import {
  parseJSONText,
  JSONNumberText,
  JSONObjectNode,
  type JSONNode,
} from '../../packages/framework/src/schema/json.js';
import { numberText, parseNumber } from '../../packages/framework/src/schema/number.js';
import { compareStringsBytewise, normalizeSet } from '../../packages/framework/src/schema/value-ops.js';
import { type Decimal, Unknown, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';

/** The body of `resource "<type>" "<name>" { … }` for a configuration value, as genconfig writes it. */
export function generateResourceContents(
  block: SchemaBlock,
  config: ObjectValue,
  options: { providerLocalName?: string } = {},
): string {
  const out: string[] = [];
  if (options.providerLocalName !== undefined) out.push(`  provider = ${options.providerLocalName}\n`);
  writeAttributes(out, block, config, 2);
  writeBlocks(out, block, config, 2);
  return out.join('');
}

/** genconfig's Resource.String, before formatting. */
export function resourceBlock(type: string, name: string, body: string): string {
  return `resource ${goQuoted(type)} ${goQuoted(name)} {\n${body}}`;
}

const byName = (names: Iterable<string>) => [...names].sort(compareStringsBytewise);

function writeAttributes(out: string[], block: SchemaBlock, value: ObjectValue, indent: number): void {
  for (const name of byName(Object.keys(block.attributes))) {
    const a = block.attributes[name]!;
    const v = value[name] ?? null;
    if (a.computed && v === null) continue;
    if (a.deprecated) continue;
    out.push(`${' '.repeat(indent)}${name} = `);
    if (a.sensitive) out.push('null # sensitive');
    else if (typeof v === 'string' && jsonDocument(v) !== undefined)
      out.push(`jsonencode(${jsonTokens(jsonDocument(v)!)})`);
    else out.push(tokensForValue(a.type, v));
    out.push('\n');
  }
}

function writeBlocks(out: string[], block: SchemaBlock, value: ObjectValue, indent: number): void {
  for (const name of byName(Object.keys(block.blockTypes))) {
    const nb: SchemaNestedBlock = block.blockTypes[name]!;
    const v = value[name] ?? null;
    if (v === null) continue;
    const elements: ObjectValue[] =
      nb.nesting === 'single' || nb.nesting === 'group'
        ? [v as ObjectValue]
        : nb.nesting === 'set'
          ? (normalizeSet(setElementType(nb), v as Value[]) as ObjectValue[])
          : nb.nesting === 'list'
            ? (v as ObjectValue[])
            : unsupported(`map block ${name}`);
    for (const e of elements) {
      out.push(`${' '.repeat(indent)}${name} {\n`);
      writeAttributes(out, nb.block, e, indent + 2);
      writeBlocks(out, nb.block, e, indent + 2);
      out.push('}\n');
    }
  }
}

/** The element type of a set block's value. */
function setElementType(nb: SchemaNestedBlock): CtyType {
  const type = nestedBlockType(nb);
  return type.kind === 'set' ? type.element : unsupported(`set block ${nb.typeName} of type ${type.kind}`);
}

function unsupported(what: string): never {
  throw new Error(`genconfig port: ${what} is not ported (no schema of these providers has one)`);
}

/**
 * genconfig's test for a string to write as `jsonencode(...)`: valid JSON (Go's json.Valid) that is
 * not a lone primitive. The parsed document, or undefined.
 */
function jsonDocument(text: string): JSONNode | undefined {
  let doc: JSONNode;
  try {
    doc = parseJSONText(text);
  } catch {
    return undefined;
  }
  return Array.isArray(doc) || doc instanceof JSONObjectNode ? doc : undefined;
}

/** TokensForValue of the value ctyjson.SimpleJSONValue reads from a JSON document. */
function jsonTokens(node: JSONNode): string {
  if (node === null) return 'null';
  if (typeof node === 'boolean') return String(node);
  // cty.StringVal normalizes to NFC.
  if (typeof node === 'string') return quotedString(node.normalize('NFC'));
  if (node instanceof JSONNumberText) return numberText(parseNumber(node.text));
  if (Array.isArray(node)) return `[${node.map(jsonTokens).join(', ')}]`;
  const members = new Map<string, JSONNode>();
  for (const [k, v] of node.members) {
    if (members.has(k)) unsupported(`a JSON object naming ${JSON.stringify(k)} twice (Terraform skips the attribute)`);
    members.set(k, v);
  }
  return objectTokens(byName(members.keys()).map((k) => [k, jsonTokens(members.get(k)!)]));
}

/** hclwrite.TokensForValue, as text. */
export function tokensForValue(type: CtyType, v: Value): string {
  if (v instanceof Unknown) throw new Error('cannot produce tokens for unknown value');
  if (v === null) return 'null';
  switch (type.kind) {
    case 'bool':
      return v ? 'true' : 'false';
    case 'number':
      return numberText(v as number | Decimal);
    case 'string':
      return quotedString(v as string);
    case 'list':
    case 'set': {
      const elements = type.kind === 'set' ? normalizeSet(type.element, v as Value[]) : (v as Value[]);
      return `[${elements.map((e) => tokensForValue(type.element, e)).join(', ')}]`;
    }
    case 'tuple':
      return `[${(v as Value[]).map((e, i) => tokensForValue(type.elements[i]!, e)).join(', ')}]`;
    case 'map': {
      const m = v as ObjectValue;
      return objectTokens(byName(Object.keys(m)).map((k) => [k, tokensForValue(type.element, m[k]!)]));
    }
    case 'object': {
      const o = v as ObjectValue;
      return objectTokens(
        byName(Object.keys(type.attributes)).map((k) => [k, tokensForValue(type.attributes[k]!, o[k] ?? null)]),
      );
    }
    default:
      throw new Error(`cannot produce tokens for a ${type.kind} value`);
  }
}

function objectTokens(pairs: readonly (readonly [string, string])[]): string {
  if (pairs.length === 0) return '{}';
  return `{\n${pairs.map(([k, v]) => `${validIdentifier(k) ? k : quotedString(k)} = ${v}\n`).join('')}}`;
}

/** hclsyntax.ValidIdentifier: (ID_Start | '_') (ID_Continue | '-')*. */
const validIdentifier = (s: string) => /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u.test(s);

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols, and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** A quoted string literal (hclwrite escapeQuotedStringLit). */
export function quotedString(s: string): string {
  let out = '"';
  const chars = [...s];
  chars.forEach((ch, i) => {
    const cp = ch.codePointAt(0)!;
    if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '$' || ch === '%') out += chars[i + 1] === '{' ? ch + ch : ch;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else if (!PRINTABLE.test(ch)) out += cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
    else out += ch;
  });
  return `${out}"`;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Go's %q of a resource type or name (identifiers: plain quotes). */
const goQuoted = (s: string) => JSON.stringify(s);
