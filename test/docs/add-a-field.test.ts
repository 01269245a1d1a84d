/**
 * CONTRIBUTING.md, "Add a field", run as written: its diff is applied to a worktree of the commit and
 * compiled there; then, in that tree, the provider is served in a process of its own against the
 * emulator, creates and reads an e-mail channel with a subject prefix (the state and the platform's
 * record both hold it), a 41-character prefix is refused at plan at its path, and the seed conformance
 * test passes. A change that makes the diff no longer apply, or the field no longer work, fails here.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/release/paths.js';

const run = (command: string, args: readonly string[], cwd: string) =>
  spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The section's diff, as the reader copies it. */
function guideDiff(): string {
  const text = readFileSync(join(REPO_ROOT, 'CONTRIBUTING.md'), 'utf8');
  const section = text.slice(text.indexOf('### Add a field'));
  const diff = /```diff\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!diff) throw new Error('CONTRIBUTING.md, "Add a field", has no diff block');
  return `${diff}\n`;
}

/** What the provider, compiled in the worktree, does with the field: run there by node. */
const EXERCISE = `
import { startSecEmulator } from './dist/src/emulators/sec/index.js';
import { loadProviderDef } from './dist/src/providers/describe.js';
import { secProviderEnv } from './dist/src/tfclient/terraform-cli.js';
import { ProviderHarness } from './dist/packages/framework/src/testing/harness.js';
const emulator = await startSecEmulator();
try {
  const harness = await ProviderHarness.start(await loadProviderDef('sec'), {
    env: { ...process.env, ...secProviderEnv(emulator) },
  });
  const config = { name: 'guide', recipients: ['ops@example.com'], subject_prefix: '[sec]' };
  const state = await harness.create('sec_alert_channel_email', config);
  const read = await harness.read('sec_alert_channel_email', state);
  const stored = emulator.get('AlertChannels', state.intg_guid);
  const refused = harness.validate('sec_alert_channel_email', { ...config, subject_prefix: 'x'.repeat(41) });
  process.stdout.write(JSON.stringify({
    state: state.subject_prefix,
    read: read?.subject_prefix,
    stored: stored?.data?.channelProps?.subjectPrefix,
    refused: refused.map((d) => ({ path: d.path, detail: d.detail })),
  }));
} finally {
  await emulator.close();
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

  it('applies its diff to the commit', () => {
    writeFileSync(join(scratch, 'guide.diff'), guideDiff());
    const applied = run('git', ['apply', join(scratch, 'guide.diff')], tree);
    expect(applied.status, `the guide's diff no longer applies; bring it up to date: ${applied.stderr}`).to.equal(0);
  });

  it('compiles, and the channel keeps its prefix on the platform and in the state; too long a one is refused', () => {
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
    expect({ state: got.state, read: got.read, stored: got.stored }).to.deep.equal({
      state: '[sec]',
      read: '[sec]',
      stored: '[sec]',
    });
    expect(got.refused, 'a 41-character prefix').to.have.length(1);
    expect(got.refused[0].path).to.equal('subject_prefix');
    expect(got.refused[0].detail).to.match(/at most 40 characters/);
  });

  it('passes the seed conformance test with the allowance the field declares', () => {
    const mocha = join(tree, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const seed = run(
      process.execPath,
      [mocha, '--no-config', '--reporter', 'dot', 'dist/test/golden/sec-seed.test.js'],
      tree,
    );
    expect(seed.status, seed.stdout + seed.stderr).to.equal(0);
  });
});
