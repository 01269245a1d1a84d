/**
 * A small JSON Schema (draft 2020-12) validator: the keywords Pulumi's package metaschema uses, and
 * no more. A schema that uses an assertion keyword this file does not implement is refused with an
 * error, so a newer metaschema cannot pass by being half-read. Keywords that only annotate (title,
 * description, default, format, contentEncoding, …) are ignored, as the specification has it for
 * `format` and `contentEncoding` and for unknown keywords.
 *
 * Implemented: boolean schemas, `$ref` to a JSON pointer inside the same document (`#/…`), `type`,
 * `enum`, `const`, `pattern`, `minLength`, `properties`, `additionalProperties`, `required`,
 * `propertyNames`, `items`, `minItems`, `allOf`, `anyOf`, `oneOf`.
 */

type Schema = boolean | { readonly [keyword: string]: unknown };

const NOT_IMPLEMENTED = [
  '$dynamicRef',
  '$recursiveRef',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'maxItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
];

export class JsonSchemaValidator {
  private readonly patterns = new Map<string, RegExp>();

  constructor(private readonly root: Schema) {}

  /** Every violation, one line each (`<instance pointer>: <problem>`); empty when the value is valid. */
  validate(value: unknown): string[] {
    const errors: string[] = [];
    this.check(this.root, value, '', errors);
    return errors;
  }

  private check(schema: Schema, value: unknown, at: string, errors: string[]): void {
    if (schema === true) return;
    if (schema === false) {
      errors.push(`${at || '/'}: not allowed here`);
      return;
    }
    for (const keyword of NOT_IMPLEMENTED) {
      if (keyword in schema) throw new Error(`json-schema: keyword "${keyword}" is not implemented (at ${at || '/'})`);
    }
    const where = at || '/';

    if (typeof schema.$ref === 'string') this.check(this.resolve(schema.$ref), value, at, errors);

    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      if (!types.some((t) => hasType(value, t))) {
        errors.push(`${where}: is ${typeOf(value)}, must be ${types.join(' or ')}`);
        return; // the other keywords would only repeat the type mismatch
      }
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) {
      errors.push(`${where}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
    }
    if ('const' in schema && !deepEqual(schema.const, value))
      errors.push(`${where}: must be ${JSON.stringify(schema.const)}`);

    if (typeof value === 'string') {
      if (typeof schema.pattern === 'string' && !this.regExp(schema.pattern).test(value)) {
        errors.push(`${where}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
      }
      if (typeof schema.minLength === 'number' && [...value].length < schema.minLength)
        errors.push(`${where}: shorter than ${schema.minLength}`);
    }

    if (isObject(value)) {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const [name, sub] of Object.entries(properties)) {
        if (name in value) this.check(sub, value[name], `${at}/${pointerEscape(name)}`, errors);
      }
      if (schema.additionalProperties !== undefined) {
        for (const name of Object.keys(value)) {
          if (name in properties) continue;
          if (schema.additionalProperties === false) errors.push(`${at}/${pointerEscape(name)}: property not allowed`);
          else this.check(schema.additionalProperties as Schema, value[name], `${at}/${pointerEscape(name)}`, errors);
        }
      }
      for (const name of (schema.required ?? []) as string[])
        if (!(name in value)) errors.push(`${where}: lacks required property "${name}"`);
      if (schema.propertyNames !== undefined) {
        for (const name of Object.keys(value))
          this.check(schema.propertyNames as Schema, name, `${at}/${pointerEscape(name)} (name)`, errors);
      }
    }

    if (Array.isArray(value)) {
      if (schema.items !== undefined)
        value.forEach((item, i) => this.check(schema.items as Schema, item, `${at}/${i}`, errors));
      if (typeof schema.minItems === 'number' && value.length < schema.minItems)
        errors.push(`${where}: fewer than ${schema.minItems} items`);
    }

    for (const sub of (schema.allOf ?? []) as Schema[]) this.check(sub, value, at, errors);
    if (Array.isArray(schema.anyOf)) {
      const failures = (schema.anyOf as Schema[]).map((sub) => this.failures(sub, value, at));
      if (!failures.some((f) => f.length === 0)) errors.push(`${where}: matches none of anyOf (${summary(failures)})`);
    }
    if (Array.isArray(schema.oneOf)) {
      const failures = (schema.oneOf as Schema[]).map((sub) => this.failures(sub, value, at));
      const matching = failures.filter((f) => f.length === 0).length;
      if (matching === 0) errors.push(`${where}: matches none of oneOf (${summary(failures)})`);
      else if (matching > 1) errors.push(`${where}: matches ${matching} branches of oneOf, must match exactly one`);
    }
  }

  private failures(schema: Schema, value: unknown, at: string): string[] {
    const errors: string[] = [];
    this.check(schema, value, at, errors);
    return errors;
  }

  /** A `$ref` inside this document: `#` or `#/json/pointer`. */
  private resolve(ref: string): Schema {
    if (!ref.startsWith('#'))
      throw new Error(`json-schema: only references inside the document are implemented, got ${ref}`);
    let node: unknown = this.root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const step = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      if (!isObject(node) || !(step in node)) throw new Error(`json-schema: unresolvable reference ${ref}`);
      node = node[step];
    }
    return node as Schema;
  }

  /** Patterns are ECMA-262 regular expressions (JSON Schema 2020-12, section 6.4), unanchored. */
  private regExp(pattern: string): RegExp {
    let re = this.patterns.get(pattern);
    if (!re) {
      re = new RegExp(pattern, 'u');
      this.patterns.set(pattern, re);
    }
    return re;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function hasType(v: unknown, type: string): boolean {
  const actual = typeOf(v);
  return actual === type || (type === 'number' && actual === 'integer');
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

function pointerEscape(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The first problem of each failed branch, so a message stays readable. */
function summary(failures: string[][]): string {
  return failures.map((f, i) => `${i}: ${f[0] ?? 'ok'}`).join('; ');
}
