/**
 * What one client may ask of an HTTP emulator (sec), in bytes, counts and time: every bound in one
 * place, with why (docs/decisions.md, "The emulators hold hostile clients"). Past a bound the client
 * gets the platform's error shape (`{ "message": ... }`) with the matching status, or its connection
 * is closed; either way the emulator holds nothing more for it. Node's own HTTP server enforces them
 * (./http-server.ts applies them); tests shorten the timeouts through the emulator's `limits` option.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

export interface HttpLimits {
  /** Request body bytes; a larger body is refused with 413. */
  readonly bodyBytes: number;
  /**
   * Bytes of an oversized body read and discarded before the 413, so that a client that sends its
   * whole body before reading (most do) sees the answer instead of a reset. Past it the 413 goes
   * out and the connection is closed: a client streaming without end costs no more.
   */
  readonly bodyDrainBytes: number;
  /** Bytes of the request line and headers together; more is refused with 431. */
  readonly headerBytes: number;
  /** Request headers; more are refused with 431. */
  readonly headerCount: number;
  /**
   * Nesting of arrays and objects in a JSON body; deeper is refused with 400. JSON.parse copes with
   * any depth, but every recursive walk after it (validation, the request log, JSON.stringify) would
   * overflow the stack on the half a million levels a 1 MiB body can hold.
   */
  readonly jsonDepth: number;
  /** Time from connecting (or the previous answer) to the end of the headers; then 408 and closed. */
  readonly headersTimeoutMs: number;
  /** Time to receive a whole request, body included; then 408 and closed. Answering takes what it takes. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long (sent to clients as `Keep-Alive: timeout`). */
  readonly keepAliveTimeoutMs: number;
  /** Connections at once; further ones are closed as soon as they are accepted. */
  readonly connections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  /** Chosen: the largest body the provider sends is a few KiB; the platform publishes no bound. */
  bodyBytes: 1024 * 1024,
  bodyDrainBytes: 8 * 1024 * 1024,
  /** Node's default (16 KiB), which the platform's front ends also allow; a client sends under 1 KiB. */
  headerBytes: 16 * 1024,
  /** Chosen: clients send about ten; Node would silently drop all past 2,000. */
  headerCount: 100,
  /** Chosen: the deepest body of the API nests five levels. */
  jsonDepth: 100,
  /** Chosen: on loopback headers take microseconds; 10 s leaves room for a paused CI machine. */
  headersTimeoutMs: 10_000,
  /** Chosen: a 1 MiB body takes milliseconds on loopback. */
  requestTimeoutMs: 30_000,
  /** Node's default. */
  keepAliveTimeoutMs: 5_000,
  /** Chosen: a provider opens at most 8; this is 32 providers at once against one emulator. */
  connections: 256,
};

/** The limits with `overrides` applied. */
export function httpLimits(overrides: Partial<HttpLimits> = {}): HttpLimits {
  return { ...DEFAULT_HTTP_LIMITS, ...overrides };
}

/** node:http's createServer options for these limits. */
export function serverOptions(limits: HttpLimits) {
  return {
    maxHeaderSize: limits.headerBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the two timeouts above every so often (30 s by default): a quarter of the shorter
    // one enforces each at most 25% late.
    connectionsCheckingInterval: Math.max(10, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4),
  };
}

/** The limits createServer takes no option for, and answers in the platform's shape to what Node refuses. */
export function applyLimits(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.connections;
  // One more than allowed, so that http-server.ts can tell "too many" from "exactly as many" where
  // Node drops the fields past the count (20) instead of refusing the request (22).
  server.maxHeadersCount = limits.headerCount + 1;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own handler does: answer if the socket can still take it, then close.
    if (socket.writable && error.code !== 'ECONNRESET') socket.write(clientErrorResponse(error, limits));
    socket.destroy();
  });
}

/** The answer to a request Node's parser refused or timed out: 431, 408, 413 or 400, as JSON. */
function clientErrorResponse(error: NodeJS.ErrnoException, limits: HttpLimits): string {
  const [status, reason, message] = clientErrorStatus(error, limits);
  const body = JSON.stringify({ message });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function clientErrorStatus(error: NodeJS.ErrnoException, limits: HttpLimits): [number, string, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', headersTooLarge(limits)];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        'Request Timeout',
        `request not received in time (headers within ${limits.headersTimeoutMs} ms, ` +
          `the whole request within ${limits.requestTimeoutMs} ms)`,
      ];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', 'chunk extensions too large'];
    default:
      return [400, 'Bad Request', `malformed HTTP request (${error.code ?? error.message})`];
  }
}

/**
 * The 431 message. Node 22's parser refuses too many fields with the error it gives too many bytes
 * (Node 20 drops the fields past the count, and http-server.ts counts them): one message says both.
 */
export function headersTooLarge(limits: HttpLimits): string {
  return `request headers exceed ${limits.headerBytes} bytes or ${limits.headerCount} fields`;
}

/** Whether a parsed JSON value nests deeper than `maxDepth` (walked without recursion). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return false;
}
