/**
 * The one rule for what `""` is (packages/framework/src/schema/empty-string.ts): by default it says no more than null,
 * as
 * every empty value does; for an attribute declared `emptyString: 'value'` it is a value of its own, in
 * every comparison and at every depth of a block (set blocks included).
 */
import { expect } from 'chai';
import { attr, block } from '../../packages/framework/src/schema/define.js';
import { emptyStringIsValue, sameMeaningOf, saysNothing } from '../../packages/framework/src/schema/empty-string.js';
import { meansNull, sameFieldMeaning, sameFieldValue } from '../../packages/framework/src/schema/model.js';
import { sameMeaning } from '../../packages/framework/src/schema/value-ops.js';
import { fieldType } from '../../packages/framework/src/schema/fields.js';
import { UNKNOWN, type Value } from '../../packages/framework/src/schema/value.js';

const d = { description: 'block' };
const kept = attr.string({ optional: true, emptyString: 'value', description: 'kept' });
const unset = attr.string({ optional: true, emptyString: 'unset', description: 'unset, said' });
const plain = attr.string({ optional: true, description: 'plain' });
const setOf = (tag: typeof kept) => block.set({ tag, n: attr.number({ optional: true, description: 'n' }) }, d);
const listOf = (tag: typeof kept) => block.list({ tag }, d);

describe('schema: what an empty string is (emptyString)', () => {
  it('the rule is "value" only where declared', () => {
    expect([kept, unset, plain, listOf(kept)].map(emptyStringIsValue)).to.deep.equal([true, false, false, false]);
  });

  it('saysNothing: "" says nothing unless the rule makes it a value; empty collections always do', () => {
    const values: Value[] = [null, '', ' ', 'a', [], {}, UNKNOWN];
    expect(values.map((v) => saysNothing(kept, v))).to.deep.equal([true, false, false, false, true, true, false]);
    expect(values.map((v) => saysNothing(plain, v))).to.deep.equal([true, true, false, false, true, true, false]);
    expect(meansNull(kept, '')).to.equal(false);
    expect(meansNull(plain, '')).to.equal(true);
  });

  it('an attribute: "" and null differ with the rule, and mean the same without it', () => {
    expect(sameMeaningOf(kept, '', null)).to.equal(false);
    expect(sameMeaningOf(kept, '', '')).to.equal(true);
    expect(sameMeaningOf(kept, UNKNOWN, UNKNOWN)).to.equal(true);
    expect(sameMeaningOf(kept, UNKNOWN, '')).to.equal(false);
    for (const def of [plain, unset]) {
      expect(sameMeaningOf(def, '', null)).to.equal(true);
      expect(sameFieldMeaning(def, '', null)).to.equal(true);
      expect(sameFieldValue(def, '', null)).to.equal(true);
    }
    expect(sameFieldMeaning(kept, '', null)).to.equal(false);
    expect(sameFieldValue(kept, null, '')).to.equal(false);
  });

  it('a block: each attribute keeps its rule, in a list and in a set', () => {
    for (const make of [listOf, setOf]) {
      const withRule = make(kept);
      const without = make(plain);
      const a = [{ tag: '', n: null }];
      const b = [{ tag: null, n: null }];
      expect(sameFieldMeaning(withRule, a, b), `${withRule.nesting} with the rule`).to.equal(false);
      expect(sameFieldMeaning(withRule, a, a)).to.equal(true);
      expect(sameFieldMeaning(without, a, b), `${without.nesting} without`).to.equal(true);
      // Null and no elements still mean the same.
      expect(sameFieldMeaning(withRule, null, [])).to.equal(true);
      expect(sameFieldMeaning(withRule, null, a)).to.equal(false);
    }
    const one = block.one({ tag: kept }, d);
    expect(sameFieldMeaning(one, [{ tag: '' }], [{ tag: null }])).to.equal(false);
  });

  it('a schema without the option compares as sameMeaning does', () => {
    const def = setOf(plain);
    const pairs: [Value, Value][] = [
      [[{ tag: '', n: 1 }], [{ tag: null, n: 1 }]],
      [[{ tag: 'a', n: 1 }], [{ tag: 'a', n: 2 }]],
      [null, []],
    ];
    for (const [a, b] of pairs) expect(sameMeaningOf(def, a, b)).to.equal(sameMeaning(fieldType(def), a, b));
  });
});
