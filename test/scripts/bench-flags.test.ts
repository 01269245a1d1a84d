/**
 * The benchmarks' argument reader (scripts/bench/util.ts, readFlags, on node's parseArgs): both flag
 * forms, values that hold `=`, positional arguments where a benchmark takes them, and each mistake
 * refused with the benchmark's usage.
 */
import { expect } from 'chai';
import { readFlags } from '../../scripts/bench/util.js';

const USAGE = 'sessions [--count N] [--beside DIR]';

/** What each setter received, in order, and the positional arguments. */
function read(args: string[], positionals = 0): { set: [string, string][]; given: string[] } {
  const set: [string, string][] = [];
  const record = (value: string, flag: string) => {
    set.push([flag, value]);
  };
  const given = readFlags(args, USAGE, { '--count': record, '--beside': record }, { positionals });
  return { set, given };
}

describe('benchmark flags (readFlags)', () => {
  it('reads --flag value and --flag=value, a value holding = whole', () => {
    expect(read(['--beside=/a=b', '--count', '5'])).to.deep.equal({
      set: [
        ['--beside', '/a=b'],
        ['--count', '5'],
      ],
      given: [],
    });
    expect(read(['--beside', 'x=y=z']).set).to.deep.equal([['--beside', 'x=y=z']]);
    expect(read(['--beside=']).set).to.deep.equal([['--beside', '']]);
    // A repeated flag reaches its setter each time, in order: the last wins.
    expect(read(['--count=1', '--count=2']).set).to.deep.equal([
      ['--count', '1'],
      ['--count', '2'],
    ]);
  });

  it('returns positional arguments where the benchmark takes them', () => {
    expect(read(['300', '--beside', '/other'], 1)).to.deep.equal({ set: [['--beside', '/other']], given: ['300'] });
    expect(read([], 1)).to.deep.equal({ set: [], given: [] });
  });

  it('refuses unknown flags, missing values and extra arguments, with the usage', () => {
    const refusal =
      (args: string[], positionals = 0) =>
      () =>
        read(args, positionals);
    expect(refusal(['--counts', '5'])).to.throw(Error, `Unknown option '--counts'; usage: ${USAGE}`);
    expect(refusal(['--count'])).to.throw(Error, `Option '--count <value>' argument missing; usage: ${USAGE}`);
    expect(refusal(['--count', '--beside', 'x'])).to.throw(Error, `usage: ${USAGE}`);
    expect(refusal(['5'])).to.throw(Error, `Unexpected argument '5'`);
    expect(refusal(['5', '6'], 1)).to.throw(Error, `2 arguments where at most 1 are taken; usage: ${USAGE}`);
    expect(refusal(['-c', '5'])).to.throw(Error, `Unknown option '-c'; usage: ${USAGE}`);
  });
});
