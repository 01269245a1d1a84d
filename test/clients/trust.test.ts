/**
 * The certificate authorities the API clients trust (src/clients/trust.ts): Node's roots, the
 * system's store as Go reads it (SSL_CERT_FILE in place of the bundle files, SSL_CERT_DIR's
 * colon-separated directories in place of the usual ones, every file of them but same-directory
 * links), NODE_EXTRA_CA_CERTS, under their own names or as the bin/ wrappers hand them over.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { apiTrust, grpcTrust, systemTrust } from '../../src/clients/trust.js';
import { selfSignedCertificate } from '../../packages/framework/src/server/self-signed.js';

const [a, b, c, d] = ['a.test', 'b.test', 'c.test', 'd.test'].map((name) => selfSignedCertificate(name).certPem.trim());
const dir = mkdtempSync(join(tmpdir(), 'keel-trust-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const bundle = file('bundle.pem', `# a comment\n${a}\nnot a certificate\n${b}\n`);
const extra = file('extra.pem', `${c}\n${a}\n`);
const dirOne = join(dir, 'one');
const dirTwo = join(dir, 'two');
mkdirSync(dirOne);
mkdirSync(dirTwo);
writeFileSync(join(dirOne, 'c.pem'), c);
// A hash link to a file beside it: skipped, as Go skips it (the file itself is read).
symlinkSync('c.pem', join(dirOne, 'abcd1234.0'));
// A link elsewhere: read.
symlinkSync(join(dir, 'd.pem'), join(dirTwo, 'd-link.pem'));
writeFileSync(join(dir, 'd.pem'), d);
const empty = join(dir, 'empty');
mkdirSync(empty);

describe('clients/trust: what the API clients trust', () => {
  it('on Linux: SSL_CERT_FILE in place of the bundle files, SSL_CERT_DIR in place of the directories', () => {
    const system = systemTrust({ SSL_CERT_FILE: bundle, SSL_CERT_DIR: `${dirOne}:${dirTwo}` }, 'linux');
    expect(system.pems).to.deep.equal([a, b, c, d]);
    expect(system.sources).to.deep.equal([`SSL_CERT_FILE (${bundle})`, `SSL_CERT_DIR (${dirOne}:${dirTwo})`]);
  });

  it('on Linux without them: the first bundle file Go knows that exists, and every usual directory', function () {
    if (!existsSync('/etc/ssl/certs/ca-certificates.crt')) this.skip();
    const system = systemTrust({}, 'linux');
    expect(system.sources).to.deep.equal([
      "the system's /etc/ssl/certs/ca-certificates.crt",
      "the system's /etc/ssl/certs, /etc/pki/tls/certs",
    ]);
    expect(system.pems.length).to.be.above(100);
  });

  it("takes the wrappers' hand-over: KEEL_SSL_CERT_* (even empty: the user had none) before the /dev/null they set", function () {
    expect(
      systemTrust(
        { SSL_CERT_FILE: '/dev/null', KEEL_SSL_CERT_FILE: bundle, SSL_CERT_DIR: '/dev/null', KEEL_SSL_CERT_DIR: empty },
        'linux',
      ).pems,
    ).to.deep.equal([a, b]);
    if (!existsSync('/etc/ssl/certs/ca-certificates.crt')) this.skip();
    const none = {
      SSL_CERT_FILE: '/dev/null',
      KEEL_SSL_CERT_FILE: '',
      SSL_CERT_DIR: '/dev/null',
      KEEL_SSL_CERT_DIR: '',
    };
    expect(systemTrust(none, 'linux').sources[0]).to.equal("the system's /etc/ssl/certs/ca-certificates.crt");
  });

  it("on macOS and Windows: the system's store as Node 22 reads it, and SSL_CERT_FILE/SSL_CERT_DIR when set", () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const reader = (type: 'system') => (type === 'system' ? [d] : []);
      expect(systemTrust({}, platform, reader)).to.deep.equal({
        pems: [d],
        sources: ["the system's certificate store"],
      });
      // Node 20 has no reader: nothing from the system, the files still.
      expect(systemTrust({ SSL_CERT_FILE: bundle, SSL_CERT_DIR: dirOne }, platform, null).pems).to.deep.equal([
        a,
        b,
        c,
      ]);
    }
  });

  it("names the BSDs' own files and directories", () => {
    expect(systemTrust({ SSL_CERT_FILE: bundle }, 'freebsd').sources).to.deep.equal([
      `SSL_CERT_FILE (${bundle})`,
      "the system's /etc/ssl/certs, /usr/local/share/certs, /etc/openssl/certs",
    ]);
  });

  it("adds them to Node's roots and NODE_EXTRA_CA_CERTS (or the wrappers' KEEL_NODE_EXTRA_CA_CERTS), each once", () => {
    const env = { SSL_CERT_FILE: bundle, SSL_CERT_DIR: empty };
    expect(apiTrust({ ...env, KEEL_NODE_EXTRA_CA_CERTS: extra }, 'linux')).to.deep.equal({
      pems: [...rootCertificates, a, b, c],
      sources: [
        "Node's bundled certificate authorities",
        `SSL_CERT_FILE (${bundle})`,
        `SSL_CERT_DIR (${empty})`,
        `NODE_EXTRA_CA_CERTS (${extra})`,
      ],
    });
    expect(apiTrust({ ...env, NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') }, 'linux').pems).to.deep.equal([
      ...rootCertificates,
      a,
      b,
    ]);
  });

  it('for gRPC: GRPC_DEFAULT_SSL_ROOTS_FILE_PATH in place of the default roots, NODE_EXTRA_CA_CERTS beside it', () => {
    const roots = file('grpc-roots.pem', d);
    const trust = grpcTrust(
      { GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: roots, NODE_EXTRA_CA_CERTS: extra, SSL_CERT_FILE: bundle },
      'linux',
    );
    expect(trust.pems).to.deep.equal([d, c, a]);
    expect(trust.sources).to.deep.equal([
      `GRPC_DEFAULT_SSL_ROOTS_FILE_PATH (${roots})`,
      `NODE_EXTRA_CA_CERTS (${extra})`,
    ]);
    expect(grpcTrust({ SSL_CERT_FILE: bundle, SSL_CERT_DIR: empty }, 'linux').pems).to.include.members([a, b]);
  });
});
