/**
 * Fields of a body that the contract declares and the client's own types leave to the resource: a field
 * the platform gains is declared in the contract and wired by the resource (src/resources/sec/wired-fields.ts),
 * with no line in the client. Answers read every such field (typed as the contract says, absent or null
 * when not set); requests carry the resource's values at their paths; an update that replaces the object
 * whole clears the ones the resource leaves unset and keeps every other field it does not model, declared
 * or not.
 */
import { z } from 'zod';
import { contractField, type FieldSpec, hasContractField } from '../../wire/sec-contract/index.js';
import { answerSchema } from './contract-answers.js';
import { type Modelled, modelsAs } from './replace.js';
import { fieldsLeftUnread, leavesUnread } from './wire.js';

/** Values by their path in the body (`filters.maxFindings`); null: not set, so not sent and cleared on update. */
export type DeclaredValues = Readonly<Record<string, unknown>>;

/** What a create or update takes besides the client's own fields. */
export interface Declaring {
  /** The resource's wired fields (src/resources/sec/wired-fields.ts). */
  readonly declared?: DeclaredValues | undefined;
}

type Shape = Record<string, z.ZodType>;

/** Wrappers an answer's object may sit in; a transform (`pipe`) is looked through on its input side. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'pipe']);

type WrapperDef = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; defaultValue?: unknown };

const innerOf = (def: WrapperDef): z.ZodType | undefined => (def.type === 'pipe' ? def.in : def.innerType);

/** The object schema inside `WRAPPERS`; undefined when there is none. */
function objectIn(schema: z.ZodType): z.ZodObject | undefined {
  const def = schema._zod.def as WrapperDef;
  if (def.type === 'object') return schema as z.ZodObject;
  const inner = innerOf(def);
  return inner && WRAPPERS.has(def.type) ? objectIn(inner) : undefined;
}

/**
 * `schema` (an answer's object) reading, besides its own fields, every field of the contract's `body`
 * it lacks, at every depth where both are plain objects, as the contract types it. Its output type is
 * `schema`'s: the resource reads those fields by path.
 */
export function readingDeclared<S extends z.ZodObject>(schema: S, body: string): S {
  return withFields(schema, contractField(body)) as unknown as S;
}

function withFields(schema: z.ZodType, spec: FieldSpec): z.ZodType {
  const object = objectIn(schema);
  if (!object || spec.kind !== 'object') return schema;
  const shape: Shape = { ...(object.shape as Shape) };
  const unread = fieldsLeftUnread(object);
  for (const [key, fieldSpec] of Object.entries(spec.fields)) {
    // A field the client leaves unread on purpose stays unread (an update keeps it as held).
    if (Object.hasOwn(unread, key)) continue;
    if (!Object.hasOwn(shape, key)) shape[key] = answerSchema(fieldSpec).nullish();
    else if (objectIn(shape[key]!)) shape[key] = withFields(shape[key]!, fieldSpec);
  }
  const extended = z.object(shape);
  // What the resource does not wire it leaves as the platform holds it, as before.
  modelsAs(extended, object);
  if (Object.keys(unread).length > 0) leavesUnread(extended, unread);
  return rewrap(schema, extended);
}

/**
 * `wrapped` (an object inside the wrappers objectIn looks through) with its object replaced by `object`. A
 * transform that builds an object of its own drops what it does not name: such a field is mapped by hand.
 */
function rewrap(wrapped: z.ZodType, object: z.ZodType): z.ZodType {
  const def = wrapped._zod.def as WrapperDef;
  const inner = innerOf(def);
  if (def.type === 'object' || !inner) return object;
  const rewrapped = rewrap(inner, object);
  if (def.type === 'optional') return rewrapped.optional();
  if (def.type === 'nullable') return rewrapped.nullable();
  if (def.type === 'default') return rewrapped.default(def.defaultValue as never);
  if (def.type === 'pipe') return rewrapped.pipe(def.out as z.ZodType);
  return wrapped;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How a request takes the declared values. */
export interface Placing {
  /** Only the fields this body declares (`Queries:update`, `TeamMembers:org`); the others are not the request's. */
  readonly only?: string;
  /** An update that changes only what it sends: an unset value is sent as null, which clears it. */
  readonly unsetClears?: boolean;
}

/**
 * The placing of an update with a body of its own that changes only what it sends: a field that body
 * lacks is set by a create alone (its attribute replaces the object), an unset one is cleared.
 */
export const partialUpdate = (body: string): Placing => ({ only: body, unsetClears: true });

/** `body` with each declared value set at its path (objects on the way copied or made), an unset one left out. */
export function placeDeclared<T extends object>(
  body: T,
  declared: DeclaredValues | undefined,
  placing: Placing = {},
): T {
  if (declared === undefined) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [path, value] of Object.entries(declared)) {
    if (placing.only !== undefined && !hasContractField(`${placing.only}.${path}`)) continue;
    const keys = path.split('.');
    let at = out;
    for (const key of keys.slice(0, -1)) at = at[key] = isObject(at[key]) ? { ...at[key] } : {};
    const last = keys.at(-1)!;
    if (value !== null && value !== undefined) at[last] = value;
    else if (placing.unsetClears) at[last] = null;
    else delete at[last];
  }
  return out as T;
}

/** `modelled` with every declared path the request's own: a replacement sends it, or clears it when null. */
export function modelledWithDeclared(modelled: Modelled, declared: DeclaredValues | undefined): Modelled {
  let out = modelled;
  for (const path of Object.keys(declared ?? {})) out = withPath(out, path.split('.'));
  return out;
}

function withPath(modelled: Modelled, keys: readonly string[]): Modelled {
  if (keys.length === 0 || modelled.kind !== 'fields') return keys.length === 0 ? { kind: 'whole' } : modelled;
  const [key, ...rest] = keys as [string, ...string[]];
  const inner: Modelled = Object.hasOwn(modelled.fields, key) ? modelled.fields[key]! : { kind: 'fields', fields: {} };
  return { kind: 'fields', fields: { ...modelled.fields, [key]: withPath(inner, rest) } };
}
