// The sec client's connection pool (node:http/https, a keep-alive Agent): connections kept alive and
// capped, answers parsed however the bytes arrive, each way a connection fails classified as the
// retry rules need it (sent or not, lost or closed), and every malformed or oversized answer failing
// its own call at once, its connection closed.
import { expect } from 'chai';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { createSecureContext } from 'node:tls';
import { HttpPool, POOL_ERROR_CODES, type PoolOptions } from '../../src/clients/sec/http-pool.js';
import { isNotSentError, isRetryableNetworkError } from '../../src/clients/sec/retry.js';
import { selfSignedCertificate } from '../../packages/framework/src/server/self-signed.js';
import { proxyFromEnvironment } from '../../src/clients/proxy.js';
import { startConnectProxy } from '../support/connect-proxy.js';

const listen = (server: Server | ReturnType<typeof createTcpServer>): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

const get = (pool: HttpPool, path = '/x') =>
  pool.request({ path, method: 'GET', headers: {}, body: null, signal: new AbortController().signal });

async function waitFor(condition: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

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
      maxResponseBytes: 1024 * 1024,
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
    expect(Date.now() - started, 'not before the connect timeout').to.be.at.least(100);
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
    expect(requests[0]).to.equal(`GET /r0 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
  });

  it('reads an answer that runs to the close, and then opens a new connection', async () => {
    const { pool, sockets } = await rawServer('HTTP/1.1 200 OK\r\n\r\nall of it', 'end');
    expect((await get(pool)).text).to.equal('all of it');
    expect((await get(pool)).text).to.equal('all of it');
    expect(sockets.length).to.equal(2);
  });

  it('refuses a header value that would start another header, sending nothing, and does not quote it', async () => {
    const { pool, requests } = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    const injected = await failure(
      pool.request({
        path: '/x',
        method: 'GET',
        headers: { 'X-Key': 'secret\r\nX-Evil: 1' },
        body: null,
        signal: new AbortController().signal,
      }),
    );
    expect(injected.code).to.equal('ERR_INVALID_CHAR');
    expect(injected.message).to.contain('X-Key').and.not.contain('secret');
    await get(pool);
    expect(requests).to.have.length(1);
    expect(requests[0]).not.to.contain('X-Evil');
  });

  /**
   * A server that answers each connection's first request with `answer` (all at once, or in two
   * writes split at `splitAt`) and then keeps the connection open, so that an answer the client waits
   * on instead of refusing would hang; it records how many connections it saw and which were closed.
   */
  async function hostileServer(answer: Buffer, splitAt?: number, options: Partial<PoolOptions> = {}) {
    const state = { connections: 0, closed: 0 };
    const server = createTcpServer((socket) => {
      state.connections++;
      socket.on('close', () => state.closed++);
      socket.on('error', () => undefined);
      socket.once('data', () => {
        if (splitAt === undefined) socket.write(answer);
        else {
          socket.write(answer.subarray(0, splitAt));
          setTimeout(() => socket.write(answer.subarray(splitAt)), 20);
        }
      });
    });
    const port = await listen(server);
    closers.push(() => server.close());
    return { pool: openPool(`http://127.0.0.1:${port}`, options), state };
  }

  const OK_BODY = '{}';
  const malformed: [string, string, RegExp][] = [
    [
      'Content-Length together with Transfer-Encoding',
      `HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n${OK_BODY}\r\n0\r\n\r\n`,
      /Transfer-Encoding can't be present with Content-Length/,
    ],
    [
      'a NUL in a header value',
      `HTTP/1.1 200 OK\r\nX-Request-Id: a\0b\r\nContent-Length: 2\r\n\r\n${OK_BODY}`,
      /Invalid header value char/,
    ],
    [
      'a bare CR in a header value',
      `HTTP/1.1 200 OK\r\nX-Request-Id: a\rInjected: yes\r\nContent-Length: 2\r\n\r\n${OK_BODY}`,
      /Missing expected LF/,
    ],
    [
      'a bare LF in a header value',
      `HTTP/1.1 200 OK\r\nX-Request-Id: a\nInjected: yes\r\nContent-Length: 2\r\n\r\n${OK_BODY}`,
      /Missing expected CR/,
    ],
    [
      'Transfer-Encoding: x-chunked',
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: x-chunked\r\n\r\n2\r\n${OK_BODY}\r\n0\r\n\r\n`,
      /transfer coding other than chunked/,
    ],
    [
      'Transfer-Encoding: chunked, gzip',
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n${OK_BODY}`,
      /transfer coding other than chunked/,
    ],
    ['LF-only line ends', `HTTP/1.1 200 OK\nContent-Length: 2\n\n${OK_BODY}`, /Missing expected CR/],
    ['two Content-Lengths', `HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n${OK_BODY}`, /Duplicate/],
    ['a folded header line', `HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 2\r\n\r\n${OK_BODY}`, /whitespace/],
    ['a status line that is not HTTP/1.x', 'HTTP/9 200 OK\r\nContent-Length: 2\r\n\r\n{}', /Expected/],
  ];
  for (const [what, answer, reason] of malformed) {
    it(`fails an answer with ${what} at once as malformed, quoting nothing of it, and closes its connection`, async () => {
      const { pool, state } = await hostileServer(Buffer.from(answer, 'latin1'));
      // The server keeps the connection open: an answer not judged malformed would never end.
      const error = await failure(get(pool));
      expect(error.code).to.equal(POOL_ERROR_CODES.malformed);
      expect(error.message).to.match(/^the answer (is not valid HTTP\/1\.1|is in a transfer coding)/);
      expect(error.message).to.match(reason);
      expect(error.message).not.to.match(/Injected|[\0\r\n]/);
      expect(isRetryableNetworkError(error)).to.equal(false);
      expect(Object.keys(error)).not.to.include('rawPacket');
      await waitFor(() => state.closed === 1);
      // The next request opens a connection of its own.
      await failure(get(pool));
      expect(state.connections).to.equal(2);
    });
  }

  for (const split of [false, true]) {
    it(`refuses answer headers over 64 KiB, arriving ${split ? 'in two pieces' : 'in one piece'}`, async () => {
      const head = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`;
      const { pool } = await hostileServer(Buffer.from(head), split ? 40 * 1024 : undefined);
      const error = await failure(get(pool));
      expect(error.code).to.equal(POOL_ERROR_CODES.malformed);
      expect(error.message).to.equal('the answer is not valid HTTP/1.1 (its headers are larger than 64 KiB)');
    });
  }

  it('reads headers up to 64 KiB', async () => {
    const head = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(60 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`;
    const { pool } = await hostileServer(Buffer.from(head));
    expect((await get(pool)).text).to.equal('{}');
  });

  it('fails an answer whose Content-Length is over the cap before reading its body, and closes its connection', async () => {
    const { pool, state } = await hostileServer(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1048577\r\n\r\n{'));
    const error = await failure(get(pool));
    expect(error.code).to.equal(POOL_ERROR_CODES.tooLarge);
    expect(error.message).to.equal(
      'the answer is larger than 1 MiB, the most this client reads (SEC_MAX_RESPONSE_BYTES)',
    );
    await waitFor(() => state.closed === 1);
  });

  it('fails a chunked answer streamed past the cap as soon as it passes it, and closes its connection', async () => {
    let sent = 0;
    let closed = false;
    const server = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('close', () => (closed = true));
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
        // 64 KiB every 5 ms, forever: the client must stop it.
        const piece = `10000\r\n${'x'.repeat(0x10000)}\r\n`;
        const timer = setInterval(() => {
          if (socket.destroyed) return clearInterval(timer);
          socket.write(piece);
          sent += 0x10000;
        }, 5);
        socket.on('close', () => clearInterval(timer));
      });
    });
    const port = await listen(server);
    closers.push(() => server.close());
    const pool = openPool(`http://127.0.0.1:${port}`, { maxResponseBytes: 256 * 1024 });
    const error = await failure(get(pool));
    expect(error.code).to.equal(POOL_ERROR_CODES.tooLarge);
    expect(error.message).to.contain('larger than 256 KiB');
    await waitFor(() => closed);
    expect(sent, 'stopped soon after the cap').to.be.below(2 * 1024 * 1024);
  });

  for (const [what, length] of [
    ['exactly the cap', 4096],
    ['one byte over it', 4097],
  ] as const) {
    it(`${length === 4096 ? 'reads' : 'refuses'} a chunked answer of ${what}`, async () => {
      const body = 'x'.repeat(length);
      const chunked = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
      const { pool } = await hostileServer(Buffer.from(chunked), 100, { maxResponseBytes: 4096 });
      if (length === 4096) expect((await get(pool)).text).to.equal(body);
      else expect((await failure(get(pool))).code).to.equal(POOL_ERROR_CODES.tooLarge);
    });
  }

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

  it("closes a connection idle for the pool's keep-alive timeout when the server gives no hint, and not before", async () => {
    const sockets = new Set<Socket>();
    const server = createHttpServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = 0; // no Keep-Alive header
    server.on('connection', (socket) => sockets.add(socket));
    const port = await listen(server);
    closers.push(() => server.close());
    const pool = openPool(`http://127.0.0.1:${port}`, { keepAliveTimeoutMs: 300 });
    await get(pool);
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 150));
      await get(pool);
    }
    expect(sockets.size, 'each request within the timeout of the last reuses the connection').to.equal(1);
    const [first] = sockets;
    await waitFor(() => first!.destroyed);
    await get(pool);
    expect(sockets.size, 'a new connection once the idle one is closed').to.equal(2);
  });

  describe('through a proxy (HTTPS_PROXY)', () => {
    /** An https API for `sec-api.test` (a name that does not resolve) on 127.0.0.1, and its certificate. */
    async function hiddenApi(name = 'sec-api.test') {
      const certificate = selfSignedCertificate(name);
      const sockets = new Set<Socket>();
      const seen: string[] = [];
      const https = createHttpsServer({ key: certificate.keyPem, cert: certificate.certPem }, (req, res) => {
        seen.push(`${req.method} ${req.url} ${req.headers.host}`);
        setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'), 5);
      });
      https.on('secureConnection', (socket) => sockets.add(socket));
      const port = await listen(https);
      closers.push(() => https.close());
      return { certificate, port, sockets, seen };
    }

    const proxied = (proxyUrl: string, origin = 'https://sec-api.test') =>
      proxyFromEnvironment({ HTTPS_PROXY: proxyUrl })(new URL(origin));

    it('tunnels to the API host, verifies its certificate through the tunnel, and keeps the limits and keep-alive', async () => {
      const api = await hiddenApi();
      const proxy = await startConnectProxy(() => api.port);
      closers.push(() => void proxy.close());
      const pool = openPool('https://sec-api.test', {
        connections: 2,
        proxy: proxied(`http://user:p%40ss@127.0.0.1:${proxy.port}`),
        secureContext: () => createSecureContext({ ca: api.certificate.certPem }),
      });
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => get(pool, `/p${i}`)));
      expect(answers.map((a) => a.text)).to.deep.equal(Array(6).fill('{"ok":true}'));
      await get(pool, '/again');
      expect(proxy.tunnels.map((t) => t.target)).to.deep.equal(['sec-api.test:443', 'sec-api.test:443']);
      expect(proxy.tunnels[0]!.headers['proxy-authorization']).to.equal(
        `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
      );
      expect(api.sockets.size, 'two TLS connections, kept alive').to.equal(2);
      expect(api.seen).to.include('GET /again sec-api.test');
    });

    it("closes an idle tunnelled connection after the pool's keep-alive timeout", async () => {
      const api = await hiddenApi();
      const proxy = await startConnectProxy(() => api.port);
      closers.push(() => void proxy.close());
      const pool = openPool('https://sec-api.test', {
        keepAliveTimeoutMs: 200,
        proxy: proxied(proxy.url),
        secureContext: () => createSecureContext({ ca: api.certificate.certPem }),
      });
      await get(pool);
      await get(pool);
      expect(proxy.tunnels).to.have.length(1);
      await new Promise((r) => setTimeout(r, 500));
      await get(pool);
      expect(proxy.tunnels).to.have.length(2);
    });

    it('speaks TLS to an https:// proxy, verified against the same trust, and TLS to the API inside', async () => {
      const api = await hiddenApi();
      const proxyCertificate = selfSignedCertificate('localhost');
      const proxy = await startConnectProxy(() => api.port, proxyCertificate);
      closers.push(() => void proxy.close());
      const viaLocalhost = proxy.url.replace('127.0.0.1', 'localhost');
      const pool = openPool('https://sec-api.test', {
        proxy: proxied(viaLocalhost),
        secureContext: () => createSecureContext({ ca: [api.certificate.certPem, proxyCertificate.certPem] }),
      });
      expect((await get(pool)).text).to.equal('{"ok":true}');
      expect(proxy.tunnels.map((t) => t.target)).to.deep.equal(['sec-api.test:443']);
      const untrusting = openPool('https://sec-api.test', {
        proxy: proxied(viaLocalhost),
        secureContext: () => createSecureContext({ ca: api.certificate.certPem }),
      });
      const error = await failure(get(untrusting));
      expect(error.message).to.match(new RegExp(`^the proxy ${viaLocalhost} \\(HTTPS_PROXY\\): .*certificate`));
      expect(proxy.tunnels).to.have.length(1);
    });

    it('refuses the API through the tunnel when its certificate is for another name or not trusted', async () => {
      const api = await hiddenApi('other.test');
      const proxy = await startConnectProxy(() => api.port);
      closers.push(() => void proxy.close());
      const wrongName = openPool('https://sec-api.test', {
        proxy: proxied(proxy.url),
        secureContext: () => createSecureContext({ ca: api.certificate.certPem }),
      });
      expect((await failure(get(wrongName))).code).to.equal('ERR_TLS_CERT_ALTNAME_INVALID');
      const untrusted = openPool('https://other.test', {
        proxy: proxied(proxy.url, 'https://other.test'),
        secureContext: () => createSecureContext({ ca: selfSignedCertificate('other.test').certPem }),
      });
      expect((await failure(get(untrusted))).code).to.match(/SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/);
      expect(api.seen).to.deep.equal([]);
    });

    it("checks an address's certificate against the address, not the proxy's name", async () => {
      const api = await hiddenApi('localhost');
      const proxy = await startConnectProxy(() => api.port);
      closers.push(() => void proxy.close());
      // 10.0.0.1 is never reached: the proxy maps every tunnel to the local API.
      const pool = openPool('https://10.0.0.1', {
        proxy: proxyFromEnvironment({ HTTPS_PROXY: `http://localhost:${proxy.port}` })(new URL('https://10.0.0.1')),
        secureContext: () => createSecureContext({ ca: api.certificate.certPem }),
      });
      const error = await failure(get(pool));
      expect(error.code).to.equal('ERR_TLS_CERT_ALTNAME_INVALID');
      expect(error.message).to.contain('10.0.0.1');
      expect(proxy.tunnels.map((t) => t.target)).to.deep.equal(['10.0.0.1:443']);
    });

    for (const [status, code, retryable] of [
      [407, POOL_ERROR_CODES.proxyRefused, false],
      [403, POOL_ERROR_CODES.proxyRefused, false],
      [502, POOL_ERROR_CODES.proxyUnavailable, true],
    ] as const) {
      it(`fails as not sent, ${retryable ? 'worth trying again' : 'for good'}, when the proxy answers CONNECT with ${status}`, async () => {
        const proxy = await startConnectProxy(() => ({ status }));
        closers.push(() => void proxy.close());
        const pool = openPool('https://sec-api.test', { proxy: proxied(proxy.url) });
        const error = await failure(get(pool));
        expect(error.code).to.equal(code);
        expect(error.message).to.equal(
          `the proxy ${proxy.url} (HTTPS_PROXY) would not open a tunnel to the API (HTTP ${status})`,
        );
        expect(isNotSentError(error)).to.equal(true);
        expect(isRetryableNetworkError(error)).to.equal(retryable);
      });
    }

    it('fails as not sent, within the connect timeout, when the proxy never answers CONNECT', async () => {
      const proxy = await startConnectProxy(() => 'silent');
      closers.push(() => void proxy.close());
      const pool = openPool('https://sec-api.test', { proxy: proxied(proxy.url), connectTimeoutMs: 150 });
      const started = Date.now();
      const error = await failure(get(pool));
      expect(Date.now() - started, 'not before the connect timeout').to.be.at.least(100);
      expect(error.code).to.equal(POOL_ERROR_CODES.connectTimeout);
      expect(isNotSentError(error)).to.equal(true);
    });

    it('names the proxy when it cannot be reached, keeping the code the retry rules read', async () => {
      const closed = createTcpServer();
      const port = await listen(closed);
      await new Promise((r) => closed.close(r));
      const pool = openPool('https://sec-api.test', { proxy: proxied(`http://127.0.0.1:${port}`) });
      const error = await failure(get(pool));
      expect(error.code).to.equal('ECONNREFUSED');
      expect(error.message).to.match(
        new RegExp(`^the proxy http://127\\.0\\.0\\.1:${port} \\(HTTPS_PROXY\\): connect ECONNREFUSED`),
      );
      expect(isNotSentError(error)).to.equal(true);
    });
  });
});
