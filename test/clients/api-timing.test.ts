/**
 * The API time an RPC's trace line reports (packages/framework/src/wire/api-timing.ts), on a clock the
 * test moves by hand: exact figures, whatever else the machine is doing.
 */
import { expect } from 'chai';
import { secClientFor } from '../support/sec-provider.js';
import { measureApiTime, timeApiExchange } from '../../packages/framework/src/wire/api-timing.js';
import { startSecEmulator } from '../../src/emulators/sec/index.js';

/** A clock that stands still until the test moves it. */
function handClock(): { now: () => number; pass: (ms: number) => void } {
  let ms = 1_000;
  return { now: () => ms, pass: (by) => (ms += by) };
}
const nextTurn = () => new Promise((r) => setImmediate(r));

/** An exchange the test finishes by hand. */
function manualExchange(): { done: Promise<string>; finish: () => void } {
  let finish!: () => void;
  const exchange = new Promise<string>((resolve) => (finish = () => resolve('answer')));
  return { done: timeApiExchange(() => exchange), finish };
}

describe('API time per RPC', () => {
  it('counts overlapping exchanges once: the time they span, never their sum', async () => {
    const clock = handClock();
    await measureApiTime(async (apiMs) => {
      const a = manualExchange();
      const b = manualExchange();
      clock.pass(20);
      a.finish();
      await a.done;
      expect(apiMs(), 'read while b is in flight').to.equal(20);
      clock.pass(20);
      b.finish();
      await b.done;
      // Counted separately the two would add up to 20 + 40 ms.
      expect(apiMs()).to.equal(40);
    }, clock.now);
  });

  it('adds up exchanges that follow one another, and stops counting between them', async () => {
    const clock = handClock();
    await measureApiTime(async (apiMs) => {
      for (let i = 0; i < 2; i++) {
        const x = manualExchange();
        clock.pass(15);
        x.finish();
        await x.done;
        await nextTurn();
        clock.pass(30); // not API time
      }
      expect(apiMs()).to.equal(30);
    }, clock.now);
  });

  it('ends the interval of an exchange that fails, and passes the failure on', async () => {
    const clock = handClock();
    await measureApiTime(async (apiMs) => {
      const failing = timeApiExchange(async () => {
        clock.pass(10);
        throw new Error('connection reset');
      });
      const error = await failing.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).to.be.an('error').with.property('message', 'connection reset');
      expect(apiMs()).to.equal(10);
      clock.pass(20);
      expect(apiMs()).to.equal(10);
    }, clock.now);
  });

  it('keeps separate totals for RPCs running at the same time', async () => {
    const clock = handClock();
    let finishSlow!: () => void;
    const slow = measureApiTime(async (apiMs) => {
      const x = manualExchange();
      finishSlow = x.finish;
      await x.done;
      return apiMs();
    }, clock.now);
    const idle = measureApiTime(async (apiMs) => {
      await nextTurn();
      return apiMs();
    }, clock.now);
    clock.pass(40);
    finishSlow();
    expect(await Promise.all([slow, idle])).to.deep.equal([40, 0]);
  });

  it('measures the sec client: its requests count, and outside an RPC nothing is counted or broken', async () => {
    const emulator = await startSecEmulator();
    const client = secClientFor(emulator);
    try {
      const profile = await client.userProfile.get();
      expect(profile).to.be.an('array');
      // Each exchange's start and end read the clock once: one request, one interval.
      let reads = 0;
      const counting = () => ++reads;
      const ms = await measureApiTime(async (apiMs) => {
        await client.userProfile.get();
        return apiMs();
      }, counting);
      expect({ ms, reads }).to.deep.equal({ ms: 1, reads: 2 });
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
