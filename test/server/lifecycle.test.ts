// The bin/ wrapper (exec through symlinks, docs/protocol.md, "Starting the provider") and orphan
// exit (docs/protocol.md, "Stopping and exiting").
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { launchProvider } from '../../src/tfclient/launch.js';
import { COOKIE_ENV, FIXTURE_JS, echoExecutable, isAlive, repoRoot, sleep, tempDir } from './fixtures/process.js';

describe('provider process lifecycle', function () {
  this.timeout(30_000);

  it('bin/terraform-provider-sec resolves its directory through symlinks and execs node', async function () {
    const root = repoRoot();
    if (!root) throw new Error('no checkout holding bin/terraform-provider-sec above the working directory');
    if (!existsSync('/proc/self')) return this.skip(); // the exec is seen in /proc/<pid>/cmdline (Linux)
    // A fake install: <tree>/bin/{wrapper,start-bundle.cjs} + <tree>/dist/bundle/terraform-provider-sec.cjs
    // (a "bundle", in the bundle's function-expression shape, that runs the fixture, without a code cache).
    const tree = tempDir('keel-bin-');
    mkdirSync(join(tree, 'bin'));
    mkdirSync(join(tree, 'dist', 'bundle'), { recursive: true });
    for (const file of ['terraform-provider-sec', 'start-bundle.cjs'])
      copyFileSync(join(root, 'bin', file), join(tree, 'bin', file));
    writeFileSync(
      join(tree, 'dist', 'bundle', 'terraform-provider-sec.cjs'),
      `(function (exports, require) { require('node:module').runMain(${JSON.stringify(FIXTURE_JS)}); })\n`,
    );
    // Two hops: absolute link to a relative link to the wrapper.
    const links = tempDir('keel-links-');
    symlinkSync('../bin/terraform-provider-sec', join(tree, 'dist', 'relative-link'));
    symlinkSync(join(tree, 'dist', 'relative-link'), join(links, 'terraform-provider-sec'));

    const p = await launchProvider(join(links, 'terraform-provider-sec'));
    try {
      const cmdline = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline[0]).to.match(/node$/); // exec: the launched pid is node itself, not sh
      // The path may keep the links' `..` steps (the wrapper forks no dirname); it must reach the tree's loader.
      const loader = cmdline.findIndex((arg) => arg.endsWith('start-bundle.cjs'));
      expect(realpathSync(cmdline[loader]!)).to.equal(realpathSync(join(tree, 'bin', 'start-bundle.cjs')));
      expect(cmdline[loader + 1]).to.equal('sec');
      expect((await p.call('GetMetadata', {})).resources).to.have.length(1);
    } finally {
      const result = await p.shutdown();
      expect(result.exitCode).to.equal(0);
    }
  });

  it('exits by itself when its parent dies, releasing the pipes', async () => {
    // An intermediate parent starts the provider and reports its pid; the test kills that parent the
    // moment the handshake line arrives, as a crashing Terraform would be gone after the handshake.
    // (Dying after a fixed delay raced a slow start: a parent gone before the provider took note of it
    // was never seen to go.)
    const script = `
      const { spawn } = require('node:child_process');
      const c = spawn(${JSON.stringify(echoExecutable())}, [], { stdio: ['ignore', 'inherit', 'inherit'] });
      process.stderr.write('child-pid:' + c.pid + '\\n');
      setInterval(() => undefined, 60_000);`;
    const parent = spawn(process.execPath, ['-e', script], {
      env: { ...process.env, ...COOKIE_ENV, PLUGIN_PROTOCOL_VERSIONS: '5,6', TF_LOG: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const handshake = new Promise<void>((r) =>
      parent.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.endsWith('\n')) r();
      }),
    );
    parent.stderr.on('data', (d) => (stderr += d));
    // 'close' fires only when every holder of the pipes (the orphan too) is gone.
    const closed = new Promise<void>((r) => parent.on('close', () => r()));
    const parentExit = new Promise<number>((r) => parent.on('exit', () => r(performance.now())));
    let pid = Number.NaN;
    try {
      await Promise.race([handshake, sleep(20_000)]);
      expect(stdout).to.match(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|\n$/);
      pid = Number(/child-pid:(\d+)/.exec(stderr)?.[1]);
      expect(isAlive(pid), `provider ${pid} alive before its parent dies`).to.equal(true);
      parent.kill('SIGKILL');
      const exitedAt = await parentExit;
      let pipesReleased = false;
      void closed.then(() => {
        pipesReleased = true;
      });
      // Watched until the process is gone, not until the pipes close: the kernel closes a process's
      // files before it becomes a zombie, and on a loaded machine a check at the pipes' close can land
      // in between.
      while (isAlive(pid) && performance.now() - exitedAt < 5000) await sleep(50);
      const orphanedFor = performance.now() - exitedAt;
      expect(isAlive(pid), `provider ${pid} still alive ${Math.round(orphanedFor)} ms after its parent died`).to.equal(
        false,
      );
      expect(orphanedFor).to.be.below(4000);
      await Promise.race([closed, sleep(1000)]);
      expect(pipesReleased, 'every holder of the pipes is gone').to.equal(true);
      expect(stderr).to.contain('plugin host exited; shutting down');
    } finally {
      // Neither is left running when an assertion fails.
      parent.kill('SIGKILL');
      if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
