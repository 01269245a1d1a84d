/**
 * The server side of one HTTP/2 connection (RFC 9113), as much as a gRPC server needs: client streams
 * with their header blocks, request bodies and trailers, answers as header blocks and DATA under both
 * flow-control windows, SETTINGS, PING, WINDOW_UPDATE, RST_STREAM and GOAWAY. Frames go out in one
 * socket write per turn of the event loop, so a unary answer (headers, message, trailers) is one TLS
 * record. It replaces node:http2 for the provider's server: Node's stream objects cost a go-plugin
 * server most of its CPU per call (README, "Benchmarks"). Whatever a client sends, the worst outcome
 * is a GOAWAY and a closed connection; nothing is thrown to the caller.
 */
import type { Socket } from 'node:net';
import { CompressionError, HpackDecoder } from './hpack.js';

const FrameType = {
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
} as const;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;

const ErrorCode = {
  NO_ERROR: 0,
  PROTOCOL_ERROR: 1,
  INTERNAL_ERROR: 2,
  FLOW_CONTROL_ERROR: 3,
  STREAM_CLOSED: 5,
  FRAME_SIZE_ERROR: 6,
  REFUSED_STREAM: 7,
  CANCEL: 8,
  COMPRESSION_ERROR: 9,
  ENHANCE_YOUR_CALM: 11,
} as const;

const Setting = { INITIAL_WINDOW_SIZE: 4, MAX_FRAME_SIZE: 5 } as const;

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const DEFAULT_WINDOW = 65_535;
const MAX_WINDOW = 2 ** 31 - 1;
/** What we let a client send before it hears from us, per stream and per connection. */
const RECEIVE_WINDOW = 16 * 1024 * 1024;
/** The frames we accept are at most the default size: we never raise SETTINGS_MAX_FRAME_SIZE. */
const MAX_RECEIVED_FRAME = 16_384;
/** A header block larger than this (with its CONTINUATIONs) ends the connection. */
const MAX_HEADER_BLOCK = 1024 * 1024;
/** Queued answer bytes beyond which write() asks the writer to wait for onDrain. */
const HIGH_WATER = 64 * 1024;
/** Where a connection schedules its one write per turn of the event loop. */
const RESOLVED = Promise.resolve();

/** A connection-level failure: GOAWAY with this code, then close. */
class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the server's stream handler sets to hear about one stream. */
export interface StreamListener {
  /** A piece of the request body. */
  onData(chunk: Buffer): void;
  /** The client finished its side (END_STREAM). */
  onEnd(): void;
  /** The stream is gone before we finished it: reset by the client, or the connection ended. */
  onClose(): void;
  /** Queued answer bytes fell back below the high-water mark. */
  onDrain?(): void;
}

type Outgoing = { headers: Buffer; end: boolean } | { data: Buffer; sent: number; end: boolean };

/** One client stream. Header names are lower-case; values are Latin-1 strings. */
export class ServerStream {
  listener: StreamListener | undefined;
  /** Neither side sends any more, or the stream was reset. */
  closed = false;
  remoteEnded = false;
  /** Our END_STREAM is queued: nothing more may be queued. */
  localEnded = false;
  sendWindow: number;
  /** Received bytes not yet returned to the client's window. */
  unacknowledged = 0;
  readonly queue: Outgoing[] = [];
  queuedBytes = 0;
  private aboveHighWater = false;

  constructor(
    readonly id: number,
    readonly headers: ReadonlyMap<string, string>,
    private readonly connection: Http2Connection,
    initialWindow: number,
  ) {
    this.sendWindow = initialWindow;
  }

  /** Sends a header block; with `end`, it ends our side (a trailers-only answer, or trailers). */
  respond(block: Buffer, end: boolean): void {
    if (this.closed || this.localEnded) return;
    this.localEnded = end;
    this.queue.push({ headers: block, end });
    this.connection.flushStream(this);
  }

