/**
 * The framework's API reference (docs/framework/api.md, generated from the declarations the package
 * ships) speaks to an author who has the package, not this repository: the comments' citations of the
 * repository's files (which a contributor follows) are left out of it, and nothing else of it is lost.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withoutCitations } from '../../src/docs/framework-api.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('docs: the framework API reference', () => {
  it('cites no file of the repository, which the package does not ship', () => {
    const page = readFileSync(join(ROOT, 'docs/framework/api.md'), 'utf8');
    const cited = [
      ...page.matchAll(/\(([^()`]*[^`\w/-])?((?:src|docs|engine|schema|server|wire|creates|plan)\/[\w./-]+)/g),
    ];
    expect(cited.map((m) => m[2])).to.deep.equal([]);
    expect(page).to.not.match(/\(\.\/[\w-]+\.ts/);
  });

  it('leaves out a citation whole, keeps the sentence and what is in backticks', () => {
    expect(withoutCitations('refused at plan (engine/plan/validate.ts).')).to.equal('refused at plan.');
    expect(withoutCitations('as it is (the property tests, src/schema/samples.ts) here')).to.equal('as it is here');
    expect(withoutCitations(' * not mark it\n * (docs/decisions.md, "Credentials are sensitive"): a value')).to.equal(
      ' * not mark it: a value',
    );
    expect(withoutCitations('one a file (`M src/x.ts`, `?? notes.txt`)')).to.equal(
      'one a file (`M src/x.ts`, `?? notes.txt`)',
    );
    expect(withoutCitations('a list (a set, or a map)')).to.equal('a list (a set, or a map)');
  });
});
