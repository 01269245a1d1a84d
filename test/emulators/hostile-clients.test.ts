/**
 * The sec emulator (HTTP/1.1 on node:http) against the clients users' CI throws at it: bodies and
 * header blocks too large, requests that never finish (slowloris) or never start, malformed HTTP,
 * JSON and UTF-8, nesting deeper than any walk survives, more connections than it keeps, and many
 * clients at once. Each ends in the platform's error shape (`{"message": …}`) with its status, or a
 * closed connection; the emulator serves on, and what it holds stays bounded by what it stores.
 * The vdb emulator's gRPC side faces the plugin server's battery (test/server/hostile-peer.test.ts);
 * here it takes many clients at once.
 */
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { createVdbClient } from '../../src/clients/vdb/index.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../src/emulators/core/index.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Small bodies and few connections, so that each bound is reached in a test's time. */
const LIMITS: Partial<HttpLimits> = {
  bodyBytes: 64 * KiB,
  bodyDrainBytes: 256 * KiB,
  connections: 64,
};
/**
 * Short timeouts, for the test of slow clients alone: elsewhere a busy runner's well-behaved request
 * could outlast them and be refused.
 */
const SHORT_TIMEOUTS: Partial<HttpLimits> = { headersTimeoutMs: 600, requestTimeoutMs: 1_500 };

