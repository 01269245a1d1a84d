import { expect } from 'chai';
import {
  type ApiError,
  createSecClient,
  decodeJsonDataUrl,
  encodeJsonDataUrl,
  isLoopbackHost,
  type ApiErrorCode,
  type SecClient,
  type SecClientConfig,
} from '../../src/clients/sec/index.js';
import { parseRetryAfter, retryDelayMs } from '../../src/clients/sec/retry.js';
import { OUTCOME_UNKNOWN_NOTE } from '../../packages/framework/src/wire/api-error.js';
import { SEC_COLLECTIONS, startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { expectApiError, expectApiErrorThrown } from '../support/api-error.js';

const TOKEN_PATH = '/api/v2/access/tokens';
const CHANNELS = '/api/v2/AlertChannels';

describe('sec client', () => {
  let emulator: SecEmulator;
  let clients: SecClient[];
  /** Every ApiError a test saw; afterEach checks none of them leaks a secret. */
  let seenErrors: ApiError[];
  /** Secret values a test used; never allowed in error messages. */
  let secrets: string[];

  beforeEach(async () => {
    emulator = await startSecEmulator({ account: 'acme' });
    clients = [];
    seenErrors = [];
    secrets = [emulator.apiKey, emulator.apiSecret];
  });

  afterEach(async () => {
    for (const error of seenErrors) {
      for (const secret of secrets) {
        expect(error.message, 'ApiError message leaks a secret').not.to.include(secret);
        expect(error.operation).not.to.include(secret);
      }
    }
    await Promise.all(clients.map((client) => client.close()));
    await emulator.close();
  });

  function client(overrides: Partial<SecClientConfig> = {}): SecClient {
    const created = createSecClient({
      baseUrl: emulator.url,
      account: emulator.account,
      apiKey: emulator.apiKey,
      apiSecret: emulator.apiSecret,
      userAgent: 'terraform-provider-sec/2.2.0 (test)',
      retry: { baseDelayMs: 5, maxDelayMs: 40 },
      ...overrides,
    });
    clients.push(created);
    return created;
  }

  async function apiError(promise: Promise<unknown>, code: ApiErrorCode): Promise<ApiError> {
    const error = await expectApiError(promise, code);
    seenErrors.push(error);
    return error;
  }

  function syncApiError(run: () => unknown, code: ApiErrorCode): ApiError {
    const error = expectApiErrorThrown(run, code);
    seenErrors.push(error);
    return error;
  }

  const requestsTo = (path: string, method?: string) =>
    emulator.requests.filter((request) => request.path === path && (method === undefined || request.method === method));

  const email = (recipients = ['ops@example.com']) => ({
    name: 'ops',
    type: 'EmailUser' as const,
    enabled: true,
    data: { channelProps: { recipients } },
  });

  describe('configuration', () => {
    it('refuses plain http:// to a non-loopback host', () => {
      for (const baseUrl of [
        'http://acme.sec-platform.example',
        'http://10.0.0.1:8080',
        'http://localhost.evil.example',
      ]) {
        const error = syncApiError(() => client({ baseUrl }), 'invalid');
        expect(error.message).to.match(/refusing plain http:\/\/ to .*only loopback hosts/);
        expect(error.operation).to.equal('configure sec client');
      }
    });

    it('refuses other schemes, unparsable URLs and URLs with credentials', () => {
      syncApiError(() => client({ baseUrl: 'ftp://acme.example' }), 'invalid');
      syncApiError(() => client({ baseUrl: 'not a url' }), 'invalid');
      syncApiError(() => client({ baseUrl: 'https://user:pw@acme.example' }), 'invalid');
    });

    it('accepts https and loopback http, without contacting the API', () => {
      for (const baseUrl of [
        'https://acme.sec-platform.example',
        'http://localhost:1',
        'http://127.8.9.10:1',
        'http://[::1]:1',
      ]) {
        client({ baseUrl });
      }
      expect(emulator.requests).to.have.length(0);
    });

    it('takes the URL with the API path users copy from the docs (…/api/v2), and refuses a query or fragment', async () => {
      for (const suffix of ['/api/v2', '/api/v2/', '/API/V2']) {
        const c = client({ baseUrl: `${emulator.url}${suffix}` });
        await c.userProfile.get();
      }
      expect(emulator.requests.map((r) => r.path).filter((p) => p.includes('/api/v2/api/v2'))).to.deep.equal([]);
      syncApiError(() => client({ baseUrl: `${emulator.url}/api/v2?x=1` }), 'invalid');
      syncApiError(() => client({ baseUrl: `${emulator.url}/#top` }), 'invalid');
    });

    it('refuses a configuration without credentials', () => {
      syncApiError(() => client({ apiKey: undefined, apiSecret: undefined }), 'invalid');
      syncApiError(() => client({ apiSecret: undefined }), 'invalid');
    });

    it('recognises loopback hosts exactly', () => {
      expect(['127.0.0.1', '127.255.0.9', 'localhost', '::1', '[::1]', 'LOCALHOST'].map(isLoopbackHost)).to.deep.equal([
        true,
        true,
        true,
        true,
        true,
        true,
      ]);
      expect(['128.0.0.1', '127.0.0.256', '127.0.0', 'localhost.example', '::2'].map(isLoopbackHost)).to.deep.equal([
        false,
        false,
        false,
        false,
        false,
      ]);
    });
  });

  describe('authentication', () => {
    it('fetches a token lazily, once, and sends it as a bearer token with the standard headers', async () => {
      const api = client();
      expect(emulator.requests).to.have.length(0);
      await api.alertChannels.list();
      await api.alertChannels.list();
      await api.userProfile.get();
      expect(requestsTo(TOKEN_PATH)).to.have.length(1);

      const tokenRequest = requestsTo(TOKEN_PATH)[0]!;
      expect(tokenRequest.body).to.deep.equal({ keyId: emulator.apiKey, expiryTime: 3600 });
      expect(tokenRequest.headers['x-sec-uaks']).to.equal('***');

      const list = requestsTo(CHANNELS, 'GET')[0]!;
      expect(list.headers).to.include({
        authorization: 'Bearer ***',
        accept: 'application/json',
        'user-agent': 'terraform-provider-sec/2.2.0 (test)',
      });
      expect(list.headers).not.to.have.property('content-type');
      expect(list.headers).not.to.have.property('account-name');
      expect(list.headers).not.to.have.property('org-access');
    });

    it('shares one token request between concurrent callers', async () => {
      const api = client();
      await Promise.all(Array.from({ length: 6 }, () => api.alertChannels.list()));
      expect(requestsTo(TOKEN_PATH)).to.have.length(1);
    });

    it('renews the token once after a 401 and repeats the request', async () => {
      const api = client();
      await api.alertChannels.list();
      emulator.expireTokens();
      expect(await api.alertChannels.list()).to.deep.equal([]);
      expect(requestsTo(TOKEN_PATH)).to.have.length(2);
      expect(requestsTo(CHANNELS, 'GET')).to.have.length(3);
    });

    it('renews after the emulator clock passes the expiry', async () => {
      const api = client();
      await api.alertChannels.list();
      emulator.clock.advance(2 * 3600_000);
      await api.alertChannels.list();
      expect(requestsTo(TOKEN_PATH)).to.have.length(2);
    });

    it('renews a token that is within 60 s of expiry before using it', async () => {
      emulator.setTokenLifetime(30);
      const api = client();
      await api.alertChannels.list();
      await api.alertChannels.list();
      expect(requestsTo(TOKEN_PATH)).to.have.length(2);
      expect(requestsTo(CHANNELS, 'GET')).to.have.length(2);
    });

    it('uses a pre-issued api_token as is, and fails as unauthenticated when it dies without key+secret', async () => {
      const apiToken = emulator.issueToken();
      secrets.push(apiToken);
      const api = client({ apiKey: undefined, apiSecret: undefined, apiToken });
      await api.alertChannels.list();
      expect(requestsTo(TOKEN_PATH)).to.have.length(0);
      emulator.expireTokens();
      const error = await apiError(api.alertChannels.list(), 'unauthenticated');
      expect(error.status).to.equal(401);
      expect(error.message).to.include('invalid or expired access token');
      expect(requestsTo(TOKEN_PATH)).to.have.length(0);
    });

    it('renews a dead api_token with key+secret when both are given', async () => {
      const apiToken = emulator.issueToken();
      secrets.push(apiToken);
      const api = client({ apiToken });
      await api.alertChannels.list();
      emulator.expireTokens();
      await api.alertChannels.list();
      expect(requestsTo(TOKEN_PATH)).to.have.length(1);
    });

    it('reports a wrong secret as unauthenticated on the token operation', async () => {
      const wrongSecret = '_wrong-secret-0123456789abcdef';
      secrets.push(wrongSecret);
      const api = client({ apiSecret: wrongSecret });
      const error = await apiError(api.alertChannels.list(), 'unauthenticated');
      expect(error.operation).to.equal('POST /api/v2/access/tokens');
      expect(error.status).to.equal(401);
      expect(error.message).to.include('invalid API key or secret');
      expect(requestsTo(CHANNELS)).to.have.length(0);
    });

    it('sends Account-Name and Org-Access when configured; an unknown sub-account is forbidden', async () => {
      await startSecEmulator({ account: 'org', subaccounts: ['child'] }).then(async (orgEmulator) => {
        try {
          const api = createSecClient({
            baseUrl: orgEmulator.url,
            account: 'org',
            apiKey: orgEmulator.apiKey,
            apiSecret: orgEmulator.apiSecret,
            subaccount: 'child',
            organization: true,
            userAgent: 'ua',
          });
          clients.push(api);
          await api.alertChannels.list();
          const sent = orgEmulator.requests.find((request) => request.path === CHANNELS)!;
          expect(sent.headers).to.include({ 'account-name': 'child', 'org-access': 'true' });

          const stranger = createSecClient({
            baseUrl: orgEmulator.url,
            account: 'org',
            apiKey: orgEmulator.apiKey,
            apiSecret: orgEmulator.apiSecret,
            subaccount: 'stranger',
            userAgent: 'ua',
          });
          clients.push(stranger);
          const error = await apiError(stranger.alertChannels.list(), 'forbidden');
          expect(error.status).to.equal(403);
        } finally {
          await orgEmulator.close();
        }
      });
    });
  });

  describe('errors', () => {
    it('maps 404 to not_found with the operation template, status, request id and message', async () => {
      const error = await apiError(client().alertChannels.get('ACME_MISSING'), 'not_found');
      expect(error.status).to.equal(404);
      expect(error.operation).to.equal('GET /api/v2/AlertChannels/{intgGuid}');
      expect(error.requestId).to.match(/^[0-9A-F]{16}$/);
      expect(error.message).to.equal(
        `GET /api/v2/AlertChannels/{intgGuid}: alert channel "ACME_MISSING" not found (HTTP 404, request id ${error.requestId})`,
      );
    });

    it('maps 400 to invalid with the API message', async () => {
      const error = await apiError(client().alertChannels.create(email(['nope'])), 'invalid');
      expect(error.status).to.equal(400);
      expect(error.message).to.include('data.channelProps.recipients[0] must be a valid email address');
    });

    it('maps 409 to conflict', async () => {
      const api = client();
      await api.agentAccessTokens.create({ tokenAlias: 'hosts', tokenEnabled: true });
      const error = await apiError(
        api.agentAccessTokens.create({ tokenAlias: 'hosts', tokenEnabled: true }),
        'conflict',
      );
      expect(error.message).to.include('already exists');
    });

    const statusCases: Array<[number, ApiErrorCode]> = [
      [401, 'unauthenticated'],
      [403, 'forbidden'],
      [408, 'timeout'],
      [418, 'unknown'],
      [422, 'invalid'],
      [429, 'rate_limited'],
      [500, 'unavailable'],
      [503, 'unavailable'],
    ];
    for (const [status, code] of statusCases) {
      it(`maps HTTP ${status} to ${code}`, async () => {
        const api = client({ apiToken: emulator.issueToken(), apiKey: undefined, apiSecret: undefined });
        // Every attempt: 429 and 503 are repeated even for a create, since the API declined it.
        emulator.injectFault({
          method: 'POST',
          path: CHANNELS,
          status,
          body: { message: `status ${status}` },
          times: Infinity,
        });
        const error = await apiError(api.alertChannels.create(email()), code);
        expect(error.status).to.equal(status);
        expect(error.message).to.include(`status ${status}`);
      });
    }

    const messageShapes: Array<[string, { body?: unknown; rawBody?: string }, string]> = [
      ['data.ErrorMsg', { body: { data: { ErrorMsg: 'from ErrorMsg', message: 'not this' } } }, 'from ErrorMsg'],
      ['data.message', { body: { data: { message: 'from data.message' }, message: 'not this' } }, 'from data.message'],
      ['message', { body: { message: 'from message' } }, 'from message'],
      [
        'data.statusMessage after a SUCCESS message',
        { body: { message: 'SUCCESS', data: { statusMessage: 'from statusMessage' } } },
        'from statusMessage',
      ],
      ['a non-JSON body', { rawBody: 'upstream proxy said no' }, 'upstream proxy said no'],
      ['an empty body', { rawBody: '' }, 'the API answered HTTP 400'],
    ];
    for (const [what, fault, expected] of messageShapes) {
      it(`takes the message from ${what}`, async () => {
        const api = client();
        await api.alertChannels.list();
        emulator.injectFault({ method: 'POST', path: CHANNELS, status: 400, ...fault });
        const error = await apiError(api.alertChannels.create(email()), 'invalid');
        expect(error.message).to.include(expected);
        expect(error.message).not.to.include('not this');
      });
    }

    it('redacts secrets the server echoes back, and never puts request bodies in messages', async () => {
      const apiToken = emulator.issueToken();
      secrets.push(apiToken, 'metrics-secret-key');
      const api = client({ apiToken });
      emulator.injectFault({
        method: 'POST',
        path: CHANNELS,
        status: 400,
        body: { message: `rejected key ${emulator.apiKey} secret ${emulator.apiSecret} token ${apiToken}` },
      });
      const error = await apiError(
        api.alertChannels.create({ name: 'm', type: 'Metrics', enabled: true, data: { apiKey: 'metrics-secret-key' } }),
        'invalid',
      );
      expect(error.message).to.include('rejected key *** secret *** token ***');
    });

    it('redacts a token the client fetched itself', async () => {
      const api = client();
      await api.alertChannels.list();
      // Only the client knows this token: have the server echo the Authorization header it got.
      emulator.injectFault({
        method: 'GET',
        path: CHANNELS,
        status: 400,
        bodyFor: (headers) => ({ message: `refused credentials ${String(headers.authorization)}` }),
      });
      const error = await apiError(api.alertChannels.list(), 'invalid');
      expect(error.message).to.include('refused credentials Bearer ***');
      expect(error.message).not.to.match(/Bearer [0-9a-f]{16,}/);
    });

    it('never logs secrets and logs one line per attempt', async () => {
      const lines: Array<{ message: string; fields?: object }> = [];
      const api = client({
        logger: { debug: (message, fields) => lines.push({ message, ...(fields ? { fields } : {}) }) },
      });
      const created = await api.alertChannels.create({
        name: 'm',
        type: 'Metrics',
        enabled: true,
        data: { apiKey: 'metrics-secret-key' },
      });
      await api.alertChannels.get(created.intgGuid);
      const logged = JSON.stringify(lines);
      for (const secret of [...secrets, 'metrics-secret-key']) expect(logged).not.to.include(secret);
      expect(lines.map((line) => (line.fields as { operation: string }).operation)).to.deep.equal([
        'POST /api/v2/access/tokens',
        'POST /api/v2/AlertChannels',
        'GET /api/v2/AlertChannels/{intgGuid}',
      ]);
      expect(lines[1]!.fields).to.include({ status: 201, attempt: 1 });
    });
  });

  describe('retries', () => {
    it('retries GET on 503 and 502 and succeeds', async () => {
      const api = client();
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 503 });
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 502 });
      expect(await api.alertChannels.list()).to.deep.equal([]);
      expect(requestsTo(CHANNELS, 'GET')).to.have.length(4);
    });

    it('gives up after 8 attempts by default, or the configured budget', async () => {
      const api = client();
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 504, times: Infinity });
      const error = await apiError(api.alertChannels.list(), 'unavailable');
      expect(error.status).to.equal(504);
      expect(requestsTo(CHANNELS, 'GET')).to.have.length(1 + 8);
      await apiError(
        client({ retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 40 } }).alertChannels.list(),
        'unavailable',
      );
      expect(requestsTo(CHANNELS, 'GET')).to.have.length(1 + 8 + 2);
    });

    it('names the request id of every attempt when it gives up, joined as the vdb client joins them', async () => {
      const api = client({ retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 40 } });
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 503, times: Infinity });
      const error = await apiError(api.alertChannels.list(), 'unavailable');
      const ids = error.requestId!.split(', ');
      expect(ids).to.have.length(3);
      for (const id of ids) expect(id).to.match(/^[0-9A-F]{16}$/);
      const operation = 'GET /api/v2/AlertChannels';
      const facts = `(HTTP 503, request ids ${ids.join(', ')})`;
      expect(error.message).to.equal(`${operation}: the API answered HTTP 503 ${facts}`);
    });

    it('honours Retry-After on 429', async () => {
      const api = client({ retry: { baseDelayMs: 5, maxDelayMs: 2_000 } });
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 429, headers: { 'Retry-After': '1' } });
      const started = Date.now();
      await api.alertChannels.list();
      expect(Date.now() - started).to.be.at.least(900);
    });

    it('retries PATCH and DELETE, and a GET whose connection was dropped', async () => {
      const api = client();
      const created = await api.alertChannels.create(email());
      const path = `${CHANNELS}/${created.intgGuid}`;
      emulator.injectFault({ method: 'PATCH', path, status: 503 });
      await api.alertChannels.update(created.intgGuid, { ...email(), name: 'renamed' });
      emulator.injectFault({ method: 'GET', path, dropConnection: true });
      expect((await api.alertChannels.get(created.intgGuid)).name).to.equal('renamed');
      emulator.injectFault({ method: 'DELETE', path, status: 502 });
      await api.alertChannels.delete(created.intgGuid);
      expect(requestsTo(path, 'PATCH')).to.have.length(2);
      // The update reads the object before it replaces it (replace.ts), then the read above, dropped once.
      expect(requestsTo(path, 'GET')).to.have.length(3);
      expect(requestsTo(path, 'DELETE')).to.have.length(2);
    });

    it('repeats a create the API declined (429 with Retry-After, 503), making one channel', async () => {
      const api = client({ retry: { baseDelayMs: 5, maxDelayMs: 2_000 } });
      await api.alertChannels.list();
      emulator.injectFault({ method: 'POST', path: CHANNELS, status: 429, headers: { 'Retry-After': '0.3' } });
      emulator.injectFault({ method: 'POST', path: CHANNELS, status: 503 });
      const started = Date.now();
      const created = await api.alertChannels.create(email());
      expect(Date.now() - started).to.be.at.least(280);
      expect(requestsTo(CHANNELS, 'POST')).to.have.length(3);
      expect(
        emulator.list(SEC_COLLECTIONS.alertChannels).map((c) => (c as { intgGuid: string }).intgGuid),
      ).to.deep.equal([created.intgGuid]);
    });

    it('gives up on a declined create after the attempt budget, which a call may set', async () => {
      const api = client({ retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 40 } });
      await api.alertChannels.list();
      emulator.injectFault({ method: 'POST', path: CHANNELS, status: 503, times: Infinity });
      await apiError(api.alertChannels.create(email()), 'unavailable');
      expect(requestsTo(CHANNELS, 'POST')).to.have.length(3);
      await apiError(api.alertChannels.create(email(), { attempts: 5 }), 'unavailable');
      expect(requestsTo(CHANNELS, 'POST')).to.have.length(3 + 5);
      expect(emulator.list(SEC_COLLECTIONS.alertChannels)).to.have.length(0);
    });

    it('fails with outcome_unknown, without repeating, when a create may have taken effect', async () => {
      const api = client();
      await api.alertChannels.list();
      // Handled, then the socket closes: the channel exists but the client never hears of it.
      emulator.injectFault({ method: 'POST', path: CHANNELS, ambiguous: true });
      const lost = await apiError(api.alertChannels.create(email()), 'outcome_unknown');
      expect(lost.operation).to.equal('POST /api/v2/AlertChannels');
      expect(lost.message).to.match(/the connection was lost .*may or may not have taken effect/);
      expect(requestsTo(CHANNELS, 'POST')).to.have.length(1);
      expect(emulator.list(SEC_COLLECTIONS.alertChannels)).to.have.length(1);

      // Dropped before it was handled: the client cannot tell the difference, so the same answer.
      emulator.injectFault({ method: 'POST', path: CHANNELS, dropConnection: true });
      await apiError(api.alertChannels.create(email()), 'outcome_unknown');
      for (const status of [502, 504]) {
        emulator.injectFault({ method: 'POST', path: CHANNELS, status, body: { message: 'gateway trouble' } });
        const gateway = await apiError(api.alertChannels.create(email()), 'outcome_unknown');
        expect(gateway.status).to.equal(status);
        expect(gateway.message).to.include(`a gateway answered HTTP ${status}`);
      }
      expect(requestsTo(CHANNELS, 'POST')).to.have.length(4);
      expect(emulator.list(SEC_COLLECTIONS.alertChannels)).to.have.length(1);
    });

    it('fails with outcome_unknown when the deadline passes while a create is out', async () => {
      const api = client();
      await api.alertChannels.list();
      emulator.injectFault({ method: 'POST', path: CHANNELS, delayMs: 400 });
      const error = await apiError(api.alertChannels.create(email(), { timeoutMs: 100 }), 'outcome_unknown');
      expect(error.message).to.include('no answer within 100 ms');
      expect(requestsTo(CHANNELS, 'POST')).to.have.length(1);
    });

    it('repeats any request, a create included, whose connection was never made', async () => {
      const closed = await startSecEmulator({ account: 'acme' });
      const url = closed.url;
      await closed.close();
      const attempts: unknown[] = [];
      const logger = { debug: (_message: string, fields?: object) => attempts.push(fields) };
      const api = client({
        baseUrl: url,
        apiToken: 'pre-issued',
        apiKey: undefined,
        apiSecret: undefined,
        logger,
        retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 40 },
      });
      const error = await apiError(api.alertChannels.create(email()), 'unavailable');
      expect(error.message).to.include('could not reach the API');
      expect(attempts.map((fields) => (fields as { attempt: number; error: string }).error)).to.deep.equal([
        'ECONNREFUSED',
        'ECONNREFUSED',
        'ECONNREFUSED',
      ]);
    });

    it('reports a plaintext server behind an https:// URL at once, in one sentence, for a read and a create', async () => {
      const url = emulator.url.replace('http://', 'https://');
      const attempts: unknown[] = [];
      const logger = { debug: (_message: string, fields?: object) => attempts.push(fields) };
      const api = client({ baseUrl: url, apiToken: 'pre-issued', apiKey: undefined, apiSecret: undefined, logger });
      const sentence = `the server at ${url} did not answer TLS, so it may be a plaintext endpoint: check the API URL (plain http:// is accepted for loopback hosts only)`;

      const read = await apiError(api.alertChannels.get('TECHALLY_0123456789ABCDEF'), 'unavailable');
      expect(read.message).to.equal(`GET /api/v2/AlertChannels/{intgGuid}: ${sentence}`);
      expect(attempts, 'not retried').to.have.length(1);
      // The handshake failed, so nothing was sent: a create's outcome is known, not 'outcome_unknown'.
      const create = await apiError(api.alertChannels.create(email()), 'unavailable');
      expect(create.message).to.equal(`POST /api/v2/AlertChannels: ${sentence}`);
      expect(attempts).to.have.length(2);
      expect(emulator.requests).to.have.length(0);
    });

    it('computes backoff with jitter, capped, and parses Retry-After', () => {
      const policy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 };
      for (let i = 0; i < 50; i++) {
        expect(retryDelayMs(policy, 1, undefined)).to.be.within(50, 100);
        expect(retryDelayMs(policy, 3, undefined)).to.be.within(200, 400);
        expect(retryDelayMs(policy, 10, undefined)).to.be.within(500, 1_000);
      }
      expect(retryDelayMs(policy, 1, '0')).to.equal(0);
      expect(retryDelayMs(policy, 1, '120')).to.equal(1_000);
      expect(parseRetryAfter('2')).to.equal(2_000);
      expect(parseRetryAfter(new Date(Date.now() + 5_000).toUTCString())).to.be.within(3_000, 5_000);
      expect(parseRetryAfter('soon')).to.equal(undefined);
    });
  });

  describe('deadlines and cancellation', () => {
    it('fails with timeout when the deadline passes', async () => {
      const api = client();
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, delayMs: 400 });
      const error = await apiError(api.alertChannels.list({ timeoutMs: 100 }), 'timeout');
      expect(error.operation).to.equal('GET /api/v2/AlertChannels');
    });

    it('uses the client-wide timeout by default', async () => {
      const api = client({ timeoutMs: 100 });
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, delayMs: 400 });
      await apiError(api.alertChannels.list(), 'timeout');
    });

    it('fails with cancelled when the caller aborts, in flight or during a backoff wait', async () => {
      const api = client({ retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 } });
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, delayMs: 400 });
      const inFlight = new AbortController();
      setTimeout(() => inFlight.abort(), 50);
      await apiError(api.alertChannels.list({ signal: inFlight.signal }), 'cancelled');

      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 503 });
      const waiting = new AbortController();
      setTimeout(() => waiting.abort(), 100);
      const started = Date.now();
      await apiError(api.alertChannels.list({ signal: waiting.signal }), 'cancelled');
      expect(Date.now() - started, 'the 10 s back-off was cut short').to.be.below(10_000);
    });

    it('stops the wait before repeating a declined create when the caller aborts', async () => {
      const api = client({ retry: { baseDelayMs: 5, maxDelayMs: 10_000 } });
      await api.alertChannels.list();
      emulator.injectFault({ method: 'POST', path: CHANNELS, status: 429, headers: { 'Retry-After': '8' } });
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 100);
      const started = Date.now();
      await apiError(api.alertChannels.create(email(), { signal: stop.signal }), 'cancelled');
      expect(Date.now() - started, "the Retry-After's 8 s were cut short").to.be.below(8_000);
      expect(requestsTo(CHANNELS, 'POST')).to.have.length(1);
      expect(emulator.list(SEC_COLLECTIONS.alertChannels)).to.have.length(0);
    });

    it('fails with cancelled at once for an already aborted signal', async () => {
      const api = client();
      await apiError(api.alertChannels.list({ signal: AbortSignal.abort() }), 'cancelled');
      expect(emulator.requests).to.have.length(0);
    });

    describe('when Terraform asks the provider to stop (StopProvider)', () => {
      it('lets a create already on the wire finish and returns the object it made', async () => {
        const api = client({ stopGraceMs: 5_000 });
        await api.alertChannels.list();
        emulator.injectFault({ method: 'POST', path: CHANNELS, delayMs: 400, slow: true });
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 100);
        const created = await api.alertChannels.create(email(), { signal: stop.signal });
        expect(stop.signal.aborted).to.equal(true);
        expect(
          emulator.list(SEC_COLLECTIONS.alertChannels).map((c) => (c as { intgGuid: string }).intgGuid),
        ).to.deep.equal([created.intgGuid]);
      });

      it('gives a create on the wire the grace at most, then reports its outcome unknown (the platform still made it)', async () => {
        const api = client({ stopGraceMs: 150 });
        await api.alertChannels.list();
        emulator.injectFault({ method: 'POST', path: CHANNELS, delayMs: 800, slow: true });
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 50);
        const started = Date.now();
        const error = await apiError(api.alertChannels.create(email(), { signal: stop.signal }), 'outcome_unknown');
        // At least the grace (timers never fire early); an outcome unknown, not the object: before the answer.
        expect(Date.now() - started).to.be.at.least(150);
        expect(error.message).to.equal(
          `POST /api/v2/AlertChannels: Terraform asked the provider to stop and no answer came within the 150 ms the provider waits for requests already sent; ${OUTCOME_UNKNOWN_NOTE}`,
        );
        // The emulator, like the platform, finishes what it was sent although the client went away.
        await new Promise((resolve) => setTimeout(resolve, 900));
        expect(emulator.list(SEC_COLLECTIONS.alertChannels)).to.have.length(1);
      });

      it('cuts a read off at once', async () => {
        const api = client({ stopGraceMs: 5_000 });
        await api.alertChannels.list();
        emulator.injectFault({ method: 'GET', path: CHANNELS, delayMs: 2_000 });
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 50);
        const started = Date.now();
        const error = await apiError(api.alertChannels.list({ signal: stop.signal }), 'cancelled');
        expect(Date.now() - started, 'before the answer, 2 s away').to.be.below(2_000);
        expect(error.message).to.equal(
          'GET /api/v2/AlertChannels: Terraform asked the provider to stop while the request was out',
        );
      });

      it('sends nothing after the stop and says the create changed nothing', async () => {
        const api = client();
        await api.alertChannels.list();
        emulator.clearRequests();
        const error = await apiError(api.alertChannels.create(email(), { signal: AbortSignal.abort() }), 'cancelled');
        expect(error.message).to.equal(
          'POST /api/v2/AlertChannels: Terraform asked the provider to stop before the request was sent, so it changed nothing',
        );
        expect(emulator.requests).to.have.length(0);
      });

      it('does not repeat an update whose answer was lost after the stop, and says its outcome is unknown', async () => {
        const api = client({ retry: { baseDelayMs: 200, maxDelayMs: 200 } });
        const created = await api.alertChannels.create(email());
        const path = `${CHANNELS}/${created.intgGuid}`;
        emulator.clearRequests();
        emulator.injectFault({ method: 'PATCH', path, ambiguous: true });
        const stop = new AbortController();
        const updating = api.alertChannels.update(
          created.intgGuid,
          { ...email(), name: 'renamed' },
          { signal: stop.signal },
        );
        setTimeout(() => stop.abort(), 50);
        const error = await apiError(updating, 'outcome_unknown');
        expect(error.message).to.include(
          "an earlier attempt's answer was lost and Terraform asked the provider to stop before it could be sent again",
        );
        expect(requestsTo(path, 'PATCH')).to.have.length(1);
        expect(emulator.get(SEC_COLLECTIONS.alertChannels, created.intgGuid)).to.deep.include({ name: 'renamed' });
      });
    });
  });

  describe('response validation', () => {
    async function createdGuid(api: SecClient): Promise<string> {
      return (await api.alertChannels.create(email())).intgGuid;
    }

    it('rejects a body of the wrong shape as malformed_response naming the operation and path', async () => {
      const api = client();
      const guid = await createdGuid(api);
      emulator.injectFault({
        method: 'GET',
        path: `${CHANNELS}/${guid}`,
        status: 200,
        body: { data: { intgGuid: guid, name: 'x', type: 'EmailUser', enabled: 'yes' } },
      });
      const error = await apiError(api.alertChannels.get(guid), 'malformed_response');
      expect(error.message).to.match(
        /^GET \/api\/v2\/AlertChannels\/\{intgGuid\}: the response does not have the expected shape: data\.enabled: /,
      );
      expect(error.status).to.equal(200);
    });

    it('rejects non-JSON, an empty body and a missing envelope', async () => {
      const api = client();
      await api.alertChannels.list();
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 200, rawBody: '<html>' });
      expect((await apiError(api.alertChannels.list(), 'malformed_response')).message).to.include(
        'the response body is not JSON',
      );
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 200, rawBody: '' });
      expect((await apiError(api.alertChannels.list(), 'malformed_response')).message).to.include(
        'the response body is empty',
      );
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 200, body: [] });
      await apiError(api.alertChannels.list(), 'malformed_response');
    });

    it('rejects an unknown alert channel type and data that does not fit its type', async () => {
      const api = client();
      const guid = await createdGuid(api);
      const stored = emulator.get<Record<string, unknown>>(SEC_COLLECTIONS.alertChannels, guid)!;
      emulator.put(SEC_COLLECTIONS.alertChannels, guid, { ...stored, type: 'Pigeon' });
      expect((await apiError(api.alertChannels.get(guid), 'malformed_response')).message).to.include(
        'type: unsupported alert channel type "Pigeon"',
      );
      // A list leaves a channel of an unknown type out instead of failing as a whole.
      expect(await api.alertChannels.list()).to.deep.equal([]);
      emulator.put(SEC_COLLECTIONS.alertChannels, guid, { ...stored, data: { channelProps: {} } });
      expect((await apiError(api.alertChannels.get(guid), 'malformed_response')).message).to.include(
        'data.channelProps.recipients',
      );
    });

    it('refuses a type named like a member every object has as malformed, not a crash, and lists without it', async () => {
      const api = client();
      const guid = await createdGuid(api);
      const stored = emulator.get<Record<string, unknown>>(SEC_COLLECTIONS.alertChannels, guid)!;
      const integration = (type: string, data: Record<string, unknown>) => ({
        intgGuid: 'ACME_ODD',
        name: 'odd',
        type,
        enabled: 1,
        createdOrUpdatedTime: '2026-01-01T00:00:00Z',
        createdOrUpdatedBy: 'someone',
        data,
      });
      const answer = (path: string, body: unknown) =>
        emulator.injectFault({ method: 'GET', path: `/api/v2/${path}`, status: 200, body: { data: body } });
      for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        emulator.put(SEC_COLLECTIONS.alertChannels, guid, { ...stored, type });
        expect((await apiError(api.alertChannels.get(guid), 'malformed_response')).message, type).to.include(
          `type: unsupported alert channel type ${JSON.stringify(type)}`,
        );
        expect(await api.alertChannels.list(), type).to.deep.equal([]);

        answer('CloudAccounts/ACME_ODD', integration(type, {}));
        expect((await apiError(api.cloudAccounts.get('ACME_ODD'), 'malformed_response')).message, type).to.include(
          `type: unsupported cloud account type ${JSON.stringify(type)}`,
        );
        answer('CloudAccounts', [integration(type, {})]);
        expect(await api.cloudAccounts.list(), type).to.deep.equal([]);

        answer('ContainerRegistries/ACME_ODD', integration('ContVulnCfg', { registryType: type }));
        expect(
          (await apiError(api.containerRegistries.get('ACME_ODD'), 'malformed_response')).message,
          type,
        ).to.include(`data.registryType: unsupported registry type ${JSON.stringify(type)}`);
      }
    });

    it('rejects a malformed token response', async () => {
      const api = client();
      emulator.injectFault({
        method: 'POST',
        path: TOKEN_PATH,
        status: 201,
        body: { token: 'abc', expiresAt: 'whenever' },
      });
      const error = await apiError(api.alertChannels.list(), 'malformed_response');
      expect(error.operation).to.equal('POST /api/v2/access/tokens');
      expect(error.message).to.include('expiresAt');
    });

    it('splits comma-joined email recipients', async () => {
      const api = client();
      const guid = await createdGuid(api);
      const stored = emulator.get<Record<string, unknown>>(SEC_COLLECTIONS.alertChannels, guid)!;
      emulator.put(SEC_COLLECTIONS.alertChannels, guid, {
        ...stored,
        data: { channelProps: { recipients: 'a@b.io, c@d.io' } },
      });
      const channel = await api.alertChannels.get(guid);
      expect(channel.type === 'EmailUser' && channel.data.channelProps.recipients).to.deep.equal(['a@b.io', 'c@d.io']);
    });
  });

  describe('alert channels', () => {
    it('creates, reads, lists, updates, tests and deletes an email channel', async () => {
      const api = client();
      const created = await api.alertChannels.create(email(['ops@example.com', 'sec@example.com']));
      expect(created).to.include({ name: 'ops', type: 'EmailUser', enabled: true, isOrg: false });
      expect(created.intgGuid).to.be.a('string').and.not.empty;
      expect(created.createdOrUpdatedBy).to.equal('api-user@acme.example');
      expect(created.data.channelProps.recipients).to.deep.equal(['ops@example.com', 'sec@example.com']);
      expect(requestsTo(CHANNELS, 'POST')[0]!.body).to.deep.equal({
        name: 'ops',
        type: 'EmailUser',
        enabled: 1,
        data: { channelProps: { recipients: ['ops@example.com', 'sec@example.com'] } },
      });
      expect(requestsTo(CHANNELS, 'POST')[0]!.headers['content-type']).to.equal('application/json');

      expect(await api.alertChannels.get(created.intgGuid)).to.deep.equal(created);
      expect(await api.alertChannels.list()).to.deep.equal([created]);

      const updated = await api.alertChannels.update(created.intgGuid, {
        ...email(['new@example.com']),
        name: 'renamed',
        enabled: false,
      });
      expect(updated).to.include({ intgGuid: created.intgGuid, name: 'renamed', enabled: false });
      expect(updated.data.channelProps.recipients).to.deep.equal(['new@example.com']);
      expect(requestsTo(`${CHANNELS}/${created.intgGuid}`, 'PATCH')[0]!.body).to.include({
        intgGuid: created.intgGuid,
        enabled: 0,
      });

      await api.alertChannels.test(created.intgGuid);
      await api.alertChannels.delete(created.intgGuid);
      await apiError(api.alertChannels.get(created.intgGuid), 'not_found');
      await apiError(api.alertChannels.delete(created.intgGuid), 'not_found');
    });

    it('reports a failed channel test with the platform explanation', async () => {
      const api = client();
      const created = await api.alertChannels.create(email(['fail-test@example.com']));
      const error = await apiError(api.alertChannels.test(created.intgGuid), 'invalid');
      expect(error.operation).to.equal('POST /api/v2/AlertChannels/{intgGuid}/test');
      expect(error.message).to.include(
        'test notification failed: the destination in data.channelProps.recipients[0] rejected the request',
      );
      emulator.failChannelTest(created.intgGuid, 'mail relay refused');
      expect((await apiError(api.alertChannels.test(created.intgGuid), 'invalid')).message).to.include(
        'mail relay refused',
      );
    });

    it('refuses to change the type', async () => {
      const api = client();
      const created = await api.alertChannels.create(email());
      const error = await apiError(
        api.alertChannels.update(created.intgGuid, {
          name: 'x',
          type: 'Webhook',
          enabled: true,
          data: { webhookUrl: 'https://h.example/' },
        }),
        'invalid',
      );
      expect(error.message).to.include('type cannot be changed');
    });

    it('gets secrets back blank while other fields round-trip', async () => {
      const api = client();
      secrets.push('tracker-token-value');
      const template = encodeJsonDataUrl('{"fields":{"labels":["sec"]}}');
      const created = await api.alertChannels.create({
        name: 'tracker',
        type: 'Tracker',
        enabled: true,
        data: {
          trackerType: 'TRACKER_CLOUD',
          trackerUrl: 'tracker.example',
          issueType: 'Bug',
          projectId: 'SEC',
          username: 'bot',
          apiToken: 'tracker-token-value',
          customTemplateFile: template,
          issueGrouping: 'Resources',
        },
      });
      const read = await api.alertChannels.get(created.intgGuid);
      if (read.type !== 'Tracker') expect.fail('expected a Tracker channel');
      expect(read.data.apiToken).to.equal('');
      expect(read.data).to.include({ trackerType: 'TRACKER_CLOUD', projectId: 'SEC', issueGrouping: 'Resources' });
      expect(decodeJsonDataUrl(read.data.customTemplateFile!)).to.equal('{"fields":{"labels":["sec"]}}');
    });
  });

  describe('agent access tokens', () => {
    it('creates, gets, lists, updates and searches', async () => {
      const api = client();
      const created = await api.agentAccessTokens.create({
        tokenAlias: 'hosts',
        tokenEnabled: true,
        props: { description: 'd', os: 'linux' },
      });
      secrets.push(created.accessToken);
      expect(created).to.include({ tokenAlias: 'hosts', tokenEnabled: true, version: '0.1' });
      expect(created.accessToken).to.be.a('string').with.length.above(20);
      expect(created.props).to.include({ description: 'd', os: 'linux' });
      expect(created.props.createdTime).to.be.a('string');
      expect(requestsTo('/api/v2/AgentAccessTokens', 'POST')[0]!.body).to.deep.equal({
        tokenAlias: 'hosts',
        tokenEnabled: 1,
        props: { description: 'd', os: 'linux' },
      });

      expect(await api.agentAccessTokens.get(created.accessToken)).to.deep.equal(created);
      expect(await api.agentAccessTokens.list()).to.deep.equal([created]);

      const disabled = await api.agentAccessTokens.update(created.accessToken, {
        tokenEnabled: false,
        props: { description: 'changed' },
      });
      expect(disabled).to.include({ tokenAlias: 'hosts', tokenEnabled: false });
      expect(disabled.props).to.include({ description: 'changed', os: 'linux' });

      expect((await api.agentAccessTokens.search('hosts')).map((token) => token.accessToken)).to.deep.equal([
        created.accessToken,
      ]);
      expect(await api.agentAccessTokens.search('nobody')).to.deep.equal([]);
    });

    it('follows every page of a search, as the platform pages it, and sends the token to no other host', async () => {
      await emulator.close();
      emulator = await startSecEmulator({ account: 'acme', searchPageSize: 2 });
      const api = client();
      const first = await api.agentAccessTokens.create({ tokenAlias: 'runners', tokenEnabled: true, props: {} });
      secrets.push(first.accessToken);
      // More matches than a page holds: copies behind the API's back (aliases are unique through it).
      const made = [first.accessToken];
      for (let i = 0; i < 4; i++) {
        const copy = `${first.accessToken.slice(0, -4)}c0p${i}`;
        emulator.put(SEC_COLLECTIONS.agentAccessTokens, copy, {
          ...emulator.get(SEC_COLLECTIONS.agentAccessTokens, first.accessToken),
          accessToken: copy,
        });
        made.push(copy);
      }
      await api.teamMembers.create({
        userName: 'a@example.com',
        userEnabled: true,
        props: { firstName: 'A', lastName: 'B', company: 'C', accountAdmin: false },
      });
      emulator.clearRequests();
      const found = await api.agentAccessTokens.search('runners');
      expect(found.map((t) => t.accessToken).sort()).to.deep.equal([...made].sort());
      const pages = emulator.requests.filter((r) => r.path.startsWith('/api/v2/AgentAccessTokens/search'));
      expect(pages.map((r) => r.method)).to.deep.equal(['POST', 'GET', 'GET']);
      expect(await api.teamMembers.search('a@example.com')).to.have.length(1);

      // A next page elsewhere, or one that comes back, ends in an error, never a request there or a loop.
      for (const nextPage of ['https://elsewhere.example/api/v2/AgentAccessTokens/search/pages/x', '/other/path']) {
        emulator.injectFault({
          path: '/api/v2/AgentAccessTokens/search',
          status: 200,
          body: { data: [], paging: { urls: { nextPage } } },
        });
        const error = await apiError(api.agentAccessTokens.search('runners'), 'malformed_response');
        expect(error.message).to.include('its next page is not on the API it was asked');
      }
      const loop = `${emulator.url}/api/v2/AgentAccessTokens/search/pages/loop`;
      for (const path of ['/api/v2/AgentAccessTokens/search', '/api/v2/AgentAccessTokens/search/pages/loop'])
        emulator.injectFault({ path, status: 200, body: { data: [], paging: { urls: { nextPage: loop } } } });
      expect((await apiError(api.agentAccessTokens.search('runners'), 'malformed_response')).message).to.include(
        'a page repeated',
      );
    });

    it('keeps the token out of the operation and message of a 404', async () => {
      const missing = 'a-secret-token-value-0123456789';
      secrets.push(missing);
      const error = await apiError(client().agentAccessTokens.get(missing), 'not_found');
      expect(error.operation).to.equal('GET /api/v2/AgentAccessTokens/{token}');
    });
  });

  it('reads the user profile with booleans', async () => {
    const [profile] = await client().userProfile.get();
    expect(profile).to.include({
      username: 'api-user@acme.example',
      orgAccount: false,
      orgAdmin: false,
      orgUser: false,
    });
    expect(profile!.accounts[0]).to.include({ accountName: 'ACME', admin: true, userEnabled: true });
  });

  it('round-trips JSON data URLs', () => {
    const url = encodeJsonDataUrl('{"a":[1,2]}');
    expect(url).to.match(/^data:application\/json;name=i\.json;base64,/);
    expect(decodeJsonDataUrl(url)).to.equal('{"a":[1,2]}');
    expect(decodeJsonDataUrl('{"a":1}')).to.equal(undefined);
  });
});
