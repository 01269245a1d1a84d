/**
 * Writes a provider's reference pages (./pages.ts) into a docs folder, as `<executable> --docs DIR`
 * and `keel-provider docs` do: the pages an earlier run wrote and the declarations no longer give are
 * removed, and a page written by hand (without the generated mark) is never touched.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProviderDef } from '../engine/contracts/index.js';
import { GENERATED_MARK, providerPages } from './pages.js';

/** The pages written, by path under `docsDir`. */
export function writeProviderPages(def: ProviderDef<any, any>, docsDir: string, examplesDir?: string): string[] {
  const readExample = (path: string) => {
    const file = examplesDir === undefined ? undefined : join(examplesDir, path);
    return file !== undefined && existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  };
  const pages = providerPages(def, readExample);
  const written = new Set(pages.map((page) => page.path));
  if (existsSync(docsDir))
    for (const path of readdirSync(docsDir, { recursive: true, encoding: 'utf8' })) {
      const file = join(docsDir, path);
      const normal = path.split(/[\\/]/).join('/');
      if (normal.endsWith('.md') && !written.has(normal) && readFileSync(file, 'utf8').includes(GENERATED_MARK))
        rmSync(file);
    }
  for (const page of pages) {
    mkdirSync(dirname(join(docsDir, page.path)), { recursive: true });
    writeFileSync(join(docsDir, page.path), page.text);
  }
  return [...written];
}