/** A raw connection: what it sent is ours to choose, what it got back is kept as text. */
class RawClient {
  received = '';
  closed = false;
  private readonly waiters: Array<() => void> = [];

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
      this.wake();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(emulator: SecEmulator): Promise<RawClient> {
    const { hostname, port } = new URL(emulator.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string | Buffer): boolean {
    return !this.socket.destroyed && this.socket.write(text);
  }

  /** Resolves when the socket takes more, or is closed. */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.once('drain', done);
      this.socket.once('close', done);
    });
  }

  /** Resolves when the connection has closed, or false after `ms`. */
  async whenClosed(ms = 5_000): Promise<boolean> {
    const until = Date.now() + ms;
    while (!this.closed && Date.now() < until) await this.next(until - Date.now());
    return this.closed;
  }

  /** The first complete answer received: status, headers (lower-case) and JSON body. */
  async answer(ms = 5_000): Promise<{ status: number; headers: Record<string, string>; body: any }> {
    const until = Date.now() + ms;
    for (;;) {
      const parsed = parseAnswer(this.received);
      if (parsed) return parsed;
      if (this.closed || Date.now() >= until)
        throw new Error(`no complete answer; got ${JSON.stringify(this.received)}`);
      await this.next(until - Date.now());
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, ms));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: any } | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const length = Number(headers['content-length'] ?? 0);
  const body = text.slice(end + 4);
  if (body.length < length) return undefined;
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: length === 0 ? undefined : JSON.parse(body.slice(0, length)),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sec emulator against hostile clients', function () {
  this.timeout(30_000);
  let emulator: SecEmulator;
  let token: string;

  const start = async (limits: Partial<HttpLimits>) => {
    emulator = await startSecEmulator({ limits });
    const login = await fetch(`${emulator.url}/api/v2/access/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-SEC-UAKS': emulator.apiSecret },
      body: JSON.stringify({ keyId: emulator.apiKey, expiryTime: 3600 }),
    });
    token = ((await login.json()) as { token: string }).token;
  };
  beforeEach(() => start(LIMITS));
  afterEach(() => emulator.close());

  const request = (method: string, path: string, headers: Record<string, string> = {}, body = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: emulator\r\nAuthorization: Bearer ${token}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    (body === '' ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`) +
    `\r\n${body}`;

  /** Serves a well-behaved client on a new connection, as before. */
  async function stillServes(): Promise<void> {
    const answer = await fetch(`${emulator.url}/api/v2/AlertChannels`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(answer.status, 'a list on a new connection').to.equal(200);
    await answer.arrayBuffer();
  }

  it('a body over the bound, sent whole: 413 in the platform shape, and the connection serves on', async () => {
    const client = await RawClient.open(emulator);
    const body = JSON.stringify({ name: 'x'.repeat(100 * KiB) });
    client.write(request('POST', '/api/v2/AlertChannels', {}, body));
    const answer = await client.answer();
    expect(answer.status).to.equal(413);
    expect(answer.body).to.deep.equal({ message: `request body exceeds ${64 * KiB} bytes` });
    expect(answer.headers.connection).not.to.equal('close');
    // Read to its end, the body leaves the connection usable.
    client.received = '';
    client.write(request('GET', '/api/v2/AlertChannels'));
    expect((await client.answer()).status).to.equal(200);
    client.destroy();
  });

  it('a body without end: 413 once the drain bound is passed, the connection closed, nothing of it kept', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const client = await RawClient.open(emulator);
    client.write(
      'POST /api/v2/AlertChannels HTTP/1.1\r\nHost: emulator\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n',
    );
    const chunk = Buffer.from(`${(64 * KiB).toString(16)}\r\n${'['.repeat(64 * KiB)}\r\n`);
    let sent = 0;
    while (!client.closed && sent < 64 * MiB) {
      if (!client.write(chunk)) await client.drained();
      sent += chunk.length;
      await new Promise(setImmediate);
    }
    expect(await client.whenClosed(), 'the connection is closed').to.equal(true);
    expect(sent, 'bytes sent before the end').to.be.below(8 * MiB);
    const answer = parseAnswer(client.received);
    expect(answer?.status).to.equal(413);
    expect(answer?.headers.connection).to.equal('close');
    expect(process.memoryUsage().heapUsed - heapBefore, 'heap held').to.be.below(32 * MiB);
    await stillServes();
  });

  it('header blocks too large or with too many fields: 431 in the platform shape', async () => {
    const { headerBytes, headerCount } = DEFAULT_HTTP_LIMITS;
    const headersMessage = `request headers exceed ${headerBytes} bytes or ${headerCount} fields`;
    const large = await RawClient.open(emulator);
    large.write(request('GET', '/api/v2/AlertChannels', { 'X-Padding': 'p'.repeat(20 * KiB) }));
    const tooLarge = await large.answer();
    expect(tooLarge.status).to.equal(431);
    expect(tooLarge.body.message).to.equal(headersMessage);
    expect(await large.whenClosed()).to.equal(true);

    const many = await RawClient.open(emulator);
    const fields = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`X-Field-${i}`, 'v']));
    many.write(request('GET', '/api/v2/AlertChannels', fields));
    const tooMany = await many.answer();
    expect(tooMany.status).to.equal(431);
    expect(tooMany.body.message).to.equal(headersMessage);
    many.destroy();
    await stillServes();
  });

  it('slowloris: headers a byte at a time, a body that trickles, a connection that sends nothing: 408 or closed', async () => {
    await emulator.close();
    await start({ ...LIMITS, ...SHORT_TIMEOUTS });
    // Headers that never end, one byte every 50 ms.
    const slowHeaders = await RawClient.open(emulator);
    const trickle = setInterval(() => slowHeaders.write('X'), 50);
    slowHeaders.write('GET /api/v2/AlertChannels HTTP/1.1\r\nX-Slow: ');
    // A whole head, then a body far slower than its length says.
    const slowBody = await RawClient.open(emulator);
    slowBody.write(
      'POST /api/v2/AlertChannels HTTP/1.1\r\nHost: emulator\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{',
    );
    const bodyTrickle = setInterval(() => slowBody.write(' '), 100);
    // Connected, and nothing more.
    const silent = await RawClient.open(emulator);
    try {
      const closed = await Promise.all([slowHeaders.whenClosed(), slowBody.whenClosed(), silent.whenClosed()]);
      expect(closed, 'slow headers, slow body, silence: each closed').to.deep.equal([true, true, true]);
      expect(parseAnswer(slowHeaders.received)?.status, 'slow headers').to.equal(408);
      expect(parseAnswer(slowBody.received)?.status, 'slow body').to.equal(408);
    } finally {
      clearInterval(trickle);
      clearInterval(bodyTrickle);
    }
    await stillServes();
  });

  it('malformed HTTP, targets, UTF-8 and JSON, and nesting past the bound: 400 in the platform shape', async () => {
    const garbage = await RawClient.open(emulator);
    garbage.write('\x16\x03\x01\x02\x00 hello\r\n\r\n');
    const refused = await garbage.answer();
    expect(refused.status).to.equal(400);
    expect(refused.body.message).to.match(/^malformed HTTP request/);
    expect(await garbage.whenClosed()).to.equal(true);

    const cases: Array<[string, string | Buffer, string]> = [
      ['broken JSON', '{"name": ', 'request body is not valid JSON'],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'request body is not valid UTF-8'],
      [
        'nesting 10,000 deep',
        `{"name":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
        `request body nests arrays and objects deeper than ${DEFAULT_HTTP_LIMITS.jsonDepth} levels`,
      ],
    ];
    for (const [what, body, message] of cases) {
      const client = await RawClient.open(emulator);
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
      client.write(
        Buffer.concat([
          Buffer.from(
            `POST /api/v2/AlertChannels HTTP/1.1\r\nHost: emulator\r\nAuthorization: Bearer ${token}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`,
          ),
          bytes,
        ]),
      );
      const answer = await client.answer();
      expect(answer.status, what).to.equal(400);
      expect(answer.body, what).to.deep.equal({ message });
      client.destroy();
    }
    await stillServes();
    expect(emulator.list('AlertChannels'), 'nothing was created').to.deep.equal([]);
  });

  it('more connections than it keeps: the ones past the bound are closed at once, and it serves on', async () => {
    const clients = await Promise.all(Array.from({ length: 100 }, () => RawClient.open(emulator)));
    await sleep(200);
    const open = clients.filter((client) => !client.closed).length;
    expect(open, 'connections kept').to.be.at.most(64);
    expect(open, 'connections kept').to.be.at.least(60);
    for (const client of clients) client.destroy();
    await sleep(100);
    await stillServes();
  });

  it('many clients at once, thousands of objects: every create lands once, the log and tokens stay bounded', async () => {
    const CLIENTS = 40;
    const EACH = 60;
    const create = async (client: number, i: number) => {
      const answer = await fetch(`${emulator.url}/api/v2/AlertChannels`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: `load-${client}-${i}`,
          type: 'EmailUser',
          enabled: 1,
          data: { channelProps: { recipients: [`c${client}@example.com`] } },
        }),
      });
      expect(answer.status).to.equal(201);
      await answer.arrayBuffer();
    };
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < EACH; i++) await create(client, i);
      }),
    );
    const names = emulator.list<{ name: string }>('AlertChannels').map((channel) => channel.name);
    expect(names.length).to.equal(CLIENTS * EACH);
    expect(new Set(names).size, 'each once').to.equal(CLIENTS * EACH);
    const listed = await fetch(`${emulator.url}/api/v2/AlertChannels`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await listed.json()) as { data: unknown[] }).data.length).to.equal(CLIENTS * EACH);
    expect(emulator.requestsReceived()).to.equal(CLIENTS * EACH + 2);
  });

  it('keeps the newest requests and tokens within their bounds, however many it is sent', async () => {
    emulator.clearRequests();
    const logins = 10_500;
    for (let i = 0; i < logins; i += 30) {
      await Promise.all(
        Array.from({ length: Math.min(30, logins - i) }, async () => {
          const answer = await fetch(`${emulator.url}/api/v2/access/tokens`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-SEC-UAKS': emulator.apiSecret },
            body: JSON.stringify({ keyId: emulator.apiKey, expiryTime: 3600 }),
          });
          await answer.arrayBuffer();
        }),
      );
    }
    expect(emulator.requestsReceived(), 'every request counted, the first login too').to.equal(logins + 1);
    expect(emulator.requests.length, 'requests kept').to.be.within(9_000, 10_000);
    expect(emulator.requests.at(-1)!.path, 'the newest kept').to.equal('/api/v2/access/tokens');
    expect(emulator.issuedTokens().length, 'tokens kept').to.be.at.most(10_000);
    // The newest token still works.
    const newest = emulator.issuedTokens().at(-1)!.token;
    const answer = await fetch(`${emulator.url}/api/v2/AlertChannels`, {
      headers: { Authorization: `Bearer ${newest}` },
    });
    expect(answer.status).to.equal(200);
  });
});

describe('vdb emulator under many clients at once', function () {
  this.timeout(60_000);

  it('thousands of roles from twenty clients at once: every create lands once, the log stays bounded', async () => {
    const emulator = await startVdbEmulator({ requestLog: { entries: 1_000, bytes: 64 * MiB } });
    const clients = Array.from({ length: 20 }, () =>
      createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'load-test' }),
    );
    try {
      const seeded = (await clients[0]!.iam.listRoles({ accountId: emulator.accountId })).length;
      const EACH = 100;
      await Promise.all(
        clients.map(async (client, c) => {
          for (let i = 0; i < EACH; i++) {
            await client.iam.createRole({
              accountId: emulator.accountId,
              name: `load-${c}-${i}`,
              description: 'load',
              permissions: ['read:clusters'],
            });
          }
        }),
      );
      const roles = await clients[1]!.iam.listRoles({ accountId: emulator.accountId });
      const names = roles.filter((role) => role.name.startsWith('load-')).map((role) => role.name);
      expect(roles.length - seeded).to.equal(20 * EACH);
      expect(new Set(names).size, 'each once').to.equal(20 * EACH);
      expect(emulator.requestsReceived(), 'every call counted').to.equal(20 * EACH + 2);
      expect(emulator.requests.length, 'the log keeps its bound').to.be.at.most(1_000);
    } finally {
      for (const client of clients) client.close();
      await emulator.close();
    }
  });
});
