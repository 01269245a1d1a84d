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
 * Ten callers, each making calls one after another, against an emulator that lets the account make
 * 20 calls a second in bursts of 4, answering a refusal with Retry-After: 1 (its shortest). With one
 * gate for the process, the first refusal holds every caller: the only calls refused are those sent
 * before it came back, so every refusal falls within a second of the first. With a gate per caller
 * (as every call backed off before the gate), callers refused together come back together and are
 * refused again a second later. How many calls a round catches depends on timing (a loaded machine
 * spreads the callers out); that the rounds end does not.
 */
describe('host gate: under a real rate limit, shared by the whole process', function () {
  this.timeout(60_000);
  const CALLERS = 10;
  const CALLS_EACH = 2;
  const RATE = { perSecond: 20, burst: 4 };
  /** The shortest Retry-After the emulators send. */
  const RETRY_AFTER_MS = 1000;

  async function refusalsWith<C>(
    perCaller: boolean,
    start: () => Promise<{ stats: () => QuotaStats; client: (gate: HostGate) => C; close: () => Promise<void> }>,
    call: (client: C) => Promise<unknown>,
    host: string,
  ): Promise<{ refused: number; spanMs: number }> {
    const emulator = await start();
    try {
      const shared = new HostGate(host);
      const clients = Array.from({ length: CALLERS }, () => emulator.client(perCaller ? new HostGate(host) : shared));
      await Promise.all(
        clients.map(async (client) => {
          for (let i = 0; i < CALLS_EACH; i++) await call(client);
        }),
      );
      const { refused, firstRefusedAt, lastRefusedAt } = emulator.stats();
      expect(refused, 'the burst was exceeded').to.be.above(0);
      return { refused, spanMs: lastRefusedAt! - firstRefusedAt! };
    } finally {
      await emulator.close();
    }
  }

  function expectOneRound(together: { refused: number; spanMs: number }, alone: { refused: number; spanMs: number }) {
    const seen = `one gate: ${together.refused} refused within ${together.spanMs} ms; a gate per caller: ${alone.refused} within ${alone.spanMs} ms`;
    expect(together.spanMs, `${seen}: with one gate, no call sent after the first refusal is refused`).to.be.below(
      RETRY_AFTER_MS,
    );
    expect(alone.spanMs, `${seen}: callers backing off alone are refused again`).to.be.at.least(RETRY_AFTER_MS);
  }

  it('sec: a 429 with Retry-After slows every caller', async () => {
    const opened: SecClient[] = [];
    const start = async () => {
      const emulator = await startSecEmulator({ rateLimit: RATE });
      return {
        stats: () => emulator.rateLimitStats(),
        client: (gate: HostGate) => {
          const client = createSecClient({
            baseUrl: emulator.url,
            account: emulator.account,
            apiToken: emulator.issueToken(),
            userAgent: 'test',
            gate,
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
    const alone = await refusalsWith(true, start, (c: SecClient) => c.alertChannels.list(), 'sec');
    const together = await refusalsWith(false, start, (c: SecClient) => c.alertChannels.list(), 'sec');
    expectOneRound(together, alone);
  });

  it('vdb: a RESOURCE_EXHAUSTED with retry-after slows every caller', async () => {
    const opened: VdbClient[] = [];
    let accountId = '';
    const start = async () => {
      const emulator = await startVdbEmulator({ rateLimit: RATE });
      accountId = emulator.accountId;
      return {
        stats: () => emulator.rateLimitStats(),
        client: (gate: HostGate) => {
          const client = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'test', gate });
          opened.push(client);
          return client;
        },
        close: async () => {
          for (const client of opened.splice(0)) client.close();
          await emulator.close();
        },
      };
    };
    const list = (c: VdbClient) => c.iam.listRoles({ accountId });
    const alone = await refusalsWith(true, start, list, 'vdb');
    const together = await refusalsWith(false, start, list, 'vdb');
    expectOneRound(together, alone);
  });
});
