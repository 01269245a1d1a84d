import { expect } from 'chai';
import { secClientFor } from '../support/sec-provider.js';
import { measureApiTime, timeApiExchange } from '../../packages/framework/src/wire/api-timing.js';
import { startSecEmulator } from '../../src/emulators/sec/index.js';

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const nextTurn = () => new Promise((r) => setImmediate(r));

/** An exchange the test finishes by hand. */
function manualExchange(): { done: Promise<string>; finish: () => void } {
  let finish!: () => void;
  const exchange = new Promise<string>((resolve) => (finish = () => resolve('answer')));
  return { done: timeApiExchange(() => exchange), finish };
}

describe('API time per RPC', () => {
  it('counts overlapping exchanges once: at most the wall time they span, never their sum', async () => {
    await measureApiTime(async (apiMs) => {
      const started = performance.now();
      const a = manualExchange();
      const b = manualExchange();
      spin(20);
      a.finish();
      await a.done;
      spin(20);
      b.finish();
      await b.done;
      const elapsed = performance.now() - started;
      // Counted separately the two would add up to about 20 + 40 ms, more than the ~40 ms elapsed.
      expect(apiMs()).to.be.at.least(38).and.at.most(elapsed);
    });
  });

  it('adds up exchanges that follow one another, and stops counting between them', async () => {
    await measureApiTime(async (apiMs) => {
      for (let i = 0; i < 2; i++) {
        const x = manualExchange();
        spin(15);
        x.finish();
        await x.done;
        await nextTurn();
        spin(30); // not API time
      }
      expect(apiMs()).to.be.at.least(29).and.below(60);
    });
  });

  it('ends the interval of an exchange that fails, and passes the failure on', async () => {
    await measureApiTime(async (apiMs) => {
      const failing = timeApiExchange(async () => {
        spin(10);
        throw new Error('connection reset');
      });
      const error = await failing.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).to.be.an('error').with.property('message', 'connection reset');
      const afterFailure = apiMs();
      spin(20);
      expect(apiMs()).to.equal(afterFailure);
    });
  });

  it('keeps separate totals for RPCs running at the same time', async () => {
    const slow = measureApiTime(async (apiMs) => {
      const x = manualExchange();
      await new Promise((r) => setTimeout(r, 40));
      x.finish();
      await x.done;
      return apiMs();
    });
    const idle = measureApiTime(async (apiMs) => {
      await new Promise((r) => setTimeout(r, 40));
      return apiMs();
    });
    const [slowMs, idleMs] = await Promise.all([slow, idle]);
    expect(slowMs).to.be.at.least(35);
    expect(idleMs).to.equal(0);
  });

  it('measures the sec client: its requests count, and outside an RPC nothing is counted or broken', async () => {
    const emulator = await startSecEmulator();
    const client = secClientFor(emulator);
    try {
      const profile = await client.userProfile.get();
      expect(profile).to.be.an('array');
      const { ms, elapsed } = await measureApiTime(async (apiMs) => {
        const started = performance.now();
        await client.userProfile.get();
        return { ms: apiMs(), elapsed: performance.now() - started };
      });
      expect(ms).to.be.above(0).and.at.most(elapsed);
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
