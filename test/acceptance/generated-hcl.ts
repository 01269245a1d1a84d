/**
 * Reads the configuration Terraform writes with `-generate-config-out` (internal/genconfig's
 * output, formatted as `terraform fmt` does): resource blocks of `name = value` attributes and nested
 * blocks, each value kept as its text. And the rule provider-written configuration keeps, by kind of
 * value (packages/framework/src/engine/resources/generate-config.ts), checked over what Terraform wrote.
 */
import type { Fields } from '../../packages/framework/src/schema/define.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';

/** A block's attributes (each value's text) and nested blocks (by name, in order). */
export interface HclBody {
  readonly attributes: Map<string, string>;
  readonly blocks: Map<string, HclBody[]>;
}

export interface GeneratedResource {
  readonly type: string;
  readonly name: string;
  readonly body: HclBody;
}

/** The resource blocks of a generated file. */
export function generatedResources(text: string): GeneratedResource[] {
  const lines = text.split('\n');
  const out: GeneratedResource[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^resource "([^"]+)" "([^"]+)" \{$/.exec(lines[i]!);
    if (!head) continue;
    const [body, next] = bodyAt(lines, i + 1);
    out.push({ type: head[1]!, name: head[2]!, body });
    i = next;
  }
  return out;
}

/** The body that starts at `from`, to its closing brace; and the index of that brace. */
function bodyAt(lines: readonly string[], from: number): [HclBody, number] {
  const body: HclBody = { attributes: new Map(), blocks: new Map() };
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '}') return [body, i];
    const block = /^(\w+) \{$/.exec(line);
    if (block) {
      const [nested, end] = bodyAt(lines, i + 1);
      body.blocks.set(block[1]!, [...(body.blocks.get(block[1]!) ?? []), nested]);
      i = end;
      continue;
    }
    const attribute = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (!attribute) continue;
    // A value over several lines (a list, an object, jsonencode(...)) ends where its brackets close.
    let value = attribute[2]!;
    let depth = openBrackets(value);
    while (depth > 0 && i + 1 < lines.length) {
      value += `\n${lines[++i]}`;
      depth += openBrackets(lines[i]!);
    }
    body.attributes.set(attribute[1]!, value.replace(/\s+#.*$/, ''));
  }
  return [body, lines.length];
}

/** A value's text as JSON reads it, where it does. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text.replace(/,(\s*\])/g, '$1'));
  } catch {
    return undefined;
  }
}

function openBrackets(text: string): number {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && '[({'.includes(c)) depth++;
    else if (!quoted && '])}'.includes(c)) depth--;
  }
  return depth;
}

/**
 * Where provider-written configuration breaks its rule: an optional argument the platform computes
 * written with a value (the platform's choice; the account only where it is not the provider's), or
 * a text written in another spelling than its validator documents.
 */
export function ruleBreaches(
  def: ProviderDef<any, any>,
  resources: readonly GeneratedResource[],
  providerValues: Readonly<Record<string, string>>,
): string[] {
  const problems: string[] = [];
  for (const r of resources) {
    const resource = def.resources.find((x) => x.typeName === r.type);
    if (!resource) continue;
    const fromProvider = new Set(
      Object.entries(resource.identity?.attributes ?? {})
        .filter(([, a]) => a.providerDefault !== undefined)
        .map(([name, a]) => a.from ?? name),
    );
    check(resource.schema.fields, r.body, `${r.type}.${r.name}`, true);
    function check(fields: Fields, body: HclBody, at: string, top: boolean): void {
      for (const [name, text] of body.attributes) {
        const field = fields[name];
        if (field?.kind !== 'attr' || text === 'null') continue;
        const o = field.options;
        const platformChoice = o.optional && o.computed && o.default === undefined && o.twinOf === undefined;
        const providers = top && fromProvider.has(name) && jsonOf(text) !== providerValues[name];
        if (platformChoice && !providers) problems.push(`${at}.${name} = ${text}: the platform's choice, written`);
        // A text or a list of texts, as JSON reads them (a list over several lines, with its trailing comma, as not).
        const value = jsonOf(text);
        if (value === undefined) continue;
        for (const validator of o.validate ?? []) {
          const written = validator.written?.(value);
          if (written !== undefined && JSON.stringify(written) !== JSON.stringify(value))
            problems.push(`${at}.${name} = ${text}: not as documented (${JSON.stringify(written)})`);
        }
      }
      for (const [name, bodies] of body.blocks) {
        const field = fields[name];
        if (field?.kind === 'block') bodies.forEach((b, i) => check(field.fields, b, `${at}.${name}[${i}]`, false));
      }
    }
  }
  return problems;
}
