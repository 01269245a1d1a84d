/**
 * A gRPC API that misbehaves, for tests of the vdb client and provider: it speaks HTTP/2 frame by
 * frame (./h2-peer.ts), so it can send what no well-made server library would.
 */
import { type Server, type Socket, createServer } from 'node:net';
import { Flag, FrameType, frameBytes, literalHeaders, settingsFrame } from './h2-peer.js';

export type HostileBehaviour =
  /** Answers every call with a message whose prefix says 100 MiB, then streams bytes without end. */
  | 'endless-message'
  /** Answers every call with a header block of ~1 MB (2,000 fields), in HEADERS and CONTINUATION frames. */
  | 'header-flood'
  /** Completes the HTTP/2 handshake, takes the calls and never answers them. */
  | 'never-answers'
  /** Accepts the connection and neither reads nor writes a byte. */
  | 'silent';

export interface HostileGrpcApi {
  /** `http://127.0.0.1:PORT`, for the client's plaintext-on-loopback URL. */
  readonly url: string;
  /** Requests whose headers it received (streams opened by the client). */
  requests(): number;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

export async function startHostileGrpcApi(behaviour: HostileBehaviour): Promise<HostileGrpcApi> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (behaviour === 'silent') {
      socket.pause();
      return;
    }
    // Our SETTINGS, and an acknowledgement of the client's (sent unseen: it has no options we mind).
    socket.write(Buffer.concat([settingsFrame(), frameBytes(FrameType.SETTINGS, Flag.ACK, 0)]));
    let input = Buffer.alloc(0);
    let prefaceRead = false;
    socket.on('data', (chunk: Buffer) => {
      input = Buffer.concat([input, chunk]);
      if (!prefaceRead) {
        if (input.length < 24) return;
        input = input.subarray(24);
        prefaceRead = true;
      }
      while (input.length >= 9) {
        const length = input.readUIntBE(0, 3);
        if (input.length < 9 + length) break;
        const type = input[3]!;
        const streamId = input.readUInt32BE(5) & 0x7fffffff;
        input = input.subarray(9 + length);
        if (type === FrameType.HEADERS) {
          requests++;
          answer(socket, streamId, behaviour);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const RESPONSE_FIELDS: Array<readonly [string, string]> = [
  [':status', '200'],
  ['content-type', 'application/grpc'],
];

function answer(socket: Socket, streamId: number, behaviour: HostileBehaviour): void {
  if (behaviour === 'never-answers') return;
  if (behaviour === 'header-flood') {
    const fields = [...RESPONSE_FIELDS];
    for (let i = 0; i < 2_000; i++) fields.push([`x-flood-${i}`, 'v'.repeat(500)]);
    const block = literalHeaders(fields);
    const frames: Buffer[] = [];
    for (let at = 0; at < block.length; at += 16_384) {
      const last = at + 16_384 >= block.length;
      const type = at === 0 ? FrameType.HEADERS : FrameType.CONTINUATION;
      frames.push(frameBytes(type, last ? Flag.END_HEADERS : 0, streamId, block.subarray(at, at + 16_384)));
    }
    socket.write(Buffer.concat(frames));
    return;
  }
  // endless-message: headers, then a message said to be 100 MiB, in DATA frames until the client leaves.
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(100 * MiB, 1);
  socket.write(
    Buffer.concat([
      frameBytes(FrameType.HEADERS, Flag.END_HEADERS, streamId, literalHeaders(RESPONSE_FIELDS)),
      frameBytes(FrameType.DATA, 0, streamId, prefix),
    ]),
  );
  const data = frameBytes(FrameType.DATA, 0, streamId, Buffer.alloc(16_384, 0x20));
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(data);
  }, 1);
  socket.on('close', () => clearInterval(timer));
}
