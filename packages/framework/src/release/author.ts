/**
 * An author's provider as a release takes it: the built module that calls `serve` (the package's
 * `main`, or the one named), asked for its source address and version (`--describe`), bundled into
 * one file with everything it imports (./bundle.ts), with the licences of the npm packages bundled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { type ProviderRelease, NOTICES_PREFACE, packageFile } from './build.js';
import { bundleProvider, thirdPartyNotices } from './bundle.js';

export interface AuthorProvider {
  /** The folder of the provider's package.json. */
  readonly packageDir: string;
  /** Its built entry module; default: the package's `main`. */
  readonly entry?: string;
  /** A folder of reference pages to ship instead of those the provider writes from its declarations. */
  readonly pagesDir?: string;
}

/** What `<entry> --describe` prints (packages/framework/src/server/main.ts). */
interface Described {
  readonly hostname: string;
  readonly namespace: string;
  readonly name: string;
  readonly version: string;
}

/** The release of an author's provider: bundled, described by itself, its pages made from its examples/. */
export async function authorRelease(author: AuthorProvider): Promise<ProviderRelease> {
  const packageDir = resolve(author.packageDir);
  const entry = builtEntry(packageDir, author.entry);
  const described = describe(entry);
  const staging = mkdtempSync(join(tmpdir(), 'keel-bundle-'));
  try {
    const bundle = await bundleProvider(entry, join(staging, `terraform-provider-${described.name}.cjs`));
    return {
      ...described,
      files: [packageFile(`dist/bundle/terraform-provider-${described.name}.cjs`, readFileSync(bundle.file))],
      launch: { handOverTrust: false, nodeOptions: [] },
      warmUp: { env: {}, configure: false },
      notices: thirdPartyNotices(bundle.packages, NOTICES_PREFACE),
      ...(author.pagesDir ? { pagesDir: resolve(packageDir, author.pagesDir) } : {}),
      ...(existsSync(join(packageDir, 'examples')) ? { examplesDir: join(packageDir, 'examples') } : {}),
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The provider's built module that calls `serve` (`entryName`, or the package's `main`), refused
 * when missing or older than a source, so that what is made from it is made from the sources as they are.
 */
export function builtEntry(packageDir: string, entryName?: string): string {
  const manifest = join(packageDir, 'package.json');
  if (!existsSync(manifest))
    throw new Error(`${packageDir} holds no package.json: run the release in your provider's folder`);
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string };
  const name = entryName ?? pkg.main;
  if (!name)
    throw new Error(`name the module that calls serve(): "main" in ${manifest}, or --entry <file> (after your build)`);
  const entry = resolve(packageDir, name);
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: build the provider first`);
  const changed = changedSinceBuilt(packageDir, entry);
  if (changed)
    throw new Error(
      `${changed} changed after ${name} was built, so what is made from it would be the build before: ` +
        'build the provider (npm run build) first',
    );
  return entry;
}

function describe(entry: string): Described {
  const run = spawnSync(process.execPath, [entry, '--describe'], {
    cwd: dirname(entry),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 60_000,
  });
  const line = run.stdout?.trim().split('\n').pop() ?? '';
  try {
    const described = JSON.parse(line) as Described;
    if (described.name && described.namespace && described.version) return described;
  } catch {
    // Reported below.
  }
  throw new Error(
    `${entry} --describe did not say which provider it serves (is it the module that calls serve()?)` +
      `${run.stderr ? `:\n${run.stderr.trim()}` : ''}`,
  );
}

const SOURCE_FILE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;

/**
 * A source of the provider newer than its built entry, if one is: the sources are the TypeScript
 * project's `rootDir` (tsconfig.json), or `src/` where it names none. A build writes every output
 * anew, so a source newer than the entry was changed after the last build.
 */
function changedSinceBuilt(packageDir: string, entry: string): string | undefined {
  const root = join(packageDir, sourceRootOf(packageDir));
  if (!existsSync(root) || resolve(root) === packageDir) return undefined;
  const built = statSync(entry).mtimeMs;
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(root, file);
    if (SOURCE_FILE.test(file) && !file.split(/[\\/]/).includes('node_modules') && statSync(path).mtimeMs > built)
      return relative(packageDir, path);
  }
  return undefined;
}

function sourceRootOf(packageDir: string): string {
  try {
    const config = JSON.parse(readFileSync(join(packageDir, 'tsconfig.json'), 'utf8')) as {
      compilerOptions?: { rootDir?: string };
    };
    return config.compilerOptions?.rootDir ?? 'src';
  } catch {
    return 'src';
  }
}
