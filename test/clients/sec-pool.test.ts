// The sec client's connection pool (node:http/https): connections kept alive and capped, and each
// way a connection fails classified as the retry rules need it (sent or not, lost or closed).
import { expect } from 'chai';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { HttpPool, POOL_ERROR_CODES } from '../../src/clients/sec/http-pool.js';
import { isNotSentError, isRetryableNetworkError } from '../../src/clients/sec/retry.js';

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
    const pool = new HttpPool(`http://127.0.0.1:${port}`, {
      connections: 2,
      keepAliveTimeoutMs: 30_000,
      connectTimeoutMs: 1000,
    });
    closers.push(() => void pool.close());

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

  it('fails a connection whose TLS handshake never completes as not sent, within the connect timeout', async () => {
    // Accepts TCP and stays silent: the request cannot have gone out.
    const silent = createTcpServer(() => undefined);
    const port = await listen(silent);
    closers.push(() => silent.close());
    const pool = new HttpPool(`https://127.0.0.1:${port}`, {
      connections: 2,
      keepAliveTimeoutMs: 30_000,
      connectTimeoutMs: 150,
    });
    closers.push(() => void pool.close());
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
    const pool = new HttpPool(`http://127.0.0.1:${port}`, {
      connections: 2,
      keepAliveTimeoutMs: 30_000,
      connectTimeoutMs: 1000,
    });
    const error = await failure(get(pool));
    expect(error.code).to.equal('ECONNRESET');
    expect(isNotSentError(error)).to.equal(false);
    expect(isRetryableNetworkError(error)).to.equal(true);
    await pool.close();
    expect((await failure(get(pool))).code).to.equal(POOL_ERROR_CODES.closed);
  });
});
