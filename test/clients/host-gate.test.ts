import { expect } from 'chai';
import { HostGate } from '../../src/clients/host-gate.js';
import { type SecClient, createSecClient } from '../../src/clients/sec/index.js';
import { createVdbClient, type VdbClient } from '../../src/clients/vdb/index.js';
import type { QuotaStats } from '../../src/emulators/core/quota.js';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';

/** Whether `work` ended before any timer could fire: it waited on none. */
async function withoutWaiting(work: () => Promise<unknown>): Promise<boolean> {
  const timer = new Promise<false>((resolve) => setTimeout(() => resolve(false), 0));
  return Promise.race([work().then(() => true as const), timer]);
}

describe('host gate: one back-off per API host', () => {
  it('lets every call through at once until the API refuses one', async () => {
    const gate = new HostGate('https://api.example.com');
    expect(await withoutWaiting(() => Promise.all(Array.from({ length: 50 }, () => gate.admit())))).to.equal(true);
    expect(gate.allowedRate()).to.equal(undefined);
  });

  it("makes every call wait out one call's refusal, then spaces them at 70% of the rate that was refused", async () => {
    const gate = new HostGate('https://api.example.com');
    for (let i = 0; i < 20; i++) await gate.admit();
    // The wait runs from the refused call's send; the times below count from it too, so that a busy
    // machine's delay before the calls are made takes nothing off what is measured.
    const sentAt = Date.now();
    gate.refused({ sentAt, waitMs: 300, answer: 'HTTP 429' });
    // 20 starts within the last second: 20 calls/s, cut to 14.
    const rate = gate.allowedRate()!;
    expect(rate).to.be.closeTo(14, 0.1);
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 5 }, () => gate.admit().then(() => starts.push(Date.now() - sentAt))));
    expect(Math.min(...starts), 'the first waits out the Retry-After').to.be.at.least(299);
    const spread = Math.max(...starts) - Math.min(...starts);
    expect(spread, 'five calls at the cut rate take four intervals').to.be.at.least((4 * 1000) / rate - 30);
  });

  it('cuts once for a round of refusals; a later round while paced cuts again without pausing every call', async () => {
    let now = 10_000;
    const gate = new HostGate('h', () => now);
    for (let i = 0; i < 40; i++) void gate.admit();
    const sentAt = now;
    now += 10;
    gate.refused({ sentAt, waitMs: 0, answer: 'HTTP 429' });
    expect(gate.allowedRate()).to.be.closeTo(28, 0.01);
    // The rest of the round: calls sent before its cut.
    for (let i = 0; i < 9; i++) gate.refused({ sentAt, waitMs: 5_000, answer: 'HTTP 429' });
    expect(gate.allowedRate(), 'no second cut').to.be.closeTo(28, 0.01);
    expect(await gate.admit(undefined, now), 'no pause from the round').to.equal(true);
    // A call sent after the cut, refused: a new round, cut from what the gate allowed, and no pause.
    now += 1;
    gate.refused({ sentAt: now, waitMs: 5_000, answer: 'HTTP 429' });
    expect(gate.allowedRate()).to.be.closeTo(19.6, 0.05);
    expect(await gate.admit(undefined, now + 100), 'paced, not paused').to.equal(true);
  });

  it('doubles the rate every half second without a refusal, and stops pacing once it is back where it was', () => {
    let now = 10_000;
    const gate = new HostGate('h', () => now);
    for (let i = 0; i < 40; i++) void gate.admit();
    gate.refused({ sentAt: now, waitMs: 1000, answer: 'HTTP 429' });
    expect(gate.allowedRate()).to.be.closeTo(28, 1e-9);
    now += 1000;
    expect(gate.allowedRate(), 'no growth during the pause').to.be.closeTo(28, 1e-9);
    now += 125;
    expect(gate.allowedRate()).to.be.closeTo(28 * 2 ** 0.25, 1e-9);
    now += 875;
    expect(gate.allowedRate(), 'back at 40 calls a second, a second after the pause').to.equal(undefined);
  });

  it('stops pacing after ten quiet seconds, even at a rate that never recovers', () => {
    let now = 10_000;
    const gate = new HostGate('h', () => now);
    for (let i = 0; i < 4; i++) void gate.admit();
    gate.refused({ sentAt: now, waitMs: 60_000, answer: 'HTTP 429' });
    expect(gate.allowedRate()).to.be.closeTo(2.8, 1e-9);
    now += 10_000;
    expect(gate.allowedRate()).to.equal(undefined);
  });

  it('answers false at once when the call could not start before its deadline', async () => {
    const gate = new HostGate('h');
    gate.refused({ sentAt: Date.now(), waitMs: 5000, answer: 'RESOURCE_EXHAUSTED' });
    let admitted: boolean | undefined;
    const atOnce = await withoutWaiting(async () => {
      admitted = await gate.admit(undefined, Date.now() + 1000);
    });
    expect({ admitted, atOnce }).to.deep.equal({ admitted: false, atOnce: true });
  });

  it("ends a wait with the caller's signal", async () => {
    const gate = new HostGate('h');
    gate.refused({ sentAt: Date.now(), waitMs: 5000, answer: 'HTTP 429' });
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('stopped')), 50);
    const error = await gate.admit(stop.signal).catch((e: unknown) => e);
    expect((error as Error).message).to.equal('stopped');
  });

  it('says once in the debug log that the API asked it to slow down', () => {
    const lines: { message: string; fields?: object }[] = [];
    const logger = {
      debug: (message: string, fields?: object) => lines.push({ message, ...(fields ? { fields } : {}) }),
    };
    const gate = new HostGate('https://api.example.com');
    for (let i = 0; i < 3; i++) gate.refused({ sentAt: Date.now() + i, waitMs: 1000, answer: 'HTTP 429' }, logger);
    expect(lines).to.have.length(1);
    expect(lines[0]!.message).to.include('slow down');
    expect(lines[0]!.fields).to.include({ host: 'https://api.example.com', answer: 'HTTP 429', waitMs: 1000 });
  });
});

