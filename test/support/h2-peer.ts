/**
 * A raw HTTP/2 peer for tests: it writes whatever frames a test gives it, well-formed or not, over
 * node:net or node:tls (ALPN h2, with the client certificate a provider trusts), and records the
 * frames the server sends back. It is the hostile or buggy client the server must survive; it keeps
 * no HTTP/2 rules itself.
 */
import { connect as connectNet, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export const FrameType = {
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

export const Flag = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;

export const ErrorCode = {
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

export interface Frame {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

export function frameBytes(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** A SETTINGS frame with these (id, value) entries. */
export function settingsFrame(entries: ReadonlyArray<readonly [number, number]> = []): Buffer {
  const payload = Buffer.alloc(entries.length * 6);
  entries.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, i * 6);
    payload.writeUInt32BE(value, i * 6 + 2);
  });
  return frameBytes(FrameType.SETTINGS, 0, 0, payload);
}

/** An HPACK integer (RFC 7541 §5.1) with an N-bit prefix; `high` holds the bits above the prefix. */
export function hpackInteger(value: number, prefixBits: number, high = 0): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([high | value]);
  const bytes = [high | max];
  let rest = value - max;
  while (rest >= 128) {
    bytes.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

const hpackString = (text: string): Buffer => {
  const bytes = Buffer.from(text, 'latin1');
  return Buffer.concat([hpackInteger(bytes.length, 7), bytes]);
};

/** Header fields as literals without indexing and without Huffman coding (RFC 7541 §6.2.2). */
export function literalHeaders(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  return Buffer.concat(fields.flatMap(([name, value]) => [Buffer.from([0]), hpackString(name), hpackString(value)]));
}

/** One field as a literal with incremental indexing: it enters the dynamic table (RFC 7541 §6.2.1). */
export function indexedLiteral(name: string, value: string): Buffer {
  return Buffer.concat([Buffer.from([0x40]), hpackString(name), hpackString(value)]);
}

/** A reference to the dynamic table's first entry (index 62, RFC 7541 §2.3.3). */
export const FIRST_DYNAMIC_ENTRY = hpackInteger(62, 7, 0x80);

/** The fields of a gRPC request to `path` in the order a client sends them. */
export function grpcRequestFields(
  path: string,
  extra: ReadonlyArray<readonly [string, string]> = [],
): Array<readonly [string, string]> {
  return [
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', path],
    [':authority', 'localhost'],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
    ...extra,
  ];
}

/** A message with gRPC's 5-byte prefix. */
export function grpcMessage(message: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.alloc(message.length + 5);
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

/** A whole unary request on one stream: HEADERS, then the message in DATA with END_STREAM. */
export function unaryRequest(streamId: number, path: string, message: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([
    frameBytes(FrameType.HEADERS, Flag.END_HEADERS, streamId, literalHeaders(grpcRequestFields(path))),
    frameBytes(FrameType.DATA, Flag.END_STREAM, streamId, grpcMessage(message)),
  ]);
}

export interface PeerTarget {
  host: string;
  port: number;
  /** Mutual TLS: the server's certificate as the only root, and our identity. Plaintext without. */
  tls?: { caPem: string; keyPem: string; certPem: string };
}

/** A connection that records the frames it receives. */
export class RawPeer {
  readonly frames: Frame[] = [];
  /** Bytes received before they form a frame. */
  private input: Buffer = Buffer.alloc(0);
  private listeners: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.input = this.input.length === 0 ? chunk : Buffer.concat([this.input, chunk]);
      let at = 0;
      while (this.input.length - at >= 9) {
        const length = this.input.readUIntBE(at, 3);
        if (this.input.length - at < 9 + length) break;
        this.frames.push({
          type: this.input[at + 3]!,
          flags: this.input[at + 4]!,
          streamId: this.input.readUInt32BE(at + 5) & 0x7fffffff,
          payload: Buffer.from(this.input.subarray(at + 9, at + 9 + length)),
        });
        at += 9 + length;
      }
      this.input = this.input.subarray(at);
      this.notify();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.notify();
    });
  }

  /** Connects; with `handshake`, also sends the preface and an empty SETTINGS. */
  static connect(target: PeerTarget, handshake = true): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const socket = target.tls
        ? connectTls({
            host: target.host,
            port: target.port,
            servername: 'localhost',
            ca: target.tls.caPem,
            key: target.tls.keyPem,
            cert: target.tls.certPem,
            ALPNProtocols: ['h2'],
          })
        : connectNet(target.port, target.host);
      socket.once(target.tls ? 'secureConnect' : 'connect', () => {
        socket.off('error', reject);
        const peer = new RawPeer(socket);
        if (handshake) peer.write(Buffer.concat([PREFACE, settingsFrame()]));
        resolve(peer);
      });
      socket.once('error', reject);
    });
  }

  /**
   * Connects with the handshake, takes the server's first frames, then stops reading: the peer that
   * never reads, whose answers must not pile up in the server's memory.
   */
  static async connectNotReading(target: PeerTarget): Promise<RawPeer> {
    const peer = await RawPeer.connect(target);
    await new Promise((resolve) => setTimeout(resolve, 100));
    peer.socket.pause();
    return peer;
  }

  /**
   * Grants the server all the flow-control window HTTP/2 allows, on the connection and on every
   * stream, as a client that reads everything would; without it the server may send only 64 KiB in
   * all, and which streams get it is its own choice (Node 20 and 22 choose differently).
   */
  openWindows(): void {
    const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    const MAX_WINDOW = 0x7fffffff;
    const increment = Buffer.alloc(4);
    increment.writeUInt32BE(MAX_WINDOW - 65_535);
    this.write(
      Buffer.concat([
        settingsFrame([[SETTINGS_INITIAL_WINDOW_SIZE, MAX_WINDOW]]),
        frameBytes(FrameType.WINDOW_UPDATE, 0, 0, increment),
      ]),
    );
  }

  write(bytes: Buffer): boolean {
    if (this.closed || this.socket.destroyed) return false;
    return this.socket.write(bytes);
  }

  /** Writes and waits until the socket takes more (or is closed); false once the connection is gone. */
  async send(bytes: Buffer): Promise<boolean> {
    if (this.write(bytes)) return true;
    if (this.closed) return false;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
    return !this.closed;
  }

  /** Resolves with the first frame received that matches (looking at all received so far), or undefined when the connection closes or `ms` pass. */
  waitFor(match: (frame: Frame) => boolean, ms = 5000): Promise<Frame | undefined> {
    return new Promise((resolve) => {
      let seen = 0;
      const check = () => {
        for (; seen < this.frames.length; seen++) {
          if (match(this.frames[seen]!)) return finish(this.frames[seen]);
        }
        if (this.closed) finish(undefined);
      };
      const timer = setTimeout(() => finish(undefined), ms);
      const finish = (frame: Frame | undefined) => {
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== check);
        resolve(frame);
      };
      this.listeners.push(check);
      check();
    });
  }

  /** The GOAWAY received (its error code), or undefined if none came before the connection closed or `ms` passed. */
  async goAway(ms = 5000): Promise<number | undefined> {
    const frame = await this.waitFor((f) => f.type === FrameType.GOAWAY, ms);
    return frame?.payload.readUInt32BE(4);
  }

  /** The RST_STREAM received on a stream (its error code), or undefined. */
  async reset(streamId: number, ms = 5000): Promise<number | undefined> {
    const frame = await this.waitFor((f) => f.type === FrameType.RST_STREAM && f.streamId === streamId, ms);
    return frame?.payload.readUInt32BE(0);
  }

  /** Resolves true once the server has closed the connection, false if it is still open after `ms`. */
  whenClosed(ms = 5000): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  destroy(): void {
    this.socket.destroy();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
