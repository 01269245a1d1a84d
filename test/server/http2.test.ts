// The provider's own HTTP/2 server (src/server/http2) under the gRPC server: HPACK against RFC 7541's
// examples and against nghttp2's encoder (node:http2's client), flow control both ways, frame sizes,
// cancellation, PING, and what a misbehaving client gets: a GOAWAY with the right code, while the
// server goes on serving new connections.
import { expect } from 'chai';
import fc from 'fast-check';
import { connect as connectNet, createServer as createNetServer, type Socket } from 'node:net';
import { connect as connectHttp2, constants, type ClientHttp2Session } from 'node:http2';
import { GrpcServer, type CallContext } from '../../src/server/grpc-server.js';
import { CompressionError, HpackDecoder } from '../../src/server/http2/hpack.js';

const dehex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('HPACK decoder', () => {
  // RFC 7541 C.3 (literals) and C.4 (the same requests, Huffman-coded), one decoder per series.
  const requests = [
    [
      [':method', 'GET'],
      [':scheme', 'http'],
      [':path', '/'],
      [':authority', 'www.example.com'],
    ],
    [
      [':method', 'GET'],
      [':scheme', 'http'],
      [':path', '/'],
      [':authority', 'www.example.com'],
      ['cache-control', 'no-cache'],
    ],
    [
      [':method', 'GET'],
      [':scheme', 'https'],
      [':path', '/index.html'],
      [':authority', 'www.example.com'],
      ['custom-key', 'custom-value'],
    ],
  ];
  it('decodes RFC 7541 C.3, requests without Huffman coding', () => {
    const decoder = new HpackDecoder();
    const blocks = [
      '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
      '8286 84be 5808 6e6f 2d63 6163 6865',
      '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65',
    ];
    blocks.forEach((block, i) => expect(decoder.decode(dehex(block))).to.deep.equal(requests[i]));
  });
  it('decodes RFC 7541 C.4, the same requests with Huffman coding', () => {
    const decoder = new HpackDecoder();
    const blocks = [
      '8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff',
      '8286 84be 5886 a8eb 1064 9cbf',
      '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf',
    ];
    blocks.forEach((block, i) => expect(decoder.decode(dehex(block))).to.deep.equal(requests[i]));
  });
  it('decodes RFC 7541 C.6, Huffman-coded responses with a 256-byte table that evicts', () => {
    const decoder = new HpackDecoder(256);
    const first = [
      [':status', '302'],
      ['cache-control', 'private'],
      ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'],
      ['location', 'https://www.example.com'],
    ];
    expect(
      decoder.decode(
        dehex(`4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
               2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`),
      ),
    ).to.deep.equal(first);
    expect(decoder.decode(dehex('4883 640e ffc1 c0bf'))).to.deep.equal([[':status', '307'], ...first.slice(1)]);
    expect(
      decoder.decode(
        dehex(`88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
               77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
               9587 3160 65c0 03ed 4ee5 b106 3d50 07`),
      ),
    ).to.deep.equal([
      [':status', '200'],
      ['cache-control', 'private'],
      ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'],
      ['location', 'https://www.example.com'],
      ['content-encoding', 'gzip'],
      ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1'],
    ]);
    // The first response's own entries were evicted: index 66 is gone.
    expect(() => decoder.decode(dehex('c2'))).to.throw(CompressionError);
  });
  it('refuses bad Huffman padding, EOS, a table size beyond the setting, and a size update after a field', () => {
    // 'a' (00011) padded with zeros instead of ones.
    expect(() => new HpackDecoder().decode(dehex('0001 6181 18'))).to.throw(CompressionError);
    // A literal whose Huffman string is EOS itself (30 ones) and padding.
    expect(() => new HpackDecoder().decode(dehex('0001 6184 ffff ffff'))).to.throw(CompressionError);
    // 4097: 31 + 0x62 + 31 × 128.
    expect(() => new HpackDecoder(4096).decode(dehex('3fe2 1f'))).to.throw(CompressionError);
    expect(new HpackDecoder(4096).decode(dehex('3fe1 1f 82'))).to.deep.equal([[':method', 'GET']]);
    expect(() => new HpackDecoder().decode(dehex('82 20'))).to.throw(CompressionError);
    expect(new HpackDecoder().decode(dehex('20 82'))).to.deep.equal([[':method', 'GET']]);
  });
});

