/**
 * google.protobuf.Timestamp ↔ RFC 3339. Output is UTC with `Z`, with 3, 6 or 9 fractional digits
 * only when the nanos are not zero (the protobuf JSON form); input accepts any offset and up to 9
 * fractional digits.
 */
export interface ProtoTimestamp {
  readonly seconds: number;
  readonly nanos: number;
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, protobuf's valid range. */
const MIN_SECONDS = -62_135_596_800;
const MAX_SECONDS = 253_402_300_799;

export function formatTimestamp(timestamp: ProtoTimestamp): string {
  const base = new Date(timestamp.seconds * 1000).toISOString().slice(0, 19);
  if (timestamp.nanos === 0) return `${base}Z`;
  const digits = String(timestamp.nanos).padStart(9, '0');
  const fraction = digits.endsWith('000000') ? digits.slice(0, 3) : digits.endsWith('000') ? digits.slice(0, 6) : digits;
  return `${base}.${fraction}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** undefined when `text` is not an RFC 3339 date-time (with seconds and an offset). */
export function parseTimestamp(text: string): ProtoTimestamp | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, , sign, offsetHours, offsetMinutes] = match;
  const parts = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const [y, mo, d, h, mi, s] = parts;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  let offset = 0;
  if (sign) {
    const oh = Number(offsetHours);
    const om = Number(offsetMinutes);
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
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() + (month === 2 && !isLeap(year) ? -1 : 0);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The timestamp of a JS time in milliseconds. */
export function timestampFromMillis(ms: number): ProtoTimestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: Math.round(ms - seconds * 1000) * 1_000_000 };
}
