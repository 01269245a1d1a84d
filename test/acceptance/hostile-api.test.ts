/**
 * The built executables, under real Terraform, against an API that answers with what a hostile or
 * broken server might send. sec: an answer too large (streamed without end, so that nothing but the cap
 * stops it), and each kind of malformed answer node's parser refuses. Each ends in an error
 * diagnostic for that read, at once (no wait for the 125 s deadline), with the provider alive to the
 * end (no "plugin crashed") and its peak RSS bounded, where the old client buffered up to 512 MiB and
 * then threw inside a socket listener.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { type HostileBehaviour, type HostileGrpcApi, startHostileGrpcApi } from '../support/hostile-grpc.js';
import { Workspace, requireTerraform } from './terraform.js';

const CONFIG = `terraform {
  required_providers {
    sec = { source = "keel/sec" }
  }
}

provider "sec" {}

data "sec_user_profile" "me" {}
`;

/** How the API answers GET /api/v2/UserProfile. */
type Answer = (socket: Socket) => void;

const MIB = 1024 * 1024;

/** An answer of chunks of 64 KiB every `everyMs`, without end: only the client can stop it. */
const endless =
  (everyMs: number): Answer =>
  (socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const chunk = Buffer.from(`10000\r\n${'['.repeat(0x10000)}\r\n`);
    const timer = setInterval(() => {
      if (socket.destroyed) clearInterval(timer);
      else socket.write(chunk);
    }, everyMs);
    socket.on('close', () => clearInterval(timer));
  };

