/**
 * `node.exe wine-relay.js <program> [arguments]`, run under Wine by Windows's own node.exe
 * (./runners.ts): starts the program with Windows pipes for stdout and stderr, as Terraform on Windows
 * starts a provider, and copies what it writes to this process's stdout and stderr, which Wine gives
 * as Unix pipes (Node writes to those with fs.writeSync; its process.stdout cannot open them under
 * Wine 8). The environment and the exit code pass through; stdin is empty (a provider reads none).
 */
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import { Writable } from 'node:stream';

// Node makes process.stdout and process.stderr on first use, and under Wine that throws (EBADF); Node
// itself looks at process.stderr when it closes a socket, the program's pipes included. Both are
// streams that write with fs.writeSync instead.
for (const [name, fd] of [
  ['stdout', 1],
  ['stderr', 2],
] as const) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
      done();
    },
  });
  Object.defineProperty(process, name, { value: stream, configurable: true, enumerable: true });
}

const [program, ...args] = process.argv.slice(2);
if (!program) {
  writeSync(2, 'usage: node wine-relay.js <program> [arguments]\n');
  process.exit(2);
}
const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
const copy = (fd: number) => (chunk: Buffer) => {
  for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
};
child.stdout!.on('data', copy(1));
child.stderr!.on('data', copy(2));
child.on('error', (error) => {
  writeSync(2, `wine-relay: cannot start ${program}: ${error.message}\n`);
  process.exit(127);
});
// The program's pipes are read to their end before the relay goes.
let open = 3;
let exitCode = 0;
const done = () => {
  if (--open === 0) process.exit(exitCode);
};
child.stdout!.on('end', done);
child.stderr!.on('end', done);
child.on('exit', (code, signal) => {
  exitCode = code ?? (signal ? 1 : 0);
  done();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
