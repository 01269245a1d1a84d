/**
 * Whose object is it, in the shapes teams run (docs/decisions.md, "Whose object is it"), under
 * Terraform 1.15.5 and OpenTofu against the emulators, sec and vdb; Pulumi's in workflows-pulumi.test.ts.
 * Each workflow prints what the plans said and what the platform holds after:
 *
 * - workspaces of one configuration in one directory, same names, default settings: each makes its
 *   own objects; a third workspace with `adopt` (retired: it acts as `refuse`) makes its own too, and its
 *   destroy deletes only those; a name the platform keeps unique is refused at plan, naming the workspace;
 * - two folders (two states) with the same names: the second's plan warns, and its apply refuses before
 *   sending the create, naming every likely cause; the way out it gives (`create` for one run) makes its
 *   own object, and later plans are empty; a unique name is refused with no second object offered;
 * - a pipeline that plans B before A is applied, B naming A's objects by fixed id or a mock value: B's
 *   plan warns and passes; after A's apply, B applies;
 * - an object a `local-exec` script makes during the apply, named by a fixed id (sec: vdb ids are the
 *   platform's, never known before the object exists);
 * - `-target` on a fresh runner with a same-named sibling in the state: a warning, and the create;
 * - refused credentials and a platform that does not answer at plan: a warning naming the resource;
 * - a destroy after an apply refused by a reference check: the destroy goes through;
 * - `for_each` keys renamed without `moved` on a fresh runner (the creates beside the old keys' destroys,
 *   in no fixed order): none refused, one object per name; a destroy spelled `-destroy=TRUE`;
 * - two workspaces of one directory, one applying while the other's apply runs: each makes its own;
 * - `state rm` of a free name's and a unique name's resource, then apply: each refused alike, naming the cause;
 * - a saved `-replace` plan of a `create_before_destroy` resource applied on another runner, sharing the
 *   records or not (the plan file carries the state it was made against);
 * - a CI job killed mid-apply, re-run on a fresh runner with its state in an `http` backend, with or without
 *   a saved plan: the create refused before it is sent, on its resource, naming the object, and the import
 *   the message gives adopts it; no duplicate.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createServer, type Server } from 'node:net';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { isCreateOperation, startEmulator, type EmulatorHandle, type Provider } from './examples-workspace.js';
import { REPO_ROOT, Workspace, type RunResult, type WorkspaceOptions } from './terraform.js';
import { startStateServer, type StateServer } from './state-server.js';
import { killOutright } from './processes.js';
import { localMirror } from './local-mirror.js';

/** What each provider's workflows make: a type whose name the platform does not keep unique, and its place. */
interface Subject {
  readonly provider: Provider;
  /** The emulator's collection holding the free-key type. */
  readonly collection: string;
  readonly head: string;
  /** A free-key object named `name`, at `address` (its resource name). */
  readonly free: (address: string, name: string, extra?: string) => string;
  readonly freeType: string;
  /** The attribute holding the id a reference names. */
  readonly idAttribute: string;
}

const SUBJECTS: Record<Provider, Subject> = {
  sec: {
    provider: 'sec',
    collection: 'AlertChannels',
    head: 'terraform {\n  required_providers {\n    sec = { source = "keel/sec" }\n  }\n}\nprovider "sec" {}\n',
    freeType: 'sec_alert_channel_email',
    free: (address, name, extra = '') =>
      `resource "sec_alert_channel_email" "${address}" {\n  name       = "${name}"\n  recipients = ["oncall@example.com"]\n${extra}}\n`,
    idAttribute: 'intg_guid',
  },
  vdb: {
    provider: 'vdb',
    collection: 'roles',
    head: 'terraform {\n  required_providers {\n    vdb = { source = "keel/vdb" }\n  }\n}\nprovider "vdb" {}\n',
    freeType: 'vdb_accounts_role',
    free: (address, name, extra = '') =>
      `resource "vdb_accounts_role" "${address}" {\n  name        = "${name}"\n  description = "On call"\n  permissions {\n    value = "read:clusters"\n  }\n${extra}}\n`,
    idAttribute: 'id',
  },
};

/** One line of the printed table. */
type Row = [workflow: string, said: string, holds: string];

