/**
 * `npm run install-providers` (scripts/install-providers.ts) as a user runs it: into a fresh home
 * folder, then `init` with no CLI configuration at all finds `keel/sec` and `keel/vdb` in the implicit
 * local mirror, under each of ACCEPTANCE_CLIS (Terraform 1.15.5, OpenTofu), and the installed packages
 * (Node 22 inside) apply, re-plan empty and destroy against the emulators. With `--pulumi`, Pulumi's
 * `package add terraform-provider keel/<name> <version>` finds them too, with their versions, and a
 * program on both runs.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { hostPlatform } from '../../packages/framework/src/release/runners.js';
import { runtimeCacheDir } from '../../packages/framework/src/release/runtimes.js';
import { yamlProject } from './pulumi-yaml.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { REPO_ROOT, Workspace } from './terraform.js';

const CONFIG = `
terraform {
  required_providers {
    sec = { source = "keel/sec" }
    vdb = { source = "keel/vdb" }
  }
}

resource "sec_alert_channel_email" "ops" {
  name       = "installed-ops"
  recipients = ["ops@example.com"]
}

resource "vdb_accounts_role" "reader" {
  name        = "installed-reader"
  description = "Read-only"
  permissions {
    value = "read:clusters"
  }
}
`;

const PLATFORM = hostPlatform();

/** The environment without a Pulumi home of its own, so the default one (under HOME) is used. */
function withoutPulumiHome(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { PULUMI_HOME: _home, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: _cache, ...rest } = env;
  return rest;
}
const HOSTS = [...new Set(ACCEPTANCE_CLIS.map((cli) => cli.registry))];

describe('npm run install-providers: the implicit local mirror', function () {
  this.timeout(300_000);
  let home: string;
  let sec: SecEmulator;
  let vdb: VdbEmulator;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'keel-home-'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(REPO_ROOT, 'dist', 'scripts', 'install-providers.js'), '--pulumi'],
      // The runtime packages from the real cache: the home folder is new, the machine is not.
      { env: { ...withoutPulumiHome(process.env), HOME: home, KEEL_RUNTIME_CACHE: runtimeCacheDir() } },
    );
    expect(stdout).to.include(`installed keel/sec 2.2.0 (${PLATFORM}) into ${join(home, '.terraform.d', 'plugins')}`);
    expect(stdout).to.include(
      `installed keel/vdb 1.19.2 (${PLATFORM}) for Pulumi into ${join(home, '.pulumi', 'dynamic_tf_plugins')}`,
    );
    sec = await startSecEmulator();
    vdb = await startVdbEmulator();
  });

  after(async () => {
    await sec?.close();
    await vdb?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("puts each provider's package under both registries' hosts, in the packed layout", () => {
    for (const host of HOSTS)
      for (const [name, version] of [
        ['sec', '2.2.0'],
        ['vdb', '1.19.2'],
      ])
        expect(
          existsSync(
            join(
              home,
              '.terraform.d',
              'plugins',
              host,
              'keel',
              name,
              `terraform-provider-${name}_${version}_${PLATFORM}.zip`,
            ),
          ),
          `${host}/keel/${name}`,
        ).to.equal(true);
  });

  for (const cli of ACCEPTANCE_CLIS)
    it(`${cli.name}: init with no CLI configuration installs both, which apply, re-plan empty and destroy`, async function () {
      const options = { ...cli.workspace(this), cliConfig: '' };
      const ws = new Workspace(CONFIG, { HOME: home, ...secProviderEnv(sec), ...vdbProviderEnv(vdb) }, options);
      try {
        const init = await ws.expect(['init', '-no-color']);
        expect(init.stdout).to.include('Installing keel/sec v2.2.0').and.include('Installing keel/vdb v1.19.2');
        const lock = readFileSync(join(ws.dir, 'config', '.terraform.lock.hcl'), 'utf8');
        expect(lock).to.include(`provider "${cli.registry}/keel/sec"`).and.include('version = "2.2.0"');
        await ws.expect(['apply', '-auto-approve', '-no-color']);
        expect(sec.list<{ name: string }>('AlertChannels').map((c) => c.name)).to.include('installed-ops');
        expect(vdb.list<{ name: string }>(VDB_COLLECTIONS.roles).map((r) => r.name)).to.include('installed-reader');
        await ws.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
        await ws.expect(['destroy', '-auto-approve', '-no-color']);
        expect(sec.list<{ name: string }>('AlertChannels').map((c) => c.name)).to.not.include('installed-ops');
      } finally {
        ws.dispose();
      }
    });

  it('Pulumi: `package add terraform-provider keel/<name> <version>` takes each from the bridge’s cache, with its version; a YAML program on both applies, previews empty and destroys', async function () {
    const project = await yamlProject(this, 'installed', { ...secProviderEnv(sec), ...vdbProviderEnv(vdb) }, home);
    try {
      for (const [name, version] of [
        ['sec', '2.2.0'],
        ['vdb', '1.19.2'],
      ] as const) {
        await project.run(['package', 'add', 'terraform-provider', `keel/${name}`, version]);
        expect(
          (project.program().packages as Record<string, { parameters: string[] }>)[name]!.parameters,
        ).to.deep.equal([`keel/${name}`, version]);
        expect(existsSync(join(project.work, 'sdks', name, `${name}-${version}.yaml`)), `${name} ${version}`).to.equal(
          true,
        );
      }
      project.writeProgram({
        resources: {
          ops: {
            type: 'sec:AlertChannelEmail',
            properties: { name: 'installed-pulumi-ops', recipients: ['ops@example.com'] },
          },
          reader: {
            type: 'vdb:AccountsRole',
            properties: { name: 'installed-pulumi-reader', permissions: [{ value: 'read:clusters' }] },
          },
        },
      });
      await project.run(['up', '--yes', '--stack', 'test']);
      expect(sec.list<{ name: string }>('AlertChannels').map((c) => c.name)).to.include('installed-pulumi-ops');
      expect(vdb.list<{ name: string }>(VDB_COLLECTIONS.roles).map((r) => r.name)).to.include(
        'installed-pulumi-reader',
      );
      await project.run(['preview', '--expect-no-changes', '--stack', 'test']);
      await project.run(['destroy', '--yes', '--stack', 'test']);
      expect(sec.list<{ name: string }>('AlertChannels').map((c) => c.name)).to.not.include('installed-pulumi-ops');
    } finally {
      project.dispose();
    }
  });
});
