// The clients' own one-shot signals (src/clients/cancellation.ts) behave as the part of AbortSignal
// the clients use, and the stop grace built on them still follows the stop and the deadline.
import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import { Cancellation, delay, followAbort, unfollowAbort } from '../../src/clients/cancellation.js';
import { graceAfter } from '../../src/clients/stop.js';

describe('client cancellations', () => {
  it('aborts once: listeners run once with the first reason, later aborts change nothing', () => {
    const cancellation = new Cancellation();
    const calls: unknown[] = [];
    const listener = () => calls.push(cancellation.reason);
    cancellation.addEventListener('abort', listener);
    expect(cancellation.aborted).to.equal(false);
    expect(cancellation.reason).to.equal(undefined);
    const first = new Error('first');
    cancellation.abort(first);
    cancellation.abort(new Error('second'));
    expect(cancellation.aborted).to.equal(true);
    expect(cancellation.reason).to.equal(first);
    expect(calls).to.deep.equal([first]);
  });

  it('like AbortSignal, never calls a listener removed or added after the abort', () => {
    for (const make of [() => new AbortController(), () => new Cancellation()]) {
      const source = make();
      const signal = source instanceof AbortController ? source.signal : source;
      const calls: string[] = [];
      const removed = () => calls.push('removed');
      const kept = () => calls.push('kept');
      signal.addEventListener('abort', removed);
      signal.addEventListener('abort', kept);
      signal.removeEventListener('abort', removed);
      source.abort(new Error('stop'));
      signal.addEventListener('abort', () => calls.push('late'));
      expect(calls, source.constructor.name).to.deep.equal(['kept']);
    }
  });

  it("calls follow Terraform's stop through one listener of its own on it, each called once unless it stopped following", () => {
    const stop = new AbortController();
    const calls: number[] = [];
    const followers = [0, 1, 2, 3].map((i) => () => calls.push(i));
    for (const follower of followers) followAbort(stop.signal, follower);
    unfollowAbort(stop.signal, followers[1]!);
    expect(getEventListeners(stop.signal, 'abort')).to.have.length(1);
    stop.abort(new Error('stop'));
    stop.abort(new Error('again'));
    expect(calls).to.deep.equal([0, 2, 3]);
    expect(getEventListeners(stop.signal, 'abort')).to.have.length(0);

    const next = new AbortController();
    followAbort(next.signal, () => calls.push(4));
    next.abort(new Error('the next stop'));
    expect(calls, 'a new stop signal is followed anew').to.deep.equal([0, 2, 3, 4]);
  });

  it('delay resolves after its time, and rejects with the reason as soon as the signal aborts', async () => {
    const quiet = new Cancellation();
    const started = Date.now();
    await delay(20, quiet);
    expect(Date.now() - started).to.be.at.least(15);

    const stopped = new Cancellation();
    const reason = new Error('stopped');
    const waiting = delay(60_000, stopped);
    stopped.abort(reason);
    const error = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.equal(reason);
    const already = await delay(1, stopped).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(already).to.equal(reason);
  });

  it("the stop grace ends graceMs after Terraform's stop, or with the deadline, and not before either", async () => {
    const stop = new AbortController();
    const deadline = new Cancellation();
    const grace = graceAfter(stop.signal, 30, deadline);
    expect(grace.signal.aborted).to.equal(false);
    stop.abort(new Error('stop'));
    expect(grace.signal.aborted, 'the grace outlives the stop').to.equal(false);
    await delay(60, new Cancellation());
    expect(grace.signal.aborted).to.equal(true);
    expect((grace.signal.reason as Error).message).to.equal('stop grace over');
    grace.dispose();

    const passed = new Error('deadline exceeded');
    const withDeadline = graceAfter(new AbortController().signal, 60_000, deadline);
    deadline.abort(passed);
    expect(withDeadline.signal.reason).to.equal(passed);
    withDeadline.dispose();
  });
});
