/**
 * A TLS client that reaches a server speaking plaintext (an emulator behind an https:// URL, a
 * plaintext gRPC port) fails its handshake: OpenSSL reads the server's first bytes (an HTTP answer,
 * an HTTP/2 frame) as a TLS record with a nonsensical version or length. That is a wrong
 * URL, not a passing failure, and nothing was sent: both clients report it at once, in one sentence
 * that names the server, instead of retrying and quoting OpenSSL.
 */

/** Node's codes for OpenSSL's verdicts on a first "record" that is not TLS (a TLS socket's errors carry them). */
const NOT_TLS_CODES: ReadonlySet<string> = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'ERR_SSL_UNKNOWN_PROTOCOL',
]);

/**
 * The same verdicts as OpenSSL words them: grpc-js keeps only the text of a failed connection's error,
 * and node:https reports a handshake that fails on its first write as EPROTO with this text.
 */
const NOT_TLS_REASONS = /\b(wrong version number|packet length too long|unknown protocol)\b/i;

/** Whether a failed connection was a TLS handshake with a server that does not speak TLS. */
export function isNotTlsAnswer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NOT_TLS_CODES.has(code)) return true;
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return NOT_TLS_REASONS.test(text);
}

/** The one sentence both clients give for it; `server` as the user configured it (URL or host:port). */
export const notTlsMessage = (server: string): string =>
  `the server at ${server} did not answer TLS, so it may be a plaintext endpoint: check the API URL (plain http:// ` +
  `is accepted for loopback hosts only)`;
