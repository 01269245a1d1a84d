/**
 * Whose object is it under Pulumi (docs/decisions.md, "Whose object is it"): Pulumi 3.274.1 with a
 * YAML program and pulumi-terraform-bridge, against the emulators, sec and vdb, with fixed names and
 * nothing set. Each step prints what Pulumi said and what the platform holds after:
 *
 * - two stacks of one project run from one checkout: each makes its own objects; destroying one
 *   leaves the other's, which then refreshes with no change;
 * - a stack removed and made again: it makes new objects and takes nothing of the other stack's;
 * - a second checkout of the project (a fresh CI runner) for a third stack: the objects the first
 *   checkout's stacks made are unknown there, so `pulumi up` is refused, in Pulumi's words (the type
 *   token, `pulumi import`, `pulumi config set`); the way out it names, for one run, makes the stack's
 *   own objects, and its next preview is empty.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startEmulator, type EmulatorHandle, type Provider } from './examples-workspace.js';
import { yamlProject, type YamlProject } from './pulumi-yaml.js';
import { REPO_ROOT, type RunResult } from './terraform.js';

interface Program {
  /** The emulator's collection, and the Pulumi type token of the resource made. */
  readonly collection: string;
  readonly token: string;
  readonly resources: (name: string) => Record<string, unknown>;
}

const PROGRAMS: Record<Provider, Program> = {
  sec: {
    collection: 'AlertChannels',
    token: 'sec:index/alertChannelEmail:AlertChannelEmail',
    resources: (name) => ({
      oncall: {
        type: 'sec:AlertChannelEmail',
        properties: { name, recipients: ['oncall@example.com'] },
      },
    }),
  },
  vdb: {
    collection: 'roles',
    token: 'vdb:index/accountsRole:AccountsRole',
    resources: (name) => ({
      oncall: {
        type: 'vdb:AccountsRole',
        properties: { name, description: 'On call', permissions: [{ value: 'read:clusters' }] },
      },
    }),
  },
};

const flat = (r: RunResult) => `${r.stdout}\n${r.stderr}`.replace(/\s+/g, ' ');
/** Pulumi's account of a run: its counts, and the provider's first error (its summary). */
const outcome = (r: RunResult) => {
  const text = flat(r);
  const last = text.slice(text.lastIndexOf('Resources:'));
  const counts = [...last.matchAll(/\d+ (?:created|deleted|updated|unchanged|errored|to create|to delete)/g)]
    .map((m) => m[0])
    .join(', ');
  const error = /\* : (.{0,160}?) - /.exec(text)?.[1];
  return [counts, error ? `error "${error.trim()}"` : undefined].filter(Boolean).join('; ') || 'ok';
};

