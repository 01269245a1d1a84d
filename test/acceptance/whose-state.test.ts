/**
 * Whose object is it, for the state that made it (docs/decisions.md, "Whose object is it"), under
 * Terraform 1.15.5 and OpenTofu against the sec emulator, in the situations where records that could
 * not tell states apart deleted another state's objects: `terraform test` (and `tofu test`) right after
 * a deployment's apply in its directory; environments chosen by backend key (GitLab's state names,
 * Terragrunt: one directory, `-backend-config=address=…`), the preview's destroy right after prod's
 * apply; a workspace selected while another's apply waits at "yes"; `state mv` into another workspace;
 * `state rm` right after an apply, and the `import` its message gives; a `removed` block and the same
 * name in one apply and in one saved plan, beside a renamed key whose destroy the CLI asks a plan of. Then
 * a killed run's request: one that never reached the platform, of a type it gives no creation time,
 * beside another configuration's later object of the same name; and, with the platform's clock two
 * minutes ahead of the runner's, one whose object the platform made. Each prints what the platform holds
 * after; the engine's own tests (test/engine/whose-state.test.ts) hold the rest, over generated schedules.
 */
import { expect } from 'chai';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { startEmulator, type EmulatorHandle } from './examples-workspace.js';
import { Workspace, type WorkspaceOptions } from './terraform.js';
import { startStateServer, type StateServer } from './state-server.js';
import { localMirror } from './local-mirror.js';
import { resourceGroups } from './killed-jobs.js';
import { killOutright, noProviderProcessesIn, providerProcessesIn } from './processes.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';

