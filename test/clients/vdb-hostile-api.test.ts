/**
 * The vdb client against an API that misbehaves (test/support/hostile-grpc.ts), as the sec client
 * is tested against one: an answer too large, a header flood, a server that never reads or never
 * answers, a name that does not resolve. Each ends in one clear ApiError within the call's deadline,
 * the process holding no more than a few MiB for it; none is taken for the API asking the
 * provider to slow down.
 */
import { expect } from 'chai';
import { ApiError, createVdbClient, type VdbClient } from '../../src/clients/vdb/index.js';
import { type HostileBehaviour, type HostileGrpcApi, startHostileGrpcApi } from '../support/hostile-grpc.js';

const ACCOUNT = '00000000-0000-0000-0000-000000000000';
const MiB = 1024 * 1024;

interface Outcome {
  readonly error: ApiError;
  readonly ms: number;
  /** What the client logged at debug level. */
  readonly debug: string[];
}

describe('vdb client against a hostile API', function () {
  this.timeout(30_000);
  let api: HostileGrpcApi | undefined;
  let client: VdbClient | undefined;

  afterEach(async () => {
    client?.close();
    await api?.close();
    client = undefined;
    api = undefined;
  });

  async function outcome(
    target: HostileBehaviour | string,
    call: (vdb: VdbClient) => Promise<unknown>,
    timeoutMs = 60_000,
  ): Promise<Outcome> {
    const url = target.includes(':') ? target : (api = await startHostileGrpcApi(target as HostileBehaviour)).url;
    const debug: string[] = [];
    client = createVdbClient({
      apiUrl: url,
      apiKey: 'hostile-test-key',
      userAgent: 'test',
      timeoutMs,
      logger: { debug: (message) => debug.push(message) },
    });
    const started = Date.now();
    try {
      await call(client);
    } catch (error) {
      expect(error).to.be.instanceOf(ApiError);
      return { error: error as ApiError, ms: Date.now() - started, debug };
    }
    expect.fail('the call succeeded');
  }

  const listRoles = (vdb: VdbClient) => vdb.iam.listRoles({ accountId: ACCOUNT });
  const noSlowDown = (debug: string[]) =>
    expect(
      debug.filter((line) => /slow down/.test(line)),
      'no back-off for what the API never said',
    ).to.deep.equal([]);

  it('an answer said to be 100 MiB, streamed without end: refused by its prefix, at once, once', async () => {
    const rssBefore = process.memoryUsage().rss;
    const { error, debug } = await outcome('endless-message', listRoles);
    expect(error.code).to.equal('malformed_response');
    expect(error.message).to.equal(
      "IAMService/ListRoles: the API's answer holds a message of 104857600 bytes, more than the 4194304 the " +
        'provider reads; nothing of it was read',
    );
    expect(api!.requests(), 'sent once').to.equal(1);
    expect(process.memoryUsage().rss - rssBefore, 'memory held').to.be.below(48 * MiB);
    noSlowDown(debug);
  });

  it('the same answer to a create: its outcome is unknown, and it is not sent again', async () => {
    const { error } = await outcome('endless-message', (vdb) =>
      vdb.iam.createRole({ accountId: ACCOUNT, name: 'hostile', permissions: ['read:clusters'] }),
    );
    expect(error.code).to.equal('outcome_unknown');
    expect(error.message).to.include('more than the 4194304 the provider reads');
    expect(api!.requests(), 'sent once').to.equal(1);
  });

  it('a header block of 1 MB: refused by Node, said as such, not retried, no back-off', async () => {
    const { error, debug } = await outcome('header-flood', listRoles);
    expect(error.code).to.equal('malformed_response');
    expect(error.message).to.equal(
      "IAMService/ListRoles: the API's answer was cut off (HTTP/2 ENHANCE_YOUR_CALM): its headers are larger " +
        'than the provider accepts, or the connection was over its limits',
    );
    expect(api!.requests(), 'sent once').to.equal(1);
    noSlowDown(debug);
  });

  for (const [behaviour, what] of [
    ['never-answers', 'a server that takes the call and never answers'],
    ['silent', 'a server that accepts the connection and never reads or writes'],
  ] as const) {
    it(`${what}: a timeout at the call's deadline`, async () => {
      const { error, ms } = await outcome(behaviour, listRoles, 1_500);
      expect(error.code).to.equal('timeout');
      expect(error.message).to.match(/^IAMService\/ListRoles: no answer within 1500 ms/);
      expect(ms, 'not before the deadline').to.be.at.least(1_400);
    });
  }

  it('a name that does not resolve: one sentence naming it, at once, where grpc-js retried for 13 s', async () => {
    const { error, ms } = await outcome('https://no-such-host.invalid:443', listRoles);
    expect(error.code).to.equal('unavailable');
    expect(error.message).to.equal(
      'IAMService/ListRoles: the host no-such-host.invalid could not be found (name resolution failed): check the ' +
        "API URL and this machine's DNS",
    );
    expect(ms, "before grpc-js's 13 s of retries").to.be.below(13_000);
  });
});
