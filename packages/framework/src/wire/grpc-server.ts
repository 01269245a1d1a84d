/**
 * The gRPC server a go-plugin provider needs (docs/protocol.md, "The gRPC services"), which the vdb
 * emulator serves its API on too, so that both hold hostile peers alike: unary and server-streaming
 * methods with protobuf bytes in and out, status codes in trailers, deadlines, cancellation, and
 * message size limits, over node:http2 (nghttp2) on node:tls, or plaintext for --debug. It replaces
 * grpc-js's server (per call ~280 µs of CPU more, docs/benchmarks.md); the HTTP/2 under it is
 * Node's, which keeps the protocol's rules and its limits against hostile peers (HPACK bombs,
 * CONTINUATION and stream floods, malformed requests). Everything here follows the gRPC-over-HTTP/2
 * protocol as grpc-js's server speaks it (same statuses and details for malformed calls), so
 * clients cannot tell them apart.
 *
 * Memory stays bounded whatever peers send: nghttp2 bounds headers, streams, settings and its own
 * queues (grpc-limits.ts); the calls bound the request bytes they buffer across the process and the
 * answer bytes that wait on peers that do not read (grpc-call.ts); the server bounds the connections
 * it keeps.
 *
 * This module holds the server: its methods, one handler per path; accepting, tracking and evicting
 * connections; and handing each stream to a Call (grpc-call.ts), which reads, runs and answers it.
 * Statuses and the headers every call shares are in grpc-status.ts.
 */
import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type IncomingHttpHeaders,
  type SecureServerOptions,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import type { Socket } from 'node:net';
import {
  Call,
  ignore,
  type Accounts,
  type Connection,
  type Handler,
  type MessageCodec,
  type ServerStreamMethod,
  type UnaryMethod,
} from './grpc-call.js';
import {
  CONNECTION_WINDOW_BYTES,
  HTTP2_LIMITS,
  MAX_CONNECTIONS,
  MAX_QUEUED_ANSWER_BYTES,
  SESSION_START_TIMEOUT_MS,
  type GrpcServerOptions,
} from './grpc-limits.js';
import { ONLY_HEADERS, Status, UNSUPPORTED_MEDIA_TYPE } from './grpc-status.js';

export type { CallContext, MessageCodec, ServerStreamMethod, UnaryMethod } from './grpc-call.js';
export type { GrpcServerOptions } from './grpc-limits.js';
export { Status, StatusError, percentEncode } from './grpc-status.js';

/** Where a session's listeners find its connection. */
const CONNECTION = Symbol('connection');
type TrackedSession = ServerHttp2Session & { [CONNECTION]?: Connection };

const newConnection = (socket: Socket): Connection => ({
  socket,
  session: undefined,
  serving: false,
  lastCall: 0,
  timer: undefined,
  queuedAnswerBytes: 0,
  waiting: [],
});

export class GrpcServer {
  private readonly handlers = new Map<string, Handler>();
  private readonly server: Http2Server | Http2SecureServer;
  /** Accepted connections by the client's port (we listen on loopback only), oldest first. */
  private readonly connections = new Map<number, Connection>();
  private readonly maxConnections: number;
  private readonly accounts: Accounts;
  private calls = 0;

  constructor(private readonly options: GrpcServerOptions) {
    this.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
    this.accounts = {
      bufferedRequestBytes: 0,
      maxBufferedRequestBytes: options.maxBufferedRequestBytes ?? options.maxReceiveMessageBytes + 5,
      maxQueuedAnswerBytes: options.maxQueuedAnswerBytes ?? MAX_QUEUED_ANSWER_BYTES,
      answersInFlight: 0,
      afterAnswers: [],
    };
    const { initialWindowSize, maxConcurrentStreams, maxHeaderListSize, ...sessionLimits } = HTTP2_LIMITS;
    const http2Options: SecureServerOptions = {
      ...sessionLimits,
      settings: { initialWindowSize, maxConcurrentStreams, maxHeaderListSize },
      // A client that offers TLS but not h2 is closed at once rather than after 10 s.
      unknownProtocolTimeout: 1000,
      noDelay: true,
    };
    const clientCaPem = options.tls?.clientCaPem;
    this.server = options.tls
      ? createSecureServer({
          ...http2Options,
          key: options.tls.keyPem,
          cert: options.tls.certPem,
          ...(clientCaPem === undefined ? {} : { ca: clientCaPem, requestCert: true, rejectUnauthorized: true }),
          minVersion: 'TLSv1.2',
          ALPNProtocols: ['h2'],
          handshakeTimeout: SESSION_START_TIMEOUT_MS,
        })
      : createServer(http2Options);
    // Before node's own listener, which (in plaintext) starts the session at once.
    this.server.prependListener('connection', (socket: Socket) => this.accept(socket));
    this.server.on('session', (session: ServerHttp2Session) => this.startSession(session));
    this.server.on('stream', (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) =>
      this.dispatch(stream, headers),
    );
    // A client that fails its TLS handshake or breaks its session ends its own connection, never the process.
    this.server.on('sessionError', ignore);
  }