/**
 * Two callers against an emulator that lets the account make one call every three seconds (a bucket of
 * one): A's first call takes the only token, its second is refused with Retry-After: 3, and A gives up
 * (one attempt), so nothing of A's competes afterwards. Then B calls. With one gate for the process, B
 * is held until the Retry-After has passed, when the bucket has refilled (its Retry-After says when),
 * so B goes through at its first attempt: one refusal in all, on any schedule. With a gate per caller,
 * B is sent at once into the empty bucket and refused too: that B arrives within the three seconds is
 * what the control relies on.
 */
describe('host gate: under a real rate limit, shared by the whole process', function () {
  this.timeout(60_000);
  const RATE = { perSecond: 1 / 3, burst: 1 };

  interface Emulated<C> {
    stats: () => QuotaStats;
    /** A client on `gate`; with `once`, a refused call is not sent again. */
    client: (gate: HostGate, once?: boolean) => C;
    close: () => Promise<void>;
  }

  /** The refusals the emulator counted once B's call came back. */
  async function refusalsWith<C>(
    perCaller: boolean,
    start: () => Promise<Emulated<C>>,
    call: (client: C) => Promise<unknown>,
    host: string,
  ): Promise<number> {
    const emulator = await start();
    try {
      const shared = new HostGate(host);
      const callerA = emulator.client(perCaller ? new HostGate(host) : shared, true);
      const callerB = emulator.client(perCaller ? new HostGate(host) : shared);
      await call(callerA);
      const refusal = await call(callerA).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal, "A's second call is refused").to.be.instanceOf(Error);
      expect(emulator.stats().refused).to.equal(1);
      await call(callerB);
      return emulator.stats().refused;
    } finally {
      await emulator.close();
    }
  }

  async function expectOneRefusal<C>(
    start: () => Promise<Emulated<C>>,
    call: (client: C) => Promise<unknown>,
    host: string,
  ) {
    expect(await refusalsWith(false, start, call, host), "one gate: B waits out A's refusal").to.equal(1);
    const alone = await refusalsWith(true, start, call, host);
    expect(alone, 'a gate per caller: B is sent into the empty bucket and refused too').to.be.at.least(2);
  }

  it('sec: a 429 with Retry-After slows every caller', async () => {
    const opened: SecClient[] = [];
    const start = async (): Promise<Emulated<SecClient>> => {
      const emulator = await startSecEmulator({ rateLimit: RATE });
      return {
        stats: () => emulator.rateLimitStats(),
        client: (gate, once) => {
          const client = createSecClient({
            baseUrl: emulator.url,
            account: emulator.account,
            apiToken: emulator.issueToken(),
            userAgent: 'test',
            gate,
            ...(once ? { retry: { maxAttempts: 1 } } : {}),
          });
          opened.push(client);
          return client;
        },
        close: async () => {
          await Promise.all(opened.splice(0).map((c) => c.close()));
          await emulator.close();
        },
      };
    };
    await expectOneRefusal(start, (c: SecClient) => c.alertChannels.list(), 'sec');
  });

  it('vdb: a RESOURCE_EXHAUSTED with retry-after slows every caller', async () => {
    const opened: VdbClient[] = [];
    let accountId = '';
    const start = async (): Promise<Emulated<VdbClient>> => {
      const emulator = await startVdbEmulator({ rateLimit: RATE });
      accountId = emulator.accountId;
      return {
        stats: () => emulator.rateLimitStats(),
        client: (gate, once) => {
          const client = createVdbClient({
            apiUrl: emulator.url,
            apiKey: emulator.apiKey,
            userAgent: 'test',
            gate,
            ...(once ? { retry: { maxAttempts: 1 } } : {}),
          });
          opened.push(client);
          return client;
        },
        close: async () => {
          for (const client of opened.splice(0)) client.close();
          await emulator.close();
        },
      };
    };
    await expectOneRefusal(start, (c: VdbClient) => c.iam.listRoles({ accountId }), 'vdb');
  });
});