  /** Queues body bytes; false when the client is behind (wait for onDrain). */
  write(data: Buffer, end = false): boolean {
    if (this.closed || this.localEnded) return true;
    this.localEnded = end;
    this.queue.push({ data, sent: 0, end });
    this.queuedBytes += data.length;
    this.connection.flushStream(this);
    if (this.queuedBytes > HIGH_WATER) this.aboveHighWater = true;
    return !this.aboveHighWater;
  }

  /** @internal after queued bytes went out. */
  sentSome(bytes: number): void {
    this.queuedBytes -= bytes;
    if (this.aboveHighWater && this.queuedBytes <= HIGH_WATER) {
      this.aboveHighWater = false;
      this.listener?.onDrain?.();
    }
  }
}

export class Http2Connection {
  private readonly streams = new Map<number, ServerStream>();
  private readonly decoder = new HpackDecoder();
  private input: Buffer | undefined;
  private prefaceSeen = false;
  private settingsSeen = false;
  private lastStreamId = 0;
  /** A header block in progress: HEADERS without END_HEADERS, then CONTINUATIONs. */
  private partialHeaders: { streamId: number; flags: number; pieces: Buffer[]; length: number } | undefined;
  private sendWindow = DEFAULT_WINDOW;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = 16_384;
  private receiveWindow = RECEIVE_WINDOW;
  private unacknowledged = 0;
  private readonly blocked = new Set<ServerStream>();
  private outbox: Buffer[] = [];
  private flushScheduled = false;
  private ended = false;

