/**
 * What a sec client call ends in when the API's answer cannot be read (malformed, or larger than the
 * cap) or its certificate cannot be verified: one clear ApiError for that call, never retried (the
 * same answer would come again), 'outcome_unknown' for a create (it was received); request ids quoted
 * with their control characters escaped.
 */
import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import { createSecClient, type SecClientConfig } from '../../src/clients/sec/index.js';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { selfSignedCertificate } from '../../packages/framework/src/server/self-signed.js';
import { expectApiError } from '../support/api-error.js';
import { startTlsFront } from '../support/tls-front.js';

const email = () => ({
  name: 'ops',
  type: 'EmailUser' as const,
  enabled: true,
  data: { channelProps: { recipients: ['ops@example.com'] } },
});

describe('sec client: answers it cannot read, certificates it cannot verify', () => {
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A raw API on 127.0.0.1 answering every request with `answer`; it counts the requests. */
  async function rawApi(answer: string | ((socket: Socket) => void)) {
    const requests: string[] = [];
    const server: Server = createServer((socket) => {
      socket.on('error', () => undefined);
      let input = '';
      socket.on('data', (data) => {
        input += data.toString('latin1');
        const end = input.indexOf('\r\n\r\n');
        if (end < 0) return;
        requests.push(input.slice(0, input.indexOf('\r\n')));
        input = '';
        if (typeof answer === 'string') socket.write(Buffer.from(answer, 'latin1'));
        else answer(socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests };
  }

  const client = (baseUrl: string, overrides: Partial<SecClientConfig> = {}) => {
    const created = createSecClient({
      baseUrl,
      account: 'acme',
      apiToken: 'pre-issued-token',
      userAgent: 'test',
      retry: { baseDelayMs: 5, maxDelayMs: 10 },
      ...overrides,
    });
    closers.push(() => created.close());
    return created;
  };

  const MALFORMED = 'HTTP/1.1 200 OK\r\nX-Request-Id: a\nInjected: yes\r\nContent-Length: 2\r\n\r\n[]';

  it('fails a read on a malformed answer as malformed_response, once, quoting none of it', async () => {
    const api = await rawApi(MALFORMED);
    const error = await expectApiError(client(api.url).userProfile.get(), 'malformed_response');
    expect(error.message).to.equal(
      'GET /api/v2/UserProfile: the answer is not valid HTTP/1.1 (Missing expected CR after header value)',
    );
    expect(api.requests).to.deep.equal(['GET /api/v2/UserProfile HTTP/1.1']);
  });

  it('fails a create on a malformed answer as outcome_unknown, without repeating it', async () => {
    const api = await rawApi(MALFORMED);
    const error = await expectApiError(client(api.url).alertChannels.create(email()), 'outcome_unknown');
    expect(error.message).to.match(
      /^POST \/api\/v2\/AlertChannels: the answer is not valid HTTP\/1\.1 \(Missing expected CR after header value\); the request was sent/,
    );
    expect(api.requests).to.have.length(1);
  });

  it('fails a read whose answer passes maxResponseBytes (SEC_MAX_RESPONSE_BYTES), once', async () => {
    const api = await rawApi(`HTTP/1.1 200 OK\r\nContent-Length: 70000\r\n\r\n[${' '.repeat(69998)}]`);
    const error = await expectApiError(
      client(api.url, { maxResponseBytes: 64 * 1024 }).userProfile.get(),
      'malformed_response',
    );
    expect(error.message).to.equal(
      'GET /api/v2/UserProfile: the answer is larger than 64 KiB, the most this client reads (SEC_MAX_RESPONSE_BYTES)',
    );
    expect(api.requests).to.have.length(1);
  });

  it('quotes request ids with control and non-ASCII characters escaped', async () => {
    const api = await rawApi(
      'HTTP/1.1 404 Not Found\r\nX-Request-Id: a\tb\xe9c\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    const error = await expectApiError(client(api.url).userProfile.get(), 'not_found');
    expect(error.requestId).to.equal('a\\x09b\\xe9c');
    expect(error.message)
      .to.contain('request id a\\x09b\\xe9c')
      .and.not.match(/[\t\u00e9]/);
  });

  it('names where its trust comes from when the API certificate cannot be verified, and does not retry', async () => {
    const emulator = await startSecEmulator({ account: 'acme' });
    closers.push(() => emulator.close());
    const front = await startTlsFront(selfSignedCertificate('localhost'), emulator.url);
    closers.push(() => front.close());
    const error = await expectApiError(
      client(`https://localhost:${front.port}`, { environment: { SSL_CERT_DIR: '/nonexistent' } }).userProfile.get(),
      'unavailable',
    );
    expect(error.message).to.match(
      new RegExp(
        `^GET /api/v2/UserProfile: the TLS certificate of https://localhost:${front.port} could not be verified ` +
          "\\(self-signed certificate\\)\\. The provider trusts Node's bundled certificate authorities and ",
      ),
    );
    expect(error.message).to.contain('SSL_CERT_DIR (/nonexistent)');
    expect(error.message).to.match(
      /add the API's certificate authority to the system's store, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS$/,
    );
    expect(emulator.requests).to.have.length(0);
  });
});
