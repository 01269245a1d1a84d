/**
 * The gRPC server a go-plugin provider needs, over node:http2 (protocol.md §1.5): unary and
 * server-streaming methods with protobuf bytes in and out, status codes in trailers, deadlines,
 * cancellation, and message size limits. It replaces grpc-js's server, which costs a provider
 * ~280 µs of CPU more per call before it warms up and ~50 ms more per start (README, "Benchmarks":
 * Terraform starts a provider 3–5 times per command and makes four calls per refreshed resource).
 * Everything here follows the gRPC-over-HTTP/2 protocol as grpc-js's server speaks it (same statuses
 * and details for malformed calls), so clients cannot tell the two apart.
 */
import {
  constants as h2,
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';

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

type Handler =
  | { kind: 'unary'; request: MessageCodec; response: MessageCodec; method: UnaryMethod }
  | { kind: 'server-stream'; request: MessageCodec; response: MessageCodec; method: ServerStreamMethod }
  | { kind: 'drain' };

const noop = (): void => undefined;

/**
 * Response headers of every call that answers. No grpc-encoding: identity is the default; no
 * grpc-accept-encoding: a client that sends compressed messages is refused anyway. Each header
 * costs node a validation per call.
 */
const RESPONSE_HEADERS = {
  [h2.HTTP2_HEADER_STATUS]: 200,
  [h2.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc+proto',
};
const OK_TRAILERS = { 'grpc-status': '0' };
/** No Date header: gRPC has no use for it (Node's respond() takes sendDate, its types do not list it). */
const ANSWER_OPTIONS = { waitForTrailers: true, sendDate: false } as { waitForTrailers: true };
const STATUS_ONLY_OPTIONS = { endStream: true, sendDate: false } as { endStream: true };

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
class Call implements CallContext {
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The status went out (or the stream is gone): nothing more is sent. */
  private finished = false;
  private headersSent = false;
  private cancelReason: Error | undefined;

  constructor(
    readonly stream: ServerHttp2Stream,
    private readonly path: string,
    private readonly options: GrpcServerOptions,
  ) {
    stream.once('close', () => this.closed());
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
    const chunks: Buffer[] = [];
    let received = 0;
    const limit = this.options.maxReceiveMessageBytes;
    this.stream.on('data', (chunk: Buffer) => {
      if (this.finished) return;
      if (received === 0 && chunk.length >= 5) {
        // The first message's length is known from its prefix: refuse it before buffering it.
        const length = chunk.readUInt32BE(1);
        if (length > limit)
          return this.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs ${limit})`);
      }
      received += chunk.length;
      if (received > limit + 5)
        return this.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${received - 5} vs ${limit})`);
      chunks.push(chunk);
    });
    this.stream.once('end', () => {
      if (this.finished) return;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      const messages: Buffer[] = [];
      for (let at = 0; at < body.length; ) {
        if (body.length - at < 5) return this.fail(Status.INTERNAL, 'Received an incomplete message prefix');
        const compressed = body[at]!;
        const length = body.readUInt32BE(at + 1);
        if (length > limit)
          return this.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs ${limit})`);
        if (body.length - at - 5 < length) return this.fail(Status.INTERNAL, 'Received an incomplete message');
        if (compressed !== 0) {
          const name = encoding ?? 'identity';
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
      then(messages[0]!);
    });
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
    this.respond();
    this.stream.end(frame(message));
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
    if (!this.headersSent) this.respond();
    return this.stream.write(frame(message));
  }

  /** Resolves when the stream can take more, or the call is over. */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
    });
  }

  /** Ends a stream with status OK (after any messages). */
  end(): void {
    if (this.finished) return;
    this.finish();
    if (!this.headersSent) this.respond();
    this.stream.end();
  }

  /** Ends the call with an error status: in trailers after headers, or as the only headers. */
  fail(code: number, details: string): void {
    if (this.finished) return;
    this.finish();
    const status = { 'grpc-status': String(code), 'grpc-message': percentEncode(details) };
    if (this.headersSent) {
      this.stream.removeAllListeners('wantTrailers');
      this.stream.once('wantTrailers', () => this.stream.sendTrailers(status));
      this.stream.end();
      return;
    }
    this.headersSent = true;
    if (this.stream.closed || this.stream.destroyed) return;
    this.stream.respond({ ...RESPONSE_HEADERS, ...status }, STATUS_ONLY_OPTIONS);
  }

  private respond(): void {
    this.headersSent = true;
    if (this.stream.closed || this.stream.destroyed) return;
    this.stream.respond(RESPONSE_HEADERS, ANSWER_OPTIONS);
    this.stream.once('wantTrailers', () => this.stream.sendTrailers(OK_TRAILERS));
  }

  private finish(): void {
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private closed(): void {
    if (this.finished) return;
    this.finish();
    this.cancel(new Error(`${this.path} was cancelled by the client`));
  }

  private cancel(reason: Error): void {
    this.cancelReason ??= reason;
    this.controller?.abort(reason);
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
  private readonly server: Http2Server | Http2SecureServer;

  constructor(private readonly options: GrpcServerOptions) {
    // Node enforces a per-session memory cap that large messages would hit; grpc-js lifts it too.
    const common = { maxSessionMemory: Number.MAX_SAFE_INTEGER, maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER };
    this.server = options.tls
      ? createSecureServer({
          ...common,
          key: options.tls.keyPem,
          cert: options.tls.certPem,
          ca: options.tls.clientCaPem,
          requestCert: true,
          rejectUnauthorized: true,
          minVersion: 'TLSv1.2',
        })
      : createServer(common);
    this.server.on('stream', (stream, headers) => this.dispatch(stream, headers));
    // A client that misbehaves or goes away ends its own session, never the process.
    this.server.on('sessionError', noop);
    this.server.on('session', (session) => session.on('error', noop));
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

  private dispatch(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on('error', noop);
    const contentType = headers[h2.HTTP2_HEADER_CONTENT_TYPE];
    if (typeof contentType !== 'string' || !contentType.startsWith('application/grpc')) {
      stream.respond({ [h2.HTTP2_HEADER_STATUS]: h2.HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE }, { endStream: true });
      return;
    }
    const path = String(headers[h2.HTTP2_HEADER_PATH]);
    const call = new Call(stream, path, this.options);
    const handler = this.handlers.get(path);
    if (!handler) return call.fail(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`);
    const timeout = headers['grpc-timeout'];
    if (typeof timeout === 'string' && !call.deadline(timeout)) return;
    const encoding = headers['grpc-encoding'];
    const encodingName = typeof encoding === 'string' ? encoding : undefined;
    if (handler.kind === 'drain') {
      stream.on('data', noop);
      stream.once('end', () => call.end());
      return;
    }
    call.readSingleMessage(encodingName, (bytes) => {
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
