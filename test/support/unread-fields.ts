/**
 * The fields of an API answer that a zod schema does not declare: what zod strips without a word when
 * it parses the answer (an object schema keeps only its own keys). A field the platform returns and
 * the client does not read is how drift goes unseen: every read of it is "not set". Walks zod 4's
 * schema definitions (`_zod.def`) beside the value.
 */
import type { z } from 'zod';
import { fieldsLeftUnread, keyedRecordValue } from '../../src/clients/sec/wire.js';

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly valueType?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Paths (`data.channelProps.region`, `[].name`) of the keys in `value` that `schema` does not declare. */
export function unreadFields(schema: z.ZodType, value: unknown, path = ''): string[] {
  return [...new Set(walk(schema, value, path))].sort();
}

function walk(schema: z.ZodType, value: unknown, path: string): string[] {
  if (value === null || value === undefined) return [];
  // sec's map of any key: a transform to zod, a record here.
  const keyed = keyedRecordValue(schema);
  if (keyed)
    return isRecord(value) ? Object.entries(value).flatMap(([key, v]) => walk(keyed, v, `${path}.${key}`)) : [];
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isRecord(value)) return [];
      const catchall = def.catchall && defOf(def.catchall).type !== 'never' ? def.catchall : undefined;
      const leftOnPurpose = fieldsLeftUnread(schema);
      return Object.entries(value).flatMap(([key, field]) => {
        if (Object.hasOwn(leftOnPurpose, key)) return [];
        const at = path ? `${path}.${key}` : key;
        const declared = def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : catchall;
        return declared ? walk(declared, field, at) : [at];
      });
    }
    case 'array':
      return Array.isArray(value) ? value.flatMap((item) => walk(def.element!, item, `${path}[]`)) : [];
    case 'tuple':
      return Array.isArray(value)
        ? value.flatMap((item, i) => (def.items![i] ? walk(def.items![i], item, path) : []))
        : [];
    case 'record':
      return isRecord(value)
        ? Object.entries(value).flatMap(([key, v]) => walk(def.valueType!, v, `${path}.${key}`))
        : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType!, value, path);
    case 'pipe':
      return walk(def.in!, value, path);
    case 'lazy':
      return walk(def.getter!(), value, path);
    case 'union': {
      // The option that takes the value is the one that reads it.
      const taken = def.options!.find((option) => option.safeParse(value).success);
      return taken ? walk(taken, value, path) : [];
    }
    case 'intersection': {
      // A key either side reads is read.
      const right = new Set(walk(def.right!, value, path));
      return walk(def.left!, value, path).filter((field) => right.has(field));
    }
    default:
      return [];
  }
}
