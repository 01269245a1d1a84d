/**
 * The generated reference docs as a whole: rendering every provider of the repository
 * (src/providers/project.ts) into one tree of pages (`docs/<provider>/...`), reading the committed
 * tree, comparing the two, and writing a fresh rendering over the committed one.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { PROJECT_PROVIDERS } from '../providers/project.js';
import { renderProviderDocs, type DocTree } from './render.js';

/** The providers that get docs, each under `docs/<name>/`: every provider the repository builds. */
export const DOC_PROVIDERS: readonly string[] = PROJECT_PROVIDERS.map((p) => p.name);

/** The command that regenerates the committed docs. */
export const REGENERATE_COMMAND = 'npm run build && npm run docs';

/** Renders every provider's pages; paths are relative to `docs/`. */
export async function generateDocs(repoRoot: string): Promise<DocTree> {
  const readFile = (rel: string): string | undefined => {
    const p = join(repoRoot, rel);
    return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
  };
  const tree: DocTree = new Map();
  for (const provider of PROJECT_PROVIDERS) {
    for (const [path, text] of renderProviderDocs(await provider.definition(), { readFile })) tree.set(path, text);
  }
  return tree;
}

/** The committed pages under `docs/<provider>/` (Markdown files only), paths relative to `docs/`. */
export function readDocsTree(docsDir: string): DocTree {
  const tree: DocTree = new Map();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.md')) tree.set(relative(docsDir, p).split(sep).join('/'), readFileSync(p, 'utf8'));
    }
  };
  for (const name of DOC_PROVIDERS) if (existsSync(join(docsDir, name))) walk(join(docsDir, name));
  return new Map([...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface TreeDifference {
  path: string;
  problem: 'missing' | 'stale' | 'changed';
}

/** What differs between the committed tree and a fresh rendering. */
export function compareTrees(committed: DocTree, fresh: DocTree): TreeDifference[] {
  const out: TreeDifference[] = [];
  for (const [path, text] of fresh) {
    const have = committed.get(path);
    if (have === undefined) out.push({ path, problem: 'missing' });
    else if (have !== text) out.push({ path, problem: 'changed' });
  }
  for (const path of committed.keys()) if (!fresh.has(path)) out.push({ path, problem: 'stale' });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Makes `docs/<provider>/` hold exactly the fresh pages: writes changed ones, removes stale ones. */
export function writeDocsTree(docsDir: string, fresh: DocTree): TreeDifference[] {
  const diffs = compareTrees(readDocsTree(docsDir), fresh);
  for (const d of diffs) {
    const p = join(docsDir, d.path);
    if (d.problem === 'stale') {
      rmSync(p);
      continue;
    }
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, fresh.get(d.path)!);
  }
  return diffs;
}
