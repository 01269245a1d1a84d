import { z } from 'zod';
import { setEntry } from '@keel/provider-framework/client';

/** The platform's integer booleans (0/1); true/false are tolerated. Decoded to boolean. */
export const flag = z
  .union([z.literal(0), z.literal(1), z.boolean()])
  .transform((value) => value === 1 || value === true);

export function toFlag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

/** A text the platform may leave out or send as null; read as empty, as the schemas hold it. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** A list of texts the platform may leave out or send as null; read as empty. */
export const optionalTexts = z
  .array(z.string())
  .nullish()
  .transform((value) => value ?? []);

/** `{"data": X}`, the envelope of every response except the token endpoint's. */
export function envelope<S extends z.ZodType>(data: S) {
  return z.object({ data });
}

/**
 * A JSON object read as a map from any key to `value`: zod's record with string keys, except
 * that every key is kept. zod's record leaves a `__proto__` key out of its result (it builds the
 * result by assignment, which would set the prototype instead); a map the platform answers with may
 * hold any key, and one dropped silently is data lost. Issues are reported at their key.
 */
export function keyedRecord<V extends z.ZodType>(value: V) {
  const schema = z.unknown().transform((input, ctx): Record<string, z.output<V>> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      ctx.issues.push({
        code: 'invalid_type',
        expected: 'record',
        input,
        message: 'Invalid input: expected an object',
      });
      return z.NEVER;
    }
    const out: Record<string, z.output<V>> = {};
    for (const [key, item] of Object.entries(input)) {
      const parsed = value.safeParse(item);
      if (parsed.success) setEntry(out, key, parsed.data);
      else
        for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: item, path: [key, ...issue.path] });
    }
    return out;
  });
  keyedRecordValues.set(schema, value);
  return schema;
}

/**
 * The value schema of each keyedRecord, for what reads schemas (replace.ts): a transform hides it
 * from zod's own definition.
 */
const keyedRecordValues = new WeakMap<z.ZodType, z.ZodType>();

/**
 * Declares the fields of an answer that the client leaves unread on purpose, each with why, and
 * returns the schema as it is (zod drops them when it parses; an update that replaces the object
 * whole keeps them, ./replace.ts). Any other field the platform returns must be in the schema: the
 * answer-reading test (test/clients/sec-answers-read.test.ts) fails on one that is not.
 */
export function leavesUnread<S extends z.ZodObject>(schema: S, fields: Readonly<Record<string, string>>): S {
  unreadOnPurpose.set(schema, fields);
  return schema;
}

const unreadOnPurpose = new WeakMap<z.ZodType, Readonly<Record<string, string>>>();

/** The fields `schema` leaves unread on purpose, with why (leavesUnread). */
export const fieldsLeftUnread = (schema: z.ZodType): Readonly<Record<string, string>> =>
  unreadOnPurpose.get(schema) ?? {};

/** The value schema of `schema` when it is a keyedRecord. */
export const keyedRecordValue = (schema: z.ZodType): z.ZodType | undefined => keyedRecordValues.get(schema);
