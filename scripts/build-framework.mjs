#!/usr/bin/env node
// Builds the framework package (packages/framework): its entry points (packages/framework/src/index.ts,
// testing.ts, release/index.ts and the release command, release/cli.ts) and every module they reach, compiled with their declarations into
// packages/framework/dist by its own tsconfig; the protocol's generated messages, which
// scripts/build-proto.mjs writes beside the compiled server, copied in beside theirs; the release's
// loader scripts (bin/); the licence; the guide and the API reference (docs/framework), so that the
// tarball an author installs holds them (dist/docs/).
//
// Usage: node scripts/build-framework.mjs   (after tsc and build-proto; part of `npm run build`)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const packageDir = join(root, 'packages', 'framework');
const out = join(packageDir, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.json')], { stdio: 'inherit' });
for (const generated of ['tfplugin6-messages', 'go-plugin-messages']) {
  copyFileSync(
    join(root, 'dist', 'packages', 'framework', 'src', 'server', `${generated}.js`),
    join(out, 'server', `${generated}.js`),
  );
  copyFileSync(join(packageDir, 'src', 'server', `${generated}.d.ts`), join(out, 'server', `${generated}.d.ts`));
}
// The release's loader scripts, beside the release modules that ship them, in the package and in the
// repository's own build (packages/framework/src/release/launchers.ts reads them there).
for (const script of ['start-bundle.cjs', 'start-windows.cjs']) {
  copyFileSync(join(root, 'bin', script), join(out, 'release', script));
  copyFileSync(join(root, 'bin', script), join(root, 'dist', 'packages', 'framework', 'src', 'release', script));
}
copyFileSync(join(root, 'LICENSE'), join(packageDir, 'LICENSE'));
mkdirSync(join(out, 'docs'));
for (const page of ['first-provider.md', 'api.md'])
  copyFileSync(join(root, 'docs', 'framework', page), join(out, 'docs', page));