const frameBytes = (type: number, flags: number, streamId: number, payload: Buffer) => {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
};

/** A GrpcServer in plaintext with an echo method, a slow method and a big-answer method. */
async function startServer(): Promise<{ server: GrpcServer; port: number; cancelled: string[] }> {
  const identity = { decode: (b: Buffer) => b, encode: (v: unknown) => v as Buffer };
  const server = new GrpcServer({ maxReceiveMessageBytes: 64 * 1024 * 1024, maxSendMessageBytes: 64 * 1024 * 1024 });
  const cancelled: string[] = [];
  server.unary('/t.T/Echo', identity, identity, (request: Buffer) => request);
  server.unary('/t.T/Big', identity, identity, (request: Buffer) => Buffer.alloc(request.readUInt32BE(0), 7));
  server.unary('/t.T/Slow', identity, identity, (_request: Buffer, call: CallContext) => {
    return new Promise((resolve) => {
      call.signal.addEventListener('abort', () => {
        cancelled.push(String(call.signal.reason?.message));
        resolve(Buffer.alloc(0));
      });
    });
  });
  const port = await server.listen('127.0.0.1');
  return { server, port, cancelled };
}

const grpcFrame = (message: Buffer) => {
  const out = Buffer.alloc(message.length + 5);
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
};

/** One call over node's HTTP/2 client: the status, headers, trailers and body bytes. */
function call(
  session: ClientHttp2Session,
  path: string,
  body: Buffer,
  extraHeaders: Record<string, string> = {},
): Promise<{ headers: Record<string, unknown>; trailers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      ...extraHeaders,
    });
    let headers: Record<string, unknown> = {};
    let trailers: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (headers = { ...h }));
    stream.on('trailers', (t) => (trailers = { ...t }));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve({ headers, trailers, body: Buffer.concat(chunks) }));
    stream.on('error', reject);
    stream.end(grpcFrame(body));
  });
}

