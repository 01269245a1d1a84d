// What the sec pool's connections share, with or without a proxy (./http-pool.ts, ./proxy-agent.ts):
// the pool's error codes (./retry.ts reads them), the connect timeout, and the Agent's settings.
import type { Duplex } from 'node:stream';

/** Codes of the pool's own failures, beside node's (ECONNREFUSED, ECONNRESET, ...). */
export const POOL_ERROR_CODES = {
  connectTimeout: 'ERR_SEC_CONNECT_TIMEOUT',
  closed: 'ERR_SEC_POOL_CLOSED',
  /** The answer was larger than maxResponseBytes. */
  tooLarge: 'ERR_SEC_ANSWER_TOO_LARGE',
  /** The answer was not HTTP/1.1 that this client reads (llhttp refused it, or an unknown transfer coding). */
  malformed: 'ERR_SEC_MALFORMED_ANSWER',
  /** The proxy would not open a tunnel to the API, for good (4xx): nothing was sent. */
  proxyRefused: 'ERR_SEC_PROXY_REFUSED',
  /** The proxy could not open a tunnel to the API now (5xx): nothing was sent. */
  proxyUnavailable: 'ERR_SEC_PROXY_UNAVAILABLE',
} as const;

export class PoolError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Fails a connection that is not made (for TLS, handshaken) within `ms`: until then nothing is sent. */
export function guardConnect(socket: Duplex, ms: number, madeOn: 'connect' | 'secureConnect'): void {
  const timer = setTimeout(() => {
    socket.destroy(new PoolError(`no connection within ${ms} ms`, POOL_ERROR_CODES.connectTimeout));
  }, ms);
  const made = (): void => clearTimeout(timer);
  socket.once(madeOn, made);
  socket.once('close', made);
}

export interface AgentSettings {
  readonly connections: number;
  readonly connectTimeoutMs: number;
}

/**
 * The Agent options every pool's agent has: the limits, keep-alive, LIFO reuse. No `timeout`: the pool
 * closes idle connections itself (./http-pool.ts).
 */
export const agentOptions = (settings: AgentSettings) => ({
  keepAlive: true,
  maxSockets: settings.connections,
  maxTotalSockets: settings.connections,
  maxFreeSockets: settings.connections,
  scheduling: 'lifo' as const,
});
