/**
 * A provider as the release ships it: one CommonJS bundle of the author's entry module and everything
 * it imports (esbuild), in the shape bin/start-bundle.cjs loads with V8's code cache: a function
 * expression in CommonJS's module-wrapper shape, ASCII only, opening with its build id (a hash of its
 * bytes, which keys its cache: V8 checks a cache against its source's length only). The repository's
 * sec and vdb bundles (scripts/bundle.mjs) take the same shape from here.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { releaseTools } from './release-tools.js';

/** The place of the build id in a bundle's first bytes, before it is filled in. */
export const BUILD_ID_MARK = `/*keel-build:${'0'.repeat(16)}*/`;

/** What a bundle opens and closes with (esbuild's banner and footer). */
export const BUNDLE_BANNER =
  `${BUILD_ID_MARK}(function (exports, require, module, __filename, __dirname) { var __bundleDir = __dirname; ` +
  "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;";
export const BUNDLE_FOOTER = '})';

/** `contents` with its build id written into BUILD_ID_MARK. */
export function withBuildId(contents: Uint8Array): Buffer {
  const text = Buffer.from(contents);
  if (!text.subarray(0, BUILD_ID_MARK.length).equals(Buffer.from(BUILD_ID_MARK)))
    throw new Error('bundle: build id mark missing');
  const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
  text.write(id, '/*keel-build:'.length, 'latin1');
  return text;
}

/** A bundled provider: its file and the npm packages (their folders) whose code it holds. */
export interface BundledProvider {
  readonly file: string;
  readonly packages: readonly string[];
}

/**
 * Bundles `entry` (the author's built module that calls `serve`) into `outfile`. esbuild is loaded
 * here, when a release is made: a provider that only serves never needs it (./release-tools.ts).
 */
export async function bundleProvider(entry: string, outfile: string): Promise<BundledProvider> {
  const { build } = await releaseTools.esbuild();
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    define: { 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__bundleDir' },
    banner: { js: BUNDLE_BANNER },
    footer: { js: BUNDLE_FOOTER },
    charset: 'ascii',
    logLevel: 'silent',
    write: false,
    metafile: true,
    legalComments: 'none',
    minifyWhitespace: true,
    mainFields: ['module', 'main'],
  }).catch((error: { errors?: { text: string; location?: { file: string; line: number } | null }[] }) => {
    const problems = (error.errors ?? []).map(
      (e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`,
    );
    throw new Error(`cannot bundle ${entry}:\n  ${problems.join('\n  ') || String(error)}`);
  });
  const output = result.outputFiles.find((file) => file.path === resolve(outfile))!;
  writeFileSync(outfile, withBuildId(output.contents));
  return { file: outfile, packages: packagesOf(Object.keys(result.metafile.inputs)) };
}

/**
 * The npm packages' folders among esbuild's inputs (paths relative to the working directory). An input in
 * a plugin's namespace (`keel-service:…`) is no file: it stands for a module another bundle holds.
 */
export function packagesOf(inputs: readonly string[]): string[] {
  const packages = new Set<string>();
  for (const input of inputs) {
    if (/^[\w-]{2,}:/.test(input)) continue;
    const path = resolve(input).split('\\').join('/');
    const at = path.lastIndexOf('/node_modules/');
    if (at < 0) continue;
    const [first, second] = path.slice(at + '/node_modules/'.length).split('/');
    packages.add(path.slice(0, at + '/node_modules/'.length) + (first!.startsWith('@') ? `${first}/${second}` : first));
  }
  return [...packages].sort();
}

/**
 * The licence of every npm package a bundle holds, in name order, after `preface`: what a release
 * carries as THIRD_PARTY_NOTICES.txt.
 */
export function thirdPartyNotices(packageDirs: readonly string[], preface: string): string {
  const sections = packageDirs.map((packageDir) => {
    const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenseFile = readdirSync(packageDir)
      .sort()
      .find((file) => /^(licen[cs]e|copying)/i.test(file));
    const text = licenseFile
      ? readFileSync(join(packageDir, licenseFile), 'utf8').trim()
      : `(no licence file; package.json says: ${pkg.license ?? 'nothing'})`;
    return {
      key: `${pkg.name}@${pkg.version}`,
      text: `${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n\n${text}\n`,
    };
  });
  sections.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rule = `\n${'-'.repeat(78)}\n\n`;
  return `${preface}${rule}${sections.map((s) => s.text).join(rule)}`;
}
