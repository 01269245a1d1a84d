/**
 * A killed `pulumi up` loses nothing: Pulumi 3.274.1 with a YAML program and the bridge, against
 * the sec emulator answering every call 1.5 s late. `pulumi up` is killed outright (SIGKILL) while a
 * create is on the wire; Pulumi keeps the create as a pending operation in its checkpoint and asks
 * for it to be resolved (`pulumi refresh --clear-pending-creates`); then a plain `pulumi up` must leave
 * the emulator holding exactly what the stack tracks: the provider, under the bridge, wrote the
 * create down beside the project (`.terraform/keel-creates`, the bridge runs in the project's
 * directory) and adopts what the killed run made.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { isCreateOperation, startEmulator, type EmulatorHandle } from './examples-workspace.js';
import { type YamlProject, yamlProject } from './pulumi-yaml.js';
import { REPO_ROOT, type RunResult } from './terraform.js';
import { killOutright } from './processes.js';
import { recordsUnder } from '../support/create-records.js';

const SLOW_MS = 1_500;
const CHANNELS = 3;

describe("acceptance: a killed `pulumi up` under Pulumi's CLI leaves nothing untracked after `pulumi up`", function () {
  this.timeout(600_000);
  let emulator: EmulatorHandle;
  let project: YamlProject;
  const figures: string[] = [];

  before(async function () {
    emulator = await startEmulator.sec();
    project = await yamlProject(this, 'killed', emulator.env);
    await project.run(['package', 'add', 'terraform-provider', join(REPO_ROOT, 'bin', 'terraform-provider-sec')]);
    const resources = Object.fromEntries(
      Array.from({ length: CHANNELS }, (_, i) => [
        `ops${i}`,
        {
          type: 'sec:index/alertChannelEmail:AlertChannelEmail',
          properties: { name: 'pulumi-ops', recipients: ['ops@example.com'] },
        },
      ]),
    );
    project.writeProgram({ resources });
  });

  after(async () => {
    console.log(`  killed pulumi up:\n${figures.join('\n')}`);
    for (const pid of pluginProcessesOf(project?.dir ?? '/nonexistent')) killOutright(pid);
    await emulator?.close();
    project?.dispose();
  });

  it('SIGKILL of `pulumi up` mid-create; after `pulumi cancel`, the next `pulumi up` adopts what it made', async () => {
    const isCreate = isCreateOperation('sec');
    const seen = emulator.operations().length;
    emulator.setFaultProfile({ seed: 7, rate: 1, kinds: ['slow'], slowMs: SLOW_MS });
    const up = startPulumi(project, ['up', '--yes', '--stack', 'test', '--non-interactive']);
    while (emulator.operations().slice(seen).filter(isCreate).length === 0) await delay(20);
    await delay(300);
    killOutright(up.pid);
    await up.done;
    // Pulumi's plugins outlive its engine (the bridge and, under it, the provider stay, idle): the
    // create on the wire ends, and the provider writes down what it made, which never reached Pulumi.
    await delay(SLOW_MS + 1_000);
    emulator.setFaultProfile(undefined);
    const made = emulator.ids('AlertChannels').filter((id) => id.length > 0);
    figures.push(
      `    killed with a create on the wire: ${made.length} channel(s) on the emulator, records in ${recordsIn(project.work)}`,
    );
    expect(recordsIn(project.work), 'the provider wrote the create down beside the project').to.be.above(0);

    // What Pulumi asks for: the killed update's lock released (`pulumi cancel`); the next `pulumi up`
    // then names the pending creates in a warning and creates them, and the provider adopts what the
    // killed one made.
    const locked = await project.run(['up', '--yes', '--stack', 'test'], 1);
    expect(locked.stderr).to.include('the stack is currently locked').and.include('pulumi cancel');
    await project.run(['cancel', '--yes', '--stack', 'test']);
    const up2 = await project.run(['up', '--yes', '--stack', 'test']);
    expect(up2.stdout).to.include('pending operations from previous deployment');
    figures.push(`    then pulumi cancel, pulumi up: ${up2.stdout.match(/\d+ created/)?.[0] ?? 'nothing created'}`);
    const stack = JSON.parse((await project.run(['stack', 'export', '--stack', 'test'])).stdout);
    const tracked = new Set<string>(
      stack.deployment.resources
        .filter((r: { type: string }) => r.type === 'sec:index/alertChannelEmail:AlertChannelEmail')
        .map((r: { id: string }) => r.id),
    );
    const held = emulator
      .ids('AlertChannels')
      .filter((id) => (emulator.get('AlertChannels', id) as { name?: string }).name === 'pulumi-ops');
    figures.push(`    ${tracked.size} tracked by the stack, ${held.length} on the emulator`);
    expect([...tracked].sort()).to.deep.equal(held.sort());
    expect(held).to.have.length(CHANNELS);
    await project.run(['preview', '--expect-no-changes', '--stack', 'test']);
  });
});

/** Pulumi's plugins that outlived a killed engine, found by the plugin home they run from. */
function pluginProcessesOf(home: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(home) || (cmdline.includes('pulumi-language-yaml') && ppidOf(entry) === 1))
        out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

function ppidOf(pid: string): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
}

function recordsIn(dir: string): number {
  return recordsUnder(join(dir, '.terraform', 'keel-creates')).length;
}

function startPulumi(project: YamlProject, args: string[]): { pid: number; done: Promise<RunResult> } {
  const child = spawn(project.pulumi, args, { cwd: project.work, env: project.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const done = new Promise<RunResult>((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })),
  );
  return { pid: child.pid!, done };
}
