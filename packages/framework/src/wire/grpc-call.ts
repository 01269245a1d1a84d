/**
 * One gRPC call on one HTTP/2 stream: what a method sees of it (CallContext), reading its request
 * (the size limits, the process-wide account of buffered request bytes, gRPC's 5-byte message
 * prefix), its deadline and cancellation, running its unary or server-streaming method, and answering
 * once (headers, messages, status in trailers) while counting the answer bytes its connection's
 * client has not read yet. The server (grpc-server.ts) makes a Call for each stream it accepts.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Session, ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { GrpcServerOptions } from './grpc-limits.js';
import {
  ONLY_HEADERS,
  OK_TRAILERS,
  RESPONSE_HEADERS,
  Status,
  StatusError,
  WITH_TRAILERS,
  percentEncode,
} from './grpc-status.js';

/** What a method sees of its call. */
export interface CallContext {
  /** Aborted when the client cancels the call or its deadline passes; made only when asked for. */
  readonly signal: AbortSignal;
  /** The request's headers: its metadata, and HTTP/2's pseudo-headers. */
  readonly headers: IncomingHttpHeaders;
  /** The client's address, as grpc-js names it: `ipv4:127.0.0.1:53412`. */
  readonly peer: string;
  /** Sends the response headers now, with this metadata; once, before any message or status. */
  sendMetadata(metadata: Readonly<Record<string, string>>): void;
  /** Metadata for the trailers of whatever status ends the call. */
  addTrailers(metadata: Readonly<Record<string, string>>): void;
}

export type UnaryMethod = (request: any, call: CallContext) => unknown;
export type ServerStreamMethod = (request: any, call: CallContext) => AsyncIterable<unknown>;

export interface MessageCodec {
  decode(bytes: Buffer): unknown;
  encode(value: unknown): Buffer;
}

export type Handler =
  | { kind: 'unary'; request: MessageCodec; response: MessageCodec; method: UnaryMethod }
  | { kind: 'server-stream'; request: MessageCodec; response: MessageCodec; method: ServerStreamMethod }
  | { kind: 'drain' };

/**
 * HTTP/2's NO_ERROR code (RFC 9113 §7), node:http2's constants.NGHTTP2_NO_ERROR. Named here so that
 * only the server's module loads node:http2: the start-up bundle requires it once.
 */
const NGHTTP2_NO_ERROR = 0;

/** The longest delay a timer takes (2^31 − 1 ms, ~24.8 days): a later deadline waits at least this. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const DEADLINE = /^(\d{1,8})\s*([HMSmun])$/;
const DEADLINE_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
export const ignore = (): void => undefined;

/** Where a stream's listeners, shared by all, find their call. */
const CALL = Symbol('call');
type CallStream = ServerHttp2Stream & { [CALL]?: Call };

/** One accepted connection: until its client's SETTINGS arrive it is not yet serving. */
export interface Connection {
  readonly socket: Socket;
  session: ServerHttp2Session | undefined;
  serving: boolean;
  /** The number of the last call it started (the server counts them): the lowest is idle longest. */
  lastCall: number;
  timer: NodeJS.Timeout | undefined;
  /** Answer bytes its client has not read yet (held by streams that are not closed). */
  queuedAnswerBytes: number;
  /** Its calls whose request is read, waiting for its client to read answers before they run. */
  readonly waiting: Call[];
}

/** The process-wide accounts the calls keep (see GrpcServerOptions). */
export interface Accounts {
  bufferedRequestBytes: number;
  readonly maxBufferedRequestBytes: number;
  readonly maxQueuedAnswerBytes: number;
  /** Calls whose last frames are queued and whose stream is not closed yet (written() waits for them). */
  answersInFlight: number;
  afterAnswers: Array<() => void>;
}

// Listeners shared by every stream: `this` is the stream, its call is under CALL.
function onCallData(this: CallStream, chunk: Buffer): void {
  this[CALL]!.onData(chunk);
}
function onCallEnd(this: CallStream): void {
  this[CALL]!.onEnd();
}
function onCallClose(this: CallStream): void {
  this[CALL]!.onClose();
}
function onCallDrain(this: CallStream): void {
  this[CALL]!.wakeDrainWaiters();
}
function onWantTrailers(this: CallStream): void {
  this.sendTrailers(this[CALL]!.trailers);
}

