// `node scripts/on-test-node.mjs <script> [args]`: runs a built script (a benchmark, the soak) on the
// Node the releases carry, whatever Node the machine has, as CI runs the suite: the folder
// `npm run test-node` prints (fetched once, checked against its pin) goes first on PATH, so the
// providers the script starts run on it too. Plain JavaScript, as test-node.mjs is.
import { spawn, spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const found = spawnSync(process.execPath, [join(here, 'test-node.mjs')], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (found.status !== 0) process.exit(found.status ?? 1);
const bin = found.stdout.trim();
const node = join(bin, process.platform === 'win32' ? 'node.exe' : 'node');
const child = spawn(node, process.argv.slice(2), {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
