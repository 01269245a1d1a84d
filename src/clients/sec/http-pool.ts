// The sec client's keep-alive connection pool: at most `connections` sockets (node:net, or node:tls
// for https origins), reused last-in first-out, one request at a time on each, in HTTP/1.1 of our
// own (./http1.ts). It replaced undici's Pool, whose WebAssembly parser V8 compiled again in every
// process (~230 ms of CPU per configured provider process), and then node:http's client, whose
// stream objects cost ~250 µs of CPU per request on top of the socket's own (README, "Benchmarks":
// refresh against a Go provider). An idle connection is closed a second before the server's own
// Keep-Alive timeout, so that a request is not sent on a connection the server is closing.
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls, type SecureContext } from 'node:tls';
import { type ParsedResponse, ResponseParser, serializeRequest } from './http1.js';
import type { SignalLike } from '../cancellation.js';

export interface PoolOptions {
  /** Connections at most, like the API's rate limits expect; further requests wait their turn. */
  readonly connections: number;
  /** An idle connection is closed after this long (sooner when the server says it closes sooner). */
  readonly keepAliveTimeoutMs: number;
  /** A connection not made within this long fails with PoolError CONNECT_TIMEOUT (nothing was sent). */
  readonly connectTimeoutMs: number;
  /**
   * For https origins: the certificate authorities trusted (../trust.ts), asked for at the first
   * connection. Parsing the roots costs 25–55 ms of CPU, which the processes Terraform starts that
   * never call the API (a plan of creates, a destroy's plan) are spared.
   */
  readonly secureContext?: () => SecureContext;
}

export interface PoolRequest {
  readonly path: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly signal: SignalLike;
}

export interface PoolResponse {
  readonly statusCode: number;
  /** Names in lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
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
function abortError(signal: SignalLike): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

/** A connection closed before its answer was whole, as node's own client reports it (retry.ts). */
const hangUp = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

const poolResponse = (parsed: ParsedResponse): PoolResponse => ({
  statusCode: parsed.statusCode,
  headers: parsed.headers,
  text: parsed.body.toString(),
});

/** Milliseconds an idle connection is kept short of the server's Keep-Alive timeout. */
const KEEP_ALIVE_MARGIN_MS = 1000;

/** A connection of the pool: its socket, and the exchange it carries, if any. */
interface Connection {
  readonly socket: Socket;
  /** Called with the socket's bytes, its end, or its error while an exchange is on it. */
  exchange: { data(chunk: Buffer): void; gone(error: Error | undefined): void } | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  dead: boolean;
}

export class HttpPool {
  private readonly https: boolean;
  private readonly host: string;
  private readonly port: number;
  /** The Host header: the name, with the port when it is not the scheme's own. */
  private readonly hostHeader: string;
  private readonly idle: Connection[] = [];
  private open = 0;
  private readonly waiting: Array<(connection: Connection | Error) => void> = [];
  private closed = false;

  constructor(
    origin: string,
    private readonly options: PoolOptions,
  ) {
    const url = new URL(origin);
    this.https = url.protocol === 'https:';
    // A bracketed IPv6 literal is connected to without its brackets.
    this.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = Number(url.port || (this.https ? 443 : 80));
    this.hostHeader = url.host;
  }