  unary(path: string, request: MessageCodec, response: MessageCodec, method: UnaryMethod): void {
    this.register(path, { kind: 'unary', request, response, method });
  }

  serverStream(path: string, request: MessageCodec, response: MessageCodec, method: ServerStreamMethod): void {
    this.register(path, { kind: 'server-stream', request, response, method });
  }

  /** A streaming method whose messages are read and ignored; it ends with OK when the client ends. */
  drain(path: string): void {
    this.register(path, { kind: 'drain' });
  }

  /** One handler per method: a second would silently replace the first, so it is refused. */
  private register(path: string, handler: Handler): void {
    if (this.handlers.has(path)) throw new Error(`gRPC method ${path} is registered twice on this server`);
    this.handlers.set(path, handler);
  }

  /** Listens on `host` (a loopback address: connections are told apart by the client's port) and `port`, 0 for any. */
  listen(host: string, port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      this.server.once('error', failed);
      this.server.listen(port, host, () => {
        this.server.off('error', failed);
        this.server.on('error', ignore);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  /** Stops listening and ends every connection. */
  close(): void {
    this.server.close();
    for (const connection of this.connections.values()) this.evict(connection);
  }

  /**
   * Resolves once every call answered so far has had its last frame handed to the socket (this turn's
   * answers included, which go out in a later turn), or after `limitMs`, whichever is first: a client
   * that stops reading cannot hold the caller.
   */
  written(limitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      const done = () => {
        clearTimeout(timer);
        // The session writes its frames to the socket in the turn after the stream closes.
        setImmediate(resolve);
      };
      setImmediate(() => {
        if (this.accounts.answersInFlight === 0) done();
        else this.accounts.afterAnswers.push(done);
      });
    });
  }

  private accept(socket: Socket): void {
    const port = socket.remotePort;
    if (port === undefined) return;
    if (this.connections.size >= this.maxConnections) this.evictOne();
    const connection = newConnection(socket);
    connection.timer = setTimeout(() => {
      if (!connection.serving) socket.destroy();
    }, SESSION_START_TIMEOUT_MS).unref();
    this.connections.set(port, connection);
    socket.once('close', () => {
      clearTimeout(connection.timer);
      if (this.connections.get(port) === connection) this.connections.delete(port);
    });
  }

  private startSession(session: TrackedSession): void {
    const connection = this.connections.get(session.socket.remotePort ?? -1);
    if (!connection) {
      session.destroy();
      return;
    }
    connection.session = session;
    session[CONNECTION] = connection;
    session.once('remoteSettings', () => {
      connection.serving = true;
      clearTimeout(connection.timer);
      connection.lastCall = this.calls;
    });
    if (!session.destroyed) session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
  }

  /** Makes room for a new connection: the oldest not yet serving, or else the session idle longest. */
  private evictOne(): void {
    let idlest: Connection | undefined;
    for (const connection of this.connections.values()) {
      if (!connection.serving) return this.evict(connection);
      if (!idlest || connection.lastCall < idlest.lastCall) idlest = connection;
    }
    if (idlest) this.evict(idlest);
  }

  private evict(connection: Connection): void {
    this.connections.delete(connection.socket.remotePort ?? -1);
    clearTimeout(connection.timer);
    // A session ends with GOAWAY (NO_ERROR: its client may connect again); anything else is cut.
    if (connection.session && !connection.session.destroyed) connection.session.destroy();
    else connection.socket.destroy();
  }

  private dispatch(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    // A stream's errors (a reset, its session gone) reach the call as 'close'.
    stream.on('error', ignore);
    const connection = (stream.session as TrackedSession | undefined)?.[CONNECTION];
    // Reset by the client, or its session gone, before this turn: nothing can be answered.
    if (!connection || stream.closed || stream.destroyed) return;
    connection.lastCall = ++this.calls;
    const contentType = headers['content-type'];
    if (contentType === undefined || !contentType.startsWith('application/grpc')) {
      stream.respond(UNSUPPORTED_MEDIA_TYPE, ONLY_HEADERS);
      return;
    }
    const path = headers[':path']!;
    const call = new Call(stream, headers, path, this.options, this.accounts, connection);
    const handler = this.handlers.get(path);
    if (!handler) return call.fail(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`);
    const timeout = headers['grpc-timeout'];
    if (timeout !== undefined && !call.deadline(String(timeout))) return;
    if (handler.kind === 'drain') return call.ignoreBody();
    const encoding = headers['grpc-encoding'];
    call.readSingleMessage(handler, encoding === undefined ? undefined : String(encoding));
  }
}
