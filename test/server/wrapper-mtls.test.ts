/**
 * The shipped executables start node with an empty default trust store (bin/ wrappers,
 * docs/benchmarks.md); their AutoMTLS server must still trust the handshake's client certificate only.
 * The benchmark's Node floor server is held to the same trust model, so the comparison is fair.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateCertificate } from '../../packages/framework/src/server/tls.js';
import { connect, launchProvider, type LaunchedProvider } from '../../src/tfclient/launch.js';

const ROOT = resolve(process.cwd());
const targets: [string, string, string[]][] = [
  ['bin/terraform-provider-sec', join(ROOT, 'bin', 'terraform-provider-sec'), []],
  ['bin/terraform-provider-vdb', join(ROOT, 'bin', 'terraform-provider-vdb'), []],
  ['the benchmark floor server', process.execPath, [join(ROOT, 'dist', 'bundle', 'bench-floor-server.cjs')]],
];

describe('AutoMTLS of the shipped executables and the benchmark floor', function () {
  this.timeout(60_000);
  for (const [label, executable, args] of targets) {
    describe(label, () => {
      let p: LaunchedProvider;
      let other: Awaited<ReturnType<typeof generateCertificate>>;
      before(async () => {
        const file = args[0] ?? executable;
        if (!existsSync(file)) throw new Error(`${file} is missing: \`npm run build\` makes it`);
        // A CA file in NODE_EXTRA_CA_CERTS must not widen the server's trust either.
        other = await generateCertificate();
        const caFile = join(mkdtempSync(join(tmpdir(), 'keel-mtls-')), 'extra.pem');
        writeFileSync(caFile, other.certPem);
        p = await launchProvider(executable, { args, env: { NODE_EXTRA_CA_CERTS: caFile } });
      });
      after(async () => {
        await p?.shutdown();
      });

      it('answers the client whose certificate it was given, and refuses one without or with another certificate', async () => {
        expect(await p.health()).to.equal('SERVING');
        const { address, certDer } = p.handshake;
        const stranger = await generateCertificate();
        for (const identity of [null, stranger, other]) {
          const conn = connect(address, certDer!, identity && { keyPem: identity.keyPem, certPem: identity.certPem });
          const code = await conn.health().then(
            () => grpc.status.OK,
            (err: { code: number }) => err.code,
          );
          conn.close();
          expect(
            code,
            identity === other ? 'a certificate from NODE_EXTRA_CA_CERTS' : 'another or no certificate',
          ).to.equal(grpc.status.UNAVAILABLE);
        }
        expect(await p.health()).to.equal('SERVING');
      });
    });
  }
});
