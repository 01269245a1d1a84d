/**
 * Under real Terraform, both providers trust and reach their APIs as a Go provider would
 * (src/clients/trust.ts, src/clients/proxy.ts), although the bin/ wrappers start node with an empty
 * default store and hand the user's variables over:
 * - an API whose certificate authority is only in SSL_CERT_FILE, only in a directory of SSL_CERT_DIR,
 *   or only in NODE_EXTRA_CA_CERTS is reached, and refused without it before anything is sent;
 * - an API whose name (`*-api.test`) does not resolve, reachable only through a CONNECT proxy on
 *   127.0.0.1, is reached through HTTPS_PROXY (or https_proxy), verified by its own name inside the
 *   tunnel; without the variable, or with the API in NO_PROXY, it is not.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { selfSignedCertificate } from '../../packages/framework/src/server/self-signed.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { type ConnectProxy, startConnectProxy } from '../support/connect-proxy.js';
import { type TlsFront, startTlsFront } from '../support/tls-front.js';
import { Workspace, requireTerraform } from './terraform.js';

const CONFIGS = {
  sec: `terraform {
  required_providers {
    sec = { source = "keel/sec" }
  }
}

provider "sec" {}

data "sec_user_profile" "me" {}
`,
  vdb: `terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}

provider "vdb" {}

data "vdb_booking_packages" "here" {
  cloud_provider = "aws"
  cloud_region   = "us-east-1"
}
`,
} as const;

/** Variables that must not leak in from the machine running the tests. */
const NEUTRAL = {
  SSL_CERT_FILE: '',
  SSL_CERT_DIR: '',
  NODE_EXTRA_CA_CERTS: '',
  // grpc-js reads it in place of the default roots: blank, so that the system's and Node's count.
  GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: '',
  HTTPS_PROXY: '',
  https_proxy: '',
  HTTP_PROXY: '',
  http_proxy: '',
  NO_PROXY: '',
  no_proxy: '',
  grpc_proxy: '',
};

type Provider = keyof typeof CONFIGS;

