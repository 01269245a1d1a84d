/**
 * How a call's outcome goes out: gRPC's status codes, the error a method throws to answer with a
 * status, the response headers and trailers every call shares, and grpc-message's percent-encoding.
 */
import type { OutgoingHttpHeaders } from 'node:http2';

/** gRPC status codes used by the server. */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
} as const;

/** A failure a method reports as a gRPC status rather than a message. */
export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    /** Response metadata sent with the status (lower-case names). */
    readonly trailers?: Readonly<Record<string, string>>,
  ) {
    super(details);
  }
}

/**
 * Response headers of every call that answers, made once. No grpc-encoding: identity is the default;
 * no grpc-accept-encoding: a client that sends compressed messages is refused anyway; no date.
 */
export const RESPONSE_HEADERS: OutgoingHttpHeaders = { ':status': 200, 'content-type': 'application/grpc+proto' };
export const OK_TRAILERS: OutgoingHttpHeaders = { 'grpc-status': '0' };
export const UNSUPPORTED_MEDIA_TYPE: OutgoingHttpHeaders = { ':status': 415 };
export const WITH_TRAILERS = { waitForTrailers: true, sendDate: false } as const;
export const ONLY_HEADERS = { endStream: true, sendDate: false } as const;

/**
 * grpc-message is percent-encoded: bytes outside printable ASCII, and '%', as %XX of their UTF-8
 * (the gRPC protocol's rule; unlike encodeURI it accepts any string, lone surrogates included).
 */
export function percentEncode(text: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(text)) return text;
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
