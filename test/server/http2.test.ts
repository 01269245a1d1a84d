// The gRPC server (packages/framework/src/wire/grpc-server.ts) over node:http2, in process: answers as headers, one
// message and trailers; flow control both ways; cancellation; PING; requests in CONTINUATION frames;
// what a misbehaving client gets (a GOAWAY with the code that says why, while the server goes on
// serving); and the server's own bounds: request bytes buffered across calls, answers a client has not
// read, connections kept, and deadlines beyond a timer's range. The same bounds under the built
// executables, with their default sizes, are in hostile-peer.test.ts.
import { expect } from 'chai';
import { connect as connectHttp2, constants, type ClientHttp2Session } from 'node:http2';
import {
  GrpcServer,
  Status,
  StatusError,
  type CallContext,
  type GrpcServerOptions,
} from '../../packages/framework/src/wire/grpc-server.js';
import {
  ErrorCode,
  Flag,
  FrameType,
  PREFACE,
  RawPeer,
  frameBytes,
  grpcMessage,
  grpcRequestFields,
  literalHeaders,
  settingsFrame,
  unaryRequest,
} from '../support/h2-peer.js';

const dehex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A GrpcServer in plaintext with an echo method, a slow method and a big-answer method. */
async function startServer(
  options: Partial<GrpcServerOptions> = {},
): Promise<{ server: GrpcServer; port: number; cancelled: string[]; started: string[] }> {
  const identity = { decode: (b: Buffer) => b, encode: (v: unknown) => v as Buffer };
  const server = new GrpcServer({
    maxReceiveMessageBytes: 64 * 1024 * 1024,
    maxSendMessageBytes: 64 * 1024 * 1024,
    ...options,
  });
  const cancelled: string[] = [];
  const started: string[] = [];
  server.unary('/t.T/Echo', identity, identity, (request: Buffer) => request);
  server.unary('/t.T/Fail', identity, identity, () => {
    throw new StatusError(Status.NOT_FOUND, 'no such thing: “ünïcode” 100%\nnext line');
  });
  server.unary(
    '/t.T/Strict',
    {
      decode: (bytes: Buffer) => {
        if (bytes.length > 0) throw new Error('not a valid message');
        return bytes;
      },
      encode: (v: unknown) => v as Buffer,
    },
    identity,
    (request: Buffer) => request,
  );
  server.unary('/t.T/Big', identity, identity, (request: Buffer) => {
    started.push('Big');
    return Buffer.alloc(request.readUInt32BE(0), 7);
  });
  server.unary('/t.T/Slow', identity, identity, (_request: Buffer, call: CallContext) => {
    return new Promise((resolve) => {
      call.signal.addEventListener('abort', () => {
        cancelled.push(String(call.signal.reason?.message));
        resolve(Buffer.alloc(0));
      });
    });
  });
  const port = await server.listen('127.0.0.1');
  return { server, port, cancelled, started };
}

/** One call over node's HTTP/2 client: the status, headers, trailers and body bytes. */
function call(
  session: ClientHttp2Session,
  path: string,
  body: Buffer,
  extraHeaders: Record<string, string> = {},
  framed = grpcMessage(body),
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
    stream.end(framed);
  });
}

/** grpc-status of an answer: in its trailers, or in its only headers. */
function statusOf(answer: { headers: Record<string, unknown>; trailers: Record<string, unknown> }): string {
  return String(answer.trailers['grpc-status'] ?? answer.headers['grpc-status']);
}

/** grpc-message of an answer, as sent (percent-encoded). */
function messageOf(answer: { headers: Record<string, unknown>; trailers: Record<string, unknown> }): string {
  return String(answer.trailers['grpc-message'] ?? answer.headers['grpc-message']);
}

