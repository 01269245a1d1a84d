/**
 * When the platform says a listed object was made, for a create's lookup (`findCreated.madeAt`):
 * the time attributes the platforms fill are RFC 3339 text (vdb, sec) or epoch milliseconds (some
 * sec answers). Undefined when the attribute is empty or unreadable: the time is then unknown, never
 * guessed.
 */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d{10,16}$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

/** `findCreated.madeAt` from a top-level time attribute of the model. */
export function madeAtFrom<K extends string>(
  attribute: K,
): (found: { readonly [k in K]?: unknown }) => number | undefined {
  return (found) => timeOf(found[attribute]);
}
