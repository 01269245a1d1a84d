// `npm run --silent test-node`: prints the folder of the Node the releases carry (the version and
// integrity pinned in packages/framework/src/release/runtimes.ts), for this machine's platform, fetching it first
// with npm pack and checking it against its pin. `.ci/run` puts that folder first on PATH, so the
// build, the tests and every provider process they start run on the Node users get, whatever Node
// the machine has. Plain JavaScript, as it runs before the build: the release scripts' pin and
// platform name are bundled on the fly by esbuild, so each has one home.
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

try {
  // Beside node_modules, so the bundle's own imports (tar) resolve from the checkout.
  const bundle = join(root, 'node_modules', '.cache', 'keel-test-node', 'runtimes.mjs');
  mkdirSync(dirname(bundle), { recursive: true });
  await build({
    stdin: {
      contents:
        "export * from './packages/framework/src/release/runtimes.ts'; export { hostPlatform } from './packages/framework/src/release/runners.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: bundle,
    logLevel: 'error',
  });
  const { NODE_VERSION, hostPlatform, loadRuntime, runtimeCacheDir } = await import(pathToFileURL(bundle).href);
  const platform = hostPlatform();
  if (!platform) throw new Error(`no pinned Node for ${process.platform}/${process.arch}`);
  const bin = join(runtimeCacheDir(), `node-${NODE_VERSION}-${platform}`, 'bin');
  const node = join(bin, platform.startsWith('windows') ? 'node.exe' : 'node');
  if (!existsSync(node)) {
    const runtime = await loadRuntime(platform, { log: (line) => process.stderr.write(`${line}\n`) });
    mkdirSync(bin, { recursive: true });
    // Written aside and renamed, so a run cut short never leaves half an executable.
    writeFileSync(`${node}.partial`, runtime.node);
    chmodSync(`${node}.partial`, 0o755);
    renameSync(`${node}.partial`, node);
  }
  process.stdout.write(`${bin}\n`);
} catch (error) {
  process.stderr.write(`test-node: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
