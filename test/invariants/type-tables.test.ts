/**
 * The completeness check of the per-type tables tests keep by hand (test/support/type-tables.ts):
 * each problem is one line that says what to add or remove, and where.
 */
import { expect } from 'chai';
import { failOnProblems, tableProblems, type TypeTable } from '../support/type-tables.js';

const TABLE: TypeTable = {
  what: 'demo resource type',
  where: 'DEMO_CASES in test/demo.test.ts',
  entry: (type) => `{ type: '${type}', config: () => ({}) }`,
};

describe('per-type tables: the completeness check', () => {
  it('names a missing entry with the entry to add and where, an entry for no type, and a repeated entry', () => {
    expect(
      tableProblems(TABLE, ['demo_a', 'demo_b', 'demo_c'], ['demo_c', 'demo_gone', 'demo_a', 'demo_a']),
    ).to.deep.equal([
      "demo resource type demo_b has no entry in DEMO_CASES in test/demo.test.ts; add { type: 'demo_b', config: () => ({}) }",
      'DEMO_CASES in test/demo.test.ts has an entry for demo_gone, which is no demo resource type; remove it',
      'DEMO_CASES in test/demo.test.ts has 2 entries for demo_a; keep one',
    ]);
  });

  it('calls an entry what the table calls it', () => {
    const tests: TypeTable = { ...TABLE, noun: 'test', where: 'the describe "demo"' };
    expect(tableProblems(tests, ['demo_a'], ['demo_b', 'demo_b'])).to.deep.equal([
      'demo resource type demo_a has no test in the describe "demo"; add { type: \'demo_a\', config: () => ({}) }',
      'the describe "demo" has a test for demo_b, which is no demo resource type; remove it',
      'the describe "demo" has 2 tests for demo_b; keep one',
    ]);
  });

  it('finds nothing when the table has each type once, in any order, and fails with the lines otherwise', () => {
    expect(tableProblems(TABLE, ['demo_a', 'demo_b'], ['demo_b', 'demo_a'])).to.deep.equal([]);
    expect(() => failOnProblems('the demo types', [])).to.not.throw();
    expect(() => failOnProblems('the demo types', ['one', 'two'])).to.throw('the demo types:\n  one\n  two');
  });
});
