/**
 * The platform's clock as its answers show it (HTTP's `Date` header, to the second), beside this
 * machine's: a window of when a killed request could have made an object is measured on the platform's
 * own clock, the one its objects' creation times are written in (engine/creates/create-records.ts),
 * never this runner's against it: a runner's clock is a little off, either way, and faketime or a
 * drifting VM moves it further. The API clients note each answer's date (`notePlatformDate`); a create's
 * record keeps the offset seen last before its request left.
 */

/** How far the platform's clock is ahead of this machine's (ms), as its latest dated answer showed. */
let offsetMs: number | undefined;

/**
 * An answer came, dated `date` (an HTTP date; none or unreadable says nothing) by the platform, at
 * `receivedAt` on this machine's clock. Its second began at `date`: the middle of it is the estimate.
 */
export function notePlatformDate(date: string | undefined | null, receivedAt: number = Date.now()): void {
  if (!date) return;
  const at = Date.parse(date);
  if (Number.isFinite(at)) offsetMs = at + 500 - receivedAt;
}

/** The platform's clock less this machine's (ms), as last seen; undefined when no answer was dated. */
export function platformOffsetMs(): number | undefined {
  return offsetMs;
}