describe('acceptance: the API clients trust SSL_CERT_FILE, SSL_CERT_DIR and NODE_EXTRA_CA_CERTS, and go through HTTPS_PROXY, under real Terraform', function () {
  this.timeout(300_000);
  const caDir = mkdtempSync(join(tmpdir(), 'keel-ca-'));
  let sec: SecEmulator;
  let vdb: VdbEmulator;
  /** Each provider's API over TLS on 127.0.0.1, with a certificate for `<name>-api.test` and localhost. */
  const apis = {} as Record<Provider, { port: number; caFile: string; caDir: string; requests(): number }>;
  let front: TlsFront;
  let localFront: TlsFront;
  let proxy: ConnectProxy;

  before(async function () {
    requireTerraform(this);
    sec = await startSecEmulator({ account: 'acme' });
    const secCertificate = selfSignedCertificate('sec-api.test');
    front = await startTlsFront(secCertificate, sec.url);
    const localCertificate = selfSignedCertificate('localhost');
    localFront = await startTlsFront(localCertificate, sec.url);
    const vdbCertificate = selfSignedCertificate('vdb-api.test');
    vdb = await startVdbEmulator({ tls: { certPem: vdbCertificate.certPem, keyPem: vdbCertificate.keyPem } });
    const files = (name: string, pems: string[]) => {
      const dir = join(caDir, name);
      mkdirSync(dir);
      // A directory as SSL_CERT_DIR names it: every file is read, whatever its name.
      pems.forEach((pem, i) => writeFileSync(join(dir, `ca-${i}.crt`), pem));
      const file = join(caDir, `${name}.pem`);
      writeFileSync(file, pems.join('\n'));
      return { caFile: file, caDir: dir };
    };
    apis.sec = {
      port: localFront.port,
      ...files('sec', [localCertificate.certPem, secCertificate.certPem]),
      requests: () => sec.requests.filter((r) => r.path !== '/api/v2/access/tokens').length,
    };
    apis.vdb = { port: vdb.port, ...files('vdb', [vdbCertificate.certPem]), requests: () => vdb.requests.length };
    proxy = await startConnectProxy((target) =>
      target === 'sec-api.test:443' ? front.port : target === 'vdb-api.test:443' ? vdb.port : { status: 403 },
    );
  });
  after(async () => {
    await proxy?.close();
    await front?.close();
    await localFront?.close();
    await sec?.close();
    await vdb?.close();
  });

  /** The provider's settings for its API at `host` (a port on 127.0.0.1, or a name only the proxy knows). */
  const settings = (name: Provider, host: string): Record<string, string> =>
    name === 'sec'
      ? secProviderEnv({ url: `https://${host}`, account: sec.account, apiKey: sec.apiKey, apiSecret: sec.apiSecret })
      : vdbProviderEnv({ url: host, apiKey: vdb.apiKey, accountId: vdb.accountId });

  const plan = (name: Provider, env: Record<string, string>) =>
    new Workspace(CONFIGS[name], { ...NEUTRAL, ...env }).run(['plan', '-no-color']);

  for (const name of ['sec', 'vdb'] as const) {
    /** The sec API on 127.0.0.1 by the name its certificate holds too (vdb's is reached by the proxy's only). */
    const direct = () => settings(name, `localhost:${apis.sec.port}`);

    if (name === 'sec') {
      for (const variable of ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS'] as const) {
        it(`${name}: reads the API when its certificate authority is only in ${variable}`, async () => {
          const before = apis.sec.requests();
          const value = variable === 'SSL_CERT_DIR' ? `/nonexistent:${apis.sec.caDir}` : apis.sec.caFile;
          const r = await plan(name, { ...direct(), [variable]: value });
          expect(r.code, r.stderr).to.equal(0);
          expect(apis.sec.requests(), 'the read reached the API').to.be.above(before);
        });
      }
      it(`${name}: refuses the API without it, before sending anything`, async () => {
        const before = apis.sec.requests();
        const r = await plan(name, direct());
        expect(r.code).to.equal(1);
        expect(r.stderr.replace(/\s+/g, ' ')).to.match(
          /could not be verified \(self-signed certificate\)\. The provider trusts Node's bundled certificate authorities and the system's .*add the API's certificate authority to the system's store, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS/,
        );
        expect(r.stderr).not.to.match(/crash/i);
        expect(apis.sec.requests()).to.equal(before);
      });
    }

    it(`${name}: reaches an API only a proxy can reach through HTTPS_PROXY, trusting its CA by SSL_CERT_FILE`, async () => {
      const tunnels = proxy.tunnels.length;
      const before = apis[name].requests();
      const r = await plan(name, {
        ...settings(name, `${name}-api.test:443`),
        HTTPS_PROXY: proxy.url,
        SSL_CERT_FILE: apis[name].caFile,
      });
      expect(r.code, r.stderr).to.equal(0);
      expect(proxy.tunnels.slice(tunnels).map((t) => t.target)).to.include(`${name}-api.test:443`);
      expect(apis[name].requests()).to.be.above(before);
    });

    it(`${name}: trusts a CA only in SSL_CERT_DIR, through the lower-case https_proxy`, async () => {
      const tunnels = proxy.tunnels.length;
      const r = await plan(name, {
        ...settings(name, `${name}-api.test:443`),
        https_proxy: proxy.url,
        SSL_CERT_DIR: apis[name].caDir,
      });
      expect(r.code, r.stderr).to.equal(0);
      expect(proxy.tunnels.length).to.be.above(tunnels);
    });

    for (const [what, env] of [
      ['without a proxy variable', {}],
      ['with the API in NO_PROXY', { HTTPS_PROXY: 'PROXY', NO_PROXY: `localhost,.test` }],
    ] as const) {
      it(`${name}: does not reach it ${what} (its name does not resolve)`, async () => {
        const tunnels = proxy.tunnels.length;
        const before = apis[name].requests();
        const r = await plan(name, {
          ...settings(name, `${name}-api.test:443`),
          SSL_CERT_FILE: apis[name].caFile,
          ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === 'PROXY' ? proxy.url : v])),
        });
        expect(r.code).to.equal(1);
        expect(r.stderr).to.match(/ENOTFOUND|EAI_AGAIN|could not be found|getaddrinfo/);
        expect(proxy.tunnels.length).to.equal(tunnels);
        expect(apis[name].requests()).to.equal(before);
      });
    }

    if (name === 'vdb') {
      it('vdb: refuses the API without its CA, before sending anything, naming where to add it; reads it with the CA in NODE_EXTRA_CA_CERTS', async () => {
        const before = apis.vdb.requests();
        const proxied = { ...settings(name, 'vdb-api.test:443'), HTTPS_PROXY: proxy.url };
        const refused = await plan(name, proxied);
        expect(refused.code).to.equal(1);
        expect(refused.stderr).to.match(/certificate/i);
        expect(refused.stderr.replace(/\s+/g, ' ')).to.contain(
          "add the API's certificate authority to the system's store, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS",
        );
        expect(apis.vdb.requests()).to.equal(before);
        const r = await plan(name, { ...proxied, NODE_EXTRA_CA_CERTS: apis.vdb.caFile });
        expect(r.code, r.stderr).to.equal(0);
      });
    }
  }
});