/** A raw HTTP/1.1 API on 127.0.0.1 answering every request with `answer`, keeping the connection open. */
async function hostileApi(answer: Answer): Promise<{ url: string; server: Server; closedEarly(): number }> {
  let closed = 0;
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('close', () => closed++);
    let head = '';
    socket.on('data', (data) => {
      head += data.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      head = '';
      answer(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    server,
    closedEarly: () => closed,
  };
}

/** The largest peak RSS the provider processes logged as they exited (packages/framework/src/server/main.ts). */
function peakRss(logFile: string): number {
  // hclog writes the number as a float, quoted: peak_rss_bytes="6.2926848e+07".
  const peaks = [...readFileSync(logFile, 'utf8').matchAll(/provider resource usage:.*?peak_rss_bytes="?([\d.e+]+)/g)];
  expect(peaks.length, 'the provider processes logged their exit').to.be.above(0);
  return Math.max(...peaks.map((m) => Number(m[1])));
}

describe('acceptance: sec under Terraform against an API that answers too much or malformed', function () {
  this.timeout(300_000);
  const servers: Server[] = [];
  before(function () {
    requireTerraform(this);
  });
  after(() => servers.forEach((server) => server.close()));

  async function planAgainst(answer: Answer, env: Record<string, string> = {}) {
    const api = await hostileApi(answer);
    servers.push(api.server);
    const ws = new Workspace(CONFIG, {
      SEC_API_URL: api.url,
      SEC_ACCOUNT: 'acme',
      SEC_API_TOKEN: 'pre-issued-token',
      TF_LOG_PROVIDER: 'debug',
      ...env,
    });
    const logFile = join(ws.dir, 'terraform.log');
    const started = Date.now();
    const r = await ws.run(['plan', '-no-color'], { TF_LOG_PATH: logFile });
    const seconds = (Date.now() - started) / 1000;
    // Terraform wraps a diagnostic's lines: one space for any run of spaces and line breaks.
    return { ...r, stderr: r.stderr.replace(/\s+/g, ' '), seconds, logFile, api };
  }

  it('ends an endless answer at SEC_MAX_RESPONSE_BYTES with an error diagnostic, the provider alive, its memory bounded', async () => {
    const r = await planAgainst(endless(2), { SEC_MAX_RESPONSE_BYTES: '1MiB' });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(
      'GET /api/v2/UserProfile: the answer is larger than 1 MiB, the most this client reads (SEC_MAX_RESPONSE_BYTES)',
    );
    expect(r.stderr).not.to.match(/crashed|panic/i);
    expect(r.seconds, 'no wait for the deadline').to.be.below(60);
    expect(peakRss(r.logFile)).to.be.below(200 * MIB);
    expect(r.api.closedEarly(), 'the connection was closed').to.be.at.least(1);
  });

  it('ends it at 64 MiB by default, memory still bounded', async () => {
    const r = await planAgainst(endless(0));
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('the answer is larger than 64 MiB');
    expect(r.stderr).not.to.match(/crashed|panic/i);
    expect(peakRss(r.logFile)).to.be.below(400 * MIB);
  });

  it('refuses a SEC_MAX_RESPONSE_BYTES it cannot read, naming it', async () => {
    const r = await planAgainst(endless(2), { SEC_MAX_RESPONSE_BYTES: 'lots' });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('Invalid SEC_MAX_RESPONSE_BYTES');
  });

  for (const [what, text, says] of [
    [
      'Content-Length with Transfer-Encoding',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
      "not valid HTTP/1.1 (Transfer-Encoding can't be present with Content-Length)",
    ],
    [
      'a line break inside a request id',
      'HTTP/1.1 404 Not Found\r\nX-Request-Id: a\nInjected: yes\r\nContent-Length: 2\r\n\r\n{}',
      'not valid HTTP/1.1 (Missing expected CR after header value)',
    ],
    [
      'a NUL inside a request id',
      'HTTP/1.1 404 Not Found\r\nX-Request-Id: a\0Injected: yes\r\nContent-Length: 2\r\n\r\n{}',
      'not valid HTTP/1.1 (Invalid header value char)',
    ],
    ['LF-only line ends', 'HTTP/1.1 200 OK\nContent-Length: 2\n\n[]', 'not valid HTTP/1.1 (Missing expected CR'],
    [
      'Transfer-Encoding: x-chunked',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: x-chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
      'in a transfer coding other than chunked',
    ],
    [
      'a head over 64 KiB in one piece',
      `HTTP/1.1 200 OK\r\nX-Pad: ${'a'.repeat(70 * 1024)}\r\nContent-Length: 2\r\n\r\n[]`,
      'not valid HTTP/1.1 (its headers are larger than 64 KiB)',
    ],
  ] as const) {
    it(`fails the read at once on an answer with ${what}, quoting none of it`, async () => {
      const r = await planAgainst((socket) => socket.write(Buffer.from(text, 'latin1')));
      expect(r.code).to.equal(1);
      expect(r.stderr).to.contain(`GET /api/v2/UserProfile: the answer is ${says}`);
      expect(r.stderr).not.to.match(/Injected|crashed|panic/i);
      expect(r.seconds, 'no wait for the deadline').to.be.below(60);
    });
  }

  it('quotes a request id with a tab (which HTTP allows) escaped', async () => {
    const r = await planAgainst((socket) =>
      socket.write('HTTP/1.1 404 Not Found\r\nX-Request-Id: a\tb\r\nContent-Length: 2\r\n\r\n{}'),
    );
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('request id a\\x09b');
  });
});

/**
 * vdb: its gRPC API answering with a message said to be 100 MiB streamed without end, or a header
 * block of 1 MB. The read fails with one diagnostic at once (grpc-js refuses them by their prefix
 * and size), the provider lives and holds no more memory for it. A server that never answers ends
 * at the call's deadline (test/clients/vdb-hostile-api.test.ts).
 */
describe('acceptance: vdb under Terraform against an API that answers too much', function () {
  this.timeout(300_000);
  const apis: HostileGrpcApi[] = [];
  before(function () {
    requireTerraform(this);
  });
  after(async () => {
    await Promise.all(apis.map((api) => api.close()));
  });

  const VDB_CONFIG = `terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}

provider "vdb" {}

data "vdb_accounts_clusters" "all" {}
`;

  async function planAgainst(behaviour: HostileBehaviour, env: Record<string, string> = {}) {
    const api = await startHostileGrpcApi(behaviour);
    apis.push(api);
    const ws = new Workspace(VDB_CONFIG, {
      VDB_API_URL: api.url,
      VDB_API_KEY: 'hostile-test-key',
      VDB_ACCOUNT_ID: '00000000-0000-0000-0000-000000000000',
      TF_LOG_PROVIDER: 'debug',
      ...env,
    });
    const logFile = join(ws.dir, 'terraform.log');
    const started = Date.now();
    const r = await ws.run(['plan', '-no-color'], { TF_LOG_PATH: logFile });
    const seconds = (Date.now() - started) / 1000;
    return { ...r, stderr: r.stderr.replace(/\s+/g, ' '), seconds, logFile, api };
  }

  for (const [behaviour, says] of [
    [
      'endless-message',
      "the API's answer holds a message of 104857600 bytes, more than the 4194304 the provider reads",
    ],
    ['header-flood', "the API's answer was cut off (HTTP/2 ENHANCE_YOUR_CALM)"],
  ] as const) {
    it(`${behaviour}: an error diagnostic at once, the call sent once, the provider alive, its memory bounded`, async () => {
      const r = await planAgainst(behaviour);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.contain(`ClusterService/ListClusters: ${says}`);
      expect(r.stderr).not.to.match(/crashed|panic/i);
      expect(r.seconds, 'no wait for the deadline').to.be.below(30);
      expect(r.api.requests(), 'not retried').to.equal(1);
      expect(peakRss(r.logFile)).to.be.below(200 * MIB);
    });
  }
});
