/**
 * The gRPC server a go-plugin provider needs (protocol.md §1.5): unary and server-streaming methods
 * with protobuf bytes in and out, status codes in trailers, deadlines, cancellation, and message size
 * limits, over our own HTTP/2 connection (./http2/connection.ts) on node:tls or node:net. It replaces
 * grpc-js's server, and then node:http2 under it: per call, grpc-js cost a provider ~280 µs of CPU
 * more and node:http2's stream objects most of the rest (README, "Benchmarks": Terraform starts a
 * provider 3–5 times per command and makes four calls per refreshed resource). Everything here follows
 * the gRPC-over-HTTP/2 protocol as grpc-js's server speaks it (same statuses and details for
 * malformed calls), so clients cannot tell them apart.
 */
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Http2Connection, type ServerStream, type StreamListener } from './http2/connection.js';
import { encodeHeaderBlock } from './http2/hpack.js';

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
  ) {
    super(details);
  }
}

/** What a method sees of its call. */
export interface CallContext {
  /** Aborted when the client cancels the call or its deadline passes; made only when asked for. */
  readonly signal: AbortSignal;
}

export type UnaryMethod = (request: any, call: CallContext) => unknown;
export type ServerStreamMethod = (request: any, call: CallContext) => AsyncIterable<unknown>;

export interface MessageCodec {
  decode(bytes: Buffer): unknown;
  encode(value: unknown): Buffer;
}

export interface GrpcServerOptions {
  /** Largest request message accepted (RESOURCE_EXHAUSTED beyond). */
  maxReceiveMessageBytes: number;
  /** Largest response message sent (RESOURCE_EXHAUSTED beyond). */
  maxSendMessageBytes: number;
  /** Mutual TLS: our key and certificate, and the only certificate authority a client may present. */
  tls?: { keyPem: string; certPem: string; clientCaPem: string };
}

const noop = (): void => undefined;

type Handler =
  | { kind: 'unary'; request: MessageCodec; response: MessageCodec; method: UnaryMethod }
  | { kind: 'server-stream'; request: MessageCodec; response: MessageCodec; method: ServerStreamMethod }
  | { kind: 'drain' };

/**
 * Response headers of every call that answers. No grpc-encoding: identity is the default; no
 * grpc-accept-encoding: a client that sends compressed messages is refused anyway; no date.
 */
const RESPONSE_FIELDS: ReadonlyArray<readonly [string, string]> = [
  [':status', '200'],
  ['content-type', 'application/grpc+proto'],
];
const RESPONSE_HEADERS = encodeHeaderBlock(RESPONSE_FIELDS);
const OK_TRAILERS = encodeHeaderBlock([['grpc-status', '0']]);
const UNSUPPORTED_MEDIA_TYPE = encodeHeaderBlock([[':status', '415']]);

const DEADLINE = /^(\d{1,8})\s*([HMSmun])$/;
const DEADLINE_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };

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

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** One call in progress: reads its request, answers it once, and knows whether the client left. */
class Call implements CallContext, StreamListener {
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The status went out (or the stream is gone): nothing more is sent. */
  private finished = false;
  private headersSent = false;
  private cancelReason: Error | undefined;
  /** What the request body is for: collected into one message, or read and ignored. */
  private body: { chunks: Buffer[]; received: number; then: (message: Buffer) => void } | 'ignored' | undefined;
  private encoding: string | undefined;
  private drainWaiters: Array<() => void> = [];

