/**
 * A list whose entries are sent trimmed (its `equal` ignores surrounding white space) refuses an entry of
 * white space alone at plan, over every attribute of every type of both providers, nested ones too: trimmed,
 * it would be sent as "", which names nothing and which the platforms refuse at apply.
 */
import { expect } from 'chai';
import type { AttrDef, Fields, Validator } from '../../packages/framework/src/schema/define.js';
import sec from '../../src/resources/sec/index.js';
import vdb from '../../src/resources/vdb/index.js';

/** Whether `equal` takes a list whose entries differ only in surrounding white space as the same. */
const ignoresWhiteSpace = (equal: ((a: never, b: never) => boolean) | undefined): boolean => {
  if (!equal) return false;
  try {
    return equal([' x '] as never, ['x'] as never) === true;
  } catch {
    return false;
  }
};

/** The trimmed lists under `fields` that take `[" "]`, by path. */
function blankTaken(fields: Fields, at: string): { trimmed: number; taking: string[] } {
  let trimmed = 0;
  const taking: string[] = [];
  for (const [name, def] of Object.entries(fields)) {
    const path = `${at}.${name}`;
    if (def.kind === 'block') {
      const inner = blankTaken(def.fields, path);
      trimmed += inner.trimmed;
      taking.push(...inner.taking);
      continue;
    }
    const attr = def as AttrDef<unknown>;
    if (attr.nested) {
      const inner = blankTaken(attr.nested.fields, path);
      trimmed += inner.trimmed;
      taking.push(...inner.taking);
    }
    const cty = attr.type.cty;
    const ofTexts = (cty.kind === 'list' || cty.kind === 'set') && cty.element.kind === 'string';
    if (!ofTexts || !ignoresWhiteSpace(attr.options.equal as never)) continue;
    trimmed++;
    const refused = (attr.options.validate ?? []).some(
      (check: Validator<unknown>) => check.check([' '] as never) !== undefined,
    );
    if (!refused) taking.push(path);
  }
  return { trimmed, taking };
}

describe('invariants: lists sent trimmed', () => {
  it('refuse an entry of white space alone at plan, on every type of both providers', () => {
    let trimmed = 0;
    const taking: string[] = [];
    for (const type of [...sec.resources, ...vdb.resources]) {
      const found = blankTaken(type.schema.fields, type.typeName);
      trimmed += found.trimmed;
      taking.push(...found.taking);
    }
    expect(taking, 'trimmed lists that take [" "]: add notBlankEntries to their checks').to.deep.equal([]);
    expect(trimmed, 'trimmed lists found').to.be.above(10);
    process.stdout.write(`      ${trimmed} lists sent trimmed, each refusing white space alone\n`);
  });
});
