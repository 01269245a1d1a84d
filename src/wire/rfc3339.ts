/**
 * RFC 3339 date-times, read strictly: one parser for every side that reads them (the value system's
 * timestamp form, both emulators, the vdb codec), so that none rolls 2099-02-30 into March.
 */

/** Seconds and nanoseconds since the epoch (google.protobuf.Timestamp). */
export interface Instant {
  readonly seconds: number;
  readonly nanos: number;
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the range RFC 3339 (and protobuf) can write. */
const MIN_SECONDS = -62_135_596_800;
const MAX_SECONDS = 253_402_300_799;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an RFC 3339 date-time names, or undefined when `text` is not one: a real calendar date
 * (no 13th month, no 30 February), hours 00–23 (no 24:00), minutes and seconds 00–59 (no leap
 * second, which the platforms refuse), an offset `Z` or ±hh:mm within a day.
 */
export function parseRfc3339(text: string): Instant | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, , sign, offsetHours, offsetMinutes] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  let offset = 0;
  if (sign) {
    const [oh, om] = [Number(offsetHours), Number(offsetMinutes)];
    if (oh > 23 || om > 59) return undefined;
    offset = (sign === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, 0);
  const seconds = utc.getTime() / 1000 - offset;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) return undefined;
  return { seconds, nanos: fraction ? Number(fraction.padEnd(9, '0')) : 0 };
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}
