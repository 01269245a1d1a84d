/**
 * OpenTofu 1.10.10, the oldest release our users run (1.12.6, in ACCEPTANCE_CLIS, runs every acceptance
 * suite), for both providers: a compact pass over every example, as Terraform's other releases get
 * (terraform-releases.test.ts), and what 1.10 lacks:
 *
 * - Breadth: all of a provider's examples applied in one workspace (one module each,
 *   examples-workspace.ts), re-planned with no changes, destroyed.
 * - Import by id: every importable resource of that workspace removed from the state and imported
 *   again from `import` blocks with its documented id: the platform makes nothing, the re-plan is empty.
 * - Write-only arguments, which OpenTofu has from 1.11: a `_wo` argument is refused at plan, at its
 *   path, naming the plain argument to use instead, and nothing is sent.
 *
 * Its provider functions run in functions.test.ts (OPENTOFU_1_10_CLI).
 */
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  OBJECT_CREATES,
  ExamplesWorkspace,
  expectImportsSettled,
  fill,
  loadCases,
  startEmulator,
  type EmulatorHandle,
} from './examples-workspace.js';
import { OPENTOFU_1_10_CLI } from './real-clients.js';
import { Workspace, type StateResource, type WorkspaceOptions } from './terraform.js';

const PARALLELISM = '-parallelism=20';

/** The resources of the example modules (not the root), by address. */
async function moduleState(ws: Workspace): Promise<Map<string, StateResource>> {
  return new Map([...(await ws.state())].filter(([address]) => address.startsWith('module.')));
}

const cli = OPENTOFU_1_10_CLI;

for (const provider of ['sec', 'vdb'] as const)
  describe(`acceptance: examples/${provider} under real ${cli.name}, a compact pass and what 1.10 lacks`, function () {
    this.timeout(900_000);
    const cases = loadCases(provider);
    const resources = cases.filter((c) => !c.dataSource);
    let options: WorkspaceOptions;
    let emulator: EmulatorHandle;
    let examples: ExamplesWorkspace;
    const address = (c: (typeof cases)[number]) => examples.address(c);

    before(async function () {
      options = cli.workspace(this);
      emulator = await startEmulator[provider]();
      examples = await ExamplesWorkspace.create(provider, cases, emulator.env, options);
    });

    const counts = { applied: 0, imported: 0, refused: 0 };

    after(async () => {
      console.log(
        `  ${cli.name}, ${provider}: ${counts.applied} example resources applied and re-planned empty, ` +
          `${counts.imported} imported by id with nothing made` +
          (provider === 'sec' ? `, ${counts.refused} write-only argument refused at plan` : ''),
      );
      examples?.dispose();
      await emulator?.close();
    });

    it('applies every example and re-plans with no changes', async () => {
      await examples.ws.expect(['apply', '-auto-approve', '-no-color', PARALLELISM]);
      const state = await moduleState(examples.ws);
      for (const c of resources) expect(state.has(address(c)), `${address(c)} is in the state`).to.equal(true);
      await examples.ws.expect(['plan', '-detailed-exitcode', '-no-color', PARALLELISM], 0);
      counts.applied = resources.length;
    });

    it('imports every importable resource again by its id: nothing made or changed, an empty re-plan', async () => {
      const ws = examples.ws;
      const state = await moduleState(ws);
      const importable = resources.filter((c) => c.importId);
      const blocks = importable.map((c) => {
        const id = fill(c.importId!, state.get(address(c))!.values);
        return `import {\n  to = ${address(c)}\n  id = ${JSON.stringify(id)}\n}\n`;
      });
      const before = emulator.operations().length;
      await ws.expect(['state', 'rm', ...importable.map(address)]);
      writeFileSync(join(ws.dir, 'config', 'imports.tf'), blocks.join('\n'));
      await ws.expect(['apply', '-auto-approve', '-no-color', PARALLELISM]);
      rmSync(join(ws.dir, 'config', 'imports.tf'));
      const after = await moduleState(ws);
      for (const c of importable) expect(after.has(address(c)), `${address(c)}: imported`).to.equal(true);
      await expectImportsSettled(ws, importable, address);
      const made = emulator
        .operations()
        .slice(before)
        .filter((op) => OBJECT_CREATES.test(op));
      expect(made, 'the imports made nothing on the platform').to.deep.equal([]);
      counts.imported = importable.length;
    });

    if (provider === 'sec')
      it('refuses a write-only argument at plan, naming the plain one, and sends nothing', async () => {
        const ws = new Workspace(
          `terraform {\n  required_providers {\n    sec = { source = "keel/sec" }\n  }\n}\n` +
            `resource "sec_alert_channel_chat" "old_client" {\n  name           = "wo-on-1-10"\n` +
            `  webhook_url_wo = "https://chat.example.com/hooks/secret-part"\n  webhook_url_wo_version = 1\n}\n`,
          emulator.env,
          options,
        );
        try {
          const before = emulator.operations().length;
          const plan = await ws.run(['plan', '-json']);
          expect(plan.code).to.equal(1);
          const errors = plan.stdout
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l) as { diagnostic?: { severity: string; summary: string; detail: string } })
            .flatMap((l) => (l.diagnostic?.severity === 'error' ? [l.diagnostic] : []));
          const refusal = errors.find((d) => d.summary === 'Write-only argument not supported');
          expect(refusal, plan.stdout).to.not.equal(undefined);
          expect(refusal!.detail).to.include('`webhook_url_wo`').and.include('Use `webhook_url` instead');
          // (The client shows the configuration's line under the error; our words never hold the value.)
          for (const e of errors) expect(`${e.summary} ${e.detail}`).to.not.include('secret-part');
          const sent = emulator.operations().slice(before);
          expect(sent.filter((op) => op.startsWith('POST /api/v2/AlertChannels'))).to.deep.equal([]);
          counts.refused++;
        } finally {
          ws.dispose();
        }
      });

    it('destroys everything', async () => {
      await examples.ws.expect(['destroy', '-auto-approve', '-no-color', PARALLELISM]);
      expect((await moduleState(examples.ws)).size).to.equal(0);
    });
  });
