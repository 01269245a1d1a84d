/**
 * The value formats the vdb resources check and compare (durations, timestamps, cron; the YAML of
 * operator settings is operator-settings.test.ts's) and the shared waiter, without a provider process.
 */
import { expect } from 'chai';
import {
  cronExpression,
  goDurationBetweenHours,
  ipv4Cidr,
  isTimestamp,
  sameGoDuration,
  sameInstant,
  formatTimestamp,
} from '../../../src/resources/vdb/formats.js';
import { waitFor, sleep, WaitFailedError, WaitTimeoutError } from '../../../src/resources/shared/wait.js';

describe('vdb formats', () => {
  it('compares Go durations by meaning and checks the retention bounds', () => {
    expect(sameGoDuration('72h', '72h0m0s')).to.equal(true);
    expect(sameGoDuration('90m', '1h30m0s')).to.equal(true);
    expect(sameGoDuration('72h', '73h')).to.equal(false);
    expect(sameGoDuration('bogus', '72h')).to.equal(false);
    const retention = goDurationBetweenHours(24, 8760);
    expect(retention.check('24h')).to.equal(undefined);
    expect(retention.check('8760h')).to.equal(undefined);
    expect(retention.check('23h59m')).to.match(/between 24h and 8760h.*23h59m0s/);
    expect(retention.check('8761h')).to.match(/between 24h and 8760h/);
    expect(retention.check('3 days')).to.match(/must be a Go duration/);
  });

  it('formats timestamps at second precision in UTC and compares instants', () => {
    expect(formatTimestamp('2024-05-01T10:00:00.123456Z')).to.equal('2024-05-01T10:00:00Z');
    expect(formatTimestamp('2024-05-01T12:00:00+02:00')).to.equal('2024-05-01T10:00:00Z');
    expect(formatTimestamp(undefined)).to.equal('');
    expect(sameInstant('2030-01-01T02:00:00+02:00', '2030-01-01T00:00:00Z')).to.equal(true);
    expect(sameInstant('2030-01-01T00:00:00.5Z', '2030-01-01T00:00:00Z')).to.equal(true);
    expect(sameInstant('2030-01-01T00:00:01Z', '2030-01-01T00:00:00Z')).to.equal(false);
    expect(isTimestamp.check('2030-02-30T00:00:00Z')).to.match(/RFC 3339/);
    expect(isTimestamp.check('2030-01-31')).to.match(/RFC 3339/);
  });

  it("accepts the platform's cron forms and explains what is wrong", () => {
    for (const ok of [
      '0 3 * * *',
      '*/15 0-6 1,15 JAN-MAR MON-FRI',
      '0 0 3 ? * SUN',
      '0 0 3 * * ? 2030',
      '@daily',
      '@every 6h',
      '@every 1h30m',
    ]) {
      expect(cronExpression.check(ok), ok).to.equal(undefined);
    }
    expect(cronExpression.check('0 3 * *')).to.match(/5 fields.*got 4 fields/);
    expect(cronExpression.check('61 3 * * *')).to.match(/minute field "61"/);
    expect(cronExpression.check('0 3 * * 1-0')).to.match(/runs backwards/);
    expect(cronExpression.check('@sometimes')).to.match(/unknown macro/);
    expect(cronExpression.check('@every soon')).to.match(/positive Go duration/);
    expect(cronExpression.check('*/0 * * * *')).to.match(/step of 0/);
  });

  it('checks IPv4 CIDRs', () => {
    expect(ipv4Cidr.check('10.0.0.0/8')).to.equal(undefined);
    expect(ipv4Cidr.check('10.0.0.256/8')).to.match(/IPv4 CIDR/);
    expect(ipv4Cidr.check('10.0.0.0/33')).to.match(/IPv4 CIDR/);
    expect(ipv4Cidr.check('::1/128')).to.match(/IPv4 CIDR/);
  });
});

describe('shared waiter', () => {
  const phases = (seq: string[]) => {
    let i = 0;
    return async () => seq[Math.min(i++, seq.length - 1)]!;
  };

  it('polls through pending phases until the target and an extra condition hold', async () => {
    let polls = 0;
    const seq = ['CREATING', 'CREATING', 'HEALTHY', 'HEALTHY'];
    const result = await waitFor({
      what: 'thing',
      refresh: async () => ({ phase: seq[Math.min(polls, seq.length - 1)]!, url: polls++ >= 3 ? 'https://x' : '' }),
      phaseOf: (o) => o.phase,
      pending: ['CREATING'],
      target: ['HEALTHY'],
      isComplete: (o) => o.url !== '',
      timeoutMs: 5_000,
      intervalMs: 5,
      signal: new AbortController().signal,
    });
    expect(result).to.deep.equal({ phase: 'HEALTHY', url: 'https://x' });
    expect(polls).to.equal(4);
  });

  it('fails at once on a phase that is neither pending nor a target, with the reason', async () => {
    const err = await waitFor({
      what: 'cluster c1 to become ready',
      refresh: phases(['CREATING', 'FAILED_TO_CREATE']),
      phaseOf: (p) => p,
      pending: ['CREATING'],
      target: ['HEALTHY'],
      reasonOf: () => 'quota exceeded',
      timeoutMs: 5_000,
      intervalMs: 5,
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(WaitFailedError);
    expect((err as Error).message).to.equal(
      'while waiting for cluster c1 to become ready, it entered phase FAILED_TO_CREATE: quota exceeded',
    );
  });

  it('gives up after the budget with the last phase', async () => {
    const err = await waitFor({
      what: 'x',
      refresh: phases(['CREATING']),
      phaseOf: (p) => p,
      pending: ['CREATING'],
      target: ['HEALTHY'],
      timeoutMs: 30,
      intervalMs: 10,
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(WaitTimeoutError);
    expect((err as Error).message).to.match(/last phase seen was CREATING/);
  });

  it('stops promptly when the signal aborts', async () => {
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(), 20);
    const err = await waitFor({
      what: 'x',
      refresh: phases(['CREATING']),
      phaseOf: (p) => p,
      pending: ['CREATING'],
      target: ['HEALTHY'],
      timeoutMs: 60_000,
      intervalMs: 10_000,
      signal: stop.signal,
    }).catch((e: unknown) => e);
    expect((err as Error).name).to.equal('AbortError');
    expect(Date.now() - started).to.be.lessThan(1_000);
    await sleep(1, new AbortController().signal);
  });
});
