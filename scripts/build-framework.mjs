#!/usr/bin/env node
// Builds the framework package (packages/framework): its two entry points (src/framework/index.ts,
// testing.ts) and every module they reach, compiled with their declarations into
// packages/framework/dist by its own tsconfig; the protocol's generated messages, which
// scripts/build-proto.mjs writes beside the compiled server, copied in beside theirs; the licence.
//
// Usage: node scripts/build-framework.mjs   (after tsc and build-proto; part of `npm run build`)
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const packageDir = join(root, 'packages', 'framework');
const out = join(packageDir, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.json')], { stdio: 'inherit' });
for (const generated of ['tfplugin6-messages', 'go-plugin-messages']) {
  copyFileSync(join(root, 'dist', 'src', 'server', `${generated}.js`), join(out, 'server', `${generated}.js`));
  copyFileSync(join(root, 'src', 'server', `${generated}.d.ts`), join(out, 'server', `${generated}.d.ts`));
}
copyFileSync(join(root, 'LICENSE'), join(packageDir, 'LICENSE'));
