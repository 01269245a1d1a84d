// Process-level tests of a running provider: mTLS, services, error handling, signals,
// stdout sealing, stderr format and shutdown (docs/protocol.md, "The go-plugin layer").
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { generateCertificate } from '../../packages/framework/src/server/tls.js';
import { connect, launchProvider, type LaunchedProvider } from '../../src/tfclient/launch.js';
import { echoExecutable, isAlive, sleep } from './fixtures/process.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

async function grpcCode(promise: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as grpc.ServiceError;
    return { code: e.code, details: e.details };
  }
  throw new Error('expected the call to fail');
}

describe('running provider (echo fixture over mTLS)', function () {
  this.timeout(30_000);
  let p: LaunchedProvider;

  before(async () => {
    p = await launchProvider(echoExecutable(), { env: { TF_LOG: 'trace' } });
  });
  after(async () => {
    if (p && isAlive(p.pid)) await p.shutdown();
  });

  it('answers GetProviderSchema and GetMetadata with the client certificate it was given', async () => {
    const schema = await p.call('GetProviderSchema', {});
    expect(schema.provider).to.deep.include({ version: 0 });
    const thing = schema.resource_schemas.echo_thing;
    expect(thing.version).to.equal(1);
    expect(thing.block.attributes.map((a: { name: string }) => a.name)).to.deep.equal(['id', 'value']);
    expect(thing.block.attributes[0].type.toString()).to.equal('"string"');
    expect(schema.diagnostics).to.deep.equal([]);
    const meta = await p.call('GetMetadata', {});
    expect(meta.resources).to.deep.equal([{ type_name: 'echo_thing' }]);
    expect(await p.call('StopProvider', {})).to.deep.equal({ Error: '' });
  });

  it('reports SERVING for health service "plugin" and ""', async () => {
    expect(await p.health('plugin')).to.equal('SERVING');
    expect(await p.health('')).to.equal('SERVING');
  });

  it('refuses a client without a certificate, with another certificate, or in plaintext (and vice versa)', async () => {
    const address = p.handshake.address;
    const certDer = p.handshake.certDer!;
    const stranger = await generateCertificate();
    const attempts = [
      connect(address, certDer, null),
      connect(address, certDer, { keyPem: stranger.keyPem, certPem: stranger.certPem }),
      connect(address, null, null),
    ];
    // And the client side pins the handshake's certificate: any other server cert is refused.
    attempts.push(connect(address, stranger.certDer, { keyPem: stranger.keyPem, certPem: stranger.certPem }));
    for (const conn of attempts) {
      const { code } = await grpcCode(conn.call('GetProviderSchema', {}, { deadlineMs: 5000 }));
      expect(code).to.equal(grpc.status.UNAVAILABLE);
      conn.close();
    }
    expect(await p.health()).to.equal('SERVING');
  });

  it('answers UNIMPLEMENTED for RPCs without a handler, streaming ones included', async () => {
    expect((await grpcCode(p.call('ReadResource', { type_name: 'echo_thing' }))).code).to.equal(
      grpc.status.UNIMPLEMENTED,
    );
    expect(await streamStatus(p.serverStream('ListResource', { type_name: 'echo_thing' }))).to.equal(
      grpc.status.UNIMPLEMENTED,
    );
    expect(await streamStatus(p.serverStream('InvokeAction', {}))).to.equal(grpc.status.UNIMPLEMENTED);
  });

  it('turns a throwing handler, a rejecting one and an unencodable response into INTERNAL and stays up', async () => {
    const sync = await grpcCode(p.call('ValidateProviderConfig', {}));
    expect(sync.code).to.equal(grpc.status.INTERNAL);
    expect(sync.details).to.contain('synchronous failure');
    const async = await grpcCode(p.call('ConfigureProvider', {}));
    expect(async.code).to.equal(grpc.status.INTERNAL);
    expect(async.details).to.contain('asynchronous failure');
    expect((await grpcCode(p.call('UpgradeResourceState', {}))).code).to.equal(grpc.status.INTERNAL);
    expect(isAlive(p.pid)).to.equal(true);
    expect((await p.call('GetMetadata', {})).resources).to.have.length(1);
  });

  it('keeps stdout empty after the handshake even when a handler uses console.log', async () => {
    const res = await p.call('ValidateResourceConfig', { type_name: 'echo_thing' });
    expect(res.diagnostics[0]).to.include({ severity: 2, summary: 'validated echo_thing' });
    await sleep(200);
    expect(p.extraStdout).to.deep.equal([]);
    expect(p.stderrLines.some((l) => l.includes('stray console.log from a handler'))).to.equal(true);
  });

  it("accepts requests far above grpc-js's 4 MiB default", async () => {
    const big = Buffer.alloc(12 * 1024 * 1024, 0xa0);
    const res = await p.call('ValidateResourceConfig', { type_name: 'echo_thing', config: { msgpack: big } });
    expect(res.diagnostics[0].detail).to.equal(`${big.length} bytes`);
  });

  it("aborts the handler's signal when the client cancels (deadline)", async () => {
    const { code } = await grpcCode(p.call('ReadDataSource', { type_name: 'echo_thing' }, { deadlineMs: 200 }));
    expect(code).to.equal(grpc.status.DEADLINE_EXCEEDED);
    await sleep(200);
    expect(p.stderrLines.some((l) => l.includes('signal aborted'))).to.equal(true);
  });

  it('ignores SIGINT and keeps answering', async () => {
    process.kill(p.pid, 'SIGINT');
    await sleep(300);
    expect(isAlive(p.pid)).to.equal(true);
    expect((await p.call('GetMetadata', {})).resources).to.have.length(1);
    expect(p.stderrLines.some((l) => l.includes('ignoring SIGINT'))).to.equal(true);
  });

  it('writes only hclog JSON lines on stderr, with 6-digit timestamps', () => {
    expect(p.stderrLines.length).to.be.above(3);
    for (const line of p.stderrLines) {
      const entry = JSON.parse(line);
      expect(entry['@level']).to.be.oneOf(['trace', 'debug', 'info', 'warn', 'error']);
      expect(entry['@message']).to.be.a('string');
      expect(entry['@module']).to.equal('provider');
      expect(entry['@timestamp']).to.match(TIMESTAMP);
    }
    expect(p.stderrLines.some((l) => JSON.parse(l).tf_rpc === 'ConfigureProvider')).to.equal(true);
  });

  it('exits promptly after GRPCController/Shutdown', async () => {
    const result = await p.shutdown();
    expect(result.exitCode).to.equal(0);
    // Not killed at the end of go-plugin's 2 s grace: it ended on its own.
    expect(result.signal).to.equal(null);
  });
});

describe('provider shutdown (echo fixture over mTLS)', function () {
  this.timeout(30_000);

  it('answers GRPCController/Shutdown before it exits, with code 0', async () => {
    const p = await launchProvider(echoExecutable());
    try {
      // go-plugin's client counts the exit as graceful only when this answer arrives.
      await p.shutdownRpc();
      const exit = await p.exited;
      expect(exit).to.include({ exitCode: 0, signal: null });
    } finally {
      if (isAlive(p.pid)) await p.shutdown();
    }
  });
});

/** Status code that ends a server-streaming call. */
function streamStatus(stream: grpc.ClientReadableStream<any>): Promise<number> {
  return new Promise((resolve) => {
    stream.on('data', () => undefined);
    stream.on('error', (err: grpc.ServiceError) => resolve(err.code));
    stream.on('end', () => resolve(grpc.status.OK));
  });
}