describe('gRPC over node:http2 (in process)', function () {
  this.timeout(60_000);
  let server: GrpcServer;
  let port: number;
  let cancelled: string[];
  before(async () => {
    ({ server, port, cancelled } = await startServer());
  });
  after(() => server.close());
  const plaintext = () => ({ host: '127.0.0.1', port });

  it('answers with headers, the message and grpc-status 0 in trailers', async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const answer = await call(session, '/t.T/Echo', Buffer.from('hello'));
    session.close();
    expect(answer.headers[':status']).to.equal(200);
    expect(answer.headers['content-type']).to.equal('application/grpc+proto');
    expect(answer.headers).not.to.have.property('date');
    expect(answer.trailers['grpc-status']).to.equal('0');
    expect(answer.body.equals(grpcMessage(Buffer.from('hello')))).to.equal(true);
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

  it('takes a 40 MiB request (beyond its windows) by returning window as it reads', async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const big = Buffer.alloc(40 * 1024 * 1024, 3);
    const answer = await call(session, '/t.T/Echo', big);
    session.close();
    expect(answer.trailers['grpc-status']).to.equal('0');
    expect(answer.body.length).to.equal(big.length + 5);
  });

  it('takes new calls while 15 MB of answers wait for the client to read them (node counts them as session memory)', async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(1_500_000, 0);
    // Ten answers the client does not read: all but its 64 KiB windows wait in the server.
    const unread = Array.from({ length: 10 }, () => {
      const stream = session.request({ ':method': 'POST', ':path': '/t.T/Big', 'content-type': 'application/grpc' });
      stream.on('error', () => undefined);
      stream.pause();
      stream.end(grpcMessage(size));
      return stream;
    });
    await sleep(300);
    const meanwhile = await call(session, '/t.T/Echo', Buffer.from('meanwhile'));
    expect(meanwhile.trailers['grpc-status'], 'a call made meanwhile').to.equal('0');
    const lengths = await Promise.all(
      unread.map(
        (stream) =>
          new Promise<number>((resolve) => {
            let bytes = 0;
            stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
            stream.on('end', () => resolve(bytes));
            stream.resume();
          }),
      ),
    );
    session.close();
    expect(lengths).to.deep.equal(Array.from({ length: 10 }, () => 1_500_000 + 5));
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
    stream.end(grpcMessage(Buffer.alloc(0)));
    await sleep(100);
    stream.close(constants.NGHTTP2_CANCEL);
    for (let i = 0; i < 50 && cancelled.length === 0; i++) await sleep(20);
    session.close();
    expect(cancelled).to.deep.equal(['/t.T/Slow was cancelled by the client']);
  });

  it('answers 415 to a request that is not gRPC, and UNIMPLEMENTED for an unknown method', async () => {
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const notGrpc = await call(session, '/t.T/Echo', Buffer.alloc(0), { 'content-type': 'text/plain' });
    expect(notGrpc.headers[':status']).to.equal(415);
    const unknown = await call(session, '/t.T/Nothing', Buffer.alloc(0));
    session.close();
    expect(statusOf(unknown)).to.equal('12');
    expect(unknown.headers['grpc-message']).to.equal('The server does not implement the method /t.T/Nothing');
  });

  it('answers malformed calls as grpc-js does: sizes, compression, message counts, prefixes, deadlines', async () => {
    const small = await startServer({ maxReceiveMessageBytes: 1000, maxSendMessageBytes: 2000 });
    const session = connectHttp2(`http://127.0.0.1:${small.port}`);
    try {
      const answers: Record<string, { headers: Record<string, unknown>; trailers: Record<string, unknown> }> = {};
      const size = (n: number) => {
        const out = Buffer.alloc(4);
        out.writeUInt32BE(n, 0);
        return out;
      };
      const compressed = grpcMessage(Buffer.from('x'));
      compressed[0] = 1;
      answers.large = await call(session, '/t.T/Echo', Buffer.alloc(1001));
      answers.largeAnswer = await call(session, '/t.T/Big', size(2001));
      answers.compressed = await call(session, '/t.T/Echo', Buffer.alloc(0), {}, compressed);
      answers.gzip = await call(session, '/t.T/Echo', Buffer.alloc(0), { 'grpc-encoding': 'gzip' }, compressed);
      const two = Buffer.concat([grpcMessage(Buffer.from('a')), grpcMessage(Buffer.from('b'))]);
      answers.two = await call(session, '/t.T/Echo', Buffer.alloc(0), {}, two);
      answers.none = await call(session, '/t.T/Echo', Buffer.alloc(0), {}, Buffer.alloc(0));
      answers.prefix = await call(session, '/t.T/Echo', Buffer.alloc(0), {}, Buffer.from([0, 0, 0]));
      answers.short = await call(
        session,
        '/t.T/Echo',
        Buffer.alloc(0),
        {},
        grpcMessage(Buffer.from('abc')).subarray(0, 7),
      );
      answers.undecodable = await call(session, '/t.T/Strict', Buffer.from('x'));
      answers.status = await call(session, '/t.T/Fail', Buffer.alloc(0));
      answers.badTimeout = await call(session, '/t.T/Echo', Buffer.alloc(0), { 'grpc-timeout': '1 second' });
      answers.deadline = await call(session, '/t.T/Slow', Buffer.alloc(0), { 'grpc-timeout': '100m' });
      const seen = Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, `${statusOf(a)} ${messageOf(a)}`]));
      expect(seen).to.deep.equal({
        large: '8 Received message larger than max (1001 vs 1000)',
        largeAnswer: '8 Sent message larger than max (2001 vs. 2000)',
        compressed: '13 Received a compressed message without a grpc-encoding',
        gzip: '12 Received message compressed with unsupported encoding "gzip"',
        two: '12 Received a second request message for method /t.T/Echo',
        none: '12 Received no request message for method /t.T/Echo',
        prefix: '13 Received an incomplete message prefix',
        short: '13 Received an incomplete message',
        undecodable: '13 Error deserializing request: not a valid message',
        status: '5 no such thing: %E2%80%9C%C3%BCn%C3%AFcode%E2%80%9D 100%25%0Anext line',
        badTimeout: '13 Invalid grpc-timeout value "1 second"',
        deadline: '4 Deadline exceeded',
      });
      expect(small.cancelled).to.deep.equal(['/t.T/Slow passed its deadline']);
    } finally {
      session.close();
      small.server.close();
    }
  });

  it('serves a grpc-timeout beyond a timer’s range (≥ 2^31 ms) as the longest timer, without a warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const session = connectHttp2(`http://127.0.0.1:${port}`);
      // 2^31 ms is 2,147,483.648 s, or 35,791.4 min.
      for (const timeout of ['2147484S', '35792M', '99999999H']) {
        const answer = await call(session, '/t.T/Echo', Buffer.from('x'), { 'grpc-timeout': timeout });
        expect(statusOf(answer), timeout).to.equal('0');
      }
      session.close();
      await sleep(10);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).to.deep.equal([]);
  });

  it('ends a misbehaving connection with GOAWAY and the code that says why, and keeps serving others', async () => {
    const goAwayFor = async (frames: Buffer) => {
      const peer = await RawPeer.connect(plaintext());
      peer.write(frames);
      const code = await peer.goAway();
      peer.destroy();
      return code;
    };
    const { PROTOCOL_ERROR, FRAME_SIZE_ERROR, COMPRESSION_ERROR, FLOW_CONTROL_ERROR, INTERNAL_ERROR } = ErrorCode;
    // Some errors nghttp2 hands to node, which then ends the session with its own INTERNAL_ERROR before
    // nghttp2's GOAWAY goes out: either code ends the connection.
    expect(await goAwayFor(frameBytes(FrameType.DATA, 0, 0, Buffer.from('x'))), 'DATA on stream 0').to.equal(
      PROTOCOL_ERROR,
    );
    expect(await goAwayFor(frameBytes(FrameType.DATA, 0, 99, Buffer.from('x'))), 'DATA on an idle stream').to.equal(
      PROTOCOL_ERROR,
    );
    expect(await goAwayFor(frameBytes(FrameType.DATA, 0, 1, Buffer.alloc(16_385))), 'frame too large').to.equal(
      FRAME_SIZE_ERROR,
    );
    expect(
      await goAwayFor(frameBytes(FrameType.HEADERS, Flag.END_HEADERS, 1, dehex('ff7f'))),
      'no such table entry',
    ).to.equal(COMPRESSION_ERROR);
    expect(
      await goAwayFor(frameBytes(FrameType.HEADERS, Flag.END_HEADERS, 2, dehex('82'))),
      'even stream id',
    ).to.be.oneOf([PROTOCOL_ERROR, INTERNAL_ERROR]);
    const interrupted = Buffer.concat([
      frameBytes(FrameType.HEADERS, 0, 1, dehex('8286')),
      frameBytes(FrameType.PING, 0, 0, Buffer.alloc(8)),
    ]);
    expect(await goAwayFor(interrupted), 'header block interrupted').to.equal(PROTOCOL_ERROR);
    const window = Buffer.alloc(4);
    window.writeUInt32BE(2 ** 31 - 1, 0);
    expect(await goAwayFor(frameBytes(FrameType.WINDOW_UPDATE, 0, 0, window)), 'window beyond 2^31-1').to.be.oneOf([
      FLOW_CONTROL_ERROR,
      INTERNAL_ERROR,
    ]);
    expect(
      await goAwayFor(frameBytes(FrameType.PUSH_PROMISE, Flag.END_HEADERS, 1, Buffer.alloc(4))),
      'PUSH_PROMISE from a client',
    ).to.be.oneOf([PROTOCOL_ERROR, INTERNAL_ERROR]);
    expect(await goAwayFor(frameBytes(FrameType.PING, 0, 0, Buffer.alloc(7))), 'PING of 7 bytes').to.equal(
      FRAME_SIZE_ERROR,
    );
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    const answer = await call(session, '/t.T/Echo', Buffer.from('still here'));
    session.close();
    expect(answer.body.subarray(5).toString()).to.equal('still here');
  });

  it('reads a request whose headers come in HEADERS and CONTINUATION frames, padded, with priority', async () => {
    const peer = await RawPeer.connect(plaintext(), false);
    const fields = literalHeaders(grpcRequestFields('/t.T/Echo'));
    // HEADERS: PADDED | PRIORITY, 3 bytes of padding, 5 bytes of priority, then the first 4 octets.
    const first = Buffer.concat([
      Buffer.from([3]),
      Buffer.from([0, 0, 0, 0, 15]),
      fields.subarray(0, 4),
      Buffer.alloc(3),
    ]);
    peer.write(
      Buffer.concat([
        PREFACE,
        settingsFrame(),
        frameBytes(FrameType.HEADERS, Flag.PADDED | Flag.PRIORITY, 1, first),
        frameBytes(FrameType.CONTINUATION, 0, 1, fields.subarray(4, 10)),
        frameBytes(FrameType.CONTINUATION, Flag.END_HEADERS, 1, fields.subarray(10)),
        // DATA: PADDED | END_STREAM, 2 bytes of padding.
        frameBytes(
          FrameType.DATA,
          Flag.PADDED | Flag.END_STREAM,
          1,
          Buffer.concat([Buffer.from([2]), grpcMessage(Buffer.from('pieces')), Buffer.alloc(2)]),
        ),
      ]),
    );
    const trailers = await peer.waitFor(
      (f) => f.streamId === 1 && f.type === FrameType.HEADERS && (f.flags & Flag.END_STREAM) !== 0,
    );
    peer.destroy();
    expect(trailers, 'trailers that end the stream').not.to.equal(undefined);
    const onStream = peer.frames.filter((f) => f.streamId === 1);
    expect(onStream.map((f) => [f.type, f.flags])).to.deep.equal([
      [FrameType.HEADERS, Flag.END_HEADERS],
      [FrameType.DATA, 0],
      [FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM],
    ]);
    expect(onStream[1]!.payload.equals(grpcMessage(Buffer.from('pieces')))).to.equal(true);
  });
});

