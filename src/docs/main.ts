/**
 * `npm run docs`: renders the reference docs of both providers into `docs/<provider>/`, and the tables of
 * hand-written pages made from the API contracts (docs/api/vdb.md and docs/api/sec.md, "Field rules"), the
 * framework's API reference (docs/framework/api.md) and its guide's files (docs/framework/first-provider.md).
 * `npm run docs -- --check` only reports whether the committed docs are current (exit status 1 if not).
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { replaceMarkedBlock } from './api-rules.js';
import { compareTrees, generateDocs, readDocsTree, writeDocsTree, REGENERATE_COMMAND } from './generate.js';
import { SEC_API_PAGE, SEC_FIELD_RULES_BLOCK, secFieldRulesBlock } from './sec-field-rules.js';
import { VDB_API_PAGE, VDB_FIELD_RULES_BLOCK, vdbFieldRulesBlock } from './vdb-field-rules.js';
import { VDB_VALIDATION_EXAMPLE_BLOCK, vdbValidationExampleBlock } from './vdb-validation-example.js';
import { firstProviderBlocks } from './framework-guide.js';
import { FRAMEWORK_API_PAGE, frameworkApiPage } from './framework-api.js';

// dist/src/docs/main.js → the repository root.
const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const docsDir = join(repoRoot, 'docs');
const check = process.argv.includes('--check');

const fresh = await generateDocs(repoRoot);
// Tables of hand-written pages made from the contracts (src/docs/api-rules.ts): a page, its block, the text.
const blocks = [
  { page: VDB_API_PAGE, name: VDB_FIELD_RULES_BLOCK, text: vdbFieldRulesBlock() },
  { page: VDB_API_PAGE, name: VDB_VALIDATION_EXAMPLE_BLOCK, text: vdbValidationExampleBlock() },
  { page: SEC_API_PAGE, name: SEC_FIELD_RULES_BLOCK, text: secFieldRulesBlock() },
  // The framework's guide shows the example provider's files (src/docs/framework-guide.ts).
  ...firstProviderBlocks(repoRoot),
];
const staleBlocks = blocks.filter(({ page, name, text }) => {
  const held = readFileSync(join(repoRoot, page), 'utf8');
  const current = replaceMarkedBlock(held, name, text);
  if (current !== held && !check) writeFileSync(join(repoRoot, page), current);
  return current !== held;
});
for (const { page, name } of staleBlocks) process.stdout.write(`${check ? 'changed' : 'updated'}: ${page} (${name})\n`);
// Whole pages made from the code: the framework's API reference (src/docs/framework-api.ts).
const pages = [{ page: FRAMEWORK_API_PAGE, text: frameworkApiPage(repoRoot) }];
const stalePages = pages.filter(({ page, text }) => {
  const held = existsSync(join(repoRoot, page)) ? readFileSync(join(repoRoot, page), 'utf8') : '';
  if (held !== text && !check) writeFileSync(join(repoRoot, page), text);
  return held !== text;
});
for (const { page } of stalePages) process.stdout.write(`${check ? 'changed' : 'updated'}: ${page}\n`);
if (check) {
  const diffs = compareTrees(readDocsTree(docsDir), fresh);
  for (const d of diffs) process.stdout.write(`${d.problem}: docs/${d.path}\n`);
  if (diffs.length > 0 || staleBlocks.length > 0 || stalePages.length > 0) {
    process.stdout.write(`docs/ is out of date; run: ${REGENERATE_COMMAND}\n`);
    process.exit(1);
  }
  process.stdout.write(`docs/ is up to date (${fresh.size} pages)\n`);
} else {
  const diffs = writeDocsTree(docsDir, fresh);
  for (const d of diffs)
    process.stdout.write(
      `${d.problem === 'stale' ? 'removed' : d.problem === 'missing' ? 'created' : 'updated'}: docs/${d.path}\n`,
    );
  process.stdout.write(`${fresh.size} pages in docs/ (${diffs.length} changed)\n`);
}
