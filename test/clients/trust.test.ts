import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { apiTrustRoots } from '../../src/clients/trust.js';
import { generateCertificate } from '../../src/server/tls.js';

describe('clients/trust: the roots the API clients are given', () => {
  it("are Node's bundled roots plus the certificates of NODE_EXTRA_CA_CERTS, or of the wrappers' hand-over", async () => {
    const [a, b] = [await generateCertificate(), await generateCertificate()];
    const dir = mkdtempSync(join(tmpdir(), 'keel-trust-'));
    writeFileSync(join(dir, 'a.pem'), `# comment\n${a.certPem}\n${b.certPem}`);
    writeFileSync(join(dir, 'b.pem'), b.certPem);
    const trimmed = (pem: string) => pem.trim();
    expect(apiTrustRoots({})).to.deep.equal([...rootCertificates]);
    expect(apiTrustRoots({ KEEL_NODE_EXTRA_CA_CERTS: join(dir, 'a.pem') })).to.deep.equal([
      ...rootCertificates,
      trimmed(a.certPem),
      trimmed(b.certPem),
    ]);
    expect(
      apiTrustRoots({ NODE_EXTRA_CA_CERTS: join(dir, 'b.pem'), KEEL_NODE_EXTRA_CA_CERTS: join(dir, 'a.pem') }),
    ).to.deep.equal([...rootCertificates, trimmed(b.certPem)]);
    expect(apiTrustRoots({ NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') })).to.deep.equal([...rootCertificates]);
  });
});
