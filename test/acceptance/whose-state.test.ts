/**
 * Whose object is it, for the state that made it (docs/decisions.md, "Whose object is it"), under
 * Terraform 1.15.5 and OpenTofu against the sec emulator, in the situations where records that could
 * not tell states apart deleted another state's objects: `terraform test` (and `tofu test`) right after
 * a deployment's apply in its directory, and environments chosen by backend key (GitLab's state names,
 * Terragrunt: one directory, `-backend-config=address=…`), the preview's destroy right after prod's
 * apply. Each prints what the platform holds after; the engine's own tests (test/engine/whose-state.test.ts)
 * hold the rest, over generated schedules.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { startEmulator, type EmulatorHandle } from './examples-workspace.js';
import { Workspace, type WorkspaceOptions } from './terraform.js';
import { startStateServer, type StateServer } from './state-server.js';
import { localMirror } from './local-mirror.js';

const HEAD = 'terraform {\n  required_providers {\n    sec = { source = "keel/sec" }\n  }\n}\nprovider "sec" {}\n';
const channel = (name: string) =>
  `resource "sec_alert_channel_email" "oncall" {\n  name       = "${name}"\n  recipients = ["oncall@example.com"]\n}\n`;

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: whose object is it, for the state that made it, under ${cli.name}`, function () {
    this.timeout(600_000);
    let options: WorkspaceOptions;
    let sec: EmulatorHandle;
    let states: StateServer;
    let mirror: string | undefined;
    const spaces: Workspace[] = [];
    const rows: string[] = [];

    before(async function () {
      mirror = mkdtempSync(join(tmpdir(), 'keel-mirror-'));
      options = { ...cli.workspace(this), cliConfig: localMirror(mirror) };
      [sec, states] = await Promise.all([startEmulator.sec(), startStateServer()]);
    });

    after(async () => {
      for (const ws of spaces) ws.dispose();
      if (mirror) rmSync(mirror, { recursive: true, force: true });
      await Promise.all([sec?.close(), states?.close()]);
      console.log(`\n  whose object is it, under ${cli.name}: what the platform holds after`);
      for (const row of rows) console.log(`    ${row}`);
    });

    const named = (name: string) =>
      sec.ids('AlertChannels').filter((id) => (sec.get('AlertChannels', id) as { name?: string })?.name === name);
    const run = async (ws: Workspace, args: string[]) => {
      const r = await ws.run([...args, '-no-color']);
      return { ...r, text: `${r.stdout}\n${r.stderr}` };
    };
    const ok = async (ws: Workspace, args: string[]) => {
      const r = await run(ws, args);
      expect(r.code, `${args.join(' ')}\n${r.text}`).to.equal(0);
      return r;
    };

    it('`test` right after the deployment’s apply: the test makes and deletes its own channel, never the deployment’s', async () => {
      const name = `whose-${cli.command}-test`;
      const ws = new Workspace(HEAD + channel(name), sec.env, options);
      spaces.push(ws);
      mkdirSync(join(ws.configDir, 'tests'));
      writeFileSync(join(ws.configDir, 'tests', 'channel.tftest.hcl'), 'run "made" {\n  command = apply\n}\n');
      await ok(ws, ['init']);
      await ok(ws, ['apply', '-auto-approve']);
      const deployed = named(name);
      expect(deployed).to.have.length(1);
      const tested = await ok(ws, ['test']);
      expect(tested.text, 'no word of a cut-off run').to.not.include('cut off');
      expect(named(name), "the deployment's channel, only").to.deep.equal(deployed);
      const replan = await ok(ws, ['plan', '-detailed-exitcode']);
      expect(replan.text).to.include('No changes.');
      rows.push(
        `apply, then ${cli.command} test, then plan: ${named(name).length} channel(s) named "${name}", no changes`,
      );
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name)).to.deep.equal([]);
    });

    it('environments by backend key in one directory: preview makes its own channel, and its destroy leaves prod’s', async () => {
      const name = `whose-${cli.command}-keys`;
      const ws = new Workspace(`${HEAD}terraform {\n  backend "http" {}\n}\n${channel(name)}`, sec.env, options);
      spaces.push(ws);
      const init = (key: string) =>
        ok(ws, ['init', '-reconfigure', `-backend-config=address=${states.address(`${cli.command}-${key}`)}`]);
      await init('prod');
      await ok(ws, ['apply', '-auto-approve']);
      const prod = named(name);
      expect(prod).to.have.length(1);
      await init('preview');
      const preview = await ok(ws, ['apply', '-auto-approve']);
      expect(preview.text, 'no word of a cut-off run').to.not.include('cut off');
      expect(named(name), "preview's own beside prod's").to.have.length(2);
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name), "prod's, only").to.deep.equal(prod);
      await init('prod');
      const replan = await ok(ws, ['plan', '-detailed-exitcode']);
      expect(replan.text).to.include('No changes.');
      rows.push(`prod applies, preview applies and destroys, prod plans: ${named(name).length} channel(s), no changes`);
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name)).to.deep.equal([]);
    });
  });
