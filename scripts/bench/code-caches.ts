/**
 * The providers a benchmark starts must load their bundles with code caches the Node that runs them
 * accepts: V8 rejects a cache another Node release made without a word, and every start then compiles
 * the bundles from source, which is not what users run. Before measuring, each provider is started
 * once with the loader's own report (KEEL_CODE_CACHE_REPORT, bin/start-bundle.cjs) on the `node` the
 * benchmark's PATH gives it; caches that are not accepted are made again with that Node (the build's
 * warm-up, scripts/bundle.mjs), and a benchmark whose caches are still refused does not run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_PROVIDERS } from '../../src/providers/project.js';
import { REPO_ROOT, bin } from './util.js';

/** The loader's verdict on each provider's start-up bundle, e.g. `sec: accepted`. */
function verdicts(): string[] {
  return PROJECT_PROVIDERS.map(({ name }) => {
    const run = spawnSync(bin(name), [], {
      env: { ...process.env, KEEL_CODE_CACHE_REPORT: '1' },
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 30_000,
    });
    const verdict = /^keel code cache: [^:]+: (.+)$/m.exec(run.stderr ?? '')?.[1] ?? 'not reported';
    return `${name}: ${verdict}`;
  });
}

const nodeOnPath = () => execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();

/** Makes sure the providers start with accepted caches, saying which Node judged them. */
export function ensureCodeCaches(): void {
  const node = nodeOnPath();
  let found = verdicts();
  if (found.every((v) => v.endsWith(': accepted'))) {
    console.log(`code caches: accepted by node ${node}, which runs the providers`);
    return;
  }
  console.log(
    `code caches: ${found.join(', ')} by node ${node}, which runs the providers; making them again with it ` +
      '(node scripts/bundle.mjs)',
  );
  execFileSync('node', [join(REPO_ROOT, 'scripts', 'bundle.mjs')], { stdio: 'inherit', cwd: REPO_ROOT });
  found = verdicts();
  if (!found.every((v) => v.endsWith(': accepted')))
    throw new Error(`code caches still not accepted by node ${node} (${found.join(', ')}): not measuring`);
  console.log(`code caches: made again and accepted by node ${node}`);
}