/** What a command printed, its lines as Terraform wraps them joined again. */
const wholeText = (r: RunResult) => `${r.stdout}\n${r.stderr}`.replace(/\s+/g, ' ');

const ALL_WARNINGS = /Warning: ([^\n]+)/g;
const ALL_ERRORS = /Error: ([^\n]+)/g;
const said = (r: RunResult): string => {
  const text = `${r.stdout}\n${r.stderr}`;
  const errors = [...text.matchAll(ALL_ERRORS)].map((m) => `error "${m[1]!.trim()}"`);
  const warnings = [...text.matchAll(ALL_WARNINGS)]
    .map((m) => m[1]!.trim())
    .filter((w) => !w.startsWith('Provider development overrides'))
    .map((w) => `warning "${w}"`);
  const plan = /Plan: [^\n]+/.exec(text)?.[0] ?? (/No changes\./.test(text) ? 'No changes.' : '');
  return [`exit ${r.code}`, plan, ...new Set([...errors, ...warnings])].filter(Boolean).join('; ');
};

for (const cli of ACCEPTANCE_CLIS)
  describe(`acceptance: whose object is it, workflows under ${cli.name}`, function () {
    this.timeout(600_000);
    let options: WorkspaceOptions;
    const emulators = {} as Record<Provider, EmulatorHandle>;
    let states: StateServer;
    const rows: Row[] = [];
    const spaces: Workspace[] = [];
    let mirror: string | undefined;

    before(async function () {
      // Installed from a mirror of this checkout by `init`, as a team's machines install a release.
      mirror = mkdtempSync(join(tmpdir(), 'keel-mirror-'));
      options = { ...cli.workspace(this), cliConfig: localMirror(mirror) };
      const [sec, vdb, server] = await Promise.all([startEmulator.sec(), startEmulator.vdb(), startStateServer()]);
      emulators.sec = sec;
      emulators.vdb = vdb;
      states = server;
    });

    after(async () => {
      for (const ws of spaces) ws.dispose();
      if (mirror) rmSync(mirror, { recursive: true, force: true });
      await Promise.all([emulators.sec?.close(), emulators.vdb?.close(), states?.close()]);
      const width = Math.max(...rows.map((r) => r[0].length));
      console.log(`\n  workflows under ${cli.name}: what the plans said, what the platform holds after`);
      for (const [workflow, what, holds] of rows) console.log(`    ${workflow.padEnd(width)}  ${what}  =>  ${holds}`);
    });

    /** A working directory of `hcl` against the provider's emulator, initialised: a fresh runner each time. */
    const directory = async (s: Subject, hcl: string, env: Record<string, string> = {}) => {
      const ws = new Workspace(s.head + hcl, { ...emulators[s.provider].env, ...env }, options);
      spaces.push(ws);
      await initOk(ws);
      return ws;
    };
    const named = (s: Subject, name: string) =>
      emulators[s.provider].ids(s.collection).filter((id) => {
        const held = emulators[s.provider].get(s.collection, id) as { name?: string };
        return held?.name === name;
      });
    const holds = (s: Subject, name: string) => `${named(s, name).length} object(s) named "${name}"`;
    const run = async (ws: Workspace, args: string[], env: Record<string, string> = {}) =>
      ws.run([...args, '-no-color'], env);
    const applyOk = async (ws: Workspace, env: Record<string, string> = {}, more: string[] = []) => {
      const r = await run(ws, ['apply', '-auto-approve', ...more], env);
      expect(r.code, `apply\n${r.stdout}\n${r.stderr}`).to.equal(0);
      return r;
    };
    const initOk = async (ws: Workspace) => {
      const r = await run(ws, ['init']);
      expect(r.code, `init\n${r.stdout}\n${r.stderr}`).to.equal(0);
    };
    const planEmpty = async (ws: Workspace, env: Record<string, string> = {}) => {
      const r = await run(ws, ['plan', '-detailed-exitcode'], env);
      expect(r.code, `an empty re-plan\n${r.stdout}\n${r.stderr}`).to.equal(0);
      return r;
    };

    for (const provider of ['sec', 'vdb'] as const) {
      const s = SUBJECTS[provider];
      const variable = (setting: string) => `${provider.toUpperCase()}_${setting}`;

      it(`${provider}: workspaces of one configuration in one directory, same names`, async () => {
        const name = `wf-${cli.command}-spaces`;
        const ws = await directory(s, s.free('oncall', name));
        for (const space of ['dev', 'staging']) {
          expect((await run(ws, ['workspace', 'new', space])).code).to.equal(0);
          rows.push([`${provider}: workspace ${space}, default settings`, said(await applyOk(ws)), holds(s, name)]);
        }
        expect(named(s, name), 'each workspace made its own').to.have.length(2);
        // The third with the setting the README once advised for CI: it takes nothing of the others'.
        expect((await run(ws, ['workspace', 'new', 'prod'])).code).to.equal(0);
        const adopt = { [variable('UNTRACKED_OBJECTS')]: 'adopt' };
        const prod = await applyOk(ws, adopt);
        const made = named(s, name);
        rows.push([`${provider}: workspace prod, untracked_objects = adopt (retired)`, said(prod), holds(s, name)]);
        expect(made, 'prod made its own').to.have.length(3);
        const destroyed = await run(ws, ['destroy', '-auto-approve'], adopt);
        expect(destroyed.code).to.equal(0);
        rows.push([`${provider}: workspace prod's destroy`, said(destroyed), holds(s, name)]);
        expect(named(s, name), "prod's destroy took only prod's").to.have.length(2);
        for (const space of ['dev', 'staging']) {
          expect((await run(ws, ['workspace', 'select', space])).code).to.equal(0);
          await planEmpty(ws);
          expect((await run(ws, ['destroy', '-auto-approve'])).code).to.equal(0);
        }
        expect(named(s, name)).to.deep.equal([]);
        if (provider !== 'sec') return;
        // A name the platform keeps unique: the second workspace's plan says whose it is.
        const token = `resource "sec_agent_access_token" "fleet" {\n  name = "wf-${cli.command}-token"\n}\n`;
        const unique = await directory(s, token);
        expect((await run(unique, ['workspace', 'new', 'dev'])).code).to.equal(0);
        await applyOk(unique);
        expect((await run(unique, ['workspace', 'new', 'staging'])).code).to.equal(0);
        const refused = await run(unique, ['plan']);
        rows.push(['sec: workspace staging, a unique name dev holds', said(refused), "dev's token only"]);
        expect(refused.code).to.equal(1);
        expect(wholeText(refused))
          .to.include('the state of workspace "dev" made or holds that object')
          .and.include('terraform.workspace');
        expect((await run(unique, ['workspace', 'select', 'dev'])).code).to.equal(0);
        expect((await run(unique, ['destroy', '-auto-approve'])).code).to.equal(0);
      });

      it(`${provider}: \`state rm\` then apply: one decision and one message for every type, naming how it left the state`, async () => {
        const name = `wf-${cli.command}-state-rm`;
        const token = `resource "sec_agent_access_token" "fleet" {\n  name = "${name}-token"\n}\n`;
        const config = s.free('gone', name) + (provider === 'sec' ? token : '');
        const addresses = [`${s.freeType}.gone`, ...(provider === 'sec' ? ['sec_agent_access_token.fleet'] : [])];
        const ws = await directory(s, config);
        await applyOk(ws);
        await planEmpty(ws);
        expect((await run(ws, ['state', 'rm', ...addresses])).code).to.equal(0);
        const applied = await run(ws, ['apply', '-auto-approve']);
        rows.push([
          `${provider}: apply after state rm of ${addresses.length} resource(s)`,
          said(applied),
          holds(s, name),
        ]);
        expect(applied.code, applied.stdout + applied.stderr).to.equal(1);
        const text = wholeText(applied);
        for (const address of addresses) expect(text).to.include(`with ${address}`);
        const causes = text.match(
          /taken out of it \(`(terraform|tofu) state rm`, a `removed` block, `(terraform|tofu) state mv` into another state, or `(terraform|tofu) workspace delete` and the workspace made again\)/g,
        );
        expect(causes, 'one cause, said alike for each').to.have.length(addresses.length);
        expect(named(s, name), 'nothing made twice').to.have.length(1);
        // The way out the message gives: import each.
        const id = named(s, name)[0]!;
        const imports = [`import {\n  to = ${s.freeType}.gone\n  id = "${id}"\n}\n`];
        if (provider === 'sec')
          imports.push(`import {\n  to = sec_agent_access_token.fleet\n  id = "${name}-token"\n}\n`);
        ws.writeConfig(s.head + config + imports.join(''));
        await applyOk(ws);
        await planEmpty(ws);
        expect((await run(ws, ['destroy', '-auto-approve'])).code).to.equal(0);
        expect(named(s, name)).to.deep.equal([]);
      });

      it(`${provider}: two folders with the same names`, async () => {
        const name = `wf-${cli.command}-folders`;
        const first = await directory(s, s.free('oncall', name));
        await applyOk(first);
        const second = await directory(s, s.free('oncall', name));
        // The plan cannot know yet whether its walk will show the object: it warns; the apply decides.
        const warned = await run(second, ['plan']);
        expect(warned.code).to.equal(0);
        expect(wholeText(warned)).to.include('Objects like planned creates exist, untracked');
        const refused = await run(second, ['apply', '-auto-approve']);
        rows.push([`${provider}: second folder, default settings`, said(refused), holds(s, name)]);
        expect(refused.code).to.equal(1);
        expect(named(s, name), 'nothing sent').to.have.length(1);
        const message = wholeText(refused);
        expect(message).to.include('killed before its state was saved').and.include("another workspace's");
        expect(message)
          .to.include(`${cli.command} import <address>`)
          .and.include(`${variable('UNTRACKED_OBJECTS')}=create`);
        // The way out the message gives, for one run; the state remembers what it was created beside.
        const created = await applyOk(second, { [variable('UNTRACKED_OBJECTS')]: 'create' });
        rows.push([
          `${provider}: second folder, ${variable('UNTRACKED_OBJECTS')}=create once`,
          said(created),
          holds(s, name),
        ]);
        expect(named(s, name)).to.have.length(2);
        const again = await planEmpty(second);
        rows.push([`${provider}: second folder, the next plan (default)`, said(again), holds(s, name)]);
        for (const ws of [first, second]) expect((await run(ws, ['destroy', '-auto-approve'])).code).to.equal(0);
        expect(named(s, name)).to.deep.equal([]);
        if (provider !== 'sec') return;
        const token = `resource "sec_agent_access_token" "fleet" {\n  name = "wf-${cli.command}-shared-token"\n}\n`;
        const a = await directory(s, token);
        await applyOk(a);
        const b = await directory(s, token);
        const unique = await run(b, ['apply', '-auto-approve'], { SEC_UNTRACKED_OBJECTS: 'create' });
        rows.push([
          'sec: second folder, a unique name, even with create',
          said(unique),
          "the first folder's token only",
        ]);
        expect(unique.code).to.equal(1);
        expect(wholeText(unique)).to.include('keeps its name unique').and.not.include('=create');
        expect((await run(a, ['destroy', '-auto-approve'])).code).to.equal(0);
      });

      it(`${provider}: a pipeline plans B before A is applied`, async () => {
        const ns = `wf-${cli.command}-pipe`;
        const a = await directory(s, pipelineA(provider, ns));
        const b = await directory(s, pipelineB(provider, ns));
        const mock = provider === 'sec' ? 'EXAMPLE_MOCK_CHANNEL' : '00000000-0000-4000-8000-000000000001';
        const planned = await run(b, ['plan', '-var', `mock_id=${mock}`]);
        rows.push([`${provider}: B planned before A, fixed ids and a mock value`, said(planned), 'nothing of B']);
        expect(planned.code, planned.stdout + planned.stderr).to.equal(0);
        expect(wholeText(planned)).to.include('Names no existing object').and.include('looks again then');
        await applyOk(a);
        const id = (await a.state()).get(
          provider === 'sec' ? 'sec_alert_channel_email.target' : 'vdb_accounts_role.target',
        )!.values[s.idAttribute] as string;
        const applied = await applyOk(b, {}, ['-var', `mock_id=${id}`]);
        rows.push([`${provider}: B applied after A, the real id`, said(applied), 'B applied']);
        expect((await run(b, ['destroy', '-auto-approve', '-var', `mock_id=${id}`])).code).to.equal(0);
        expect((await run(a, ['destroy', '-auto-approve'])).code).to.equal(0);
      });

      if (provider === 'sec')
        it('sec: an object a local-exec script makes during the apply, named by a fixed id', async () => {
          const script = join(mkdtempSync(join(tmpdir(), 'keel-script-')), 'make-query.mjs');
          writeFileSync(script, scriptMakingQuery(`WF_${cli.command}_Scripted`));
          const hcl =
            `resource "terraform_data" "script" {\n  provisioner "local-exec" {\n    command = ${JSON.stringify(`"${process.execPath}" "${script}"`)}\n  }\n}\n` +
            policyOn(`WF_${cli.command}_Scripted`, `ws${cli.command}`, 'depends_on = [terraform_data.script]');
          const ws = await directory(s, hcl);
          const planned = await run(ws, ['plan']);
          expect(planned.code, planned.stdout + planned.stderr).to.equal(0);
          const applied = await applyOk(ws);
          rows.push([
            'sec: a query a local-exec script makes, named by a fixed id',
            `${said(planned)} / ${said(applied)}`,
            'the policy on it',
          ]);
          await planEmpty(ws);
          expect((await run(ws, ['destroy', '-auto-approve'])).code).to.equal(0);
          emulators.sec.remove('Queries', `WF_${cli.command}_Scripted`);
        });

      it(`${provider}: -target on a fresh runner beside a same-named sibling`, async () => {
        const name = `wf-${cli.command}-target`;
        const backend = `terraform {\n  backend "http" {\n    address = ${JSON.stringify(states.address(`${provider}-${cli.command}-target`))}\n  }\n}\n`;
        const one = await directory(s, backend + s.free('twin', name, '  count = 1\n'));
        await applyOk(one);
        const fresh = await directory(s, backend + s.free('twin', name, '  count = 2\n'));
        const targeted = await applyOk(fresh, {}, [`-target=${s.freeType}.twin[1]`]);
        rows.push([
          `${provider}: -target on a fresh runner, a sibling of the same name`,
          said(targeted),
          holds(s, name),
        ]);
        expect(wholeText(targeted)).to.include('narrowed (`-target`, `-exclude`)');
        expect(named(s, name)).to.have.length(2);
        expect((await run(fresh, ['destroy', '-auto-approve'])).code).to.equal(0);
        expect(named(s, name)).to.deep.equal([]);
      });

      it(`${provider}: refused credentials and a platform that does not answer, at plan`, async () => {
        const name = `wf-${cli.command}-down`;
        const wrong: Record<string, string> =
          provider === 'sec' ? { SEC_API_SECRET: '_not-the-secret' } : { VDB_API_KEY: 'not-the-key' };
        const ws = await directory(s, s.free('oncall', name));
        let started = Date.now();
        const refused = await run(ws, ['plan'], wrong);
        rows.push([
          `${provider}: credentials refused, plan (${Date.now() - started} ms)`,
          said(refused),
          holds(s, name),
        ]);
        expect(wholeText(refused)).to.include(`Could not look for objects like`);
        const silent = await blackHole();
        try {
          const down: Record<string, string> = { [variable('API_URL')]: `http://127.0.0.1:${silent.port}` };
          started = Date.now();
          const noAnswer = await run(ws, ['plan'], down);
          const ms = Date.now() - started;
          rows.push([`${provider}: platform not answering, plan (${ms} ms)`, said(noAnswer), holds(s, name)]);
          expect(wholeText(noAnswer)).to.include('did not answer within');
        } finally {
          silent.server.close();
        }
      });

      it(`${provider}: a destroy after an apply refused by a reference check`, async () => {
        const name = `wf-${cli.command}-refused`;
        const ws = await directory(s, s.free('real', name) + danglingReference(provider));
        const applied = await run(ws, ['apply', '-auto-approve']);
        rows.push([`${provider}: apply naming an object that does not exist`, said(applied), holds(s, name)]);
        expect(applied.code).to.equal(1);
        expect(wholeText(applied)).to.include('nothing was sent');
        // Strict, so that the plan before the destroy would refuse the dangling name if it judged it.
        const destroyed = await run(ws, ['destroy', '-auto-approve'], { [variable('MISSING_REFERENCES')]: 'refuse' });
        rows.push([`${provider}: the destroy after it, missing_references = refuse`, said(destroyed), holds(s, name)]);
        expect(destroyed.code, destroyed.stdout + destroyed.stderr).to.equal(0);
        expect(named(s, name)).to.deep.equal([]);
      });

      it(`${provider}: for_each keys renamed without moved, on a fresh runner; then a destroy spelled -destroy=TRUE`, async () => {
        const name = `wf-${cli.command}-rename`;
        const backend = `terraform {\n  backend "http" {\n    address = ${JSON.stringify(states.address(`${provider}-${cli.command}-rename`))}\n  }\n}\n`;
        const keyed = (prefix: string) =>
          `${backend}locals {\n  members = { ${Array.from({ length: 12 }, (_, i) => `${prefix}${i} = "${i}"`).join(', ')} }\n}\n` +
          s.free('each', `${name}-\${each.value}`, '  for_each = local.members\n');
        const first = await directory(s, keyed('old'));
        await applyOk(first);
        const count = () => Array.from({ length: 12 }, (_, i) => named(s, `${name}-${i}`).length);
        // A fresh runner: the new keys' creates and the old keys' destroys, in no fixed order, with
        // the names the old objects hold: the apply decides on what its plan walk showed.
        const fresh = await directory(s, keyed('new'));
        const renamed = await applyOk(fresh);
        rows.push([`${provider}: 12 for_each keys renamed, fresh runner`, said(renamed), `${count().join(' ')}`]);
        expect(count(), 'one object per name').to.deep.equal(Array(12).fill(1));
        await planEmpty(fresh);
        const destroyed = await run(fresh, ['apply', '-destroy=TRUE', '-auto-approve']);
        rows.push([`${provider}: apply -destroy=TRUE`, said(destroyed), `${count().join(' ')}`]);
        expect(destroyed.code, destroyed.stdout + destroyed.stderr).to.equal(0);
        expect(count()).to.deep.equal(Array(12).fill(0));
      });

      it(`${provider}: two workspaces applied side by side, one planning while the other's apply runs`, async () => {
        const name = `wf-${cli.command}-side`;
        const emulator = emulators[provider];
        const ws = await directory(s, s.free('oncall', name));
        for (const space of ['dev', 'staging']) expect((await run(ws, ['workspace', 'new', space])).code).to.equal(0);
        const isCreate = isCreateOperation(provider);
        const creates = () => emulator.operations().filter(isCreate).length;
        const before = creates();
        emulator.setFaultProfile({ seed: 5, rate: 1, kinds: ['slow'], slowMs: 2_000 });
        const dev = ws.start(['apply', '-auto-approve', '-no-color'], { TF_WORKSPACE: 'dev' });
        try {
          const until = Date.now() + 60_000;
          while ((creates() === before || named(s, name).length === 0) && Date.now() < until) await delay(10);
          // dev's create is made, its apply still running: staging plans and applies its own.
          const staging = await run(ws, ['apply', '-auto-approve'], { TF_WORKSPACE: 'staging' });
          rows.push([`${provider}: staging applied while dev's apply runs`, said(staging), holds(s, name)]);
          expect(staging.code, staging.stdout + staging.stderr).to.equal(0);
          expect(wholeText(staging)).to.not.include('import');
        } finally {
          emulator.setFaultProfile(undefined);
          const done = await dev.done;
          expect(done.code, done.stdout + done.stderr).to.equal(0);
        }
        expect(named(s, name), 'each workspace made its own').to.have.length(2);
        for (const space of ['dev', 'staging']) {
          await planEmpty(ws, { TF_WORKSPACE: space });
          expect((await run(ws, ['destroy', '-auto-approve'], { TF_WORKSPACE: space })).code).to.equal(0);
        }
        expect(named(s, name)).to.deep.equal([]);
      });

      for (const sharing of [true, false])
        it(`${provider}: a saved plan replacing a create_before_destroy resource, applied on another runner ${sharing ? 'sharing the records' : 'with none of them'}`, async () => {
          const name = `wf-${cli.command}-cbd-${sharing ? 'shared' : 'fresh'}`;
          const backend = `terraform {\n  backend "http" {\n    address = ${JSON.stringify(states.address(`${provider}-${cli.command}-${name}`))}\n  }\n}\n`;
          const config = backend + s.free('kept', name, '  lifecycle {\n    create_before_destroy = true\n  }\n');
          // The self-hosted recipe: the records on a volume both jobs share; or none: the apply then reads
          // the state the plan was made against from the plan file.
          const volume = mkdtempSync(join(tmpdir(), 'keel-volume-'));
          const shared = sharing ? { [variable('CREATE_RECORDS_DIR')]: volume } : {};
          const planner = await directory(s, config, shared);
          await applyOk(planner);
          const planFile = join(planner.dir, 'replace.tfplan');
          const planned = await run(planner, ['plan', `-replace=${s.freeType}.kept`, `-out=${planFile}`]);
          expect(planned.code, planned.stdout + planned.stderr).to.equal(0);
          const applier = await directory(s, config, shared);
          const applied = await run(applier, ['apply', planFile]);
          rows.push([
            `${provider}: saved -replace plan of a create_before_destroy resource, another runner${sharing ? ', shared records' : ''}`,
            said(applied),
            holds(s, name),
          ]);
          expect(applied.code, applied.stdout + applied.stderr).to.equal(0);
          expect(named(s, name), 'the replacement only').to.have.length(1);
          await planEmpty(applier);
          expect((await run(applier, ['destroy', '-auto-approve'])).code).to.equal(0);
          rmSync(volume, { recursive: true, force: true });
        });

      for (const saved of [false, true])
        it(`${provider}: a CI job killed mid-apply, re-run on a fresh runner${saved ? ', applying its saved plan again' : ''}`, async () => {
          const name = `wf-${cli.command}-killed${saved ? '-saved' : ''}`;
          const emulator = emulators[provider];
          const backend = `terraform {\n  backend "http" {\n    address = ${JSON.stringify(states.address(`${provider}-${name}`))}\n  }\n}\n`;
          const config = backend + s.free('job', name);
          const job = await directory(s, config);
          // A pipeline's plan job saves the plan; its apply job applies that file, and so does the re-run.
          const planFile = join(job.dir, 'job.tfplan');
          if (saved) expect((await run(job, ['plan', `-out=${planFile}`])).code).to.equal(0);
          const applying = saved ? ['apply', '-no-color', planFile] : ['apply', '-auto-approve', '-no-color'];
          const isCreate = isCreateOperation(provider);
          const creates = () => emulator.operations().filter(isCreate).length;
          const before = creates();
          emulator.setFaultProfile({ seed: 3, rate: 1, kinds: ['slow'], slowMs: 1_500 });
          const killed = job.start(applying, {}, { group: true });
          // Killed once the platform made the object, while its answer is on its way.
          const until = Date.now() + 60_000;
          while ((creates() === before || named(s, name).length === 0) && Date.now() < until) await delay(10);
          killOutright(-killed.pid);
          await killed.done;
          await delay(2_000);
          emulator.setFaultProfile(undefined);
          expect(named(s, name), 'the killed job made the object').to.have.length(1);
          const fresh = await directory(s, config);
          const refused = await run(fresh, saved ? ['apply', planFile] : ['apply', '-auto-approve']);
          rows.push([
            `${provider}: the killed job's re-run on a fresh runner${saved ? ', its saved plan' : ''}`,
            said(refused),
            holds(s, name),
          ]);
          expect(refused.code, refused.stdout + refused.stderr).to.equal(1);
          const [id] = named(s, name);
          expect(wholeText(refused)).to.include(id!);
          // On the resource it is about.
          expect(wholeText(refused)).to.include(`with ${s.freeType}.job`);
          expect(named(s, name), 'nothing made twice').to.have.length(1);
          // The way out the message gives for a killed run: import it.
          fresh.writeConfig(`${s.head}${config}import {\n  to = ${s.freeType}.job\n  id = "${id}"\n}\n`);
          const imported = await applyOk(fresh);
          rows.push([
            `${provider}: the re-run with the import block the message gives`,
            said(imported),
            holds(s, name),
          ]);
          await planEmpty(fresh);
          expect((await run(fresh, ['destroy', '-auto-approve'])).code).to.equal(0);
          expect(named(s, name)).to.deep.equal([]);
        });
    }
  });

