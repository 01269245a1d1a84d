/**
 * Go duration strings (`72h0m0s`, `1h30m`, `1.5s`, `250ms`), the text form vdb durations have in
 * Terraform state and in `@every` schedules (docs/api/vdb.md, "Value formats"). Parsing follows
 * Go's time.ParseDuration, formatting Go's Duration.String(), both exact (nanoseconds as bigint).
 * The platform is written in Go, so its API and the provider's state share this text: the client,
 * the resources and the emulator all use this one module.
 */
import { ownEntry } from './own-entry.js';

/** google.protobuf.Duration, exact: nanos 0–999 999 999 with the sign of seconds. */
export interface ProtoDuration {
  readonly seconds: number;
  readonly nanos: number;
}

const NANOS_PER_UNIT: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_INT64 = (1n << 63n) - 1n;
const NANOS_PER_SECOND = 1_000_000_000n;

export class GoDurationError extends Error {
  override readonly name = 'GoDurationError';
}

/** Nanoseconds, or GoDurationError (message like Go's: `invalid duration "1x"`). */
export function parseGoDuration(text: string): bigint {
  const fail = (why?: string): never => {
    throw new GoDurationError(`invalid duration ${JSON.stringify(text)}${why ? `: ${why}` : ''}`);
  };
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') fail();
  let total = 0n;
  while (rest !== '') {
    const match = /^(\d*)(?:\.(\d*))?([^\d.]+)/u.exec(rest);
    if (!match) fail();
    const [whole, intDigits = '', fracDigits, unitText = ''] = match!;
    if (intDigits === '' && (fracDigits ?? '') === '') fail();
    const unit = ownEntry(NANOS_PER_UNIT, unitText);
    if (unit === undefined) fail(unitText === '' ? 'missing unit' : `unknown unit ${JSON.stringify(unitText)}`);
    let value = BigInt(intDigits === '' ? '0' : intDigits) * unit!;
    if (fracDigits) value += (BigInt(fracDigits) * unit!) / 10n ** BigInt(fracDigits.length);
    total += value;
    if (total > MAX_INT64 + (negative ? 1n : 0n)) fail('overflow');
    rest = rest.slice(whole.length);
  }
  return negative ? -total : total;
}

/** Go's Duration.String(): `0s`, `1.5µs`, `250ms`, `1.5s`, `2m3s`, `72h0m0s`. */
export function formatGoDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  let u = nanos < 0n ? -nanos : nanos;
  if (u < NANOS_PER_SECOND) {
    if (u < 1_000n) return `${sign}${u}ns`;
    if (u < 1_000_000n) return `${sign}${withFraction(u, 3)}µs`;
    return `${sign}${withFraction(u, 6)}ms`;
  }
  const seconds = withFraction(u % 60_000_000_000n, 9);
  u /= 60_000_000_000n;
  if (u === 0n) return `${sign}${seconds}s`;
  const minutes = u % 60n;
  const hours = u / 60n;
  return hours === 0n ? `${sign}${minutes}m${seconds}s` : `${sign}${hours}h${minutes}m${seconds}s`;
}

/** `value / 10^digits` printed with the fraction's trailing zeros (and a bare point) left out. */
function withFraction(value: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const fraction = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${value / scale}${fraction === '' ? '' : `.${fraction}`}`;
}

export function durationToNanos(duration: ProtoDuration): bigint {
  return BigInt(duration.seconds) * NANOS_PER_SECOND + BigInt(duration.nanos);
}

export function nanosToDuration(nanos: bigint): ProtoDuration {
  // Truncation toward zero keeps seconds and nanos of the same sign, as protobuf requires.
  return { seconds: Number(nanos / NANOS_PER_SECOND), nanos: Number(nanos % NANOS_PER_SECOND) };
}

/** `72h` → { seconds: 259200, nanos: 0 }; GoDurationError when it does not parse. */
export function goDurationToProto(text: string): ProtoDuration {
  return nanosToDuration(parseGoDuration(text));
}

/** { seconds: 259200 } → `72h0m0s`. */
export function protoToGoDuration(duration: ProtoDuration): string {
  return formatGoDuration(durationToNanos(duration));
}
