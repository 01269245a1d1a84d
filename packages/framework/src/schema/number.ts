/**
 * cty numbers (docs/protocol.md, "Arbitrary-precision decimals"): arbitrary-precision decimals. A
 * value that a float64 holds exactly is a JS `number`; anything else is a `Decimal` with canonical
 * text. Parsing is bounded so that hostile input ("1e999999999") can never make us build huge
 * strings or BigInts.
 */
import { Decimal, type CtyNumber } from './value.js';

/** Largest |exponent| accepted in number text; cty itself would accept more, but nothing real needs it. */
export const MAX_DECIMAL_EXPONENT = 10000;

/** A float64's exact decimal expansion has at most 767 significant digits; more can never be exact. */
const MAX_EXACT_FLOAT_DIGITS = 767;

const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A finite number split into sign, significant digits (no leading or trailing zeros; "" for zero)
 * and a power of ten: value = (negative ? -1 : 1) * digits * 10^exponent.
 */
interface DecimalParts {
  negative: boolean;
  digits: string;
  exponent: number;
}

/**
 * Parses decimal number text as cty does ("-1.5e3", "0.1", ".5", "18446744073709551616").
 * Returns a JS number exactly when the decimal value is exactly a float64, else a canonical Decimal.
 * Throws RangeError for anything that is not a finite decimal number or has an absurd exponent.
 */
export function parseNumber(text: string): CtyNumber {
  const parts = decimalPartsOf(text);
  if (parts.digits === '') return 0;
  const exact = exactFloatOf(parts);
  return exact !== undefined ? exact : new Decimal(plainText(parts));
}

/** Canonical plain decimal text: no exponent, no redundant zeros, '-' only for negative values. */
export function numberText(n: CtyNumber): string {
  if (n instanceof Decimal) return n.text;
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) {
    // Integers print exactly (2^64 is "18446744073709551616", not the shortest "…552000").
    return Math.abs(n) <= Number.MAX_SAFE_INTEGER ? String(n === 0 ? 0 : n) : BigInt(n).toString();
  }
  // Non-integers print as their shortest round-trip text, as cty compares numbers
  // (docs/protocol.md, "How numbers print").
  const s = String(n);
  return s.includes('e') ? plainText(decimalPartsOf(s)) : s;
}

/** Numbers are equal when their canonical texts are (cty's rawNumberEqual; -0 equals 0). */
export function numberEquals(a: CtyNumber, b: CtyNumber): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  return numberText(a) === numberText(b);
}

export function numberToJS(n: CtyNumber): number {
  return n instanceof Decimal ? Number(n.text) : n;
}

/** Orders numbers by value (set ordering, refinement bounds). ±Infinity sort at the ends. */
export function compareNumbers(a: CtyNumber, b: CtyNumber): -1 | 0 | 1 {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const aInf = infinitySign(a);
  const bInf = infinitySign(b);
  if (aInf !== 0 || bInf !== 0) return aInf === bInf ? 0 : aInf < bInf ? -1 : 1;
  return compareDecimalParts(decimalPartsOf(numberText(a)), decimalPartsOf(numberText(b)));
}

/** Exact conversion of an integer (msgpack int64/uint64) to a CtyNumber, never losing precision. */
export function numberFromBigInt(b: bigint): CtyNumber {
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  if (b <= max && b >= -max) return Number(b);
  const asFloat = Number(b);
  return BigInt(asFloat) === b ? asFloat : new Decimal(b.toString());
}

/**
 * When the number is an integer in int64 range, that integer as a BigInt; used by the msgpack encoder
 * (go-cty writes such numbers as msgpack ints).
 */
export function int64Of(n: CtyNumber): bigint | undefined {
  if (typeof n === 'number') {
    if (!Number.isInteger(n) || n < -(2 ** 63) || n >= 2 ** 63) return undefined;
    return BigInt(n);
  }
  if (!/^-?\d+$/.test(n.text) || n.text.length > 20) return undefined;
  const b = BigInt(n.text);
  return b >= -(1n << 63n) && b < 1n << 63n ? b : undefined;
}

// ---------------------------------------------------------------------------------------------
// Go's big.Float.String() (Text('g', 10)): the text go-cty puts into set hash bytes for numbers.
// ---------------------------------------------------------------------------------------------

const HASH_DIGITS = 10;

/**
 * The text go-cty writes for a number when hashing set elements (big.Float.String(), i.e. %g with 10
 * significant digits, computed from the exact binary value cty holds). Used only to order sets of
 * non-primitive elements the way Terraform does.
 */
