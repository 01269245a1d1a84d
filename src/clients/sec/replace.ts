/**
 * Updates of objects the platform replaces whole
 * (docs/api/sec.md, "Updates replace the whole object": a PATCH carries the whole object, and what
 * it leaves out is gone). The platform may hold more than this provider models: settings its
 * console makes, fields of a newer version (a data export rule's `filters.profileVersions`). An
 * update must never erase them, so it reads the object, lays the request over it and writes it
 * back: every field the client's answer schema names is the request's (left out, it is cleared),
 * every other field stays as read. Objects are merged at every depth the schema names; a list is
 * the request's.
 */
import { z } from 'zod';
import { setEntry } from '@keel/provider-framework/client';
import type { ApiCall, CallOptions, SecHttp } from './http.js';
import { keyedRecord, keyedRecordValue } from './wire.js';

/**
 * What the provider models of an object: the fields of an object schema, each with what it models
 * of its value; `values` for a map whose every key is the provider's; `whole` for a value it owns
 * whole (a text, a list, anything it does not look into).
 */
export type Modelled =
  | { readonly kind: 'whole' }
  | { readonly kind: 'fields'; readonly fields: Readonly<Record<string, Modelled>> }
  | { readonly kind: 'values'; readonly values: Modelled };

const WHOLE: Modelled = { kind: 'whole' };

/** Schema wrappers whose inner schema describes the wire value. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Schemas that read more than the client models (./declared.ts), each with the schema it models as. */
const modelledAsSchema = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` models what `original` does: an update keeps the other fields it reads as they are held. */
export function modelsAs(schema: z.ZodType, original: z.ZodType): void {
  modelledAsSchema.set(schema, original);
}

/** What an answer schema models of the object it reads: its fields at every depth (the wire side of transforms). */
export function modelledBy(schema: z.ZodType): Modelled {
  const original = modelledAsSchema.get(schema);
  if (original) return modelledBy(original);
  const mapValue = keyedRecordValue(schema);
  if (mapValue) return { kind: 'values', values: modelledBy(mapValue) };
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  if (WRAPPERS.has(def.type) || def.type === 'pipe') {
    const inner = def.type === 'pipe' ? def.in : def.innerType;
    return inner === undefined ? WHOLE : modelledBy(inner);
  }
  if (def.type === 'object') {
    const shape = (def as unknown as { shape: Record<string, z.ZodType> }).shape;
    return { kind: 'fields', fields: Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, modelledBy(v)])) };
  }
  if (def.type === 'record')
    return { kind: 'values', values: modelledBy((def as unknown as { valueType: z.ZodType }).valueType) };
  return WHOLE;
}

/** `modelled` with the field at `name` modelled as `field` instead (the `data` of an integration of one type). */
export function withField(modelled: Modelled, name: string, field: Modelled): Modelled {
  if (modelled.kind !== 'fields') return modelled;
  return { kind: 'fields', fields: { ...modelled.fields, [name]: field } };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The object to write: `sent` (what the provider says of the object) laid over `held` (the object as
 * read), keeping every field of `held` that `modelled` does not name.
 */
export function overlay(held: unknown, sent: unknown, modelled: Modelled): unknown {
  if (modelled.kind === 'whole' || !isObject(held) || !isObject(sent)) return sent;
  // Keys are the platform's data: any name (`__proto__`, `toString`) is an entry, never a member.
  const out: Record<string, unknown> = {};
  const inner = (key: string): Modelled | undefined =>
    modelled.kind === 'values'
      ? modelled.values
      : Object.hasOwn(modelled.fields, key)
        ? modelled.fields[key]
        : undefined;
  for (const [key, value] of Object.entries(held)) if (inner(key) === undefined) setEntry(out, key, value);
  for (const [key, value] of Object.entries(sent)) {
    const m = inner(key);
    setEntry(out, key, m !== undefined && Object.hasOwn(held, key) ? overlay(held[key], value, m) : value);
  }
  return out;
}

const anyObject = z.object({ data: keyedRecord(z.unknown()) });

/**
 * `call` (a PATCH or PUT whose body is the whole object) sent after reading the object at the same
 * path, its body laid over what was read (see `overlay`); the answer is checked with `schema`.
 */
export async function replaceKeeping<S extends z.ZodType>(
  http: SecHttp,
  call: ApiCall & { readonly body: object },
  modelled: Modelled,
  schema: S,
  options: CallOptions = {},
): Promise<z.output<S>> {
  const read = { method: 'GET', path: call.path, operation: call.operation.replace(/^\w+/, 'GET') } as const;
  const held = (await http.json(read, anyObject, options)).data;
  return http.json({ ...call, body: overlay(held, call.body, modelled) }, schema, options);
}
