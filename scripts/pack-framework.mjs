#!/usr/bin/env node
// Packs the framework package (packages/framework, built by `npm run build`) as npm would publish it,
// into dist/packages/ (or the folder given), and prints what the tarball holds: its files by folder,
// its size and unpacked size. The last line is the tarball's path.
//
// Usage: npm run pack-framework [-- <destination folder>]
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const destination = resolve(process.argv[2] ?? join(root, 'dist', 'packages'));
mkdirSync(destination, { recursive: true });
const npm = process.env.npm_execpath
  ? [process.execPath, [process.env.npm_execpath]]
  : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
const [command, prefix] = npm;
const answer = execFileSync(
  command,
  [...prefix, 'pack', '--workspace', 'packages/framework', '--pack-destination', destination, '--json'],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const [packed] = JSON.parse(answer);
const byFolder = new Map();
for (const file of packed.files) {
  const folder = file.path.includes('/') ? file.path.split('/').slice(0, 2).join('/') : '.';
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
}
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
  `${packed.id}: ${packed.entryCount} files, ${kib(packed.size)} packed, ${kib(packed.unpackedSize)} unpacked`,
);
for (const [folder, count] of [...byFolder].sort()) console.log(`  ${folder.padEnd(20)} ${count}`);
console.log(join(destination, packed.filename));
