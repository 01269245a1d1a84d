/**
 * `npm run release [-- --platform P ...] [--out DIR]`: builds the release for every platform (or those
 * named: `--platform linux_amd64 --platform darwin_arm64`, or `--platform linux_amd64,darwin_arm64`)
 * under dist/release (or DIR). See ./build.ts and docs/releases.md.
 */
import { join } from 'node:path';
import { REPO_ROOT, buildRelease } from './build.js';
import { PLATFORMS, parsePlatforms } from './runtimes.js';

const USAGE = `usage: npm run release [-- [--platform P[,P...]]... [--out DIR]]\n  platforms: ${PLATFORMS.join(', ')}\n`;

function fail(message: string, code: number): never {
  process.stderr.write(message);
  process.exit(code);
}

const args = process.argv.slice(2);
let outDir = join(REPO_ROOT, 'dist', 'release');
const named: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
  const option = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
  if ((option === '--platform' || option === '--out') && value === undefined) fail(USAGE, 2);
  if (option === '--platform') named.push(value!);
  else if (option === '--out') outDir = value!;
  else fail(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`, 2);
  if (!arg.includes('=')) i++;
}
let platforms: ReturnType<typeof parsePlatforms>;
try {
  platforms = parsePlatforms(named);
} catch (error) {
  fail(`release: ${(error as Error).message}\n`, 2);
}
try {
  const result = await buildRelease({ outDir, platforms });
  const archives = [...result.providers, ...result.emulators].flatMap((set) => set.archives);
  console.log(
    `release of ${result.platforms.join(', ')} in ${result.outDir}: ${archives.length} archives ` +
      `(${result.providers.length} providers, ${result.emulators.length} emulators); ${result.seconds.toFixed(1)} s`,
  );
} catch (error) {
  fail(`release failed: ${error instanceof Error ? error.message : String(error)}\n`, 1);
}
