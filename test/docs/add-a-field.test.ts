/**
 * CONTRIBUTING.md, "Add a field", run as written: its diffs (sec, then vdb) are applied to a worktree of
 * the commit and compiled there; then, in that tree, each provider is served in a process of its own
 * against its emulator: a report rule with a cap on findings and a cluster with a maintenance window are
 * created and read (the state and the platform's record both hold them), a cap of 1001 or 2.5 and a
 * 25-hour window are refused at plan at their paths, and both seed conformance tests pass. A change that
 * makes a diff no longer apply, or a field no longer work, fails here.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/release/paths.js';

const run = (command: string, args: readonly string[], cwd: string) =>
  spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The section's diffs, as the reader copies them: sec's, then vdb's. */
function guideDiffs(): string[] {
  const text = readFileSync(join(REPO_ROOT, 'CONTRIBUTING.md'), 'utf8');
  const start = text.indexOf('### Add a field');
  const section = text.slice(start, text.indexOf('\n## ', start));
  const diffs = [...section.matchAll(/```diff\n([\s\S]*?)\n```/g)].map((m) => `${m[1]}\n`);
  if (diffs.length !== 2) throw new Error(`CONTRIBUTING.md, "Add a field", has ${diffs.length} diff blocks, not 2`);
  return diffs;
}

/** What the provider, compiled in the worktree, does with the field: run there by node. */
const EXERCISE = `
import { startSecEmulator } from './dist/src/emulators/sec/index.js';
import { startVdbEmulator } from './dist/src/emulators/vdb/index.js';
import { loadProviderDef } from './dist/src/providers/describe.js';
import { secProviderEnv, vdbProviderEnv } from './dist/src/tfclient/terraform-cli.js';
import { ProviderHarness } from './dist/packages/framework/src/testing/harness.js';
const emulator = await startSecEmulator();
const vdbEmulator = await startVdbEmulator({ provisioningMs: 200 });
try {
  const harness = await ProviderHarness.start(await loadProviderDef('sec'), {
    env: { ...process.env, ...secProviderEnv(emulator) },
  });
  const channel = await harness.create('sec_alert_channel_email', { name: 'guide', recipients: ['ops@example.com'] });
  const config = { name: 'guide', severities: ['Critical'], email_alert_channels: [channel.intg_guid], max_findings: 500 };
  const state = await harness.create('sec_report_rule', config);
  const read = await harness.read('sec_report_rule', state);
  const stored = emulator.get('ReportRules', state.guid);
  const refused = [1001, 2.5].map((cap) => harness.validate('sec_report_rule', { ...config, max_findings: cap }));
  process.stdout.write(JSON.stringify({
    state: state.max_findings,
    read: read?.max_findings,
    stored: stored?.filters?.maxFindings,
    refused: refused.map((diags) => diags.map((d) => ({ path: d.path, detail: d.detail }))),
    vdb: await maintenanceWindow(),
  }));
} finally {
  await emulator.close();
  await vdbEmulator.close();
}

async function maintenanceWindow() {
  const harness = await ProviderHarness.start(await loadProviderDef('vdb'), {
    env: { ...process.env, ...vdbProviderEnv(vdbEmulator) },
  });
  const configuration = (hours) => [{
    number_of_nodes: 1,
    node_configuration: [{ package_id: vdbEmulator.packageId('aws', 'small') }],
    maintenance_window_hours: hours,
  }];
  const config = { name: 'guide', cloud_provider: 'aws', cloud_region: 'eu-central-1' };
  const state = await harness.create('vdb_accounts_cluster', { ...config, configuration: configuration(4) });
  const read = await harness.read('vdb_accounts_cluster', state);
  const stored = vdbEmulator.get('clusters', state.id);
  const refused = harness.validate('vdb_accounts_cluster', { ...config, configuration: configuration(25) });
  return {
    state: state.configuration[0].maintenance_window_hours,
    read: read?.configuration[0].maintenance_window_hours,
    stored: stored?.configuration?.maintenanceWindowHours,
    refused: refused.map((d) => ({ path: d.path, detail: d.detail })),
  };
}
`;

describe('CONTRIBUTING.md, "Add a field", run as written', function () {
  this.timeout(600_000);
  const scratch = mkdtempSync(join(tmpdir(), 'keel-add-a-field-'));
  const tree = join(scratch, 'tree');
  let added = false;

  before(() => {
    const worktree = run('git', ['worktree', 'add', '--detach', tree, 'HEAD'], REPO_ROOT);
    expect(worktree.status, worktree.stderr).to.equal(0);
    added = true;
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
  });

  after(() => {
    if (added) run('git', ['worktree', 'remove', '--force', tree], REPO_ROOT);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('applies its diffs to the commit', () => {
    for (const [i, diff] of guideDiffs().entries()) {
      writeFileSync(join(scratch, `guide-${i}.diff`), diff);
      const applied = run('git', ['apply', join(scratch, `guide-${i}.diff`)], tree);
      expect(
        applied.status,
        `the guide's diff ${i + 1} no longer applies; bring it up to date: ${applied.stderr}`,
      ).to.equal(0);
    }
  });

  it('compiles; the cap and the window are kept on the platforms and in the states; too much is refused', () => {
    // The build's first steps: the vdb API's types from its .proto files, then the compiler.
    const typed = run(process.execPath, ['scripts/vdb-types.mjs'], tree);
    expect(typed.status, `scripts/vdb-types.mjs: ${typed.stderr}`).to.equal(0);
    const compiled = run(process.execPath, [join(tree, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], tree);
    expect(compiled.status, compiled.stdout + compiled.stderr).to.equal(0);
    // The build's steps up to the bundles, which an in-process provider does not need.
    for (const step of ['scripts/framework-link.mjs', 'scripts/build-proto.mjs']) {
      const built = run(process.execPath, [step], tree);
      expect(built.status, `${step}: ${built.stderr}`).to.equal(0);
    }
    const exercised = run(process.execPath, ['--input-type=module', '-e', EXERCISE], tree);
    expect(exercised.status, exercised.stderr).to.equal(0);
    const got = JSON.parse(exercised.stdout);
    expect({ state: got.state, read: got.read, stored: got.stored }, 'the report rule').to.deep.equal({
      state: 500,
      read: 500,
      stored: 500,
    });
    const [tooMany, notWhole] = got.refused;
    expect(tooMany, 'a cap of 1001').to.have.length(1);
    expect(tooMany[0].path).to.equal('max_findings');
    expect(tooMany[0].detail).to.match(/1000/);
    expect(notWhole, 'a cap of 2.5').to.have.length(1);
    expect(notWhole[0].path).to.equal('max_findings');
    expect(notWhole[0].detail).to.match(/whole/);
    expect({ state: got.vdb.state, read: got.vdb.read, stored: got.vdb.stored }, 'the cluster').to.deep.equal({
      state: 4,
      read: 4,
      stored: 4,
    });
    expect(got.vdb.refused, 'a 25-hour window').to.have.length(1);
    expect(got.vdb.refused[0].path).to.match(/^configuration.*maintenance_window_hours$/);
    expect(got.vdb.refused[0].detail).to.match(/24/);
  });

  it('passes the seed conformance tests with the allowances the fields declare', () => {
    const mocha = join(tree, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const seed = run(
      process.execPath,
      [
        mocha,
        '--no-config',
        '--reporter',
        'dot',
        'dist/test/golden/sec-seed.test.js',
        'dist/test/golden/vdb-seed.test.js',
      ],
      tree,
    );
    expect(seed.status, seed.stdout + seed.stderr).to.equal(0);
  });
});
