#!/usr/bin/env node
// Lets the repository's own build reach the framework by the package's name, as any author does: sec and vdb
// import `@keel/provider-framework` (and its other entry points), never a module behind them. TypeScript finds
// the name's source by tsconfig.json's `paths`; at run time Node (and esbuild, bundling the executables) finds
// dist/node_modules/@keel/provider-framework, written here: the package's own package.json, with each entry
// point a module that re-exports the entry compiled into dist/packages/framework/src. The tests that look
// inside the framework import those same compiled modules by path, so one instance of each module serves
// both (an ApiError made by a test is the class a provider checks against).
//
// Usage: node scripts/framework-link.mjs   (after tsc; part of `npm run build`)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'packages', 'framework', 'package.json'), 'utf8'));
const link = join(root, 'dist', 'node_modules', ...manifest.name.split('/'));
const compiled = join(root, 'dist', 'packages', 'framework', 'src');

// The compiled source is the package's code as it ships, so it says what the package's manifest says of it:
// ES modules, free of side effects (the bundler then leaves out what a bundle does not use, as it does for
// an author's provider built on the package).
writeFileSync(
  join(compiled, '..', 'package.json'),
  `${JSON.stringify({ type: manifest.type, sideEffects: manifest.sideEffects }, null, 2)}\n`,
);
rmSync(link, { recursive: true, force: true });
mkdirSync(link, { recursive: true });
const { name, version, type, exports, sideEffects } = manifest;
writeFileSync(
  join(link, 'package.json'),
  `${JSON.stringify({ name, version, type, exports, sideEffects }, null, 2)}\n`,
);
for (const [entry, target] of Object.entries(exports)) {
  if (typeof target === 'string') continue; // ./package.json
  const shipped = target.default; // ./dist/<module>.js
  const source = join(compiled, shipped.replace(/^\.\/dist\//, ''));
  const file = join(link, shipped);
  mkdirSync(dirname(file), { recursive: true });
  const from = relative(dirname(file), source).replaceAll('\\', '/');
  writeFileSync(file, `// ${name}${entry.slice(1)}: the repository's build of it.\nexport * from '${from}';\n`);
}
