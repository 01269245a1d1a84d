/**
 * What the catalogue checks of both providers share (engine/catalogue/catalogue-checks.ts): how a listing is
 * looked up (read again before a value is called missing) and how offered values are named.
 */
import type { CatalogueContext } from '@keel/provider-framework';

/** At most this many offered values are named in a message; the rest are counted. */
const NAMED = 12;

/** `a`, `b` and 3 more. */
export function named(values: readonly string[]): string {
  const shown = values.slice(0, NAMED).map((v) => `\`${v}\``);
  const more = values.length - shown.length;
  if (shown.length === 0) return 'none';
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/**
 * The listing `key` and the item `wanted` picks from it: read again before saying there is none, since
 * what is named may be newer than the kept listing (an object made earlier in the same apply).
 */
export async function lookUp<T, C>(
  ctx: CatalogueContext<C>,
  key: string,
  read: (signal: AbortSignal) => Promise<readonly T[]>,
  wanted: (item: T) => boolean,
): Promise<{ found: T | undefined; listed: readonly T[] }> {
  let listed = await ctx.listing(key, read);
  let found = listed.find(wanted);
  if (!found) {
    listed = await ctx.listing(key, read, { fresh: true });
    found = listed.find(wanted);
  }
  return { found, listed };
}
