/**
 * The file blocks of docs/framework/first-provider.md ("Your first provider"): each file of the example
 * provider (examples/provider-kv) in a marked block (./api-rules.ts), so the guide shows the files the
 * example holds and CI builds. A block's info string names the file (`ts file=src/store.ts`), which
 * is how the guide's test (test/framework/first-provider.test.ts) knows where to write it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIRST_PROVIDER_PAGE = 'docs/framework/first-provider.md';
export const EXAMPLE_PROVIDER_DIR = 'examples/provider-kv';
/** The example's files, in the order the guide shows them. */
export const EXAMPLE_PROVIDER_FILES = [
  'package.json',
  'tsconfig.json',
  'src/store.ts',
  'src/entry.ts',
  'src/provider.ts',
  'src/main.ts',
  'test/unit.test.mjs',
  'test/kv.test.mjs',
  'test/steps.test.mjs',
  'examples/resources/kv_entry/resource.tf',
  'examples/resources/kv_entry/import.sh',
] as const;

const LANGUAGES: Record<string, string> = { json: 'json', ts: 'ts', mjs: 'js', tf: 'hcl', sh: 'sh' };

/** The guide's blocks: the marker's name (`kv:<file>`) and the fenced file. */
export function firstProviderBlocks(repoRoot: string): { page: string; name: string; text: string }[] {
  return EXAMPLE_PROVIDER_FILES.map((file) => {
    const content = readFileSync(join(repoRoot, EXAMPLE_PROVIDER_DIR, file), 'utf8');
    const language = LANGUAGES[file.slice(file.lastIndexOf('.') + 1)] ?? '';
    return { page: FIRST_PROVIDER_PAGE, name: `kv:${file}`, text: `\`\`\`${language} file=${file}\n${content}\`\`\`` };
  });
}
