/**
 * docs/api/vdb.md states the field rules of proto/vdb as `npm run docs` writes them from the build's
 * table of annotations, so that a rule changed in a .proto fails here until the page says it too; and
 * the generic block and table helpers (src/docs/api-rules.ts) the pages of both providers use.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markedBlock, renderRuleTable, replaceMarkedBlock } from '../../src/docs/api-rules.js';
import { REGENERATE_COMMAND } from '../../src/docs/generate.js';
import { SEC_API_PAGE, SEC_FIELD_RULES_BLOCK, secFieldRulesBlock } from '../../src/docs/sec-field-rules.js';
import { VDB_API_PAGE, VDB_FIELD_RULES_BLOCK, vdbFieldRulesBlock } from '../../src/docs/vdb-field-rules.js';
import { VDB_VALIDATION_EXAMPLE_BLOCK, vdbValidationExampleBlock } from '../../src/docs/vdb-validation-example.js';
import { MAX_QUOTED_CHARACTERS, MAX_REPORTED_VIOLATIONS } from '../../src/emulators/vdb/limits.js';
import { secRuleNames } from '../../src/resources/sec/rules.js';
import { apiRuleNames } from '../../src/resources/vdb/rules.js';

describe('docs: the API field rules come from the contract', () => {
  it(`${VDB_API_PAGE} holds the table of proto/vdb's rules as generation writes it`, () => {
    const page = readFileSync(join(process.cwd(), VDB_API_PAGE), 'utf8');
    const fresh = vdbFieldRulesBlock();
    expect(markedBlock(page, VDB_FIELD_RULES_BLOCK), `the rules changed; run: ${REGENERATE_COMMAND}`).to.equal(
      `\n${fresh}\n`,
    );
    // Every field of the table has its row (one row holds all of a field's rules).
    const fields = new Set(apiRuleNames().map((name) => name.split('#')[0]!.slice('vdb.cloud.'.length)));
    for (const field of fields) expect(fresh).to.include(`| \`${field}\` |`);
  });

  it(`${SEC_API_PAGE} holds the table of sec's contract as generation writes it`, () => {
    const page = readFileSync(join(process.cwd(), SEC_API_PAGE), 'utf8');
    const fresh = secFieldRulesBlock();
    expect(markedBlock(page, SEC_FIELD_RULES_BLOCK), `the rules changed; run: ${REGENERATE_COMMAND}`).to.equal(
      `\n${fresh}\n`,
    );
    // Every field with a rule of its own has its row.
    const fields = new Set(secRuleNames().map((name) => name.split('#')[0]!));
    for (const field of fields) expect(fresh).to.include(`| \`${field}\` |`);
  });

  it("the page's example of a validation error is the emulator's answer, from the rules as they are", () => {
    const page = readFileSync(join(process.cwd(), VDB_API_PAGE), 'utf8');
    const fresh = vdbValidationExampleBlock();
    expect(markedBlock(page, VDB_VALIDATION_EXAMPLE_BLOCK), `run: ${REGENERATE_COMMAND}`).to.equal(`\n${fresh}\n`);
    // It shows both broken fields, each with its rule's words and id.
    expect(fresh).to.match(/number_of_nodes: must be greater than or equal to \d+ and less than or equal to \d+/);
    expect(fresh).to.include('cluster.labels[0].key:');
  });

  it("the page's bounds of an error answer are the emulator's (src/emulators/vdb/limits.ts)", () => {
    const page = readFileSync(join(process.cwd(), VDB_API_PAGE), 'utf8');
    const listed = /At most (\d+)\s+violations are listed/.exec(page)?.[1];
    const quoted = /quoted\s+back cut to (\d+) characters/.exec(page)?.[1];
    expect([Number(listed), Number(quoted)]).to.deep.equal([MAX_REPORTED_VIOLATIONS, MAX_QUOTED_CHARACTERS]);
  });

  it('a block is replaced between its markers, and a page without them fails', () => {
    const page = 'intro\n<!-- generated: t -->\nold\n<!-- end generated -->\nafter\n';
    expect(replaceMarkedBlock(page, 't', 'new\n')).to.equal(
      'intro\n<!-- generated: t -->\nnew\n\n<!-- end generated -->\nafter\n',
    );
    expect(markedBlock(replaceMarkedBlock(page, 't', 'new'), 't')).to.equal('\nnew\n\n');
    expect(() => replaceMarkedBlock('no markers', 't', 'x')).to.throw(/<!-- generated: t -->/);
    expect(() => replaceMarkedBlock('<!-- generated: t -->', 't', 'x')).to.throw(/end generated/);
  });

  it('a table row escapes the pipes of a pattern and says why a rule is not checked', () => {
    const table = renderRuleTable([
      { field: 'a.v1.M.name', rules: 'string: pattern `^(a|b)$`', checkedAtPlan: true },
      { field: 'a.v1.M.size', rules: 'int32: lte 5', checkedAtPlan: 'not `int32`: the provider sets it' },
    ]);
    expect(table.split('\n')).to.deep.equal([
      '| Field | Rules | Checked at plan |',
      '|---|---|---|',
      '| `a.v1.M.name` | string: pattern `^(a\\|b)$` | yes |',
      '| `a.v1.M.size` | int32: lte 5 | not `int32`: the provider sets it |',
      '',
    ]);
  });
});
