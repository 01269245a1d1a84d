#!/usr/bin/env node
// The repository's compile (`npm run build`'s tsc step), incremental: tsc keeps a record of what it
// wrote (dist/.tsbuildinfo, tsconfig.json) and compiles again only what changed since. The record says
// what was written, not what is there: an output deleted by hand while the record stays would never be
// written again. So a source whose output is missing voids the record first, and everything compiles.
// Usage: node scripts/compile.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RECORD = join(ROOT, 'dist', '.tsbuildinfo');
/** tsconfig.json's `include`, as folders. */
const SOURCES = ['src', 'test', 'scripts', 'packages/framework/src'];

function* sources(folder) {
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

if (existsSync(RECORD)) {
  const missing = SOURCES.flatMap((folder) => [...sources(folder)]).find(
    (source) => !existsSync(join(ROOT, 'dist', source.replace(/\.ts$/, '.js'))),
  );
  if (missing !== undefined) {
    console.log(`compile: ${missing} has no output in dist/; compiling everything`);
    rmSync(RECORD);
  }
}
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.json')], { stdio: 'inherit' });
process.exit(compiled.status ?? 1);
