/**
 * The README's "Try it, step by step", followed as a new user follows it: its shell blocks, read
 * from the README (not copied), run in order. The first installs the providers into a fresh home
 * folder; the second starts the emulator, whose stdout must be its one JSON line; the third, with the
 * printed values in place of its placeholders, runs in a copy of examples/ and answers "yes" where
 * Terraform asks. Only the checkout's own set-up (`npm ci && npm run build`), which `npm test` has
 * done, is not run again.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { createSecClient } from '../../src/clients/sec/index.js';
import { runtimeCacheDir } from '../../packages/framework/src/release/runtimes.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { REPO_ROOT, runCommand } from './terraform.js';

const SECTION = '### Try it, step by step';
/** What `npm test` has already done in this checkout. */
const CHECKOUT_SETUP = 'npm ci && npm run build && ';

/** The ```sh blocks of the README's step-by-step section, in order. */
function stepBlocks(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(SECTION);
  expect(start, `the README has "${SECTION}"`).to.be.greaterThan(0);
  const section = readme.slice(start, readme.indexOf('\n### ', start + SECTION.length));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The environment of a new user: a fresh home, no Terraform settings of the test harness, `terraform` the one given. */
function userEnv(home: string, terraform: string): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), HOME: home };
  if (isAbsolute(terraform)) env.PATH = `${dirname(terraform)}${delimiter}${env.PATH}`;
  for (const name of Object.keys(env)) if (/^(TF_|SEC_|VDB_)/.test(name)) delete env[name];
  // The runtime packages from the machine's cache: the home folder is new, the machine is not.
  env.KEEL_RUNTIME_CACHE = runtimeCacheDir();
  // No network here: Terraform's version check would only wait.
  env.CHECKPOINT_DISABLE = '1';
  return env;
}

// Under each Terraform a user may have as `terraform` (OpenTofu's command is another).
for (const cli of ACCEPTANCE_CLIS.filter((c) => c.command === 'terraform'))
  describe(`acceptance: the README's emulator page, run as written, under ${cli.name}`, function () {
    this.timeout(300_000);
    let home: string;
    let work: string;
    let terraform: string;
    let stopEmulator: (() => void) | undefined;

    before(function () {
      terraform = cli.workspace(this).terraform!;
      home = mkdtempSync(join(tmpdir(), 'keel-readme-home-'));
      work = mkdtempSync(join(tmpdir(), 'keel-readme-'));
      cpSync(join(REPO_ROOT, 'examples'), join(work, 'examples'), { recursive: true });
    });

    after(() => {
      stopEmulator?.();
      for (const dir of [home, work]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('installs, starts the emulator, and applies, re-plans empty and destroys examples/sec', async () => {
      const blocks = stepBlocks();
      expect(blocks, 'install, emulator, Terraform').to.have.length(3);
      const env = userEnv(home, terraform);

      // 1. Install (the checkout is installed and built already).
      expect(blocks[0]!.startsWith(CHECKOUT_SETUP), blocks[0]).to.equal(true);
      const install = await runCommand('bash', ['-ec', blocks[0]!.slice(CHECKOUT_SETUP.length)], {
        cwd: REPO_ROOT,
        env,
      });
      expect(install.code, install.stderr).to.equal(0);

      // 2. The emulator, in its own process group as in a second terminal; its stdout is one JSON line.
      const emulator = spawn('bash', ['-ec', blocks[1]!], { cwd: REPO_ROOT, env, detached: true, stdio: 'pipe' });
      stopEmulator = () => {
        try {
          process.kill(-emulator.pid!, 'SIGTERM');
        } catch {
          // Already gone.
        }
      };
      let stdout = '';
      emulator.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const deadline = Date.now() + 60_000;
      while (!stdout.includes('\n') && Date.now() < deadline && emulator.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const printed = JSON.parse(stdout.split('\n')[0]!) as Record<string, string>;
      expect(Object.keys(printed)).to.deep.equal(['url', 'account', 'api_key', 'api_secret']);

      // 3. Terraform, with the printed values in place of the placeholders; "yes" to every question.
      const script = blocks[2]!.replace(/<([a-z_]+)>/g, (placeholder, key: string) => {
        expect(printed, `the emulator printed ${placeholder}`).to.have.property(key);
        return printed[key]!;
      });
      writeFileSync(join(work, 'steps.sh'), script);
      const run = await runCommand('bash', ['-c', 'yes yes | bash -e steps.sh'], {
        cwd: work,
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.code, output).to.equal(0);
      expect(stdout.trimEnd().split('\n'), 'the emulator wrote nothing but its JSON line').to.have.length(1);
      expect(output).to.include('Terraform has been successfully initialized!');
      expect(output).to.match(/Installing keel\/sec v2\.2\.0/);
      expect(output).to.include('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
      expect(output).to.match(/channel_guid = "[A-Z0-9_]+"/);
      expect(output).to.include('No changes.');
      expect(output).to.include('Destroy complete! Resources: 2 destroyed.');

      // What the emulator holds afterwards: nothing the example made.
      const client = createSecClient({
        baseUrl: printed.url!,
        account: printed.account!,
        apiKey: printed.api_key!,
        apiSecret: printed.api_secret!,
        userAgent: 'test',
      });
      try {
        const channels = await client.alertChannels.list();
        expect(channels.map((c) => c.name)).to.not.include('security-team');
      } finally {
        await client.close();
      }
    });
  });
