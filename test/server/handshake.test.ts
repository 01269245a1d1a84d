// Process-level tests of start-up: cookie, negotiation, handshake line, debug mode
// (docs/protocol.md, "The handshake line").
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { expect } from 'chai';
import { connect, launchProvider } from '../../src/tfclient/launch.js';
import { COOKIE_ENV, echoExecutable, isAlive, runRaw, sleep } from './fixtures/process.js';

describe('provider start-up (echo fixture)', function () {
  this.timeout(30_000);

  it('without the magic cookie: explains itself on stderr, exits 1, prints nothing on stdout', async () => {
    const run = await runRaw([], {});
    expect(run.code).to.equal(1);
    expect(run.stdout).to.equal('');
    expect(run.stderr).to.contain('Terraform provider plugin').and.contain('not meant to be run directly');
  });

  it('launchProvider reports an early exit clearly, with the stderr tail', async () => {
    let failure: Error | undefined;
    await launchProvider(echoExecutable(), { env: { TF_PLUGIN_MAGIC_COOKIE: 'wrong' } }).catch(
      (e: Error) => (failure = e),
    );
    expect(failure?.message).to.contain('plugin exited before we could connect').and.contain('exit code 1');
    expect(failure?.message).to.contain('not meant to be run directly');
  });

  it('--version prints the version without needing the cookie', async () => {
    const run = await runRaw(['--version'], {});
    expect(run.code).to.equal(0);
    expect(run.stdout).to.equal('terraform-provider-echo 0.0.1-test\n');
  });

  it('refuses a host that does not offer protocol 6, with a clear message on stderr and for the host', async () => {
    const run = await runRaw([], { ...COOKIE_ENV, PLUGIN_PROTOCOL_VERSIONS: '5' });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('needs plugin protocol version 6').and.contain('offered protocol version(s) 5');
    expect(run.stdout.split('\n')[0]!.split('|')).to.have.length.below(4); // go-plugin shows it verbatim
    let failure: Error | undefined;
    await launchProvider(echoExecutable(), { protocolVersions: '5' }).catch((e: Error) => (failure = e));
    expect(failure?.message)
      .to.contain('Unrecognized remote plugin message')
      .and.contain('needs plugin protocol version 6');
  });

  it('prints a 6-field handshake line with an unpadded base64 DER certificate for localhost', async () => {
    const started = performance.now();
    const p = await launchProvider(echoExecutable(), {
      env: { TF_LOG: '', TF_LOG_PROVIDER: '', TF_LOG_PROVIDER_ECHO: '' },
    });
    const ms = performance.now() - started;
    try {
      const fields = p.handshake.line.split('|');
      expect(fields).to.have.length(6);
      expect(fields.slice(0, 3)).to.deep.equal(['1', '6', 'tcp']);
      expect(fields[3]).to.match(/^127\.0\.0\.1:\d+$/); // loopback only
      expect(fields[4]).to.equal('grpc');
      expect(fields[5]).to.match(/^[A-Za-z0-9+/]{51,}$/);
      const cert = new X509Certificate(p.handshake.certDer!);
      expect(cert.subjectAltName).to.equal('DNS:localhost');
      expect(Date.parse(cert.validFrom)).to.be.below(Date.now());
      expect(p.stderrLines).to.deep.equal([]); // logging off by default
      console.log(`        launch incl. client cert → handshake: ${ms.toFixed(0)} ms`);
    } finally {
      await p.shutdown();
    }
  });

  it('serves plaintext and an empty certificate field when the host sends no PLUGIN_CLIENT_CERT', async () => {
    const p = await launchProvider(echoExecutable(), { tls: false });
    try {
      expect(p.handshake.line).to.match(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|$/);
      const schema = await p.call('GetProviderSchema', {});
      expect(schema.provider.block).to.not.equal(null);
    } finally {
      await p.shutdown();
    }
  });

  it('--debug prints TF_REATTACH_PROVIDERS for the address the provider gives, serves plaintext, and exits on Ctrl-C', async () => {
    const child = spawn(echoExecutable(), ['--debug'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    for (let i = 0; i < 200 && !/export TF_REATTACH_PROVIDERS='[^']+'/.test(out); i++) await sleep(50);
    const json = /export TF_REATTACH_PROVIDERS='([^']+)'/.exec(out)?.[1];
    expect(json, out).to.be.a('string');
    const config = JSON.parse(json!);
    const entry = config['registry.terraform.io/acme/echo'];
    expect(Object.keys(config)).to.deep.equal(['registry.terraform.io/acme/echo']);
    expect(entry).to.include({ Protocol: 'grpc', ProtocolVersion: 6, Pid: child.pid, Test: true });
    expect(entry.Addr.Network).to.equal('tcp');
    expect(entry.Addr.String).to.match(/^127\.0\.0\.1:\d+$/);
    const conn = connect(entry.Addr.String, null, null);
    const schema = await conn.call('GetProviderSchema', {});
    expect(schema.resource_schemas).to.have.property('echo_thing');
    await conn.shutdownRpc(); // Test: true means Terraform never stops it; a Shutdown must not either
    await sleep(100);
    expect(isAlive(child.pid!)).to.equal(true);
    conn.close();
    child.kill('SIGINT');
    expect(await exited).to.equal(0);
  });
});