  constructor(
    readonly stream: ServerStream,
    private readonly path: string,
    private readonly options: GrpcServerOptions,
  ) {
    stream.listener = this;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelReason) this.controller.abort(this.cancelReason);
    }
    return this.controller.signal;
  }

  get active(): boolean {
    return !this.finished;
  }

  /** grpc-timeout: the call ends with DEADLINE_EXCEEDED when it passes. */
  deadline(header: string): boolean {
    const match = DEADLINE.exec(header);
    if (!match) {
      this.fail(Status.INTERNAL, `Invalid grpc-timeout value "${header}"`);
      return false;
    }
    const ms = Math.ceil(Number(match[1]) * DEADLINE_UNIT_MS[match[2]!]!);
    this.timer = setTimeout(() => {
      this.fail(Status.DEADLINE_EXCEEDED, 'Deadline exceeded');
      this.cancel(new Error(`${this.path} passed its deadline`));
    }, ms);
    return true;
  }

  /** Collects the request body and hands over its one message. */
  readSingleMessage(encoding: string | undefined, then: (message: Buffer) => void): void {
    this.encoding = encoding;
    this.body = { chunks: [], received: 0, then };
  }

  /** Reads the request body and ignores it; the call ends with OK when the client ends. */
  ignoreBody(): void {
    this.body = 'ignored';
  }

  onData(chunk: Buffer): void {
    const body = this.body;
    if (this.finished || typeof body !== 'object') return;
    const limit = this.options.maxReceiveMessageBytes;
    if (body.received === 0 && chunk.length >= 5) {
      // The first message's length is known from its prefix: refuse it before buffering it.
      const length = chunk.readUInt32BE(1);
      if (length > limit)
        return this.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs ${limit})`);
    }
    body.received += chunk.length;
    if (body.received > limit + 5)
      return this.fail(
        Status.RESOURCE_EXHAUSTED,
        `Received message larger than max (${body.received - 5} vs ${limit})`,
      );
    body.chunks.push(chunk);
  }

  onEnd(): void {
    const request = this.body;
    if (this.finished || request === undefined) return;
    if (request === 'ignored') return this.end();
    const body = request.chunks.length === 1 ? request.chunks[0]! : Buffer.concat(request.chunks, request.received);
    const limit = this.options.maxReceiveMessageBytes;
    const messages: Buffer[] = [];
    for (let at = 0; at < body.length; ) {
      if (body.length - at < 5) return this.fail(Status.INTERNAL, 'Received an incomplete message prefix');
      const compressed = body[at]!;
      const length = body.readUInt32BE(at + 1);
      if (length > limit)
        return this.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs ${limit})`);
      if (body.length - at - 5 < length) return this.fail(Status.INTERNAL, 'Received an incomplete message');
      if (compressed !== 0) {
        const name = this.encoding ?? 'identity';
        return name === 'identity'
          ? this.fail(Status.INTERNAL, 'Received a compressed message without a grpc-encoding')
          : this.fail(Status.UNIMPLEMENTED, `Received message compressed with unsupported encoding "${name}"`);
      }
      messages.push(body.subarray(at + 5, at + 5 + length));
      at += 5 + length;
    }
    if (messages.length === 0)
      return this.fail(Status.UNIMPLEMENTED, `Received no request message for method ${this.path}`);
    if (messages.length > 1)
      return this.fail(Status.UNIMPLEMENTED, `Received a second request message for method ${this.path}`);
    request.then(messages[0]!);
  }

  onClose(): void {
    this.wakeDrainWaiters();
    if (this.finished) return;
    this.finish();
    this.cancel(new Error(`${this.path} was cancelled by the client`));
  }

  onDrain(): void {
    this.wakeDrainWaiters();
  }

  /** A unary answer: headers, the message, and status OK in trailers. */
  answer(message: Buffer): void {
    if (this.finished) return;
    if (message.length > this.options.maxSendMessageBytes) {
      return this.fail(
        Status.RESOURCE_EXHAUSTED,
        `Sent message larger than max (${message.length} vs. ${this.options.maxSendMessageBytes})`,
      );
    }
    this.finish();
    this.headersSent = true;
    this.stream.respond(RESPONSE_HEADERS, false);
    this.stream.write(frame(message));
    this.stream.respond(OK_TRAILERS, true);
  }

  /** One message of a server stream; false when the client is behind (wait for drained()). */
  send(message: Buffer): boolean {
    if (this.finished) return true;
    if (message.length > this.options.maxSendMessageBytes) {
      this.fail(
        Status.RESOURCE_EXHAUSTED,
        `Sent message larger than max (${message.length} vs. ${this.options.maxSendMessageBytes})`,
      );
      return true;
    }
    this.sendHeaders();
    return this.stream.write(frame(message));
  }

  /** Resolves when the stream can take more, or the call is over. */
  drained(): Promise<void> {
    if (this.stream.closed) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Ends a stream with status OK (after any messages). */
  end(): void {
    if (this.finished) return;
    this.finish();
    this.sendHeaders();
    this.stream.respond(OK_TRAILERS, true);
  }

  /** Ends the call with an error status: in trailers after headers, or as the only headers. */
  fail(code: number, details: string): void {
    if (this.finished) return;
    this.finish();
    const status: Array<[string, string]> = [
      ['grpc-status', String(code)],
      ['grpc-message', percentEncode(details)],
    ];
    if (this.headersSent) {
      this.stream.respond(encodeHeaderBlock(status), true);
      return;
    }
    this.headersSent = true;
    this.stream.respond(encodeHeaderBlock([...RESPONSE_FIELDS, ...status]), true);
  }

  private sendHeaders(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    this.stream.respond(RESPONSE_HEADERS, false);
  }

  private finish(): void {
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private cancel(reason: Error): void {
    this.cancelReason ??= reason;
    this.controller?.abort(reason);
  }

  private wakeDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const wake of waiters) wake();
  }
}

