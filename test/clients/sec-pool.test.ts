// The sec client's connection pool (HTTP/1.1 of its own over node:net/tls): connections kept alive
// and capped, answers parsed however the bytes arrive, and each way a connection fails classified as
// the retry rules need it (sent or not, lost or closed).
import { expect } from 'chai';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { createSecureContext } from 'node:tls';
import { HttpPool, POOL_ERROR_CODES, type PoolOptions } from '../../src/clients/sec/http-pool.js';
import { isNotSentError, isRetryableNetworkError } from '../../src/clients/sec/retry.js';
import { selfSignedCertificate } from '../../src/server/self-signed.js';

const listen = (server: Server | ReturnType<typeof createTcpServer>): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

const get = (pool: HttpPool, path = '/x') =>
  pool.request({ path, method: 'GET', headers: {}, body: null, signal: new AbortController().signal });

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the request to fail');
}

describe('sec client connection pool', () => {
  const closers: (() => void)[] = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));
  /** A pool closed after the test: one connection, a 1 s connect timeout, unless told otherwise. */
  const openPool = (origin: string, options: Partial<PoolOptions> = {}) => {
    const pool = new HttpPool(origin, {
      connections: 1,
      keepAliveTimeoutMs: 30_000,
      connectTimeoutMs: 1000,
      ...options,
    });
    closers.push(() => void pool.close());
    return pool;
  };

  it('keeps connections alive, at most `connections` of them, and returns status, headers and body', async () => {
    const sockets = new Set<Socket>();
    let inFlight = 0;
    let mostInFlight = 0;
    const server = createHttpServer((req, res) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () =>
        setTimeout(() => {
          inFlight--;
          res
            .writeHead(201, { 'X-Request-Id': `r-${req.url}` })
            .end(JSON.stringify({ method: req.method, body, héllo: 'wörld' }));
        }, 5),
      );
    });
    server.on('connection', (socket) => sockets.add(socket));
    const port = await listen(server);
    closers.push(() => server.close());
    const pool = openPool(`http://127.0.0.1:${port}`, { connections: 2 });

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        pool.request({
          path: `/p${i}`,
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: `{"i":${i}}`,
          signal: new AbortController().signal,
        }),
      ),
    );
    answers.forEach((answer, i) => {
      expect(answer.statusCode).to.equal(201);
      expect(answer.headers['x-request-id']).to.equal(`r-/p${i}`);
      expect(JSON.parse(answer.text)).to.deep.equal({ method: 'POST', body: `{"i":${i}}`, héllo: 'wörld' });
    });
    expect(mostInFlight).to.equal(2);
    expect(sockets.size).to.equal(2);
    await get(pool);
    expect(sockets.size, 'an idle connection is reused').to.equal(2);
  });

  it('asks for its TLS trust at the first https connection, not when made, and refuses a server it does not trust', async () => {
    const server = selfSignedCertificate();
    const stranger = selfSignedCertificate();
    const https = createHttpsServer({ key: server.keyPem, cert: server.certPem }, (_req, res) => {
      res.writeHead(200, { 'Content-Length': '2' });
      res.end('{}');
    });
    const port = await listen(https);
    closers.push(() => https.close());
    let asked = 0;
    const pool = openPool(`https://localhost:${port}`, {
      secureContext: () => {
        asked++;
        return createSecureContext({ ca: server.certPem });
      },
    });
    expect(asked, 'no trust parsed before a connection is made').to.equal(0);
    const answer = await get(pool);
    expect(answer.statusCode).to.equal(200);
    expect(answer.text).to.equal('{}');
    expect(asked).to.equal(1);

    const untrusting = openPool(`https://localhost:${port}`, {
      secureContext: () => createSecureContext({ ca: stranger.certPem }),
    });
    const error = await failure(get(untrusting));
    expect(error.code).to.match(/SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/);
  });

  it('fails a connection whose TLS handshake never completes as not sent, within the connect timeout', async () => {
    // Accepts TCP and stays silent: the request cannot have gone out.
    const silent = createTcpServer(() => undefined);
    const port = await listen(silent);
    closers.push(() => silent.close());
    const pool = openPool(`https://127.0.0.1:${port}`, { connections: 2, connectTimeoutMs: 150 });
    const started = Date.now();
    const error = await failure(get(pool));
    expect(Date.now() - started).to.be.within(100, 2000);
    expect(error.code).to.equal(POOL_ERROR_CODES.connectTimeout);
    expect(isNotSentError(error)).to.equal(true);
  });

  it('fails an answer cut off mid-body as a lost connection, and refuses requests once closed', async () => {
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const port = await listen(server);
    closers.push(() => server.close());
    const pool = openPool(`http://127.0.0.1:${port}`, { connections: 2 });
    const error = await failure(get(pool));
    expect(error.code).to.equal('ECONNRESET');
    expect(isNotSentError(error)).to.equal(false);
    expect(isRetryableNetworkError(error)).to.equal(true);
    await pool.close();
    expect((await failure(get(pool))).code).to.equal(POOL_ERROR_CODES.closed);
  });

  /** A raw TCP server that answers each request (after its head) with `answer`, written a byte at a time. */
  async function rawServer(answer: string | Buffer, then: 'keep' | 'end' = 'keep') {
    const sockets: Socket[] = [];
    const requests: string[] = [];
    const server = createTcpServer((socket) => {
      sockets.push(socket);
      let input = '';
      socket.on('data', async (chunk) => {
        input += chunk.toString('latin1');
        while (input.includes('\r\n\r\n')) {
          const end = input.indexOf('\r\n\r\n') + 4;
          requests.push(input.slice(0, end));
          input = input.slice(end);
          const bytes = Buffer.isBuffer(answer) ? answer : Buffer.from(answer, 'utf8');
          for (const byte of bytes) {
            socket.write(Buffer.from([byte]));
            await new Promise((r) => setImmediate(r));
          }
          if (then === 'end') socket.end();
        }
      });
    });
    const port = await listen(server);
    closers.push(() => server.close());
    const pool = openPool(`http://127.0.0.1:${port}`);
    return { pool, sockets, requests, port };
  }

  it('reads a chunked answer after a 100 Continue, however its bytes arrive, and reuses the connection', async () => {
    const { pool, sockets, requests, port } = await rawServer(
      'HTTP/1.1 100 Continue\r\n\r\n' +
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\nx-a: 2\r\nConstructor: c\r\n\r\n' +
        '5;ext=1\r\nhello\r\n7\r\n w\u00f6rld\r\n0\r\nTrailer: x\r\n\r\n',
    );
    for (let i = 0; i < 2; i++) {
      const answer = await get(pool, `/r${i}`);
      expect(answer.statusCode).to.equal(200);
      expect(answer.text).to.equal('hello w\u00f6rld');
      expect(answer.headers['x-a']).to.equal('1, 2');
      expect(answer.headers.constructor, 'a header named like an Object property').to.equal('c');
    }
    expect(sockets.length).to.equal(1);
    expect(requests[0]).to.equal(`GET /r0 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  });

  it('reads an answer that runs to the close, and then opens a new connection', async () => {
    const { pool, sockets } = await rawServer('HTTP/1.1 200 OK\r\n\r\nall of it', 'end');
    expect((await get(pool)).text).to.equal('all of it');
    expect((await get(pool)).text).to.equal('all of it');
    expect(sockets.length).to.equal(2);
  });

  it('refuses a malformed answer, and a header value that would start another header, sending nothing', async () => {
    const { pool, requests } = await rawServer('HTTP/9 200 OK\r\n\r\n');
    expect((await failure(get(pool))).message).to.match(/status line/);
    const injected = await failure(
      pool.request({
        path: '/x',
        method: 'GET',
        headers: { 'X-Key': 'secret\r\nX-Evil: 1' },
        body: null,
        signal: new AbortController().signal,
      }),
    );
    expect(injected.message).to.equal('the value of HTTP header X-Key holds a control character');
    expect(requests.length).to.equal(1);
  });

  it("closes an idle connection a second before the server's Keep-Alive timeout, so no request races it", async () => {
    const sockets = new Set<Socket>();
    const server = createHttpServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = 2000; // Keep-Alive: timeout=2
    server.on('connection', (socket) => sockets.add(socket));
    const port = await listen(server);
    closers.push(() => server.close());
    const pool = openPool(`http://127.0.0.1:${port}`);
    await get(pool);
    await new Promise((r) => setTimeout(r, 500));
    await get(pool);
    expect(sockets.size, 'reused within the hint less a second').to.equal(1);
    await new Promise((r) => setTimeout(r, 1300));
    const answer = await get(pool);
    expect(answer.text).to.equal('ok');
    expect(sockets.size, 'closed by us before the server would').to.equal(2);
  });
});