/** Configuration A of a pipeline: what B names (sec: a query and an alert profile by the ids it gives; a channel). */
function pipelineA(provider: Provider, ns: string): string {
  if (provider === 'vdb') return SUBJECTS.vdb.free('target', `${ns}-role`);
  return (
    `resource "sec_query" "q" {\n  query_id = "WF_${ns.replace(/-/g, '_')}"\n  query    = <<-EOT\n${QUERY_TEXT}  EOT\n}\n` +
    `resource "sec_alert_profile" "p" {\n  name    = "WF_${ns.replace(/-/g, '_').toUpperCase()}"\n  extends = "SEC_CFG_CLOUD_A_DEFAULT_PROFILE"\n  alert {\n    name        = "Violation"\n    event_name  = "Bucket exposed"\n    description = "Bucket {{RESOURCE_ID}} is public"\n    subject     = "{{_OCCURRENCE}} in {{ACCOUNT_ID}}"\n  }\n}\n` +
    SUBJECTS.sec.free('target', `${ns}-channel`)
  );
}

/** Configuration B: names A's objects by the ids A's configuration gives, and one by a value known only after A's apply. */
function pipelineB(provider: Provider, ns: string): string {
  const mock = 'variable "mock_id" {\n  type = string\n}\n';
  if (provider === 'vdb')
    return `${mock}resource "vdb_accounts_user_roles" "member" {\n  user_email = "member@vdb-emulator.example"\n  role_ids   = [var.mock_id]\n}\n`;
  const id = `WF_${ns.replace(/-/g, '_')}`;
  return (
    mock +
    policyOn(
      id,
      ns.replace(/-/g, ''),
      `alerting {\n    profile = "WF_${ns.replace(/-/g, '_').toUpperCase()}.Violation"\n  }`,
    ) +
    `resource "sec_alert_rule" "r" {\n  name           = "${ns}-rule"\n  severities     = ["Critical"]\n  alert_channels = [var.mock_id]\n}\n`
  );
}