describe("gRPC over node:http2: the server's own bounds (in process, small sizes)", function () {
  this.timeout(60_000);

  it('refuses a call whose request would take the bytes buffered across calls beyond the bound, and serves the others', async () => {
    const { server, port } = await startServer({ maxBufferedRequestBytes: 1024 * 1024 });
    try {
      const session = connectHttp2(`http://127.0.0.1:${port}`);
      // Two requests of 700 KiB arrive together: the second finds the first holding 700 KiB.
      const first = session.request({ ':method': 'POST', ':path': '/t.T/Echo', 'content-type': 'application/grpc' });
      const second = session.request({ ':method': 'POST', ':path': '/t.T/Echo', 'content-type': 'application/grpc' });
      const outcome = (stream: typeof first) =>
        new Promise<{ status: string; message: string; bytes: number }>((resolve) => {
          let status = '';
          let message = '';
          let bytes = 0;
          stream.on('response', (h) => {
            status = String(h['grpc-status'] ?? status);
            message = String(h['grpc-message'] ?? message);
          });
          stream.on('trailers', (t) => {
            status = String(t['grpc-status']);
            message = String(t['grpc-message'] ?? '');
          });
          stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
          stream.on('close', () => resolve({ status, message, bytes }));
          stream.on('error', () => undefined);
        });
      const outcomes = Promise.all([outcome(first), outcome(second)]);
      const half = grpcMessage(Buffer.alloc(1400 * 1024, 1)).subarray(0, 700 * 1024);
      first.write(half);
      await sleep(50);
      second.write(half);
      await sleep(50);
      first.end(grpcMessage(Buffer.alloc(1400 * 1024, 1)).subarray(700 * 1024));
      const [one, two] = await outcomes;
      session.close();
      expect(two.status).to.equal('8');
      expect(two.message).to.match(/too many request bytes/);
      expect(one.status).to.equal('0');
      expect(one.bytes).to.equal(1400 * 1024 + 5);
    } finally {
      server.close();
    }
  });

  it("holds a connection's new calls while its client has not read its answers, and runs them once it reads", async () => {
    const { server, port, started } = await startServer({ maxQueuedAnswerBytes: 256 * 1024 });
    try {
      // A peer that lets the server send nothing of its answers (initial window 0) asks for 100 × 64 KiB.
      const peer = await RawPeer.connect({ host: '127.0.0.1', port }, false);
      peer.write(Buffer.concat([PREFACE, settingsFrame([[4, 0]])]));
      const size = Buffer.alloc(4);
      size.writeUInt32BE(64 * 1024, 0);
      // One at a time, each answered (its headers sent) before the next: four answers of 64 KiB + 5
      // pass the bound of 256 KiB, so the fifth call waits, and so do all after it.
      let answered = 0;
      for (let i = 0; i < 100; i++) {
        peer.write(unaryRequest(1 + 2 * i, '/t.T/Big', size));
        if (answered === i) {
          const headers = await peer.waitFor((f) => f.streamId === 1 + 2 * i && f.type === FrameType.HEADERS, 500);
          if (headers) answered++;
        }
      }
      await sleep(200);
      expect(answered).to.equal(4);
      expect(started.length).to.equal(4);
      // Another connection is served meanwhile.
      const session = connectHttp2(`http://127.0.0.1:${port}`);
      const answer = await call(session, '/t.T/Big', size);
      session.close();
      expect(answer.body.length).to.equal(64 * 1024 + 5);
      expect(started.length).to.equal(5);
      // The peer reads: it opens its windows, and every call runs and answers.
      const open = Buffer.alloc(4);
      open.writeUInt32BE(2 ** 30, 0);
      peer.write(settingsFrame([[4, 2 ** 30]]));
      peer.write(frameBytes(FrameType.WINDOW_UPDATE, 0, 0, open));
      for (let i = 0; i < 200 && started.length < 101; i++) await sleep(20);
      expect(started.length).to.equal(101);
      const ended = await peer.waitFor(
        (f) => f.streamId === 199 && f.type === FrameType.HEADERS && (f.flags & Flag.END_STREAM) !== 0,
      );
      expect(ended, 'the last call answered').not.to.equal(undefined);
      peer.destroy();
    } finally {
      server.close();
    }
  });

  it('keeps at most maxConnections: a new connection evicts one that is not yet a session, then the session idle longest', async () => {
    const { server, port } = await startServer({ maxConnections: 3 });
    try {
      const idle = connectHttp2(`http://127.0.0.1:${port}`);
      idle.on('error', () => undefined);
      await call(idle, '/t.T/Echo', Buffer.from('a'));
      const busy = connectHttp2(`http://127.0.0.1:${port}`);
      busy.on('error', () => undefined);
      await call(busy, '/t.T/Echo', Buffer.from('b'));
      // A bare TCP connection, which never says anything, is the first to go.
      const bare = await RawPeer.connect({ host: '127.0.0.1', port }, false);
      await call(busy, '/t.T/Echo', Buffer.from('c'));
      const newcomer = connectHttp2(`http://127.0.0.1:${port}`);
      newcomer.on('error', () => undefined);
      expect((await call(newcomer, '/t.T/Echo', Buffer.from('d'))).trailers['grpc-status']).to.equal('0');
      expect(await bare.whenClosed(2000), 'the bare connection').to.equal(true);
      expect(idle.closed || idle.destroyed, 'the idle session stays').to.equal(false);
      // The next newcomer finds only sessions: the one idle longest gets GOAWAY.
      const goAway = new Promise<number>((resolve) => idle.once('goaway', (code: number) => resolve(code)));
      const last = connectHttp2(`http://127.0.0.1:${port}`);
      expect((await call(last, '/t.T/Echo', Buffer.from('e'))).trailers['grpc-status']).to.equal('0');
      expect(await goAway).to.equal(constants.NGHTTP2_NO_ERROR);
      expect((await call(busy, '/t.T/Echo', Buffer.from('f'))).trailers['grpc-status']).to.equal('0');
      for (const session of [busy, newcomer, last]) session.close();
    } finally {
      server.close();
    }
  });
});
