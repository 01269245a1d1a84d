/**
 * A bound is stated once, by the check that holds it (docs/decisions.md, "One contract per platform"):
 * an attribute's description never repeats in prose a bound its checks state, since the pages and the
 * editor append the checks' own sentences ("Must be 1 to 64 characters"), and prose would outlive a rule
 * changed in the contract. Held over every attribute of both providers: the provider block, every
 * resource and data source, every nested block.
 */
import { expect } from 'chai';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import sec from '../../src/resources/sec/index.js';
import vdb from '../../src/resources/vdb/index.js';

/** `1–80`, `4 to 64`, `at most 256`, `up to 10`, `at least 2`: a bound in words. */
const BOUND_IN_PROSE = /\d+\s*(–|-|to)\s*\d+|\b(at most|at least|up to|no more than)\s+\d+/i;

/** Every attribute whose checks state a bound its description repeats, as `where: description`. */
function repeatedBounds(fields: Fields, where: string): string[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    const path = `${where}.${name}`;
    if (field.kind === 'block') return repeatedBounds(field.fields, path);
    if (field.kind !== 'attr') return [];
    const checks = field.options.validate ?? [];
    const description = field.options.description ?? '';
    return checks.length > 0 && BOUND_IN_PROSE.test(description) ? [`${path}: ${description}`] : [];
  });
}

describe('descriptions: a bound is stated by its check, never again in prose', () => {
  for (const def of [sec, vdb])
    it(`${def.name}: no attribute repeats a bound its checks state`, () => {
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
