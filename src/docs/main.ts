/**
 * `npm run docs`: renders the reference docs of both providers into `docs/<provider>/`.
 * `npm run docs -- --check` only reports whether the committed docs are current (exit status 1 if not).
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareTrees, generateDocs, readDocsTree, writeDocsTree, REGENERATE_COMMAND } from './generate.js';

// dist/src/docs/main.js → the repository root.
const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const docsDir = join(repoRoot, 'docs');
const check = process.argv.includes('--check');

const fresh = await generateDocs(repoRoot);
if (check) {
  const diffs = compareTrees(readDocsTree(docsDir), fresh);
  for (const d of diffs) process.stdout.write(`${d.problem}: docs/${d.path}\n`);
  if (diffs.length > 0) {
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
