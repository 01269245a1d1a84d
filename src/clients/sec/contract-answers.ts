import { z } from 'zod';
import type { FieldSpec } from '../../wire/sec-contract/index.js';
import { flag } from './wire.js';

/**
 * What the client reads of a body the contract declares (src/wire/sec-contract), derived from its spec
 * so that a field the platform gains is declared once: in the contract. A read keeps the contract's
 * types and enums, not its bounds (a value the platform holds is read whatever it is). A field is
 * optional on reads when the contract says so, and when it is a secret (answered blank or not at all)
 * or a credential (a request may leave it out, and the same shape is sent).
 */
export type AnswerOf<S> = S extends { readonly kind: 'string'; readonly oneOf: readonly (infer E extends string)[] }
  ? E
  : S extends { readonly kind: 'string' }
    ? string
    : S extends { readonly kind: 'integer' }
      ? number
      : S extends { readonly kind: 'flag' | 'boolean' }
        ? boolean
        : S extends { readonly kind: 'array'; readonly items: infer I }
          ? AnswerOf<I>[]
          : S extends { readonly kind: 'object'; readonly fields: infer F }
            ? ObjectAnswer<F>
            : S extends { readonly kind: 'union'; readonly options: infer O extends readonly unknown[] }
              ? // A union known only as UnionSpec says nothing of its shapes (and would never end).
                readonly FieldSpec[] extends O
                ? unknown
                : AnswerOf<O[number]>
              : unknown;

type OptionalOnReads = { readonly optional: true } | { readonly secret: true } | { readonly credential: true };

/** An object's own fields: the index signature every ObjectSpec's `fields` has is left out. */
type ObjectAnswer<F> = {
  [K in keyof F as string extends K ? never : F[K] extends OptionalOnReads ? never : K]: AnswerOf<F[K]>;
} & {
  [K in keyof F as string extends K ? never : F[K] extends OptionalOnReads ? K : never]?: AnswerOf<F[K]>;
};

/**
 * How the client reads a field another way than its spec says, by its path in the body
 * (`channelProps.recipients`): a platform version that answers a list as one joined text, say. The
 * schema must still hand out the spec's type.
 */
export type ReadAs = Readonly<Record<string, z.ZodType>>;

/** The zod schema of what a read answers for `spec`; every `readAs` path must be one of its fields. */
export function answerSchema<S extends FieldSpec>(spec: S, readAs: ReadAs = {}): z.ZodType<AnswerOf<S>> {
  const unused = new Set(Object.keys(readAs));
  const schema = schemaOf(spec, '', readAs, unused);
  if (unused.size > 0) throw new Error(`readAs names no field of the spec: ${[...unused].join(', ')}`);
  return schema as z.ZodType<AnswerOf<S>>;
}

function schemaOf(spec: FieldSpec, path: string, readAs: ReadAs, unused: Set<string>): z.ZodType {
  const own = readAs[path];
  if (own) unused.delete(path);
  const schema = own ?? typeOf(spec, path, readAs, unused);
  return spec.optional || spec.secret || spec.credential ? schema.optional() : schema;
}

function typeOf(spec: FieldSpec, path: string, readAs: ReadAs, unused: Set<string>): z.ZodType {
  switch (spec.kind) {
    case 'string':
      return spec.oneOf ? z.enum(spec.oneOf as [string, ...string[]]) : z.string();
    case 'integer':
      return z.number().int();
    case 'flag':
      return flag;
    case 'boolean':
      return z.boolean();
    case 'array':
      return z.array(schemaOf(spec.items, `${path}[]`, readAs, unused));
    case 'union':
      return z.union(spec.options.map((option) => typeOf(option, path, readAs, unused)));
    case 'object':
      return z.object(
        Object.fromEntries(
          Object.entries(spec.fields).map(([key, field]) => [
            key,
            schemaOf(field, path ? `${path}.${key}` : key, readAs, unused),
          ]),
        ),
      );
  }
}