describe('acceptance: whose object is it, workflows under Pulumi', function () {
  this.timeout(600_000);
  const rows: string[] = [];
  after(() => {
    console.log('\n  workflows under Pulumi: what Pulumi said, what the platform holds after');
    for (const row of rows) console.log(`    ${row}`);
  });

  for (const provider of ['sec', 'vdb'] as const) {
    const program = PROGRAMS[provider];
    const name = `wf-pulumi-${provider}`;
    let emulator: EmulatorHandle;
    const projects: YamlProject[] = [];

    const held = () =>
      emulator
        .ids(program.collection)
        .filter((id) => (emulator.get(program.collection, id) as { name?: string } | undefined)?.name === name);
    const say = (step: string, r: RunResult) =>
      rows.push(`${provider}: ${step.padEnd(58)} ${outcome(r)}  =>  ${held().length} object(s)`);

    /** A checkout of the project: the package added from this checkout's executable, the program written. */
    async function checkout(project: YamlProject): Promise<YamlProject> {
      projects.push(project);
      await project.run([
        'package',
        'add',
        'terraform-provider',
        join(REPO_ROOT, 'bin', `terraform-provider-${provider}`),
      ]);
      project.writeProgram({ resources: program.resources(name) });
      return project;
    }

    describe(provider, () => {
      before(async () => {
        emulator = await startEmulator[provider]();
      });
      after(async () => {
        for (const p of projects) p.dispose();
        await emulator?.close();
      });

      it('two stacks of one checkout, and a stack removed and made again', async function () {
        const project = await checkout(await yamlProject(this, `${provider}-one`, emulator.env));
        for (const stack of ['dev', 'staging']) {
          await project.run(['stack', 'init', stack]);
          say(`pulumi up -s ${stack} (one checkout, defaults)`, await project.run(['up', '--yes', '--stack', stack]));
        }
        expect(held(), 'each stack made its own').to.have.length(2);
        const ids = (stack: string) => stackIds(project, stack, program.token);
        const devIds = await ids('dev');
        expect(await ids('staging'), 'staging holds none of dev’s').to.not.have.members(devIds);
        say('pulumi destroy -s staging', await project.run(['destroy', '--yes', '--stack', 'staging']));
        expect(held(), "dev's objects stay").to.deep.equal(devIds);
        await project.run(['refresh', '--yes', '--expect-no-changes', '--stack', 'dev']);
        await project.run(['stack', 'rm', '--yes', 'staging']);
        await project.run(['stack', 'init', 'staging']);
        say('pulumi stack rm, init, up -s staging', await project.run(['up', '--yes', '--stack', 'staging']));
        expect(held(), 'the new staging made its own').to.have.length(2);
        expect(await ids('staging')).to.not.have.members(devIds);
        await project.run(['preview', '--expect-no-changes', '--stack', 'dev']);
        for (const stack of ['dev', 'staging']) await project.run(['destroy', '--yes', '--stack', stack]);
        expect(held()).to.deep.equal([]);
      });

      it('a second checkout (a fresh runner): refused in Pulumi’s words; the way out it names makes its own', async function () {
        const first = await checkout(await yamlProject(this, `${provider}-first`, emulator.env));
        await first.run(['stack', 'init', 'dev']);
        await first.run(['up', '--yes', '--stack', 'dev']);
        const second = await checkout(await yamlProject(this, `${provider}-second`, emulator.env));
        await second.run(['stack', 'init', 'prod']);
        const refused = await second.runWith(['up', '--yes', '--stack', 'prod'], {}, null);
        say('pulumi up -s prod (a second checkout, defaults)', refused);
        expect(refused.code, 'refused').to.not.equal(0);
        const text = flat(refused);
        expect(text).to.include('exists already, untracked').and.include(`pulumi import ${program.token}`);
        expect(text)
          .to.include(`pulumi config set ${provider}:untrackedObjects create`)
          .and.not.include('terraform import');
        expect(held(), 'nothing made').to.have.length(1);
        // The way out for one run: the stack then keeps what it was created beside.
        const variable = `${provider.toUpperCase()}_UNTRACKED_OBJECTS`;
        const created = await second.runWith(['up', '--yes', '--stack', 'prod'], { [variable]: 'create' });
        say(`${variable}=create pulumi up -s prod`, created);
        expect(held(), 'prod made its own').to.have.length(2);
        await second.run(['preview', '--expect-no-changes', '--stack', 'prod']);
        await second.run(['destroy', '--yes', '--stack', 'prod']);
        await first.run(['destroy', '--yes', '--stack', 'dev']);
        expect(held()).to.deep.equal([]);
      });
    });
  }
});

/** The ids of the objects of `token` a stack's state holds. */
async function stackIds(project: YamlProject, stack: string, token: string): Promise<string[]> {
  const exported = JSON.parse((await project.run(['stack', 'export', '--stack', stack])).stdout) as {
    deployment: { resources?: { type: string; id?: string }[] };
  };
  return (exported.deployment.resources ?? []).filter((r) => r.type === token).map((r) => r.id!);
}