  constructor(
    private readonly socket: Socket,
    private readonly onStream: (stream: ServerStream) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.terminate());
    socket.on('close', () => this.terminate());
    socket.on('end', () => this.terminate());
    // Our SETTINGS: a larger initial stream window; then the connection's own window to match.
    const settings = Buffer.alloc(6);
    settings.writeUInt16BE(Setting.INITIAL_WINDOW_SIZE, 0);
    settings.writeUInt32BE(RECEIVE_WINDOW, 2);
    this.frame(FrameType.SETTINGS, 0, 0, settings);
    this.windowUpdate(0, RECEIVE_WINDOW - DEFAULT_WINDOW);
  }

  // ---- input ---------------------------------------------------------------------------------

  private receive(chunk: Buffer): void {
    if (this.ended) return;
    let buffer = this.input ? Buffer.concat([this.input, chunk]) : chunk;
    this.input = undefined;
    try {
      if (!this.prefaceSeen) {
        const compared = Math.min(buffer.length, PREFACE.length);
        if (!buffer.subarray(0, compared).equals(PREFACE.subarray(0, compared)))
          throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'not an HTTP/2 connection preface');
        if (buffer.length < PREFACE.length) {
          this.input = buffer;
          return;
        }
        this.prefaceSeen = true;
        buffer = buffer.subarray(PREFACE.length);
      }
      let at = 0;
      while (buffer.length - at >= 9 && !this.ended) {
        const length = buffer.readUIntBE(at, 3);
        if (length > MAX_RECEIVED_FRAME)
          throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, `frame of ${length} bytes`);
        if (buffer.length - at < 9 + length) break;
        const type = buffer[at + 3]!;
        const flags = buffer[at + 4]!;
        const streamId = buffer.readUInt32BE(at + 5) & 0x7fffffff;
        this.handleFrame(type, flags, streamId, buffer.subarray(at + 9, at + 9 + length));
        at += 9 + length;
      }
      if (at < buffer.length && !this.ended) this.input = Buffer.from(buffer.subarray(at));
    } catch (err) {
      if (err instanceof ConnectionError) this.goAway(err.code);
      else if (err instanceof CompressionError) this.goAway(ErrorCode.COMPRESSION_ERROR);
      else this.goAway(ErrorCode.INTERNAL_ERROR);
    }
  }

  private handleFrame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (!this.settingsSeen && type !== FrameType.SETTINGS)
      throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'the first frame must be SETTINGS');
    if (this.partialHeaders && type !== FrameType.CONTINUATION)
      throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a header block was interrupted');
    switch (type) {
      case FrameType.DATA:
        return this.onDataFrame(flags, streamId, payload);
      case FrameType.HEADERS:
        return this.onHeadersFrame(flags, streamId, payload);
      case FrameType.CONTINUATION:
        return this.onContinuation(flags, streamId, payload);
      case FrameType.PRIORITY:
        if (streamId === 0 || payload.length !== 5)
          throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'malformed PRIORITY');
        return;
      case FrameType.RST_STREAM:
        return this.onReset(streamId, payload);
      case FrameType.SETTINGS:
        return this.onSettings(flags, streamId, payload);
      case FrameType.PUSH_PROMISE:
        throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a client may not push');
      case FrameType.PING:
        if (streamId !== 0 || payload.length !== 8)
          throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'malformed PING');
        if (!(flags & ACK)) this.frame(FrameType.PING, ACK, 0, payload);
        return;
      case FrameType.GOAWAY:
        // The client starts no more streams; it closes the connection when it is done with ours.
        return;
      case FrameType.WINDOW_UPDATE:
        return this.onWindowUpdate(streamId, payload);
      default:
        return; // Unknown frame types are ignored (RFC 9113 §4.1).
    }
  }

  /** The payload of a frame that may be PADDED, without its padding. */
  private unpadded(flags: number, payload: Buffer): Buffer {
    if (!(flags & PADDED)) return payload;
    if (payload.length < 1) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'padding without a length');
    const padding = payload[0]!;
    if (padding >= payload.length) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'padding too long');
    return payload.subarray(1, payload.length - padding);
  }

  private onDataFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'DATA on stream 0');
    // The whole frame counts against the windows, padding included.
    this.receiveWindow -= payload.length;
    if (this.receiveWindow < 0) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'window exceeded');
    this.unacknowledged += payload.length;
    if (this.unacknowledged >= RECEIVE_WINDOW / 2) {
      this.windowUpdate(0, this.unacknowledged);
      this.receiveWindow += this.unacknowledged;
      this.unacknowledged = 0;
    }
    const body = this.unpadded(flags, payload);
    const stream = this.streams.get(streamId);
    if (!stream || stream.remoteEnded) {
      if (streamId > this.lastStreamId) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'DATA on an idle stream');
      // A stream we finished or reset: what was in flight is ignored (RFC 9113 §5.4.2).
      return;
    }
    stream.unacknowledged += payload.length;
    if (stream.unacknowledged >= RECEIVE_WINDOW / 2 && !(flags & END_STREAM)) {
      this.windowUpdate(streamId, stream.unacknowledged);
      stream.unacknowledged = 0;
    }
    if (body.length > 0) stream.listener?.onData(body);
    if (flags & END_STREAM) this.remoteEnd(stream);
  }

  private onHeadersFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0 || streamId % 2 === 0)
      throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, `HEADERS on stream ${streamId}`);
    let block = this.unpadded(flags, payload);
    if (flags & PRIORITY) {
      if (block.length < 5) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'malformed priority');
      block = block.subarray(5);
    }
    if (flags & END_HEADERS) return this.onHeaderBlock(flags, streamId, block);
    this.partialHeaders = { streamId, flags, pieces: [Buffer.from(block)], length: block.length };
  }

  private onContinuation(flags: number, streamId: number, payload: Buffer): void {
    const partial = this.partialHeaders;
    if (!partial || partial.streamId !== streamId)
      throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'CONTINUATION without its HEADERS');
    partial.length += payload.length;
    if (partial.length > MAX_HEADER_BLOCK)
      throw new ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, 'header block too large');
    partial.pieces.push(Buffer.from(payload));
    if (!(flags & END_HEADERS)) return;
    this.partialHeaders = undefined;
    this.onHeaderBlock(partial.flags, streamId, Buffer.concat(partial.pieces, partial.length));
  }

  private onHeaderBlock(flags: number, streamId: number, block: Buffer): void {
    // Decoded whatever becomes of the stream: the decoder's table must follow every block.
    const fields = this.decoder.decode(block);
    const existing = this.streams.get(streamId);
    if (existing) {
      // Trailers: they must end the client's side.
      if (existing.remoteEnded || !(flags & END_STREAM)) return this.resetStream(existing, ErrorCode.PROTOCOL_ERROR);
      return this.remoteEnd(existing);
    }
    // Trailers of a stream we finished or reset are ignored, like its DATA.
    if (streamId <= this.lastStreamId) return;
    this.lastStreamId = streamId;
    const headers = new Map<string, string>();
    for (const [name, value] of fields) {
      const previous = headers.get(name);
      headers.set(name, previous === undefined ? value : `${previous}, ${value}`);
    }
    const stream = new ServerStream(streamId, headers, this, this.peerInitialWindow);
    this.streams.set(streamId, stream);
    this.onStream(stream);
    if (flags & END_STREAM) this.remoteEnd(stream);
  }

  private onReset(streamId: number, payload: Buffer): void {
    if (streamId === 0 || payload.length !== 4) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'bad RST_STREAM');
    const stream = this.streams.get(streamId);
    if (stream) this.close(stream, true);
  }

  private onSettings(flags: number, streamId: number, payload: Buffer): void {
    if (streamId !== 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & ACK) {
      if (payload.length !== 0) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'SETTINGS ACK with a payload');
      return;
    }
    if (payload.length % 6 !== 0) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'SETTINGS length');
    this.settingsSeen = true;
    for (let at = 0; at < payload.length; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === Setting.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'initial window too large');
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const stream of this.streams.values()) {
          stream.sendWindow += delta;
          if (stream.sendWindow > MAX_WINDOW)
            throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'stream window too large');
        }
      } else if (id === Setting.MAX_FRAME_SIZE) {
        if (value < 16_384 || value > 16_777_215)
          throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'bad SETTINGS_MAX_FRAME_SIZE');
        this.peerMaxFrame = value;
      } else if (id === 2 && value > 1) {
        throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'bad SETTINGS_ENABLE_PUSH');
      }
      // HEADER_TABLE_SIZE: our header blocks never index, so any size suits them. The others advise.
    }
    this.frame(FrameType.SETTINGS, ACK, 0, Buffer.alloc(0));
    this.flushBlocked();
  }

  private onWindowUpdate(streamId: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'WINDOW_UPDATE length');
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (streamId === 0) {
      if (increment === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'WINDOW_UPDATE of 0');
      this.sendWindow += increment;
      if (this.sendWindow > MAX_WINDOW) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'window too large');
      this.flushBlocked();
      return;
    }
    const stream = this.streams.get(streamId);
    if (!stream) return;
    if (increment === 0) return this.resetStream(stream, ErrorCode.PROTOCOL_ERROR);
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) return this.resetStream(stream, ErrorCode.FLOW_CONTROL_ERROR);
    this.flushStream(stream);
  }

  private remoteEnd(stream: ServerStream): void {
    stream.remoteEnded = true;
    // A stream we have finished is already closed (flushStream), so the client's end is all there is.
    stream.listener?.onEnd();
  }

  // ---- output --------------------------------------------------------------------------------

  /** @internal Sends what the windows allow of a stream's queue. */
  flushStream(stream: ServerStream): void {
    if (stream.closed || this.ended) return;
    const queue = stream.queue;
    while (queue.length > 0) {
      const head = queue[0]!;
      if ('headers' in head) {
        this.headerFrames(stream.id, head.headers, head.end);
        queue.shift();
        continue;
      }
      const remaining = head.data.length - head.sent;
      const size = Math.min(remaining, this.sendWindow, stream.sendWindow, this.peerMaxFrame);
      if (size <= 0 && remaining > 0) {
        this.blocked.add(stream);
        return;
      }
      const last = size === remaining;
      this.frame(
        FrameType.DATA,
        last && head.end ? END_STREAM : 0,
        stream.id,
        head.data.subarray(head.sent, head.sent + size),
      );
      head.sent += size;
      this.sendWindow -= size;
      stream.sendWindow -= size;
      stream.sentSome(size);
      if (last) queue.shift();
    }
    this.blocked.delete(stream);
    if (stream.localEnded) {
      if (!stream.remoteEnded) {
        // We answered before the client finished sending: ask it to stop, without error (RFC 9113 §8.1).
        this.rstFrame(stream.id, ErrorCode.NO_ERROR);
      }
      this.close(stream, false);
    }
  }

  private flushBlocked(): void {
    for (const stream of [...this.blocked]) this.flushStream(stream);
  }

  /** A header block as HEADERS and, past the peer's frame size, CONTINUATIONs. */
  private headerFrames(streamId: number, block: Buffer, end: boolean): void {
    const endFlag = end ? END_STREAM : 0;
    if (block.length <= this.peerMaxFrame) {
      this.frame(FrameType.HEADERS, END_HEADERS | endFlag, streamId, block);
      return;
    }
    for (let at = 0; at < block.length; at += this.peerMaxFrame) {
      const piece = block.subarray(at, at + this.peerMaxFrame);
      const lastPiece = at + this.peerMaxFrame >= block.length;
      const type = at === 0 ? FrameType.HEADERS : FrameType.CONTINUATION;
      this.frame(type, (lastPiece ? END_HEADERS : 0) | (at === 0 ? endFlag : 0), streamId, piece);
    }
  }

  private resetStream(stream: ServerStream, code: number): void {
    this.rstFrame(stream.id, code);
    this.close(stream, true);
  }

  private rstFrame(streamId: number, code: number): void {
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(code, 0);
    this.frame(FrameType.RST_STREAM, 0, streamId, payload);
  }

  private windowUpdate(streamId: number, increment: number): void {
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(increment, 0);
    this.frame(FrameType.WINDOW_UPDATE, 0, streamId, payload);
  }

  /** Ends a stream; `abnormal` tells its listener it was cut off. */
  private close(stream: ServerStream, abnormal: boolean): void {
    if (stream.closed) return;
    stream.closed = true;
    this.streams.delete(stream.id);
    this.blocked.delete(stream);
    stream.queue.length = 0;
    if (abnormal) stream.listener?.onClose();
  }

  private frame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (this.ended) return;
    const header = Buffer.allocUnsafe(9);
    header.writeUIntBE(payload.length, 0, 3);
    header[3] = type;
    header[4] = flags;
    header.writeUInt32BE(streamId, 5);
    this.outbox.push(header);
    if (payload.length > 0) this.outbox.push(payload);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // A promise reaction rather than queueMicrotask, which makes an AsyncResource per call on Node 20.
      RESOLVED.then(this.flush);
    }
  }

  private readonly flush = (): void => this.writeOut();

  private writeOut(): void {
    this.flushScheduled = false;
    const pieces = this.outbox;
    this.outbox = [];
    if (this.ended || pieces.length === 0) return;
    this.socket.write(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));
  }

  /** Ends the connection with GOAWAY (the code says why); open streams are told they were cut off. */
  private goAway(code: number): void {
    if (this.ended) return;
    const payload = Buffer.allocUnsafe(8);
    payload.writeUInt32BE(this.lastStreamId, 0);
    payload.writeUInt32BE(code, 4);
    this.frame(FrameType.GOAWAY, 0, 0, payload);
    this.writeOut();
    this.terminate();
  }

  private terminate(): void {
    if (this.ended) return;
    this.writeOut(); // What was already answered still goes out, if the socket can take it.
    this.ended = true;
    for (const stream of [...this.streams.values()]) this.close(stream, true);
    this.socket.destroySoon?.();
  }
}
