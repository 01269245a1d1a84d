/**
 * google.protobuf.Timestamp ↔ RFC 3339. Output is UTC with `Z`, with 3, 6 or 9 fractional digits
 * only when the nanos are not zero (the protobuf JSON form); input accepts any offset and up to 9
 * fractional digits.
 */
import { parseRfc3339 } from '../../schema/forms.js';

export interface ProtoTimestamp {
  readonly seconds: number;
  readonly nanos: number;
}

export function formatTimestamp(timestamp: ProtoTimestamp): string {
  const base = new Date(timestamp.seconds * 1000).toISOString().slice(0, 19);
  if (timestamp.nanos === 0) return `${base}Z`;
  const digits = String(timestamp.nanos).padStart(9, '0');
  const fraction = digits.endsWith('000000')
    ? digits.slice(0, 3)
    : digits.endsWith('000')
      ? digits.slice(0, 6)
      : digits;
  return `${base}.${fraction}Z`;
}

/** undefined when `text` is not an RFC 3339 date-time (with seconds and an offset): one rule for both providers. */
export const parseTimestamp = (text: string): ProtoTimestamp | undefined => parseRfc3339(text);

/** The timestamp of a JS time in milliseconds. */
export function timestampFromMillis(ms: number): ProtoTimestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: Math.round(ms - seconds * 1000) * 1_000_000 };
}