function policyOn(queryId: string, suffix: string, extra: string): string {
  return `resource "sec_policy" "p" {\n  title            = "On ${queryId}"\n  query_id         = "${queryId}"\n  description      = "d"\n  remediation      = "r"\n  severity         = "High"\n  type             = "Violation"\n  policy_id_suffix = "${suffix}"\n  ${extra}\n}\n`;
}

/** A resource naming one object the run makes and one the platform does not hold. */
function danglingReference(provider: Provider): string {
  return provider === 'sec'
    ? 'resource "sec_alert_rule" "r" {\n  name           = "dangling"\n  severities     = ["Critical"]\n  alert_channels = [sec_alert_channel_email.real.intg_guid, "EXAMPLE_NO_SUCH_CHANNEL"]\n}\n'
    : 'resource "vdb_accounts_user_roles" "r" {\n  user_email = "member@vdb-emulator.example"\n  role_ids   = [vdb_accounts_role.real.id, "00000000-0000-0000-0000-000000000000"]\n}\n';
}

const QUERY_TEXT = `    {
      source {
        CloudATrailRawEvents
      }
      return distinct {
        INSERT_ID,
        INSERT_TIME,
        EVENT_TIME,
        EVENT
      }
    }
`;

/** A script another tool would run: it makes a query through the platform's API, with the provider's credentials. */
function scriptMakingQuery(queryId: string): string {
  const client = join(REPO_ROOT, 'dist', 'src', 'clients', 'sec', 'index.js');
  return `import { createSecClient } from ${JSON.stringify(client)};
const env = process.env;
const client = createSecClient({ baseUrl: env.SEC_API_URL, account: env.SEC_ACCOUNT, apiKey: env.SEC_API_KEY,
  apiSecret: env.SEC_API_SECRET, userAgent: 'a script' });
await client.queries.create({ queryId: ${JSON.stringify(queryId)}, queryText: ${JSON.stringify(`{ source { CloudATrailRawEvents } return distinct { INSERT_ID } }`)} });
`;
}

/** A server that takes connections and never answers: a platform that hangs. */
async function blackHole(): Promise<{ server: Server; port: number }> {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}
