/**
 * A bound is stated once, by the check that holds it (docs/decisions.md, "One contract per platform"):
 * an attribute's description never repeats in prose a bound its checks state, nor a block's the item
 * counts it declares, since the pages and the editor append the checks' own sentences ("Must be 1 to 64
 * characters", "at least 1"), and prose would outlive a rule changed in the contract. Held over every
 * attribute and block of both providers: the provider block, every resource and data source, every
 * nested block and nested attribute.
 */
import { expect } from 'chai';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import sec from '../../src/resources/sec/index.js';
import vdb from '../../src/resources/vdb/index.js';

/** `1–80`, `4 to 64`, `at most 256`, `up to 10`, `at least one`: a bound in words. */
const BOUND_IN_PROSE =
  /\d+\s*(–|-|to)\s*\d+|\b(at most|at least|up to|no more than|no fewer than)\s+(\d+|one|two|three|four|five|ten)\b/i;

/**
 * Every attribute or block whose checks state a bound its description repeats, as `where: description`:
 * an attribute's checks (`validate`), a block's item counts (`min`, `max`), which the pages state as
 * "at least 1" and "at most 10". Nested attributes are walked as blocks are.
 */
function repeatedBounds(fields: Fields, where: string): string[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    const path = `${where}.${name}`;
    // An example in code (`CVE-2024-0001`) is no bound.
    const description = (field.options.description ?? '').replace(/`[^`]*`/g, '`…`');
    if (field.kind === 'block') {
      const own = repeatsItemCounts(field.options, description) ? [`${path}: ${description}`] : [];
      return [...own, ...repeatedBounds(field.fields, path)];
    }
    if (field.kind !== 'attr') return [];
    const inner = field.nested ? repeatedBounds(field.nested.fields, path) : [];
    const checks = field.options.validate ?? [];
    return checks.length > 0 && BOUND_IN_PROSE.test(description) ? [`${path}: ${description}`, ...inner] : inner;
  });
}

/**
 * Whether a block's description repeats the item counts its page states: "exactly one" or "at most one"
 * for a single block, said of the block itself (where "exactly one of the role pair" and "at least one
 * criterion" speak of its contents), "at least 1" and "at most 10" for a collection.
 */
function repeatsItemCounts({ min = 0, max = 0 }: { min?: number; max?: number }, description: string): boolean {
  if (max === 1) return /\b(exactly|at most) one(\s+block)?\s*([.)]|$)/i.test(description);
  return (min > 0 || max > 0) && BOUND_IN_PROSE.test(description);
}

describe('descriptions: a bound is stated by its check, never again in prose', () => {
  for (const def of [sec, vdb])
    it(`${def.name}: no attribute or block repeats a bound its checks state`, () => {
      const found = [
        ...repeatedBounds(def.schema.fields as Fields, 'provider'),
        ...[...def.resources, ...def.dataSources].flatMap((type) =>
          repeatedBounds(type.schema.fields as Fields, type.typeName),
        ),
      ];
      expect(found, 'leave the bound to the check: the page appends its sentence').to.deep.equal([]);
      const counted = [...def.resources, ...def.dataSources].length;
      expect(counted, 'types walked').to.be.above(5);
    });
});