/** One call in progress: reads its request, answers it once, and knows whether the client left. */
export class Call implements CallContext {
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The status went out (or the stream is gone): nothing more is sent. */
  private finished = false;
  private headersSent = false;
  private closed = false;
  /** Our last frames are queued, and counted in answersInFlight until the stream closes. */
  private lastQueued = false;
  private remoteEnded = false;
  private cancelReason: Error | undefined;
  /** What the request body is for: collected into one message, or read and ignored. */
  private reading: 'message' | 'ignored' | undefined;
  private chunks: Buffer[] = [];
  private received = 0;
  private encoding: string | undefined;
  private handler: Exclude<Handler, { kind: 'drain' }> | undefined;
  private request: unknown;
  /** Bytes of this call's answer counted in queuedAnswerBytes until its stream closes. */
  private queued = 0;
  /** Made by the first wait: most calls are unary and never wait. */
  private drainWaiters: Array<() => void> | undefined;
  /** What 'wantTrailers' sends. */
  trailers: OutgoingHttpHeaders = OK_TRAILERS;
  /** Metadata the method added to the trailers; most methods add none. */
  private extraTrailers: Readonly<Record<string, string>> | undefined;

  constructor(
    private readonly stream: CallStream,
    readonly headers: IncomingHttpHeaders,
    private readonly path: string,
    private readonly options: GrpcServerOptions,
    private readonly accounts: Accounts,
    private readonly connection: Connection,
  ) {
    stream[CALL] = this;
    stream.on('close', onCallClose);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelReason) this.controller.abort(this.cancelReason);
    }
    return this.controller.signal;
  }

  get peer(): string {
    const socket = this.stream.session?.socket;
    const family = socket?.remoteFamily === 'IPv6' ? 'ipv6' : 'ipv4';
    return `${family}:${socket?.remoteAddress ?? 'unknown'}:${socket?.remotePort ?? 0}`;
  }

  sendMetadata(metadata: Readonly<Record<string, string>>): void {
    if (this.finished || this.headersSent || this.gone) return;
    this.sendHeaders(metadata);
  }

  addTrailers(metadata: Readonly<Record<string, string>>): void {
    this.extraTrailers = { ...this.extraTrailers, ...metadata };
  }

  get active(): boolean {
    return !this.finished;
  }

  /** The stream is closed or being closed: nothing can be sent on it. */
  private get gone(): boolean {
    return this.closed || this.stream.closed || this.stream.destroyed;
  }

  /** grpc-timeout: the call ends with DEADLINE_EXCEEDED when it passes. */
  deadline(header: string): boolean {
    const match = DEADLINE.exec(header);
    if (!match) {
      this.fail(Status.INTERNAL, `Invalid grpc-timeout value "${header}"`);
      return false;
    }
    const ms = Math.min(Math.ceil(Number(match[1]) * DEADLINE_UNIT_MS[match[2]!]!), MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.fail(Status.DEADLINE_EXCEEDED, 'Deadline exceeded');
      this.cancel(new Error(`${this.path} passed its deadline`));
    }, ms);
    return true;
  }

  /** Collects the request body; its one message is decoded and handed to the handler. */
  readSingleMessage(handler: Exclude<Handler, { kind: 'drain' }>, encoding: string | undefined): void {
    this.handler = handler;
    this.encoding = encoding;
    this.reading = 'message';
    this.stream.on('data', onCallData);
    this.stream.on('end', onCallEnd);
  }

  /** Reads the request body and ignores it; the call ends with OK when the client ends. */
  ignoreBody(): void {
    this.reading = 'ignored';
    this.stream.on('data', ignore);
    this.stream.on('end', onCallEnd);
  }

  onData(chunk: Buffer): void {
    if (this.finished || this.reading !== 'message') return;
    const limit = this.options.maxReceiveMessageBytes;
    if (this.received === 0 && chunk.length >= 5) {
      // The first message's length is known from its prefix: refuse it before buffering it.
      const length = chunk.readUInt32BE(1);
      if (length > limit)
        return this.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs ${limit})`);
    }
    if (this.received + chunk.length > limit + 5)
      return this.fail(
        Status.RESOURCE_EXHAUSTED,
        `Received message larger than max (${this.received + chunk.length - 5} vs ${limit})`,
      );
    const accounts = this.accounts;
    if (
      accounts.bufferedRequestBytes + chunk.length > accounts.maxBufferedRequestBytes &&
      accounts.bufferedRequestBytes > this.received
    )
      return this.fail(Status.RESOURCE_EXHAUSTED, 'The server is holding too many request bytes; try again later');
    this.received += chunk.length;
    accounts.bufferedRequestBytes += chunk.length;
    this.chunks.push(chunk);
  }

  onEnd(): void {
    this.remoteEnded = true;
    if (this.finished) return;
    if (this.reading === 'ignored') return this.end();
    const chunks = this.chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.received);
    this.releaseRequest();
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
    try {
      this.request = this.handler!.request.decode(messages[0]!);
    } catch (err) {
      return this.fail(Status.INTERNAL, `Error deserializing request: ${errorText(err)}`);
    }
    const connection = this.connection;
    if (connection.queuedAnswerBytes > this.accounts.maxQueuedAnswerBytes) connection.waiting.push(this);
    else this.run();
  }

  /** Runs the handler on the decoded request. */
  run(): void {
    if (this.finished) return;
    const handler = this.handler!;
    if (handler.kind === 'unary') runUnary(this, handler.method, handler.response, this.request);
    else void runServerStream(this, handler.method, handler.response, this.request);
  }

  onClose(): void {
    this.closed = true;
    this.releaseRequest();
    this.wakeDrainWaiters();
    if (this.queued > 0) {
      this.connection.queuedAnswerBytes -= this.queued;
      this.queued = 0;
      runWaiting(this.connection, this.accounts.maxQueuedAnswerBytes);
    }
    if (this.lastQueued && --this.accounts.answersInFlight === 0) wakeAfterAnswers(this.accounts);
    if (this.finished) return;
    this.finish();
    this.cancel(new Error(`${this.path} was cancelled by the client`));
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
    if (this.gone) return;
    if (this.extraTrailers) this.trailers = { ...OK_TRAILERS, ...this.extraTrailers };
    const framed = frame(message);
    this.queued = framed.length;
    this.connection.queuedAnswerBytes += framed.length;
    this.sendHeaders();
    this.queueLast();
    this.stream.end(framed);
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
    if (this.gone) return true;
    if (!this.headersSent) {
      this.sendHeaders();
      this.stream.on('drain', onCallDrain);
    }
    return this.stream.write(frame(message));
  }

  /** Resolves when the stream can take more, or the call is over. */
  drained(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => (this.drainWaiters ??= []).push(resolve));
  }

  /** Ends a stream with status OK (after any messages). */
  end(): void {
    if (this.finished) return;
    this.finish();
    if (this.gone) return;
    if (this.extraTrailers) this.trailers = { ...OK_TRAILERS, ...this.extraTrailers };
    this.sendHeaders();
    this.queueLast();
    this.stream.end();
  }

  /** Ends the call with an error status: in trailers after headers, or as the only headers. */
  fail(code: number, details: string, trailers?: Readonly<Record<string, string>>): void {
    if (this.finished) return;
    this.finish();
    this.releaseRequest();
    if (this.gone) return;
    const status = {
      ...this.extraTrailers,
      ...trailers,
      'grpc-status': String(code),
      'grpc-message': percentEncode(details),
    };
    this.queueLast();
    if (this.headersSent) {
      this.trailers = status;
      this.stream.end();
      return;
    }
    this.headersSent = true;
    this.stream.respond({ ...RESPONSE_HEADERS, ...status }, ONLY_HEADERS);
    // The client may still be sending: it is told to stop, without error (RFC 9113 §8.1).
    if (this.reading !== undefined && !this.remoteEnded) this.stream.close(NGHTTP2_NO_ERROR);
  }

  wakeDrainWaiters(): void {
    const waiters = this.drainWaiters;
    if (waiters === undefined || waiters.length === 0) return;
    this.drainWaiters = undefined;
    for (const wake of waiters) wake();
  }

  private queueLast(): void {
    this.lastQueued = true;
    this.accounts.answersInFlight++;
  }

  private sendHeaders(metadata?: Readonly<Record<string, string>>): void {
    if (this.headersSent) return;
    this.headersSent = true;
    this.stream.on('wantTrailers', onWantTrailers);
    this.stream.respond(metadata ? { ...metadata, ...RESPONSE_HEADERS } : RESPONSE_HEADERS, WITH_TRAILERS);
  }

  private releaseRequest(): void {
    if (this.received === 0) return;
    this.accounts.bufferedRequestBytes -= this.received;
    this.received = 0;
    this.chunks = [];
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
}

/** Runs a connection's calls that waited for its client to read answers, while it has read enough. */
export function runWaiting(connection: Connection, maxQueuedAnswerBytes: number): void {
  while (connection.waiting.length > 0 && connection.queuedAnswerBytes <= maxQueuedAnswerBytes)
    connection.waiting.shift()!.run();
}

function wakeAfterAnswers(accounts: Accounts): void {
  const waiters = accounts.afterAnswers;
  accounts.afterAnswers = [];
  for (const wake of waiters) wake();
}

/** A message with gRPC's 5-byte prefix (not compressed, 32-bit big-endian length). */
function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(message.length + 5);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
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
  if (err instanceof StatusError) call.fail(err.code, err.details, err.trailers);
  else call.fail(Status.UNKNOWN, errorText(err));
}
