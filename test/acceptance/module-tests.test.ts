/**
 * `terraform test` for our users' modules, as the README's "Testing your modules" says to run it:
 * every module under examples/modules runs its own tests under real Terraform 1.15.5, the files
 * against the emulators with their settings in the environment (and nothing left on them afterwards:
 * `terraform test` destroys what each file made), and the mocked files alone with no emulator and no
 * credentials at all.
 */
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { VDB_COLLECTIONS } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { MAIN_TERRAFORM_CLI } from './real-clients.js';
import { exampleRuns } from './example-runs.js';
import { REPO_ROOT } from './terraform.js';

const MODULES = join(REPO_ROOT, 'examples', 'modules');
const modules = readdirSync(MODULES).sort();

/** The runs `terraform test` reports, and its summary line. */
function outcome(stdout: string): { runs: string[]; summary: string } {
  return {
    runs: [...stdout.matchAll(/^\s+run "([^"]+)"\.\.\. (\w+)/gm)].map((m) => `${m[1]}: ${m[2]}`),
    summary: /^(Success|Failure)! .*$/m.exec(stdout)?.[0] ?? '(no summary)',
  };
}

describe(`acceptance: terraform test in examples/modules under real ${MAIN_TERRAFORM_CLI.name}`, function () {
  this.timeout(300_000);
  const suite = exampleRuns(MAIN_TERRAFORM_CLI);
  const workspace = (name: string, env: Record<string, string>) => suite.workspace(join(MODULES, name), env);

  it('ships modules with tests against the emulators and with mocked providers', () => {
    expect(modules).to.not.be.empty;
    for (const name of modules) {
      const tests = readdirSync(join(MODULES, name, 'tests')).sort();
      expect(tests, name).to.deep.equal(['emulator.tftest.hcl', 'mocked.tftest.hcl']);
    }
  });

  for (const name of modules) {
    it(`${name}: every test file passes against the emulators, which hold nothing of it afterwards`, async () => {
      const channels = suite.sec.list('AlertChannels').length;
      const rules = suite.sec.list('AlertRules').length;
      const ws = workspace(name, { ...secProviderEnv(suite.sec), ...vdbProviderEnv(suite.vdb) });
      const run = await ws.run(['test', '-no-color']);
      const { runs, summary } = outcome(run.stdout);
      expect(summary, `${run.stdout}\n${run.stderr}`).to.match(/^Success! [1-9]\d* passed, 0 failed\.$/);
      expect(runs.filter((r) => !r.endsWith(': pass'))).to.deep.equal([]);
      expect(run.code).to.equal(0);
      expect(suite.sec.list('AlertChannels').length, 'alert channels left').to.equal(channels);
      expect(suite.sec.list('AlertRules').length, 'alert rules left').to.equal(rules);
      expect(suite.vdb.list(VDB_COLLECTIONS.clusters), 'clusters left').to.deep.equal([]);
      expect(suite.vdb.list(VDB_COLLECTIONS.databaseApiKeys), 'keys left').to.deep.equal([]);
    });

    it(`${name}: the mocked tests pass with no emulator and no credentials`, async () => {
      const ws = workspace(name, {});
      // Nothing in the environment either: a provider that tried its API would fail to configure.
      const env = Object.fromEntries(
        Object.keys(process.env)
          .filter((k) => /^(SEC|VDB)_/.test(k))
          .map((k) => [k, '']),
      );
      const run = await ws.run(['test', '-no-color', '-filter=tests/mocked.tftest.hcl'], env);
      const { runs, summary } = outcome(run.stdout);
      expect(summary, `${run.stdout}\n${run.stderr}`).to.match(/^Success! [1-9]\d* passed, 0 failed\.$/);
      expect(runs.filter((r) => !r.endsWith(': pass'))).to.deep.equal([]);
    });
  }
});
