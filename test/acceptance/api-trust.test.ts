/**
 * The API clients trust what Node trusts by default, NODE_EXTRA_CA_CERTS included, although the
 * bin/ wrappers start node with an empty default store and hand that variable over (src/clients/
 * trust.ts): under real Terraform, a vdb API whose certificate is only in NODE_EXTRA_CA_CERTS is
 * reached with it and refused without it, before anything is sent.
 */
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { generateCertificate } from '../../src/server/tls.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { Workspace, requireTerraform } from './terraform.js';

const CONFIG = `terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}

provider "vdb" {}

data "vdb_booking_packages" "here" {
  cloud_provider = "aws"
  cloud_region   = "us-east-1"
}
`;

describe('acceptance: the API clients trust NODE_EXTRA_CA_CERTS under real Terraform', function () {
  this.timeout(300_000);
  let emulator: VdbEmulator;
  let caFile: string;

  before(async function () {
    requireTerraform(this);
    const certificate = await generateCertificate('localhost');
    emulator = await startVdbEmulator({ tls: { certPem: certificate.certPem, keyPem: certificate.keyPem } });
    caFile = join(mkdtempSync(join(tmpdir(), 'keel-ca-')), 'extra.pem');
    writeFileSync(caFile, certificate.certPem);
  });
  after(() => emulator?.close());

  // grpc-js reads GRPC_DEFAULT_SSL_ROOTS_FILE_PATH instead of Node's store; blank it so Node's counts.
  const env = (extraCa: string) => ({
    ...vdbProviderEnv({ url: emulator.url, apiKey: emulator.apiKey, accountId: emulator.accountId }),
    GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: '',
    NODE_EXTRA_CA_CERTS: extraCa,
  });

  it('reads the data source when the certificate is in NODE_EXTRA_CA_CERTS', async () => {
    emulator.clearRequests();
    const ws = new Workspace(CONFIG, env(caFile));
    await ws.expect(['plan', '-no-color']);
    expect(emulator.requests.length, 'the read reached the API').to.be.at.least(1);
  });

  it('refuses the API without it, before sending anything', async () => {
    emulator.clearRequests();
    const ws = new Workspace(CONFIG, env(''));
    const r = await ws.run(['plan', '-no-color']);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/certificate/i);
    expect(emulator.requests).to.have.length(0);
  });
});
