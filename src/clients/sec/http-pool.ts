// The sec client's keep-alive connection pool, on node:http/node:https: a keep-alive Agent of at
// most `connections` sockets, reused last-in first-out, one request at a time on each, and idle
// ones closed a second before the server's Keep-Alive timeout (closeIdle, below). Node's
// llhttp parses the answers, strictly: a malformed answer, whatever its fault, fails its own call
// with a PoolError and its connection is closed. Answers are capped in size (maxResponseBytes), so a
// server cannot fill the provider's memory; a larger one fails the same way. Through a proxy
// (../proxy.ts), connections are tunnelled with CONNECT (./proxy-agent.ts) and TLS still runs to the
// API host, verified against the same trust.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { ConnectionOptions, SecureContext } from 'node:tls';
import type { SignalLike } from '../cancellation.js';
import type { ProxyChoice } from '../proxy.js';
import { type AgentSettings, POOL_ERROR_CODES, PoolError, agentOptions, guardConnect } from './connections.js';

export { POOL_ERROR_CODES, PoolError } from './connections.js';

export interface PoolOptions {
  /** Connections at most, like the API's rate limits expect; further requests wait their turn. */
  readonly connections: number;
  /** An idle connection is closed after this long (sooner when the server says it closes sooner). */
  readonly keepAliveTimeoutMs: number;
  /** A connection not made within this long fails with PoolError CONNECT_TIMEOUT (nothing was sent). */
  readonly connectTimeoutMs: number;
  /**
   * For https origins: the certificate authorities trusted (../trust.ts), asked for at the first
   * request. Reading and parsing them costs 25–55 ms of CPU, which the processes Terraform starts
   * that never call the API (a plan of creates, a destroy's plan) are spared.
   */
  readonly secureContext?: () => SecureContext;
  /** An answer whose body is larger than this fails with PoolError TOO_LARGE; its connection is closed. */
  readonly maxResponseBytes: number;
  /** The proxy the origin is reached through, if any (../proxy.ts). */
  readonly proxy?: ProxyChoice | undefined;
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
  /** Names in lower case; repeated headers joined with ", " (node's IncomingMessage.headers). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** What an aborted request fails with, as node's own `signal` option makes it. */
function abortError(signal: SignalLike): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

/** A head larger than this is refused (node's default is 16 KiB; the API's are far smaller). */
const MAX_HEAD_BYTES = 64 * 1024;

const MIB = 1024 * 1024;
const size = (bytes: number): string =>
  bytes % MIB === 0 ? `${bytes / MIB} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

/**
 * llhttp's refusals (codes HPE_*) as one sentence. Its reason is a fixed text of llhttp's; the
 * error's rawPacket, which holds the answer's bytes, goes no further.
 */
function malformedAnswer(error: Error & { code?: string; reason?: unknown }): PoolError {
  const reason =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? `its headers are larger than ${size(MAX_HEAD_BYTES)}`
      : typeof error.reason === 'string'
        ? error.reason
        : error.code;
  return new PoolError(`the answer is not valid HTTP/1.1 (${reason})`, POOL_ERROR_CODES.malformed);
}

/**
 * node's Agent for the origin's scheme (plain http for loopback origins only: ./base-url.ts), with the
 * connect timeout on each connection it makes.
 */
function directAgent(settings: AgentSettings, https: boolean): HttpAgent {
  const agent = https ? new HttpsAgent(agentOptions(settings)) : new HttpAgent(agentOptions(settings));
  const connected = https ? 'secureConnect' : 'connect';
  const createConnection = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const socket = createConnection(options, callback);
    if (socket) guardConnect(socket, settings.connectTimeoutMs, connected);
    return socket;
  };
  return agent;
}

type Finish = (error: Error | undefined, response?: PoolResponse) => void;
type TlsRequestOptions = Pick<ConnectionOptions, 'rejectUnauthorized' | 'ALPNProtocols' | 'secureContext'> & {
  protocol?: string;
};

/** When a connection left idle is to be closed (Date.now() ms), set as each of its answers ends. */
const IDLE_UNTIL = Symbol('idleUntil');
type PooledSocket = Socket & { [IDLE_UNTIL]?: number };

/**
 * How long a connection may stay idle after `res`: the pool's keep-alive timeout, or a second less
 * than the server's own (its Keep-Alive hint), so that no request races the server closing it. Node's
 * Agent does not keep a connection whose hint is a second or less.
 */
function idleLimitMs(res: IncomingMessage, keepAliveTimeoutMs: number): number {
  const hint = res.headers['keep-alive'];
  const seconds = typeof hint === 'string' ? /^timeout=(\d+)/.exec(hint)?.[1] : undefined;
  return seconds === undefined ? keepAliveTimeoutMs : Math.min(keepAliveTimeoutMs, Number(seconds) * 1000 - 1000);
}

export class HttpPool {
  private readonly https: boolean;
  private readonly host: string;
  private readonly port: number;
  private readonly hostHeader: string;
  private readonly send: typeof httpRequest;
  /** The agent; a proxy's is made at the first request (proxyAgent). */
  private agent: HttpAgent | undefined;
  private proxyAgentLoading: Promise<HttpAgent> | undefined;
  private secureContext: SecureContext | undefined;
  private tls: TlsRequestOptions | undefined;
  /** Requests not answered yet, so that close() can fail those still waiting for a connection. */
  private readonly pending = new Map<ClientRequest, Finish>();
  private closed = false;
  /** Closes idle connections (closeIdle); due at idleTimerAt. */
  private idleTimer: NodeJS.Timeout | undefined;
  private idleTimerAt = Number.POSITIVE_INFINITY;

  constructor(
    origin: string,
    private readonly options: PoolOptions,
  ) {
    const url = new URL(origin);
    this.https = url.protocol === 'https:';
    // A bracketed IPv6 literal is connected to without its brackets.
    this.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // Bracketed, with the port unless it is the scheme's: what node writes from `host` and `port`.
    this.hostHeader = url.host;
    this.port = Number(url.port || (this.https ? 443 : 80));
    this.send = this.https ? httpsRequest : httpRequest;
    if (!options.proxy) this.agent = directAgent(options, this.https);
  }

  request(request: PoolRequest): Promise<PoolResponse> {
    if (this.closed) return Promise.reject(new PoolError('the connection pool is closed', POOL_ERROR_CODES.closed));
    const { signal } = request;
    if (signal.aborted) return Promise.reject(abortError(signal));
    const agent = this.agent;
    if (!agent) return this.proxyAgent().then(() => this.request(request));
    return new Promise<PoolResponse>((resolve, reject) => {
      let req: ClientRequest;
      try {
        req = this.send(this.requestOptions(agent, request));
      } catch (error) {
        // node refuses a header name or value that is not allowed (a line break, a control character).
        return reject(error);
      }
      let settled = false;
      const finish: Finish = (error, response) => {
        if (settled) return;
        settled = true;
        this.pending.delete(req);
        signal.removeEventListener('abort', onAbort);
        if (error) {
          // Whatever failed, the connection is not used again.
          req.destroy();
          reject(error);
        } else resolve(response!);
      };
      // Mid-exchange, the connection cannot carry another request; one still awaited goes back to
      // the pool when it comes (node's Agent frees the socket of a request destroyed before it got one).
      const onAbort = (): void => finish(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(req, finish);
      req.on('response', (res) => this.readAnswer(res, finish));
      req.on('error', (error: Error & { code?: string }) =>
        finish(error.code?.startsWith('HPE_') ? malformedAnswer(error) : error),
      );
      req.end(request.body ?? undefined);
    });
  }

  /** Closes idle connections; requests made afterwards fail, and so do those waiting for a connection. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const agent = this.agent;
    if (!agent) return;
    // A connection freed from now on is closed rather than kept.
    agent.maxFreeSockets = 0;
    for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    for (const [req, finish] of this.pending)
      if (!req.socket) finish(new PoolError('the connection pool is closed', POOL_ERROR_CODES.closed));
  }

  private requestOptions(agent: HttpAgent, request: PoolRequest): RequestOptions {
    // As a list, which node writes as it is (checking each name and value, as for an object) rather
    // than setting each header in turn; the Host header is then ours to write, as node would.
    const headers = ['Host', this.hostHeader];
    for (const name in request.headers) headers.push(name, request.headers[name]!);
    if (request.body !== null) headers.push('Content-Length', String(Buffer.byteLength(request.body)));
    return {
      agent,
      host: this.host,
      port: this.port,
      method: request.method,
      path: request.path,
      headers,
      maxHeaderSize: MAX_HEAD_BYTES,
      ...this.tlsOptions(),
    };
  }

  /** What every https request adds, made at the first one (its trust is asked for then). */
  private tlsOptions(): TlsRequestOptions {
    if (this.tls === undefined) {
      this.tls = this.https
        ? {
            // Explicit for the proxy's agent (agent-base), which names its connections by it.
            protocol: 'https:',
            // Explicit, so that NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn it off.
            rejectUnauthorized: true,
            ALPNProtocols: ['http/1.1'],
            ...(this.options.secureContext ? { secureContext: this.trust() } : {}),
          }
        : {};
    }
    return this.tls;
  }

  /** The tunnelling agent, and the library under it, load at the first request through a proxy. */
  private proxyAgent(): Promise<HttpAgent> {
    this.proxyAgentLoading ??= import('./proxy-agent.js').then(({ proxyAgent }) => {
      this.agent = proxyAgent(this.options.proxy!, this.host, this.options, this.trust());
      return this.agent;
    });
    return this.proxyAgentLoading;
  }

  /** The TLS context, built at the first request that needs it. */
  private trust(): SecureContext | undefined {
    if (this.secureContext === undefined && this.https && this.options.secureContext)
      this.secureContext = this.options.secureContext();
    return this.secureContext;
  }

  /**
   * Closes the connections idle past their time (IDLE_UNTIL). Node's Agent can do it with its `timeout`
   * option, but that re-arms a timer on the connection at every request, and listens for it; this pool
   * keeps one timer, due when the first idle connection is.
   */
  private closeIdleBy(at: number): void {
    if (this.idleTimer !== undefined && this.idleTimerAt <= at) return;
    clearTimeout(this.idleTimer);
    this.idleTimerAt = at;
    this.idleTimer = setTimeout(() => this.closeIdle(), Math.max(0, at - Date.now())).unref();
  }

  private closeIdle(): void {
    this.idleTimer = undefined;
    this.idleTimerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const sockets of Object.values(this.agent?.freeSockets ?? {})) {
      for (const socket of (sockets ?? []) as PooledSocket[]) {
        const until = socket[IDLE_UNTIL] ?? now;
        if (until <= now) socket.destroy();
        else next = Math.min(next, until);
      }
    }
    // A connection in use now is timed again when its answer ends.
    if (next !== Number.POSITIVE_INFINITY) this.closeIdleBy(next);
  }

  /** Collects an answer's body up to the cap; anything this client cannot read fails the call. */
  private readAnswer(res: IncomingMessage, finish: Finish): void {
    const cap = this.options.maxResponseBytes;
    const tooLarge = () =>
      new PoolError(
        `the answer is larger than ${size(cap)}, the most this client reads (SEC_MAX_RESPONSE_BYTES)`,
        POOL_ERROR_CODES.tooLarge,
      );
    // Chunked is the one transfer coding HTTP/1.1 clients must read, and the only one Go's reads; the
    // body of any other would be read to the close and handed on still encoded.
    const coding = res.headers['transfer-encoding'];
    if (coding !== undefined && coding.toLowerCase() !== 'chunked') {
      const why = 'the answer is in a transfer coding other than chunked, which this client does not read';
      return finish(new PoolError(why, POOL_ERROR_CODES.malformed));
    }
    const declared = res.headers['content-length'];
    if (declared !== undefined && Number(declared) > cap) return finish(tooLarge());
    const chunks: Buffer[] = [];
    let length = 0;
    res.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > cap) return finish(tooLarge());
      chunks.push(chunk);
    });
    const socket = res.socket as PooledSocket;
    res.on('end', () => {
      // The connection goes back to the agent now, idle until its next request.
      const until = Date.now() + idleLimitMs(res, this.options.keepAliveTimeoutMs);
      socket[IDLE_UNTIL] = until;
      this.closeIdleBy(until);
      let text: string;
      try {
        text = chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks, length).toString();
      } catch (error) {
        return finish(error as Error);
      }
      finish(undefined, { statusCode: res.statusCode ?? 0, headers: res.headers, text });
    });
    // The connection closed before the body was whole (node: ECONNRESET "aborted").
    res.on('error', (error) => finish(error));
  }
}