export function numberSetHashText(n: CtyNumber): string {
  if (typeof n === 'number' && !Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (typeof n === 'number' && Number.isInteger(n) && Math.abs(n) < 1e10) return String(n === 0 ? 0 : n);
  const parts = typeof n === 'number' ? exactPartsOfFloat(n) : decimalPartsOf(n.text);
  const tieDirection = typeof n === 'number' ? 0 : tieDirectionAt512Bits(parts);
  const rounded = roundSignificant(parts.digits, HASH_DIGITS, tieDirection);
  return (
    (parts.negative && parts.digits !== '' ? '-' : '') +
    formatGoG(rounded.digits, parts.digits.length + parts.exponent + rounded.carry)
  );
}

/** Go's decimal-point position convention: value = 0.digits × 10^pointPos. Formats like big.Float 'g'. */
function formatGoG(digits: string, pointPos: number): string {
  if (digits === '') return '0';
  let eprec = HASH_DIGITS;
  if (eprec > digits.length && digits.length >= pointPos) eprec = digits.length;
  const exp = pointPos - 1;
  if (exp < -4 || exp >= eprec) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const absExp = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${absExp < 10 ? '0' : ''}${absExp}`;
  }
  if (pointPos <= 0) return `0.${'0'.repeat(-pointPos)}${digits}`;
  if (pointPos >= digits.length) return digits + '0'.repeat(pointPos - digits.length);
  return `${digits.slice(0, pointPos)}.${digits.slice(pointPos)}`;
}

/**
 * Rounds a digit string to `count` significant digits like Go's decimal.round: half-even on an exact
 * tie, where `tieDirection` (when non-zero) says on which side of the tie the true value lies.
 * `carry` is 1 when rounding up added a digit (999 → 1000).
 */
function roundSignificant(digits: string, count: number, tieDirection: number): { digits: string; carry: number } {
  if (digits.length <= count) return { digits, carry: 0 };
  const next = digits.charCodeAt(count) - 48;
  const exactTie = next === 5 && digits.length === count + 1;
  let up: boolean;
  if (exactTie && tieDirection !== 0) up = tieDirection > 0;
  else if (exactTie) up = (digits.charCodeAt(count - 1) - 48) % 2 === 1;
  else up = next >= 5;
  let kept = digits.slice(0, count);
  if (!up) return { digits: trimTrailingZeros(kept), carry: 0 };
  const incremented = (BigInt(kept) + 1n).toString();
  const carry = incremented.length > kept.length ? 1 : 0;
  kept = incremented;
  return { digits: trimTrailingZeros(kept), carry };
}

/**
 * cty parses decimal text into a 512-bit binary float (big.ParseFloat(s, 10, 512, ToNearestEven)). For
 * a decimal that is exactly halfway at 10 digits, the sign of (binary value − decimal value) decides
 * which way Go rounds it when hashing. Returns -1, 0 (exact) or 1.
 */
function tieDirectionAt512Bits(parts: DecimalParts): number {
  if (parts.digits.length !== HASH_DIGITS + 1 || !parts.digits.endsWith('5')) return 0;
  let num = BigInt(parts.digits);
  let den = 1n;
  if (parts.exponent >= 0) num *= 10n ** BigInt(parts.exponent);
  else den = 10n ** BigInt(-parts.exponent);
  let shift = 512 - (bitLength(num) - bitLength(den));
  for (;;) {
    const a = shift >= 0 ? num << BigInt(shift) : num;
    const b = shift >= 0 ? den : den << BigInt(-shift);
    const q = a / b;
    const bits = bitLength(q);
    if (bits > 512) shift--;
    else if (bits < 512) shift++;
    else {
      const r = a - q * b;
      if (r === 0n) return 0;
      // Magnitudes only: the caller rounds the digit string of |x|.
      const roundsUp = 2n * r > b || (2n * r === b && (q & 1n) === 1n);
      return roundsUp ? 1 : -1;
    }
  }
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** Exact decimal expansion of a finite float64 (every float64 is a finite decimal). */
function exactPartsOfFloat(n: number): DecimalParts {
  if (n === 0) return { negative: false, digits: '', exponent: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp2: number;
  if (biased === 0) exp2 = -1074;
  else {
    mantissa |= 1n << 52n;
    exp2 = biased - 1075;
  }
  let digits: string;
  let exponent = 0;
  if (exp2 >= 0) digits = (mantissa << BigInt(exp2)).toString();
  else {
    digits = (mantissa * 5n ** BigInt(-exp2)).toString();
    exponent = exp2;
  }
  return normalizeParts({ negative: n < 0, digits, exponent });
}

// ---------------------------------------------------------------------------------------------
// Decimal text handling.
// ---------------------------------------------------------------------------------------------

function decimalPartsOf(text: string): DecimalParts {
  const m = NUMBER_TEXT.exec(text);
  if (!m) throw new RangeError(`invalid number ${JSON.stringify(text.slice(0, 64))}`);
  const [, sign, intPart = '', fracPart = '', expPart] = m;
  if (intPart === '' && fracPart === '') throw new RangeError(`invalid number ${JSON.stringify(text.slice(0, 64))}`);
  const written = expPart === undefined ? 0 : boundedExponent(expPart);
  return normalizeParts({ negative: sign === '-', digits: intPart + fracPart, exponent: written - fracPart.length });
}

function boundedExponent(expText: string): number {
  const unsigned = expText.replace(/^[+-]/, '').replace(/^0+/, '');
  if (unsigned.length > 6 || Number(unsigned) > MAX_DECIMAL_EXPONENT) {
    throw new RangeError(`number exponent out of range (limit ±${MAX_DECIMAL_EXPONENT})`);
  }
  return expText.startsWith('-') ? -Number(unsigned) : Number(unsigned);
}

/** Strips leading and trailing zeros from the digits (adjusting the exponent); zero loses its sign. */
function normalizeParts(p: DecimalParts): DecimalParts {
  let start = 0;
  while (start < p.digits.length && p.digits.charCodeAt(start) === 48) start++;
  let end = p.digits.length;
  while (end > start && p.digits.charCodeAt(end - 1) === 48) end--;
  if (start === end) return { negative: false, digits: '', exponent: 0 };
  return { negative: p.negative, digits: p.digits.slice(start, end), exponent: p.exponent + (p.digits.length - end) };
}

function trimTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return digits.slice(0, end);
}

function plainText(p: DecimalParts): string {
  if (p.digits === '') return '0';
  const sign = p.negative ? '-' : '';
  if (p.exponent >= 0) return sign + p.digits + '0'.repeat(p.exponent);
  const point = p.digits.length + p.exponent;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${p.digits}`;
  return `${sign}${p.digits.slice(0, point)}.${p.digits.slice(point)}`;
}

/**
 * The float64 equal to the decimal, if there is one. digits·10^e is exactly binary iff, after dividing
 * out the 5s of 10^e, the remaining odd mantissa fits 53 bits and the binary exponent is in range.
 */
function exactFloatOf(p: DecimalParts): number | undefined {
  const { digits, exponent } = p;
  if (digits.length > MAX_EXACT_FLOAT_DIGITS) return undefined;
  const signed = `${(p.negative ? '-' : '') + digits}e${exponent}`;
  // Fast path: small integers are always exact.
  if (exponent >= 0 && digits.length + exponent <= 15) return Number(signed);
  let d = BigInt(digits);
  if (exponent >= 0) {
    // digits·10^e = (digits·5^e)·2^e: the odd part must fit 53 bits, the magnitude must be finite.
    if (exponent > 22) return undefined; // 5^23 > 2^53
    const odd = oddPart(d * 5n ** BigInt(exponent));
    if (bitLength(odd) > 53) return undefined;
  } else {
    const n = -exponent;
    if (n > 1074) return undefined;
    const fives = 5n ** BigInt(n);
    if (d % fives !== 0n) return undefined;
    d /= fives; // value = d / 2^n, d odd (digits has no trailing zero, so it is not even)
    if (bitLength(d) > 53) return undefined;
  }
  const f = Number(signed);
  return Number.isFinite(f) && f !== 0 ? f : undefined;
}

function oddPart(n: bigint): bigint {
  if (n === 0n) return 0n;
  while ((n & 1n) === 0n) n >>= 1n;
  return n;
}

function infinitySign(n: CtyNumber): number {
  return typeof n === 'number' && !Number.isFinite(n) ? (n > 0 ? 1 : -1) : 0;
}

function compareDecimalParts(a: DecimalParts, b: DecimalParts): -1 | 0 | 1 {
  const aSign = a.digits === '' ? 0 : a.negative ? -1 : 1;
  const bSign = b.digits === '' ? 0 : b.negative ? -1 : 1;
  if (aSign !== bSign) return aSign < bSign ? -1 : 1;
  if (aSign === 0) return 0;
  const magnitude = compareMagnitudes(a, b);
  return (aSign < 0 ? -magnitude : magnitude) as -1 | 0 | 1;
}

/** Compares |a| and |b| (both non-zero): first by decimal order of magnitude, then digit by digit. */
function compareMagnitudes(a: DecimalParts, b: DecimalParts): -1 | 0 | 1 {
  const aMag = a.digits.length + a.exponent;
  const bMag = b.digits.length + b.exponent;
  if (aMag !== bMag) return aMag < bMag ? -1 : 1;
  const len = Math.max(a.digits.length, b.digits.length);
  const ad = a.digits.padEnd(len, '0');
  const bd = b.digits.padEnd(len, '0');
  return ad < bd ? -1 : ad > bd ? 1 : 0;
}