const HEAD = 'terraform {\n  required_providers {\n    sec = { source = "keel/sec" }\n  }\n}\nprovider "sec" {}\n';
const ADDRESS = 'sec_alert_channel_email.oncall';
/** A message as one line: the CLI wraps a diagnostic's text at its width. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
/** Runs the CLI in `ws`: its exit code, and its output as one text. */
async function run(ws: Workspace, args: string[]) {
  const r = await ws.run([...args, '-no-color']);
  return { ...r, text: `${r.stdout}\n${r.stderr}` };
}
/** Runs the CLI in `ws`, which must exit with `code`. */
async function ok(ws: Workspace, args: string[], code = 0) {
  const r = await run(ws, args);
  expect(r.code, `${args.join(' ')}\n${r.text}`).to.equal(code);
  return r;
}
async function until(holds: () => boolean, what: string, withinMs = 60_000): Promise<void> {
  for (const end = Date.now() + withinMs; !holds(); await delay(50))
    if (Date.now() > end) throw new Error(`${what}: not within ${withinMs / 1000} s`);
}
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
    const workspaceOf = (name: string) => {
      const ws = new Workspace(HEAD + channel(name), sec.env, options);
      spaces.push(ws);
      return ws;
    };

    it('`test` right after the deployment’s apply: the test makes and deletes its own channel, never the deployment’s', async () => {
      const name = `whose-${cli.command}-test`;
      const ws = workspaceOf(name);
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

    it('a CI cache of `.terraform` restored from prod’s job into preview’s: preview makes its own channel, and its destroy leaves prod’s', async () => {
      const name = `whose-${cli.command}-cache`;
      const config = `${HEAD}terraform {\n  backend "http" {}\n}\n${channel(name)}`;
      const init = (ws: Workspace, key: string) =>
        ok(ws, ['init', '-reconfigure', `-backend-config=address=${states.address(`${cli.command}-cache-${key}`)}`]);
      const prodJob = new Workspace(config, sec.env, options);
      const previewJob = new Workspace(config, sec.env, options);
      spaces.push(prodJob, previewJob);
      await init(prodJob, 'prod');
      await ok(prodJob, ['apply', '-auto-approve']);
      const prod = named(name);
      // The cache's `restore-keys` fallback hands preview's job prod's data directory, records and all.
      cpSync(join(prodJob.dir, '.terraform'), join(previewJob.dir, '.terraform'), {
        recursive: true,
        verbatimSymlinks: true,
      });
      await init(previewJob, 'preview');
      const preview = await ok(previewJob, ['apply', '-auto-approve']);
      expect(flat(preview.text), 'no word of a cut-off run').to.not.include('cut off').and.not.include('Took over');
      expect(named(name), "preview's own beside prod's").to.have.length(2);
      await ok(previewJob, ['destroy', '-auto-approve']);
      expect(named(name), "prod's, only").to.deep.equal(prod);
      expect((await ok(prodJob, ['plan', '-detailed-exitcode'])).text).to.include('No changes.');
      rows.push(
        `prod applies, preview from prod's cached .terraform applies and destroys: ${named(name).length} channel(s)`,
      );
      await ok(prodJob, ['destroy', '-auto-approve']);
      expect(named(name)).to.deep.equal([]);
    });

    it('`workspace select w2` while w1’s apply waits at "yes": the apply is w1’s; w2 makes its own, and its destroy leaves w1’s', async () => {
      const name = `whose-${cli.command}-select`;
      const ws = workspaceOf(name);
      await ok(ws, ['init']);
      await ok(ws, ['workspace', 'new', 'w2']);
      await ok(ws, ['workspace', 'new', 'w1']);
      const w1 = ws.start(['apply', '-no-color'], {}, { input: true });
      await until(() => w1.output().includes('Enter a value:'), 'the apply asks for approval');
      await ok(ws, ['workspace', 'select', 'w2']);
      w1.answer('yes');
      const applied = await w1.done;
      expect(applied.code, `${applied.stdout}\n${applied.stderr}`).to.equal(0);
      const made = named(name);
      expect(made).to.have.length(1);
      const w2 = await ok(ws, ['apply', '-auto-approve']);
      expect(flat(w2.text), 'no word of a cut-off run').to.not.include('cut off').and.not.include('Took over');
      expect(named(name), "w2's own beside w1's").to.have.length(2);
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name), "w1's, only").to.deep.equal(made);
      await ok(ws, ['workspace', 'select', 'w1']);
      expect((await ok(ws, ['plan', '-detailed-exitcode'])).text).to.include('No changes.');
      rows.push(
        `w1 applies while w2 is selected, w2 applies and destroys: ${named(name).length} channel(s), w1 plans no changes`,
      );
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name)).to.deep.equal([]);
    });

    it('`state mv` into another workspace’s state: the old one refuses to make it again, never takes it back', async () => {
      const name = `whose-${cli.command}-mv`;
      const ws = workspaceOf(name);
      await ok(ws, ['init']);
      await ok(ws, ['workspace', 'new', 'w1']);
      await ok(ws, ['apply', '-auto-approve']);
      const made = named(name);
      await ok(ws, ['workspace', 'new', 'w2']);
      const [from, to] = ['w1', 'w2'].map(
        (w) => `-state${w === 'w2' ? '-out' : ''}=terraform.tfstate.d/${w}/terraform.tfstate`,
      );
      await ok(ws, ['state', 'mv', from!, to!, ADDRESS, ADDRESS]);
      expect((await ok(ws, ['plan', '-detailed-exitcode'])).text, 'w2 holds it').to.include('No changes.');
      await ok(ws, ['workspace', 'select', 'w1']);
      const again = flat((await run(ws, ['apply', '-auto-approve'])).text);
      expect(again).to.include('exists already, untracked').and.include(`This state's notes say it held ${made[0]}`);
      expect(again, 'one cause').to.not.include('cut off');
      expect(named(name), 'nothing made, nothing taken').to.deep.equal(made);
      await ok(ws, ['workspace', 'select', 'w2']);
      await ok(ws, ['destroy', '-auto-approve']);
      rows.push(`w1 applies, state mv to w2, w1 applies (refused), w2 destroys: ${named(name).length} channel(s)`);
      expect(named(name)).to.deep.equal([]);
    });

    it('`state rm` right after an apply: the next apply refuses with that one cause, and its `import` way out works', async () => {
      const name = `whose-${cli.command}-rm`;
      const ws = workspaceOf(name);
      await ok(ws, ['init']);
      await ok(ws, ['apply', '-auto-approve']);
      const made = named(name);
      await ok(ws, ['state', 'rm', ADDRESS]);
      const again = flat((await run(ws, ['apply', '-auto-approve'])).text);
      expect(again).to.include(`This state's notes say it held ${made[0]}`).and.include(`id = "${made[0]}"`);
      expect(again, 'one cause').to.not.include('cut off').and.not.include('Took over');
      expect(named(name)).to.deep.equal(made);
      writeFileSync(join(ws.configDir, 'import.tf'), `import {\n  to = ${ADDRESS}\n  id = "${made[0]}"\n}\n`);
      await ok(ws, ['apply', '-auto-approve']);
      expect((await ok(ws, ['plan', '-detailed-exitcode'])).text).to.include('No changes.');
      rows.push(`apply, state rm, apply (refused), import as it says: ${named(name).length} channel(s), no changes`);
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name)).to.deep.equal([]);
    });

    it('a tainted object replaced with `create_before_destroy`: its walk reads the old object, so the create goes on beside it and the old one goes', async () => {
      const name = `whose-${cli.command}-tainted`;
      const ws = workspaceOf(name);
      ws.writeConfig(
        HEAD + channel(name).replace(/\n}\n$/, '\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n'),
      );
      await ok(ws, ['init']);
      await ok(ws, ['apply', '-auto-approve']);
      const made = named(name);
      await ok(ws, ['taint', ADDRESS]);
      const replaced = await ok(ws, ['apply', '-auto-approve']);
      expect(replaced.text).to.include('1 added, 0 changed, 1 destroyed').and.not.include('untracked');
      const now = named(name);
      expect(now, 'the new object, alone').to.have.length(1).and.not.deep.equal(made);
      expect((await ok(ws, ['plan', '-detailed-exitcode'])).text).to.include('No changes.');
      rows.push(`apply, taint, apply (create_before_destroy): ${now.length} channel(s), the new one, no changes`);
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name)).to.deep.equal([]);
    });

    it('a `removed` block and a new resource of the same name, in a saved plan and in one plain apply: refused, as in two applies (a plain apply goes on under OpenTofu, whose plan walk reads what it forgets)', async () => {
      const name = `whose-${cli.command}-removed`;
      const ws = workspaceOf(name);
      await ok(ws, ['init']);
      await ok(ws, ['apply', '-auto-approve']);
      const made = named(name);
      const again = `resource "sec_alert_channel_email" "again" {\n  name       = "${name}"\n  recipients = ["oncall@example.com"]\n}\n`;
      const removed = `removed {\n  from = ${ADDRESS}\n  lifecycle {\n    destroy = false\n  }\n}\n`;
      // A saved plan, applied in a later job: its file says what it forgets.
      const importBack = (to: string, id = made[0]) => `import {\n  to = ${to}\n  id = "${id}"\n}\n`;
      ws.writeConfig(HEAD + removed + again);
      await ok(ws, ['plan', '-out=forget.tfplan']);
      const savedPlan = flat((await run(ws, ['apply', 'forget.tfplan'])).text);
      expect(savedPlan).to.include('exists already, untracked').and.include(`This apply's plan forgets ${made[0]}`);
      expect(named(name), 'no second object from the saved plan').to.deep.equal(made);
      // Its way out: the new resource takes the object back.
      ws.writeConfig(HEAD + again + importBack('sec_alert_channel_email.again'));
      await ok(ws, ['apply', '-auto-approve']);
      expect(named(name)).to.deep.equal(made);
      // A renamed key with no `moved` block, which destroys the old object, is no such case.
      ws.writeConfig(HEAD + again.replace('"again"', '"renamed"'));
      const renamed = await ok(ws, ['apply', '-auto-approve']);
      expect(renamed.text).to.include('1 added, 0 changed, 1 destroyed');
      const kept = named(name);
      expect(kept, 'the new object, alone').to.have.length(1).and.not.deep.equal(made);
      // One plain apply: Terraform's plan walk (since 1.10) reads every object of the state but what it
      // forgets, so it is refused the same way; OpenTofu's reads that one too, which makes the calls of a
      // tainted object's replacement: the create goes on (README, "Whose object is it").
      const third = again.replace('"again"', '"third"');
      ws.writeConfig(HEAD + removed.replace(ADDRESS, 'sec_alert_channel_email.renamed') + third);
      const plain = flat((await run(ws, ['apply', '-auto-approve'])).text);
      if (cli.command === 'terraform') {
        expect(plain)
          .to.include('exists already, untracked')
          .and.include(`This apply's plan forgets ${kept[0]}`)
          .and.include('take out the `removed` block');
        expect(named(name), 'no second object from one plain apply').to.deep.equal(kept);
        ws.writeConfig(HEAD + third + importBack('sec_alert_channel_email.third', kept[0]));
      } else {
        expect(named(name), 'the create beside, as a tainted replacement').to.have.length(2);
        ws.writeConfig(HEAD + third + again + importBack('sec_alert_channel_email.again', kept[0]));
      }
      await ok(ws, ['apply', '-auto-approve']);
      expect((await ok(ws, ['plan', '-detailed-exitcode'])).text).to.include('No changes.');
      rows.push(
        `apply, removed + the same name in a saved plan (refused), import, renamed key, removed + the same name ` +
          `in one apply (${cli.command === 'terraform' ? 'refused' : 'made beside'}), import: ` +
          `${named(name).length} channel(s)`,
      );
      await ok(ws, ['destroy', '-auto-approve']);
      expect(named(name)).to.deep.equal([]);
    });
  });

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: a killed run's request, on the platform's clock, under ${cli.name}`, function () {
    this.timeout(600_000);
    let options: WorkspaceOptions;
    let mirror: string | undefined;
    let api: SecEmulator | undefined;
    const spaces: Workspace[] = [];
    const rows: string[] = [];

    before(function () {
      mirror = mkdtempSync(join(tmpdir(), 'keel-mirror-'));
      options = { ...cli.workspace(this), cliConfig: localMirror(mirror) };
    });
    afterEach(async () => {
      for (const ws of spaces.splice(0)) ws.dispose();
      await api?.close();
      api = undefined;
    });
    after(() => {
      if (mirror) rmSync(mirror, { recursive: true, force: true });
      console.log(`\n  a killed run's request, under ${cli.name}: what the platform holds after`);
      for (const row of rows) console.log(`    ${row}`);
    });

    const workspaceOf = (config: string) => {
      const ws = new Workspace(HEAD + config, secProviderEnv(api!), options);
      spaces.push(ws);
      return ws;
    };
    /** An apply whose provider is killed once the create request on `path` reached the platform. */
    async function killedAtCreate(ws: Workspace, path: RegExp, args: string[] = []): Promise<void> {
      const seen = api!.requestsReceived();
      const apply = ws.start(['apply', '-auto-approve', '-no-color', ...args]);
      // The requests received since it started: the newest of the log.
      const since = () => api!.requests.slice(api!.requests.length - (api!.requestsReceived() - seen));
      const reached = () => since().some((r) => r.method === 'POST' && path.test(r.path));
      await until(reached, 'the create request reaches the platform');
      for (const pid of providerProcessesIn(ws.configDir, 'sec')) killOutright(pid);
      const result = await apply.done;
      expect(result.code, `the killed apply fails\n${result.stdout}\n${result.stderr}`).to.not.equal(0);
      await noProviderProcessesIn(ws.configDir, 'sec', 30_000);
    }
    /** The ids of the objects of `collection` named `name`. */
    const holding = (collection: string, name: string) =>
      api!
        .list<{ name?: string; intgGuid?: string; resourceGroupGuid?: string }>(collection)
        .filter((o) => o.name === name)
        .map((o) => o.intgGuid ?? o.resourceGroupGuid);

    it('a request that never reached the platform, of a type it gives no creation time: another configuration’s later object is named, never taken', async () => {
      api = await startSecEmulator();
      const name = `lost-${cli.command}`;
      const killed = workspaceOf(resourceGroups(name));
      await ok(killed, ['init']);
      // Held 5 s, then the connection drops unhandled: the request never reaches the platform.
      api.injectFault({ method: 'POST', path: /ResourceGroups$/, delayMs: 5_000, dropConnection: true });
      await killedAtCreate(killed, /ResourceGroups$/);
      await delay(5_500);
      expect(holding('ResourceGroups', name), 'nothing made').to.have.length(0);
      const other = workspaceOf(resourceGroups(name));
      await ok(other, ['init']);
      await ok(other, ['apply', '-auto-approve']);
      const theirs = holding('ResourceGroups', name);
      expect(theirs).to.have.length(1);
      const again = flat((await run(killed, ['apply', '-auto-approve'])).text);
      expect(again).to.include('Create outcome unknown').and.not.include('Took over');
      expect(holding('ResourceGroups', name), 'the other configuration’s, alone and untaken').to.deep.equal(theirs);
      await ok(other, ['destroy', '-auto-approve']);
      // With nothing the request may have made, the killed configuration makes its own.
      await ok(killed, ['apply', '-auto-approve']);
      rows.push(
        `lost request, another configuration's later look-alike named, then its own: ${holding('ResourceGroups', name).length} group(s)`,
      );
      await ok(killed, ['destroy', '-auto-approve']);
    });

    it('the platform’s clock two minutes ahead of the runner’s: what the killed run’s request made is taken back, said in the apply', async () => {
      api = await startSecEmulator();
      api.clock.advance(120_000);
      const name = `skewed-${cli.command}`;
      const killed = workspaceOf(channel(name));
      await ok(killed, ['init']);
      // Made 3 s after it arrived, whether or not anyone still waits for the answer.
      api.injectFault({ method: 'POST', path: /AlertChannels$/, delayMs: 3_000, slow: true });
      await killedAtCreate(killed, /AlertChannels$/);
      await delay(3_500);
      const made = holding('AlertChannels', name);
      expect(made, 'the platform made it').to.have.length(1);
      const again = await ok(killed, ['apply', '-auto-approve']);
      expect(flat(again.text)).to.include('Took over');
      expect(holding('AlertChannels', name), 'no second object').to.deep.equal(made);
      rows.push(
        `runner 2 min behind the platform, killed with the request out: ${holding('AlertChannels', name).length} channel(s), taken back`,
      );
      await ok(killed, ['destroy', '-auto-approve']);
    });

    it('the platform’s clock two minutes behind the runner’s: another configuration’s object made 100 s after a lost request is never taken', async () => {
      api = await startSecEmulator({ clockOffsetMs: -120_000 });
      const name = `behind-${cli.command}`;
      const killed = workspaceOf(channel(name));
      await ok(killed, ['init']);
      api.injectFault({ method: 'POST', path: /AlertChannels$/, delayMs: 3_000, dropConnection: true });
      await killedAtCreate(killed, /AlertChannels$/);
      await delay(3_500);
      expect(holding('AlertChannels', name), 'nothing made').to.have.length(0);
      // 100 s later on the platform's clock, another configuration makes one of the same name.
      api.clock.advance(100_000);
      const other = workspaceOf(channel(name));
      await ok(other, ['init']);
      await ok(other, ['apply', '-auto-approve']);
      const theirs = holding('AlertChannels', name);
      const again = flat((await run(killed, ['apply', '-auto-approve'])).text);
      expect(again).to.include('exists already, untracked').and.not.include('Took over');
      expect(holding('AlertChannels', name), 'the other configuration’s, alone and untaken').to.deep.equal(theirs);
      rows.push(
        `runner 2 min ahead of the platform, a lost request, another's look-alike 100 s later: refused, ${holding('AlertChannels', name).length} channel(s)`,
      );
      await ok(other, ['destroy', '-auto-approve']);
    });

    it('a `create_before_destroy` replacement killed after the platform made its object: the next plan names it, and `-replace` again takes it over', async () => {
      api = await startSecEmulator();
      const name = `replaced-${cli.command}`;
      const cbd = channel(name).replace(/\n}\n$/, '\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n');
      const ws = workspaceOf(cbd);
      await ok(ws, ['init']);
      await ok(ws, ['apply', '-auto-approve']);
      const [first] = holding('AlertChannels', name);
      api.injectFault({ method: 'POST', path: /AlertChannels$/, delayMs: 3_000, slow: true });
      await killedAtCreate(ws, /AlertChannels$/, [`-replace=${ADDRESS}`]);
      await delay(3_500);
      const replacement = holding('AlertChannels', name).find((id) => id !== first);
      expect(replacement, 'the platform made the replacement').to.be.a('string');
      // A plain apply changes nothing, and says what the cut-off run made and what to do.
      const plain = flat((await ok(ws, ['apply', '-auto-approve'])).text);
      expect(plain, plain).to.include('A cut-off run made another').and.include(replacement!).and.include('-replace=');
      // Its first way out: replace again, which takes that object over instead of making a third.
      const again = flat((await ok(ws, ['apply', '-auto-approve', `-replace=${ADDRESS}`])).text);
      expect(again).to.include(`Took over ${replacement}`);
      expect(holding('AlertChannels', name), 'the replacement, alone').to.deep.equal([replacement]);
      expect((await ok(ws, ['plan', '-detailed-exitcode'])).text).to.include('No changes.');
      rows.push(
        `create_before_destroy replacement killed, named, replaced again: ${holding('AlertChannels', name).length} channel(s)`,
      );
      await ok(ws, ['destroy', '-auto-approve']);
    });
  });

