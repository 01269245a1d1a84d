// The sec client's keep-alive connection pool, over node:http and node:https. It replaced undici's
// Pool: undici parses HTTP with llhttp compiled to WebAssembly, which V8 compiles again, optimised,
// in every process that calls the API (~230 ms of CPU per configured provider process), besides
// loading undici itself (~40 ms); node's own HTTP client uses the same llhttp built into node.
// Measured: 200 GETs at 10 in flight cost a fresh process ~130 ms with this pool against ~290 ms
// with undici (README, "Benchmarks": refresh against a Go provider).
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { SecureContext } from 'node:tls';
import type { Socket } from 'node:net';

export interface PoolOptions {
  /** Connections at most, like the API's rate limits expect; further requests wait their turn. */
  readonly connections: number;
  /** An idle connection is closed after this long (sooner when the server says it closes sooner). */
  readonly keepAliveTimeoutMs: number;
  /** A connection not made within this long fails with PoolError CONNECT_TIMEOUT (nothing was sent). */
  readonly connectTimeoutMs: number;
  /** For https origins: the certificate authorities trusted (../trust.ts). */
  readonly secureContext?: SecureContext;
}

export interface PoolRequest {
  readonly path: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly signal: AbortSignal;
}

export interface PoolResponse {
  readonly statusCode: number;
  /** Names in lower case. */
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** Codes of the pool's own failures, beside node's (ECONNREFUSED, ECONNRESET, ...). */
export const POOL_ERROR_CODES = { connectTimeout: 'ERR_SEC_CONNECT_TIMEOUT', closed: 'ERR_SEC_POOL_CLOSED' } as const;

class PoolError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** What an aborted request fails with, as node's own `signal` option makes it. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

export class HttpPool {
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  private readonly target: RequestOptions;
  private closed = false;

  constructor(
    origin: string,
    private readonly options: PoolOptions,
  ) {
    const url = new URL(origin);
    const https = url.protocol === 'https:';
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.connections,
      maxFreeSockets: options.connections,
      timeout: options.keepAliveTimeoutMs,
      scheduling: 'lifo' as const,
    };
    // rejectUnauthorized is explicit so NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn it off.
    this.agent = https
      ? new HttpsAgent({
          ...agentOptions,
          rejectUnauthorized: true,
          ...(options.secureContext ? { secureContext: options.secureContext } : {}),
        })
      : new HttpAgent(agentOptions);
    this.send = https ? httpsRequest : httpRequest;
    this.target = {
      protocol: url.protocol,
      // A bracketed IPv6 literal is given to node without its brackets.
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || (https ? 443 : 80),
      agent: this.agent,
    };
  }

  request(request: PoolRequest): Promise<PoolResponse> {
    if (this.closed) return Promise.reject(new PoolError('the connection pool is closed', POOL_ERROR_CODES.closed));
    const { signal } = request;
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      // The request listens to the signal itself: node's `signal` option watches the whole stream's
      // life with end-of-stream listeners, a third of what the sec client spent on a request.
      const onAbort = (): void => {
        outgoing.destroy(abortError(signal));
      };
      const settle = (): void => signal.removeEventListener('abort', onAbort);
      const fail = (error: Error): void => {
        settle();
        reject(error);
      };
      const outgoing = this.send(
        { ...this.target, path: request.path, method: request.method, headers: request.headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          // A connection lost mid-body, or an abort, is an error here.
          response.on('error', fail);
          response.on('end', () => {
            settle();
            resolve({
              statusCode: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            });
          });
        },
      );
      signal.addEventListener('abort', onAbort, { once: true });
      outgoing.on('error', fail);
      outgoing.on('socket', (socket: Socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () =>
            outgoing.destroy(
              new PoolError(
                `no connection within ${this.options.connectTimeoutMs} ms`,
                POOL_ERROR_CODES.connectTimeout,
              ),
            ),
          this.options.connectTimeoutMs,
        );
        const made = () => clearTimeout(timer);
        // For TLS, made means handshaken: until then nothing was sent.
        socket.once(this.target.protocol === 'https:' ? 'secureConnect' : 'connect', made);
        socket.once('close', made);
      });
      outgoing.end(request.body ?? undefined);
    });
  }

  /** Closes every connection; requests made afterwards fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.agent.destroy();
  }
}
