/**
 * Both API clients through a proxy, as the environment they are given names it (Go's rules:
 * src/clients/proxy.ts): an API reachable only through a loopback CONNECT proxy (its name,
 * `*-api.test`, does not resolve) is reached through it, with TLS to the API's name verified inside
 * the tunnel; NO_PROXY and loopback APIs go direct; what the clients cannot tunnel is refused at once.
 */
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecClient, type SecClient } from '../../src/clients/sec/index.js';
import { createVdbClient } from '../../src/clients/vdb/index.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { selfSignedCertificate } from '../../packages/framework/src/server/self-signed.js';
import { type ConnectProxy, startConnectProxy } from '../support/connect-proxy.js';
import { expectApiError, expectApiErrorThrown } from '../support/api-error.js';
import { startTlsFront } from '../support/tls-front.js';

/** The API clients trust each test's CA through NODE_EXTRA_CA_CERTS in the environment they are given. */
const caDir = mkdtempSync(join(tmpdir(), 'keel-proxy-ca-'));

describe('API clients through a proxy (HTTPS_PROXY, NO_PROXY; Go rules)', function () {
  this.timeout(30_000);
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  describe('sec', () => {
    let emulator: SecEmulator;
    let front: { port: number; close(): Promise<void> };
    let proxy: ConnectProxy;
    let certificatePem: string;

    beforeEach(async () => {
      emulator = await startSecEmulator({ account: 'acme' });
      closers.push(() => emulator.close());
      const certificate = selfSignedCertificate('sec-api.test');
      certificatePem = certificate.certPem;
      front = await startTlsFront(certificate, emulator.url);
      closers.push(() => front.close());
      proxy = await startConnectProxy(() => front.port);
      closers.push(() => proxy.close());
    });

    const client = (proxies: NodeJS.ProcessEnv, baseUrl = 'https://sec-api.test'): SecClient => {
      const file = join(caDir, 'sec.pem');
      writeFileSync(file, certificatePem);
      const created = createSecClient({
        baseUrl,
        account: emulator.account,
        apiKey: emulator.apiKey,
        apiSecret: emulator.apiSecret,
        userAgent: 'test',
        retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
        timeoutMs: 10_000,
        environment: { ...proxies, NODE_EXTRA_CA_CERTS: file },
      });
      closers.push(() => created.close());
      return created;
    };

    it('reaches an API only the proxy can reach, verifying its certificate through the tunnel', async () => {
      const [profile] = await client({ https_proxy: proxy.url }).userProfile.get();
      expect(profile?.username).to.equal('api-user@acme.example');
      expect(proxy.tunnels.map((t) => t.target)).to.deep.equal(['sec-api.test:443']);
      expect(emulator.requests.map((r) => r.path)).to.include('/api/v2/UserProfile');
    });

    it('goes direct for a NO_PROXY host (which then does not resolve) and for a loopback API', async () => {
      const direct = client({ HTTPS_PROXY: proxy.url, NO_PROXY: '.test' });
      const error = await expectApiError(direct.userProfile.get(), 'unavailable');
      expect(error.message).to.match(/ENOTFOUND|EAI_AGAIN/);
      const loopback = client({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }, emulator.url);
      await loopback.userProfile.get();
      expect(proxy.tunnels).to.deep.equal([]);
    });

    it('refuses a SOCKS proxy when the client is made, naming the variable', () => {
      const error = expectApiErrorThrown(() => client({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' }), 'invalid');
      expect(error.message).to.equal(
        'configure sec client: HTTPS_PROXY names a SOCKS proxy; the sec provider reaches proxies over HTTP(S) only',
      );
    });
  });

  describe('vdb', () => {
    let emulator: VdbEmulator;
    let proxy: ConnectProxy;
    let extraCa: string;

    beforeEach(async () => {
      const certificate = selfSignedCertificate('vdb-api.test');
      extraCa = join(caDir, 'vdb.pem');
      writeFileSync(extraCa, certificate.certPem);
      emulator = await startVdbEmulator({ tls: { certPem: certificate.certPem, keyPem: certificate.keyPem } });
      closers.push(() => emulator.close());
      proxy = await startConnectProxy((target) => (target === 'vdb-api.test:443' ? emulator.port : { status: 403 }));
      closers.push(() => proxy.close());
    });

    const client = (proxies: NodeJS.ProcessEnv, apiUrl = 'vdb-api.test:443') => {
      const created = createVdbClient({
        apiUrl,
        apiKey: emulator.apiKey,
        userAgent: 'test',
        retry: { maxAttempts: 1 },
        timeoutMs: 10_000,
        environment: { ...proxies, NODE_EXTRA_CA_CERTS: extraCa },
      });
      closers.push(() => created.close());
      return created;
    };
    const listProviders = (c: ReturnType<typeof client>) =>
      c.platform.listCloudProviders({ accountId: emulator.accountId });

    it("reaches an API only the proxy can reach, with TLS to the API's name, credentials from the URL", async () => {
      const providers = await listProviders(client({ HTTPS_PROXY: `http://user:s%3Acret@127.0.0.1:${proxy.port}` }));
      expect(providers.map((p) => p.id)).to.include('aws');
      expect(proxy.tunnels.map((t) => t.target)).to.deep.equal(['vdb-api.test:443']);
      expect(proxy.tunnels[0]!.headers['proxy-authorization']).to.equal(
        `Basic ${Buffer.from('user:s:cret').toString('base64')}`,
      );
      expect(emulator.requests).to.have.length(1);
    });

    it('reads the upper-case variable before the lower-case one, as Go does', async () => {
      await listProviders(client({ HTTPS_PROXY: proxy.url, https_proxy: 'http://127.0.0.1:1' }));
      expect(proxy.tunnels).to.have.length(1);
    });

    it('goes direct for a NO_PROXY host (which then does not resolve), and for a loopback API', async () => {
      const error = await expectApiError(
        listProviders(client({ HTTPS_PROXY: proxy.url, no_proxy: 'vdb-api.test' })),
        'unavailable',
      );
      expect(error.message).to.contain('the host vdb-api.test could not be found');
      const loopback = client({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }, `localhost:${emulator.port}`);
      // The certificate is for vdb-api.test: reaching the server at all is what counts here.
      const direct = await expectApiError(listProviders(loopback), 'unavailable');
      expect(direct.message).to.match(/certificate/);
      expect(proxy.tunnels).to.deep.equal([]);
    });

    it("turns grpc-js's own reading of the environment off: the decision is the one above", async () => {
      const saved = process.env.grpc_proxy;
      process.env.grpc_proxy = proxy.url;
      try {
        const error = await expectApiError(listProviders(client({})), 'unavailable');
        expect(error.message).to.contain('the host vdb-api.test could not be found');
      } finally {
        if (saved === undefined) delete process.env.grpc_proxy;
        else process.env.grpc_proxy = saved;
      }
      expect(proxy.tunnels).to.deep.equal([]);
    });

    it('says so in one sentence when the proxy will not open the tunnel', async () => {
      const error = await expectApiError(
        listProviders(client({ HTTPS_PROXY: proxy.url }, 'other-api.test:443')),
        'unavailable',
      );
      expect(error.message).to.equal(
        `PlatformService/ListCloudProviders: no tunnel to other-api.test:443 could be opened through the proxy ` +
          `${proxy.url} (HTTPS_PROXY): the proxy could not be reached or refused the tunnel; check the proxy ` +
          'variables (HTTPS_PROXY, NO_PROXY)',
      );
      expect(emulator.requests).to.have.length(0);
    });

    it('refuses an https:// or SOCKS proxy when the client is made, which grpc-js cannot tunnel through', () => {
      for (const scheme of ['https', 'socks5']) {
        const error = expectApiErrorThrown(() => client({ HTTPS_PROXY: `${scheme}://127.0.0.1:3128` }), 'invalid');
        expect(error.message).to.equal(
          `configure vdb client: HTTPS_PROXY names a ${scheme}:// proxy; the vdb provider reaches proxies with ` +
            'plain HTTP CONNECT only: give an http:// proxy, or leave vdb-api.test out with NO_PROXY',
        );
      }
    });
  });
});