const KEY_EXPIRING = (offset: string) => `terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}
provider "vdb" {}
data "vdb_booking_packages" "aws" {
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
}
resource "vdb_accounts_cluster" "c" {
  name           = "expiring-key-cluster"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = one([for p in data.vdb_booking_packages.aws.packages : p.id if p.name == "small"])
    }
  }
}
resource "vdb_accounts_database_api_key_v2" "k" {
  cluster_id = vdb_accounts_cluster.c.id
  name       = "expiring"
  expires_at = timeadd(plantimestamp(), "${offset}")
}
`;

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: a destroy is never blocked by what a create would need, under ${cli.name}`, function () {
    this.timeout(300_000);

    it('an API key whose expiry moves with the plan’s time, now past: a plan refuses it, the destroy goes on', async function () {
      const mirror = mkdtempSync(join(tmpdir(), 'keel-mirror-'));
      const vdb = await startEmulator.vdb({ provisioningMs: 300 });
      const ws = new Workspace(KEY_EXPIRING('1h'), vdb.env, { ...cli.workspace(this), cliConfig: localMirror(mirror) });
      try {
        await ok(ws, ['init']);
        await ok(ws, ['apply', '-auto-approve']);
        // A busy runner: the expiry the plan's time gives has passed by the time the provider plans.
        ws.writeConfig(KEY_EXPIRING('-1h'));
        expect(flat((await ok(ws, ['plan'], 1)).text)).to.include('must be in the future');
        await ok(ws, ['destroy', '-auto-approve']);
        expect(vdb.ids('databaseApiKeys'), 'the key deleted').to.deep.equal([]);
      } finally {
        ws.dispose();
        rmSync(mirror, { recursive: true, force: true });
        await vdb.close();
      }
    });
  });