describe('HTTP/2 connection under the gRPC server', function () {
  this.timeout(60_000);
  let server: GrpcServer;
  let port: number;
  let cancelled: string[];
  before(async () => {
    ({ server, port, cancelled } = await startServer());
  });
  after(() => server.close());

  it("decodes every header block nghttp2's encoder sends: Huffman-coded, indexed, evicted", async () => {
    // node:http2's client (nghttp2) sends requests with random headers to a socket that records the
    // frames; the decoder must read each block, in order, as what was sent.
    const name = fc.stringMatching(/^x-[a-z0-9-]{1,20}$/);
    const value = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,80}[\x21-\x7e])?$/);
    const sets = fc.sample(fc.dictionary(name, value, { maxKeys: 8 }), { numRuns: 400, seed: 25 });
    const blocks: Buffer[] = [];
    const recorder = createNetServer((socket) => {
      let input = Buffer.alloc(0);
      socket.write(frameBytes(4, 0, 0, Buffer.alloc(0)));
      socket.on('data', (chunk) => {
        input = Buffer.concat([input, chunk]);
        let at = input.subarray(0, 24).toString() === 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' ? 24 : 0;
        while (input.length - at >= 9 && input.length - at >= 9 + input.readUIntBE(at, 3)) {
          const length = input.readUIntBE(at, 3);
          if (input[at + 3] === 1) blocks.push(Buffer.from(input.subarray(at + 9, at + 9 + length)));
          at += 9 + length;
        }
        input = input.subarray(at);
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const session = connectHttp2(`http://127.0.0.1:${(recorder.address() as { port: number }).port}`);
    session.on('error', () => undefined);
    for (const extra of sets) {
      const stream = session.request({ ':method': 'POST', ':path': '/t.T/Echo', ...extra }, { endStream: true });
      stream.on('error', () => undefined);
    }
    for (let i = 0; i < 100 && blocks.length < sets.length; i++) await new Promise((r) => setTimeout(r, 20));
    session.destroy();
    recorder.close();
    expect(blocks.length).to.equal(sets.length);
    const decoder = new HpackDecoder();
    blocks.forEach((block, i) => {
      const fields = decoder.decode(block);
      expect(Object.fromEntries(fields.filter(([n]) => n.startsWith('x-')))).to.deep.equal(sets[i]);
      expect(fields.find(([n]) => n === ':path')).to.deep.equal([':path', '/t.T/Echo']);
    });
  });

  it('answers with headers, the message and grpc-status 0 in trailers', async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const answer = await call(session, '/t.T/Echo', Buffer.from('hello'));
    session.close();
    expect(answer.headers[':status']).to.equal(200);
    expect(answer.headers['content-type']).to.equal('application/grpc+proto');
    expect(answer.trailers['grpc-status']).to.equal('0');
    expect(answer.body.equals(grpcFrame(Buffer.from('hello')))).to.equal(true);
  });

  it("keeps to the client's windows and frame size: a 3 MiB answer to a client with a 1000-byte window", async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`, { settings: { initialWindowSize: 1000 } });
    const request = Buffer.alloc(4);
    request.writeUInt32BE(3 * 1024 * 1024, 0);
    const answer = await call(session, '/t.T/Big', request);
    session.close();
    expect(answer.trailers['grpc-status']).to.equal('0');
    expect(answer.body.length).to.equal(3 * 1024 * 1024 + 5);
    expect(answer.body.subarray(5).every((b) => b === 7)).to.equal(true);
  });

  it('takes a 40 MiB request (beyond its 16 MiB windows) by returning window as it reads', async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const big = Buffer.alloc(40 * 1024 * 1024, 3);
    const answer = await call(session, '/t.T/Echo', big);
    session.close();
    expect(answer.trailers['grpc-status']).to.equal('0');
    expect(answer.body.length).to.equal(big.length + 5);
  });

  it('answers PING, and cancels the method when the client resets its stream', async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    // node's client cancels a PING sent before the server's SETTINGS arrive.
    await new Promise((resolve) => session.once('remoteSettings', resolve));
    const echoed = await new Promise<Buffer>((resolve, reject) =>
      session.ping(Buffer.from('12345678'), (err, _ms, payload) => (err ? reject(err) : resolve(payload))),
    );
    expect(echoed.toString()).to.equal('12345678');
    const stream = session.request({ ':method': 'POST', ':path': '/t.T/Slow', 'content-type': 'application/grpc' });
    stream.on('error', () => undefined);
    stream.end(grpcFrame(Buffer.alloc(0)));
    await new Promise((r) => setTimeout(r, 100));
    stream.close(constants.NGHTTP2_CANCEL);
    for (let i = 0; i < 50 && cancelled.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    session.close();
    expect(cancelled).to.deep.equal(['/t.T/Slow was cancelled by the client']);
  });

  /** Sends raw bytes after the preface and an empty SETTINGS; resolves with the GOAWAY code, if any. */
  function goAwayCodeFor(frames: Buffer): Promise<number | undefined> {
    return new Promise((resolve) => {
      const socket: Socket = connectNet(port, '127.0.0.1');
      let received = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        received = Buffer.concat([received, chunk]);
        for (let at = 0; received.length - at >= 9; ) {
          const length = received.readUIntBE(at, 3);
          if (received.length - at < 9 + length) break;
          if (received[at + 3] === 7) {
            resolve(received.readUInt32BE(at + 9 + 4));
            socket.destroy();
            return;
          }
          at += 9 + length;
        }
      });
      socket.on('close', () => resolve(undefined));
      socket.on('error', () => resolve(undefined));
      socket.write(
        Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frameBytes(4, 0, 0, Buffer.alloc(0)), frames]),
      );
      setTimeout(() => socket.end(), 2000);
    });
  }
  it('ends a misbehaving connection with GOAWAY and the code that says why, and keeps serving others', async () => {
    expect(await goAwayCodeFor(frameBytes(0, 0, 0, Buffer.from('x'))), 'DATA on stream 0').to.equal(1);
    expect(await goAwayCodeFor(frameBytes(0, 0, 99, Buffer.from('x'))), 'DATA on an idle stream').to.equal(1);
    expect(await goAwayCodeFor(frameBytes(0, 0, 1, Buffer.alloc(16_385))), 'frame too large').to.equal(6);
    expect(await goAwayCodeFor(frameBytes(1, 4, 1, dehex('ff7f'))), 'no such table entry').to.equal(9);
    expect(await goAwayCodeFor(frameBytes(1, 4, 2, dehex('82'))), 'even stream id').to.equal(1);
    const interrupted = Buffer.concat([frameBytes(1, 0, 1, dehex('8286')), frameBytes(6, 0, 0, Buffer.alloc(8))]);
    expect(await goAwayCodeFor(interrupted), 'header block interrupted').to.equal(1);
    const window = Buffer.alloc(4);
    window.writeUInt32BE(2 ** 31 - 1, 0);
    expect(await goAwayCodeFor(frameBytes(8, 0, 0, window)), 'window beyond 2^31-1').to.equal(3);
    expect(await goAwayCodeFor(frameBytes(5, 4, 1, Buffer.alloc(4))), 'PUSH_PROMISE from a client').to.equal(1);
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const answer = await call(session, '/t.T/Echo', Buffer.from('still here'));
    session.close();
    expect(answer.body.subarray(5).toString()).to.equal('still here');
  });

  it('reads a request whose headers come in HEADERS and CONTINUATION frames, padded, with priority', async () => {
    const socket: Socket = connectNet(port, '127.0.0.1');
    const fields = Buffer.concat([
      dehex('83 86'), // :method POST, :scheme http
      Buffer.from([0x04, 9]), // :path, literal without indexing, 9 octets
      Buffer.from('/t.T/Echo'),
      Buffer.from([0x0f, 0x10, 16]), // content-type (index 31), literal, 16 octets
      Buffer.from('application/grpc'),
    ]);
    // HEADERS: PADDED | PRIORITY, 3 bytes of padding, 5 bytes of priority, then the first 4 octets.
    const first = Buffer.concat([Buffer.from([3]), Buffer.alloc(5), fields.subarray(0, 4), Buffer.alloc(3)]);
    const bytes = Buffer.concat([
      Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
      frameBytes(4, 0, 0, Buffer.alloc(0)),
      frameBytes(1, 0x08 | 0x20, 1, first),
      frameBytes(9, 0, 1, fields.subarray(4, 10)),
      frameBytes(9, 4, 1, fields.subarray(10)),
      // DATA: PADDED | END_STREAM, 2 bytes of padding.
      frameBytes(
        0,
        0x08 | 0x01,
        1,
        Buffer.concat([Buffer.from([2]), grpcFrame(Buffer.from('pieces')), Buffer.alloc(2)]),
      ),
    ]);
    const received = await new Promise<Buffer>((resolve) => {
      let all = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        all = Buffer.concat([all, chunk]);
        if (all.includes(Buffer.from('pieces'))) setTimeout(() => resolve(all), 50);
      });
      socket.write(bytes);
    });
    socket.destroy();
    // Frames: SETTINGS, WINDOW_UPDATE, SETTINGS ACK, HEADERS, DATA, HEADERS (trailers, END_STREAM).
    const frames: Array<{ type: number; flags: number; stream: number; payload: Buffer }> = [];
    for (let at = 0; at + 9 <= received.length; ) {
      const length = received.readUIntBE(at, 3);
      frames.push({
        type: received[at + 3]!,
        flags: received[at + 4]!,
        stream: received.readUInt32BE(at + 5),
        payload: received.subarray(at + 9, at + 9 + length),
      });
      at += 9 + length;
    }
    const onStream = frames.filter((f) => f.stream === 1);
    expect(onStream.map((f) => [f.type, f.flags])).to.deep.equal([
      [1, 4],
      [0, 0],
      [1, 5],
    ]);
    expect(onStream[1]!.payload.equals(grpcFrame(Buffer.from('pieces')))).to.equal(true);
    expect(new HpackDecoder().decode(onStream[2]!.payload)).to.deep.equal([['grpc-status', '0']]);
  });
});
