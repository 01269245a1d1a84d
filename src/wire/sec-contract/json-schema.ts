/**
 * A request body's rules as JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), from sec's
 * contract, which the emulator validates with (language.ts): the same bounds, enums, formats, patterns,
 * required fields and item counts, so that a client or a tool can read what the emulator enforces.
 * What JSON Schema cannot say (a rule across fields, written as code) is said in words in `x-checks`.
 *
 * - A field that may be absent may be null too (`type: [..., "null"]`), as the emulator takes it.
 * - A text is at least one character unless it may be empty; where it may be empty and has a format,
 *   the format applies to a non-empty text only.
 * - A secret is `writeOnly` (reads answer it blank); a credential the platform keeps through an
 *   update that leaves it out is `x-credential`.
 * - The formats beyond JSON Schema's own (`https-url`, `json-data-url`, `pem-private-key`) are the
 *   emulator's, written once in language.ts; `email` and `url` are the emulator's reading of them.
 */
import { DEFAULT_BODY_LIMITS, type FieldSpec } from './language.js';

export type JsonSchema = { readonly [keyword: string]: unknown };

/** The JSON Schema of `spec`. */
export function jsonSchemaOf(spec: FieldSpec): JsonSchema {
  const own = ownSchema(spec);
  const annotated: Record<string, unknown> = { ...own };
  if (spec.secret) annotated.writeOnly = true;
  if (spec.credential) annotated['x-credential'] = true;
  if (!spec.optional) return annotated;
  if (Array.isArray(annotated.enum)) annotated.enum = [...annotated.enum, null];
  if (typeof annotated.type === 'string') return { ...annotated, type: [annotated.type, 'null'] };
  return { anyOf: [annotated, { type: 'null' }] };
}

function ownSchema(spec: FieldSpec): JsonSchema {
  switch (spec.kind) {
    case 'string': {
      const maxLength =
        spec.maxLength ??
        (spec.format === 'json-data-url' ? DEFAULT_BODY_LIMITS.documentCharacters : DEFAULT_BODY_LIMITS.characters);
      const base: Record<string, unknown> = { type: 'string', maxLength };
      if (!spec.allowEmpty) base.minLength = 1;
      if (spec.oneOf) base.enum = spec.allowEmpty ? [...spec.oneOf, ''] : [...spec.oneOf];
      if (spec.patternRule !== undefined) base['x-pattern-rule'] = spec.patternRule;
      // What a non-empty text must be: of a text that may be empty, only when it is not.
      const shape = {
        ...(spec.format ? { format: spec.format } : {}),
        ...(spec.pattern !== undefined ? { pattern: spec.pattern } : {}),
      };
      if (Object.keys(shape).length === 0) return base;
      if (!spec.allowEmpty) return { ...base, ...shape };
      return { ...base, anyOf: [{ const: '' }, shape] };
    }
    case 'integer':
      return {
        type: 'integer',
        ...(spec.min !== undefined ? { minimum: spec.min } : {}),
        ...(spec.max !== undefined ? { maximum: spec.max } : {}),
      };
    case 'flag':
      return { type: 'integer', enum: [0, 1] };
    case 'boolean':
      return { type: 'boolean' };
    case 'union':
      return { anyOf: spec.options.map(jsonSchemaOf), description: spec.rule };
    case 'array':
      return {
        type: 'array',
        items: jsonSchemaOf(spec.items),
        ...(spec.minItems !== undefined ? { minItems: spec.minItems } : {}),
        maxItems: spec.maxItems ?? DEFAULT_BODY_LIMITS.items,
      };
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(spec.fields).map(([name, field]) => [name, jsonSchemaOf(field)]),
      );
      const required = Object.entries(spec.fields)
        .filter(([, field]) => !field.optional)
        .map(([name]) => name);
      return {
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
        ...(spec.check ? { 'x-checks': spec.checkRule ?? 'a rule across these fields, in the emulator’s code' } : {}),
      };
    }
  }
}
