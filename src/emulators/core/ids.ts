import { randomBytes } from 'node:crypto';

/** Upper-case hex of `bytes` random bytes. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex').toUpperCase();
}

/** A server-style identifier such as `ACME_3F2A…`: a prefix keeps ids of different accounts apart. */
export function prefixedId(prefix: string, bytes = 24): string {
  return `${prefix}_${randomHex(bytes)}`;
}

/** An opaque secret (tokens, keys): lower-case hex, unguessable. */
export function secretValue(bytes = 28): string {
  return randomBytes(bytes).toString('hex');
}
