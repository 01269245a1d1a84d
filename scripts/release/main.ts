/**
 * `npm run release [-- --out DIR]`: builds the release for this machine's platform under dist/release
 * (or DIR). See ./build.ts and the README's "Installing".
 */
import { join } from 'node:path';
import { REPO_ROOT, buildRelease } from './build.js';

const args = process.argv.slice(2);
let outDir = join(REPO_ROOT, 'dist', 'release');
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out' && args[i + 1]) outDir = args[++i]!;
  else {
    process.stderr.write('usage: npm run release [-- --out DIR]\n');
    process.exit(2);
  }
}
try {
  const result = await buildRelease({ outDir });
  console.log(
    `release for ${result.platform} in ${result.outDir}: ` +
      `${result.providers.length} providers, ${result.emulators.length} emulators, ` +
      `Node ${result.runtime.version} runtime (${(result.runtime.bytes / 1048576).toFixed(1)} MiB) in each archive; ` +
      `${result.seconds.toFixed(1)} s`,
  );
} catch (error) {
  process.stderr.write(`release failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
