/**
 * The emulator's side of sec's contract (src/wire/sec-contract): validation that answers 400 with the
 * platform's error shape, and what the platform does with a body beyond judging it (secrets masked on
 * reads and kept through updates, console-made fields kept).
 */
import {
  checkItemCount as contractCheckItemCount,
  checkLength as contractCheckLength,
  type FieldSpec,
  RuleViolation,
  validate as validateAgainstContract,
} from '../../wire/sec-contract/language.js';
import { HttpError } from './http-types.js';

export {
  DEFAULT_BODY_LIMITS,
  STRING_FORMATS,
  field,
  holds,
  isEmail,
  quote,
  quoteKey,
  type ArraySpec,
  type FieldSpec,
  type ObjectSpec,
  type StringFormat,
  type StringSpec,
} from '../../wire/sec-contract/language.js';

/** A 400 answer with the platform's error shape. */
export function invalid(message: string): HttpError {
  return new HttpError(400, message);
}

/** The contract's refusal as the platform answers it (a 400 naming the field and the rule). */
function answered<T>(judge: () => T): T {
  try {
    return judge();
  } catch (error) {
    if (error instanceof RuleViolation) throw invalid(error.message);
    throw error;
  }
}

/** `validate` of the contract, refusing with a 400 HttpError. */
export function validate(spec: FieldSpec, value: unknown, path: string, held?: unknown): void {
  answered(() => validateAgainstContract(spec, value, path, held));
}

/** Refuses a string longer than `max` characters (code points) with a 400, naming the field and the bound. */
export function checkLength(value: string, max: number, path: string): void {
  answered(() => contractCheckLength(value, max, path));
}

/** Refuses a list (or map) of more than `max` entries with a 400, naming the field and the bound. */
export function checkItemCount(items: readonly unknown[], max: number, path: string, what = 'items'): void {
  answered(() => contractCheckItemCount(items, max, path, what));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields of an update body that no spec names (accepted by `validate` because the object held
 * them: settings the platform's console makes, which its public API returns and takes back as they
 * are), at every depth the spec describes as objects; undefined when there are none. The platform
 * replaces an object with what an update sends, so these stay only when sent: add them to the
 * stored object with {@link withHeldFields}.
 */
export function heldFields(spec: FieldSpec, value: unknown): Record<string, unknown> | undefined {
  if (spec.kind !== 'object' || !isRecord(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const fieldSpec = spec.fields[key];
    const nested = fieldSpec ? heldFields(fieldSpec, item) : item;
    if (nested !== undefined && nested !== null) out[key] = nested;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The fields of a body that the spec names, as sent, at every depth the spec describes as objects: what
 * a store keeps of a create or update before it adds the server's fields, so that a field the contract
 * gains is kept with no line of its own (the fields no spec names are {@link heldFields}').
 */
export function declaredFields(spec: FieldSpec, value: unknown): Record<string, unknown> {
  if (spec.kind !== 'object' || !isRecord(value)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, fieldSpec] of Object.entries(spec.fields)) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
    const item = value[key];
    out[key] =
      fieldSpec.kind === 'object' && isRecord(item)
        ? declaredFields(fieldSpec, item)
        : Array.isArray(item)
          ? [...item]
          : item;
  }
  return out;
}

/**
 * `record` changed by an update that changes only what it sends: each field of `body` the spec names laid
 * over it at every depth the spec describes as objects, a null one removed (what the platform does with
 * a field cleared).
 */
export function withSentFields<T>(record: T, spec: FieldSpec, body: unknown): T {
  return laidOver(record, declaredFields(spec, body)) as T;
}

function laidOver(held: unknown, sent: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = isRecord(held) ? { ...held } : {};
  for (const [key, value] of Object.entries(sent)) {
    if (value === null) delete out[key];
    else out[key] = isRecord(value) && !Array.isArray(value) ? laidOver(out[key], value) : value;
  }
  return out;
}

/** `record` with `extra` (from {@link heldFields}) laid into it at the same places. */
export function withHeldFields<T>(record: T, extra: Record<string, unknown> | undefined): T {
  if (extra === undefined || !isRecord(record)) return record;
  const out: Record<string, unknown> = { ...record };
  for (const [key, item] of Object.entries(extra)) {
    out[key] = isRecord(out[key]) && isRecord(item) ? withHeldFields(out[key], item) : item;
  }
  return out as T;
}

/** A copy of `value` in which every secret string is blanked, as the platform does on reads. */
export function maskSecrets(spec: FieldSpec, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (spec.secret && typeof value === 'string') return '';
  if (spec.kind === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    // Keys are the client's: built as entries, so that any key (`__proto__` too) stays one.
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        Object.hasOwn(spec.fields, key) ? maskSecrets(spec.fields[key]!, item) : item,
      ]),
    );
  }
  if (spec.kind === 'array' && Array.isArray(value)) return value.map((item) => maskSecrets(spec.items, item));
  return value;
}

/**
 * An update body with every secret or credential it leaves out, or sends blank (the masked form reads return),
 * taken from the stored object: a client never has to know a secret to change other fields, as
 * on the platform.
 */
export function keepStoredSecrets(spec: FieldSpec, sent: unknown, stored: unknown): unknown {
  if (spec.secret || spec.credential)
    return (sent === undefined || sent === '') && typeof stored === 'string' ? stored : sent;
  if (
    spec.kind !== 'object' ||
    typeof sent !== 'object' ||
    sent === null ||
    Array.isArray(sent) ||
    typeof stored !== 'object' ||
    stored === null
  )
    return sent;
  const copy: Record<string, unknown> = { ...(sent as Record<string, unknown>) };
  for (const [key, fieldSpec] of Object.entries(spec.fields)) {
    const kept = keepStoredSecrets(fieldSpec, copy[key], (stored as Record<string, unknown>)[key]);
    if (kept !== undefined) copy[key] = kept;
  }
  return copy;
}
