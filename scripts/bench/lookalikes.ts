/**
 * lookalikes: how long `terraform plan` takes, at Terraform's default parallelism, for N creates of one
 * type when the platform already holds an untracked look-alike of each (a killed job's re-run on a
 * fresh runner, packages/framework/src/engine/creates/create-lookalikes.ts), beside the same N creates with none. Each
 * plan in a
 * fresh directory (no records), against the sec emulator in this process, with `terraform` from PATH:
 * - none:    N `sec_alert_channel_email` creates, nothing like them on the platform;
 * - refuse:  the same beside N look-alikes, with the default setting (the plan warns, naming each in one
 *            summary; the apply would refuse; a checkout before 2026-11-28 fails the plan);
 * - warn:    the same with `untracked_objects = "warn"` (the plan names each, and passes).
 * With --beside DIR another built checkout's provider (DIR/bin) plans in the same turns, whose order
 * flips every repetition: before and after figures from one run.
 *
 * Usage: npm run bench -- lookalikes [--count N] [--reps R] [--beside DIR]   (defaults: 100, 3)
 * Goal (2026-11-27): 100 creates beside 100 look-alikes plan in under 3 s.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { providerInstallationConfig, secProviderEnv, terraformEnv } from '../../src/tfclient/terraform-cli.js';
import { machine, median, REPO_ROOT, sizeFlags } from './util.js';

const run = promisify(execFile);
const CASES = ['none', 'refuse', 'warn'] as const;

export async function lookalikesBench(args: string[]): Promise<void> {
  const { count, reps, beside } = sizeFlags(args, 'lookalikes [--count N] [--reps R] [--beside DIR]', {
    count: 100,
    reps: 3,
  });
  const sides = [
    { label: 'this checkout', bin: join(REPO_ROOT, 'bin') },
    ...(beside ? [{ label: beside, bin: join(beside, 'bin') }] : []),
  ];
  const emulator = await startSecEmulator({});
  const seconds = new Map<string, number[]>();
  try {
    for (let rep = 0; rep < reps; rep++) {
      const order = rep % 2 === 0 ? sides : [...sides].reverse();
      for (const kase of CASES)
        for (const side of order) {
          const tag = `${rep}-${kase}-${sides.indexOf(side)}`;
          // The look-alikes: what a job killed before its state was saved leaves, one for each create.
          const killed = kase === 'none' ? null : workspace(REPO_BIN, emulator, tag, count);
          if (killed && (await terraform(killed, ['apply', '-auto-approve'])) !== 0)
            throw new Error(`making the look-alikes of ${tag} failed`);
          const fresh = workspace(side.bin, emulator, tag, count);
          const started = performance.now();
          const code = await terraform(fresh, ['plan'], kase === 'warn' ? { SEC_UNTRACKED_OBJECTS: 'warn' } : {});
          const elapsed = (performance.now() - started) / 1000;
          // This checkout's plan only warns; an older one beside it refused look-alikes at plan.
          const expected = kase === 'refuse' && side !== sides[0] ? [0, 1] : [0];
          if (!expected.includes(code))
            throw new Error(`${side.label}, ${kase}: terraform plan exited ${code}, not ${expected.join(' or ')}`);
          if (killed && (await terraform(killed, ['destroy', '-auto-approve'])) !== 0)
            throw new Error(`removing the look-alikes of ${tag} failed`);
          for (const w of [fresh, killed]) if (w) rmSync(w.dir, { recursive: true, force: true });
          const key = `${kase}\0${side.label}`;
          seconds.set(key, [...(seconds.get(key) ?? []), elapsed]);
        }
    }
  } finally {
    await emulator.close();
  }
  console.log(
    `\nlookalikes — ${count} creates of sec_alert_channel_email, terraform plan, medians of ${reps} (${machine()})`,
  );
  const width = Math.max(...sides.map((s) => s.label.length));
  for (const kase of CASES)
    console.log(
      `  ${kase.padEnd(6)}  ${sides.map((s) => `${s.label.padEnd(width)} ${median(seconds.get(`${kase}\0${s.label}`)!).toFixed(2)} s`).join('   ')}`,
    );
}

/** A working directory of `count` channels named like the look-alikes, its provider from `binDir`. */
interface Workspace {
  readonly dir: string;
  readonly env: Record<string, string>;
}

const REPO_BIN = join(REPO_ROOT, 'bin');

function workspace(
  binDir: string,
  emulator: { url: string; account: string; apiKey: string; apiSecret: string },
  tag: string,
  count: number,
): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'keel-lookalikes-'));
  mkdirSync(join(dir, 'config'));
  writeFileSync(
    join(dir, 'config', 'main.tf'),
    'terraform {\n  required_providers {\n    sec = { source = "keel/sec" }\n  }\n}\nprovider "sec" {}\n' +
      `resource "sec_alert_channel_email" "c" {\n  count      = ${count}\n  name       = "lk-${tag}-\${count.index}"\n` +
      '  recipients = ["oncall@example.com"]\n}\n',
  );
  const cli = join(dir, '.terraformrc');
  writeFileSync(cli, providerInstallationConfig({ 'keel/sec': binDir }));
  return { dir, env: terraformEnv(dir, cli, secProviderEnv(emulator)) };
}

/** `terraform <args>` in the workspace (`terraform` from PATH); its exit code. */
async function terraform(w: Workspace, args: string[], env: Record<string, string> = {}): Promise<number> {
  return run('terraform', [`-chdir=${join(w.dir, 'config')}`, ...args, '-no-color', '-input=false'], {
    env: { ...w.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  }).then(
    () => 0,
    (err: { code?: number }) => err.code ?? 1,
  );
}