/** A message with gRPC's 5-byte prefix (not compressed, 32-bit big-endian length). */
function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(message.length + 5);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

export class GrpcServer {
  private readonly handlers = new Map<string, Handler>();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: GrpcServerOptions) {
    const serve = (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      return new Http2Connection(socket, (stream) => this.dispatch(stream));
    };
    this.server = options.tls
      ? createTlsServer(
          {
            key: options.tls.keyPem,
            cert: options.tls.certPem,
            ca: options.tls.clientCaPem,
            requestCert: true,
            rejectUnauthorized: true,
            minVersion: 'TLSv1.2',
            ALPNProtocols: ['h2'],
          },
          serve,
        )
      : createNetServer(serve);
    // A client that fails its TLS handshake or goes away ends its own connection, never the process.
    this.server.on('tlsClientError', noop);
    this.server.on('error', noop);
  }

  unary(path: string, request: MessageCodec, response: MessageCodec, method: UnaryMethod): void {
    this.handlers.set(path, { kind: 'unary', request, response, method });
  }

  serverStream(path: string, request: MessageCodec, response: MessageCodec, method: ServerStreamMethod): void {
    this.handlers.set(path, { kind: 'server-stream', request, response, method });
  }

  /** A streaming method whose messages are read and ignored; it ends with OK when the client ends. */
  drain(path: string): void {
    this.handlers.set(path, { kind: 'drain' });
  }

  listen(host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      this.server.once('error', failed);
      this.server.listen(0, host, () => {
        this.server.off('error', failed);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  close(): void {
    this.server.close();
  }

  /**
   * Resolves once the connections have handed the kernel what they queued, this turn's answers
   * included (a connection writes in a promise reaction, which has run by the next macrotask), or
   * after `limitMs`, whichever is first: a client that stops reading cannot hold the caller.
   */
  written(limitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      setImmediate(() => {
        const pending = [...this.sockets].filter((socket) => !socket.destroyed && socket.writableLength > 0);
        const drained = (socket: Socket) =>
          new Promise<void>((done) => {
            socket.once('drain', done);
            socket.once('close', done);
          });
        void Promise.all(pending.map(drained)).then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    });
  }

  private dispatch(stream: ServerStream): void {
    const headers = stream.headers;
    const contentType = headers.get('content-type');
    if (contentType === undefined || !contentType.startsWith('application/grpc')) {
      stream.respond(UNSUPPORTED_MEDIA_TYPE, true);
      return;
    }
    const path = String(headers.get(':path'));
    const call = new Call(stream, path, this.options);
    const handler = this.handlers.get(path);
    if (!handler) return call.fail(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`);
    const timeout = headers.get('grpc-timeout');
    if (timeout !== undefined && !call.deadline(timeout)) return;
    if (handler.kind === 'drain') return call.ignoreBody();
    call.readSingleMessage(headers.get('grpc-encoding'), (bytes) => {
      let request: unknown;
      try {
        request = handler.request.decode(bytes);
      } catch (err) {
        return call.fail(Status.INTERNAL, `Error deserializing request: ${errorText(err)}`);
      }
      if (handler.kind === 'unary') runUnary(call, handler.method, handler.response, request);
      else void runServerStream(call, handler.method, handler.response, request);
    });
  }
}

function runUnary(call: Call, method: UnaryMethod, codec: MessageCodec, request: unknown): void {
  let pending: unknown;
  try {
    pending = method(request, call);
  } catch (err) {
    return failWith(call, err);
  }
  Promise.resolve(pending).then(
    (response) => {
      if (!call.active) return;
      let bytes: Buffer;
      try {
        bytes = codec.encode(response);
      } catch (err) {
        return call.fail(Status.INTERNAL, `Error serializing response: ${errorText(err)}`);
      }
      call.answer(bytes);
    },
    (err: unknown) => failWith(call, err),
  );
}

async function runServerStream(
  call: Call,
  method: ServerStreamMethod,
  codec: MessageCodec,
  request: unknown,
): Promise<void> {
  try {
    for await (const message of method(request, call)) {
      if (!call.active) break;
      if (!call.send(codec.encode(message))) await call.drained();
    }
    call.end();
  } catch (err) {
    failWith(call, err);
  }
}

function failWith(call: Call, err: unknown): void {
  if (err instanceof StatusError) call.fail(err.code, err.details);
  else call.fail(Status.UNKNOWN, errorText(err));
}