  request(request: PoolRequest): Promise<PoolResponse> {
    if (this.closed) return Promise.reject(new PoolError('the connection pool is closed', POOL_ERROR_CODES.closed));
    const { signal } = request;
    if (signal.aborted) return Promise.reject(abortError(signal));
    let bytes: Buffer;
    try {
      bytes = serializeRequest(request.method, request.path, this.hostHeader, request.headers, request.body);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<PoolResponse>((resolve, reject) => {
      let connection: Connection | undefined;
      let settled = false;
      const finish = (error: Error | undefined, response?: PoolResponse): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(response!);
      };
      // Mid-exchange, the connection cannot carry another request; one still awaited goes back to
      // the pool when it comes.
      const onAbort = (): void => {
        if (connection) this.discard(connection);
        finish(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.acquire((acquired) => {
        if (acquired instanceof Error) return finish(acquired);
        if (settled) return this.release(acquired, true);
        connection = acquired;
        const parser = new ResponseParser(request.method === 'HEAD');
        acquired.exchange = {
          data: (chunk) => {
            let complete: boolean;
            try {
              complete = parser.push(chunk);
            } catch (error) {
              this.discard(acquired);
              return finish(error as Error);
            }
            if (!complete) return;
            const parsed = parser.result();
            acquired.exchange = undefined;
            this.release(acquired, parsed.keepAlive, parsed.keepAliveHintSeconds);
            finish(undefined, poolResponse(parsed));
          },
          gone: (error) => {
            acquired.exchange = undefined;
            this.discard(acquired);
            if (!error && parser.closed()) return finish(undefined, poolResponse(parser.result()));
            finish(error ?? hangUp());
          },
        };
        acquired.socket.write(bytes);
      });
    });
  }

  /** Closes every connection; requests made afterwards fail, and so do those waiting for a connection. */
  async close(): Promise<void> {
    this.closed = true;
    for (const connection of this.idle.splice(0)) this.discard(connection);
    for (const waiter of this.waiting.splice(0))
      waiter(new PoolError('the connection pool is closed', POOL_ERROR_CODES.closed));
  }

  /** Hands over an idle connection, a new one, or the next one freed. */
  private acquire(then: (connection: Connection | Error) => void): void {
    const reused = this.idle.pop();
    if (reused) {
      clearTimeout(reused.idleTimer);
      reused.idleTimer = undefined;
      return then(reused);
    }
    if (this.open < this.options.connections) return this.connect(then);
    this.waiting.push(then);
  }

  /** Returns a connection after its exchange: to the next waiter, to the idle list, or closed. */
  private release(connection: Connection, keepAlive: boolean, hintSeconds?: number): void {
    const idleMs = Math.min(
      this.options.keepAliveTimeoutMs,
      hintSeconds === undefined ? Number.POSITIVE_INFINITY : hintSeconds * 1000 - KEEP_ALIVE_MARGIN_MS,
    );
    if (!keepAlive || connection.dead || this.closed || idleMs <= 0) {
      this.discard(connection);
      return;
    }
    const next = this.waiting.shift();
    if (next) return next(connection);
    connection.idleTimer = setTimeout(() => this.discard(connection), idleMs);
    connection.idleTimer.unref();
    this.idle.push(connection);
  }

  /** Closes a connection and lets the next waiter open another in its place. */
  private discard(connection: Connection): void {
    if (connection.dead) return;
    connection.dead = true;
    this.open--;
    clearTimeout(connection.idleTimer);
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    connection.socket.destroy();
    const next = this.waiting.shift();
    if (next) this.connect(next);
  }

  private connect(then: (connection: Connection | Error) => void): void {
    this.open++;
    const socket = this.https
      ? connectTls({
          host: this.host,
          port: this.port,
          // SNI takes names only (RFC 6066 §3).
          ...(isIP(this.host) ? {} : { servername: this.host }),
          // Explicit, so that NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn it off.
          rejectUnauthorized: true,
          ALPNProtocols: ['http/1.1'],
          ...(this.options.secureContext ? { secureContext: this.options.secureContext() } : {}),
        })
      : connectTcp({ host: this.host, port: this.port });
    socket.setNoDelay(true);
    const connection: Connection = { socket, exchange: undefined, idleTimer: undefined, dead: false };
    let made = false;
    const timer = setTimeout(() => {
      const error = new PoolError(
        `no connection within ${this.options.connectTimeoutMs} ms`,
        POOL_ERROR_CODES.connectTimeout,
      );
      this.discard(connection);
      then(error);
    }, this.options.connectTimeoutMs);
    // For TLS, made means handshaken: until then nothing is sent.
    socket.once(this.https ? 'secureConnect' : 'connect', () => {
      made = true;
      clearTimeout(timer);
      then(connection);
    });
    socket.on('data', (chunk: Buffer) => {
      if (connection.exchange) connection.exchange.data(chunk);
      else this.discard(connection); // Bytes nobody asked for: the connection is out of step.
    });
    const gone = (error: Error | undefined) => {
      if (!made) {
        if (connection.dead) return;
        clearTimeout(timer);
        this.discard(connection);
        then(error ?? hangUp());
        return;
      }
      if (connection.exchange) connection.exchange.gone(error);
      else this.discard(connection);
    };
    socket.on('error', (error) => gone(error));
    socket.on('end', () => gone(undefined));
    socket.on('close', () => gone(undefined));
  }
}
