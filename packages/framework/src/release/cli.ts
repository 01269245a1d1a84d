#!/usr/bin/env node
/**
 * `keel-provider release`: the framework package's command that releases a provider (./build.ts);
 * `keel-provider docs`: writes its reference pages into the repository's docs/ (./pages.ts).
 *
 *   keel-provider release [--entry FILE] [--pages DIR] [--out DIR] [--platform P[,P...]]...
 *                         [--require-code-caches] [--config MODULE]
 *   keel-provider docs [--entry FILE] [--examples DIR] [--out DIR]
 *
 * (`--platform host`: this machine's platform alone.)
 *
 * In a provider's folder, after its build: bundles the module that calls `serve` (the package's
 * `main`, or `--entry`), and writes the release under `--out` (default: release/). `--config` names a
 * module whose default export (a function, awaited) gives the providers and emulators to release
 * instead, as the framework's own repository does for sec and vdb.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { authorRelease, builtEntry } from './author.js';
import { buildRelease, SIGNING_KEY_VARIABLE, type EmulatorRelease, type ProviderRelease } from './build.js';
import { requireReleaseTools } from './release-tools.js';
import { currentPlatform } from './runners.js';
import { PLATFORMS, parsePlatforms } from './runtimes.js';
import { sourceState } from './source.js';

const USAGE =
  'usage: keel-provider docs [--entry FILE] [--examples DIR] [--out DIR]\n' +
  "  writes the registry's pages into --out (default: docs), with examples from --examples (default: examples)\n" +
  'usage: keel-provider release [--entry FILE] [--pages DIR] [--out DIR] [--platform P[,P...]]... ' +
  '[--require-code-caches] [--config MODULE]\n' +
  `  platforms: ${PLATFORMS.join(', ')} (default: all), or host (this machine's)\n` +
  `  signs SHA256SUMS with the gpg key ${SIGNING_KEY_VARIABLE} names, when set\n`;

/** What a `--config` module's default export gives. */
export interface ReleaseConfig {
  readonly providers: readonly ProviderRelease[];
  readonly emulators?: readonly EmulatorRelease[];
  /** The folder whose source state the manifest records; default: the working directory. */
  readonly sourceDir?: string;
}

function fail(message: string, code: number): never {
  process.stderr.write(message);
  process.exit(code);
}

const VALUED = new Set(['--entry', '--pages', '--out', '--platform', '--config', '--examples']);

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command !== 'release' && command !== 'docs') fail(USAGE, 2);
  const values = new Map<string, string[]>();
  let requireCodeCaches = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [option, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    if (option === '--require-code-caches' && inline === undefined) {
      requireCodeCaches = true;
      continue;
    }
    if (option === '--help' || option === '-h') fail(USAGE, 0);
    if (!VALUED.has(option!)) fail(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`, 2);
    const value = inline ?? args[++i];
    if (value === undefined) fail(`${option} needs a value\n${USAGE}`, 2);
    values.set(option!, [...(values.get(option!) ?? []), value]);
  }
  const one = (option: string) => values.get(option)?.at(-1);
  if (command === 'docs') return docs(one('--entry'), one('--examples') ?? 'examples', one('--out') ?? 'docs');
  let platforms: ReturnType<typeof parsePlatforms>;
  try {
    // `host`: this machine's own platform (a release to try before building all five).
    const named = (values.get('--platform') ?? []).flatMap((value) => value.split(','));
    platforms = parsePlatforms(named.map((name) => (name.trim() === 'host' ? currentPlatform() : name)));
  } catch (error) {
    fail(`release: ${(error as Error).message}\n`, 2);
  }
  try {
    // Before anything is built: what only a release needs is the author's to install.
    await requireReleaseTools();
    const config = one('--config')
      ? await loadConfig(one('--config')!)
      : {
          providers: [
            await authorRelease({
              packageDir: process.cwd(),
              ...(one('--entry') ? { entry: one('--entry')! } : {}),
              ...(one('--pages') ? { pagesDir: one('--pages')! } : {}),
            }),
          ],
        };
    const result = await buildRelease({
      providers: config.providers,
      emulators: config.emulators ?? [],
      source: sourceState(resolve(config.sourceDir ?? process.cwd())),
      outDir: resolve(one('--out') ?? 'release'),
      platforms,
      requireCodeCaches,
    });
    const archives = [...result.providers, ...result.emulators].flatMap((set) => set.archives);
    const names = result.providers.map((set) => `${set.name} ${set.version}`).join(', ');
    console.log(
      `release of ${names} for ${result.platforms.join(', ')} in ${result.outDir}: ${archives.length} archives; ` +
        `${result.seconds.toFixed(1)} s`,
    );
  } catch (error) {
    fail(`release failed: ${error instanceof Error ? error.message : String(error)}\n`, 1);
  }
}

/** Runs the built provider with `--docs`, as the release does, into the repository's docs folder. */
function docs(entryName: string | undefined, examples: string, out: string): void {
  let entry: string;
  try {
    entry = builtEntry(process.cwd(), entryName);
  } catch (error) {
    fail(`docs: ${(error as Error).message}\n`, 1);
  }
  const examplesArgs = existsSync(examples) ? ['--examples', resolve(examples)] : [];
  const run = spawnSync(process.execPath, [entry, '--docs', resolve(out), ...examplesArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (run.status !== 0) fail(`docs: ${entry} --docs failed (does it call serve()?)\n`, 1);
  const pages = (JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { pages?: number }).pages ?? 0;
  console.log(
    `${pages} pages in ${resolve(out)}${examplesArgs.length > 0 ? '' : ` (no ${examples} folder: no example usage)`}`,
  );
}

async function loadConfig(path: string): Promise<ReleaseConfig> {
  const module = (await import(pathToFileURL(resolve(path)).href)) as { default?: () => Promise<ReleaseConfig> };
  if (typeof module.default !== 'function') throw new Error(`${path} has no default export giving the release`);
  return module.default();
}

await main(process.argv.slice(2));
