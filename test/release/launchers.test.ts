/**
 * The release's launchers start a provider the same way on every platform: the /bin/sh launcher of
 * macOS and Linux (packages/framework/src/release/launchers.ts, which the checkout's bin/terraform-provider-<name>
 * is made of too) and the Windows executable's script (bin/start-windows.cjs) leave the provider the
 * same environment and Node options, for every environment a user may start Terraform with, whether the
 * provider hands its trust over (sec, vdb) or not (an author's provider). Each is run up to the point where it loads the provider,
 * which is replaced by a probe reporting what it was given.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellLauncher, windowsMain } from '../../packages/framework/src/release/launchers.js';
import { PROJECT_LAUNCH } from '../../scripts/release/project.js';
import { PROJECT_PROVIDERS } from '../../src/providers/project.js';
import { REPO_ROOT } from '../../scripts/release/paths.js';
import { seaConfig } from '../../packages/framework/src/release/windows.js';

const windowsEntry = createRequire(import.meta.url)(join(REPO_ROOT, 'bin', 'start-windows.cjs')) as {
  handOverTrust(env: Record<string, string | undefined>): void;
  roleOf(executable: string): { kind: string; name: string } | undefined;
};

/** A provider that hands nothing over: an author's, by default. */
const PLAIN = { handOverTrust: false, nodeOptions: [] };

/** The Windows executable's script as a release makes it, loaded as a module (outside an executable it runs nothing). */
function loadWindowsMain(handOverTrust: boolean): { HAND_OVER_TRUST: boolean } {
  const file = join(mkdtempSync(join(tmpdir(), 'keel-windows-main-')), 'start-windows.cjs');
  writeFileSync(file, windowsMain(handOverTrust));
  return createRequire(import.meta.url)(file) as { HAND_OVER_TRUST: boolean };
}

/** Variables a shell sets of its own accord. */
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

/** What `after` changed of `before`: each variable set or removed, by name. */
function changes(before: Record<string, string | undefined>, after: Record<string, string | undefined>) {
  const changed: Record<string, string | null> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (SHELL_OWN.has(name) || before[name] === after[name]) continue;
    changed[name] = after[name] ?? null;
  }
  return changed;
}

/** Environments Terraform may be started with, as far as the launchers' trust settings go. */
const ENVIRONMENTS: Record<string, string>[] = [
  {},
  { NODE_EXTRA_CA_CERTS: '/etc/company/extra-ca.pem' },
  { NODE_EXTRA_CA_CERTS: '' },
  { SSL_CERT_FILE: '/etc/company/bundle.pem', SSL_CERT_DIR: '/etc/company/certs' },
  { NODE_EXTRA_CA_CERTS: '/etc/company/extra-ca.pem', SSL_CERT_FILE: '/etc/company/bundle.pem' },
  { KEEL_NODE_EXTRA_CA_CERTS: '/left/over.pem' },
  { NODE_OPTIONS: '--max-old-space-size=512' },
];

describe('release launchers: the same start on every platform', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-launchers-'));
  const out = join(dir, 'probe.json');
  after(() => rmSync(dir, { recursive: true, force: true }));

  before(() => {
    // A release package whose runtime is this Node and whose loader is the probe.
    writeFileSync(join(dir, 'terraform-provider-sec_v2.2.0'), shellLauncher('sec', PROJECT_LAUNCH, 'release'));
    writeFileSync(join(dir, 'terraform-provider-kv_v0.1.0'), shellLauncher('kv', PLAIN, 'release'));
    chmodSync(join(dir, 'terraform-provider-kv_v0.1.0'), 0o755);
    chmodSync(join(dir, 'terraform-provider-sec_v2.2.0'), 0o755);
    mkdirSync(join(dir, 'runtime'));
    symlinkSync(process.execPath, join(dir, 'runtime', 'node'));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(
      join(dir, 'bin', 'start-bundle.cjs'),
      'require("fs").writeFileSync(process.env.PROBE_OUT, JSON.stringify({ ' +
        'argv: process.argv.slice(2), execArgv: process.execArgv, env: process.env }));\n',
    );
  });

  it('leave the provider the same environment, whatever Terraform was started with', () => {
    for (const environment of ENVIRONMENTS) {
      const given = { PATH: process.env.PATH ?? '/usr/bin:/bin', PROBE_OUT: out, ...environment };
      rmSync(out, { force: true });
      const run = spawnSync(join(dir, 'terraform-provider-sec_v2.2.0'), [], { env: given, encoding: 'utf8' });
      expect(run.status, run.stderr).to.equal(0);
      const seen = JSON.parse(readFileSync(out, 'utf8')) as { argv: string[]; env: Record<string, string> };
      expect(seen.argv, 'the provider name first, as bin/start-bundle.cjs expects').to.deep.equal(['sec']);

      const windows: Record<string, string | undefined> = { ...given };
      windowsEntry.handOverTrust(windows);
      expect(changes(given, windows), JSON.stringify(environment)).to.deep.equal(changes(given, seen.env));
    }
  });

  it('hand NODE_EXTRA_CA_CERTS, SSL_CERT_FILE and SSL_CERT_DIR over to the API clients, never leaving them for Node', () => {
    const env: Record<string, string | undefined> = { NODE_EXTRA_CA_CERTS: '/x/ca.pem', SSL_CERT_FILE: '/x/b.pem' };
    windowsEntry.handOverTrust(env);
    expect(env).to.deep.equal({
      KEEL_NODE_EXTRA_CA_CERTS: '/x/ca.pem',
      // Handed over even when unset (empty), as the wrappers do.
      KEEL_SSL_CERT_FILE: '/x/b.pem',
      KEEL_SSL_CERT_DIR: '',
      SSL_CERT_FILE: '/dev/null',
      SSL_CERT_DIR: '/dev/null',
    });
  });

  it("start Node with the launchers' options: the /bin/sh launcher and the Windows executable's execArgv", () => {
    for (const { name } of PROJECT_PROVIDERS)
      expect(
        readFileSync(join(REPO_ROOT, 'bin', `terraform-provider-${name}`), 'utf8'),
        'the checkout is made of the same text',
      ).to.equal(shellLauncher(name, PROJECT_LAUNCH, 'checkout'));
    // Exactly the options docs/benchmarks.md measured as paying ("Start-time options"): the trust store
    // left to the clients; no V8 tiering or heap option paid for a provider process.
    const options = PROJECT_LAUNCH.nodeOptions;
    expect(options).to.deep.equal(['--use-openssl-ca']);
    rmSync(out, { force: true });
    const run = spawnSync(join(dir, 'terraform-provider-sec_v2.2.0'), [], {
      env: { PATH: process.env.PATH ?? '', PROBE_OUT: out },
    });
    expect(run.status).to.equal(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).execArgv).to.deep.equal([...options]);
    expect(seaConfig('main.cjs', 'out.blob', options).execArgv).to.deep.equal([...options]);
  });

  it('leave the environment as Terraform gave it to a provider that does not hand its trust over, on both', () => {
    const windows = loadWindowsMain(false);
    expect(loadWindowsMain(true).HAND_OVER_TRUST).to.equal(true);
    expect(windows.HAND_OVER_TRUST).to.equal(false);
    for (const environment of ENVIRONMENTS) {
      const given = { PATH: process.env.PATH ?? '/usr/bin:/bin', PROBE_OUT: out, ...environment };
      rmSync(out, { force: true });
      const run = spawnSync(join(dir, 'terraform-provider-kv_v0.1.0'), [], { env: given, encoding: 'utf8' });
      expect(run.status, run.stderr).to.equal(0);
      const seen = JSON.parse(readFileSync(out, 'utf8')) as {
        argv: string[];
        execArgv: string[];
        env: Record<string, string>;
      };
      expect(seen.argv).to.deep.equal(['kv']);
      expect(seen.execArgv).to.deep.equal([]);
      expect(changes(given, seen.env), JSON.stringify(environment)).to.deep.equal({});
    }
  });

  it('tell the Windows executable its role by its file name, and refuse a name they did not give', () => {
    expect(windowsEntry.roleOf('C:\\tf\\plugins\\terraform-provider-sec_v2.2.0.exe')).to.deep.equal({
      kind: 'provider',
      name: 'sec',
    });
    expect(windowsEntry.roleOf('Z:\\tmp\\x\\TERRAFORM-PROVIDER-VDB_V1.19.2.EXE')).to.deep.equal({
      kind: 'provider',
      name: 'vdb',
    });
    expect(windowsEntry.roleOf('D:\\emulators\\vdb-emulator.exe')).to.deep.equal({ kind: 'emulator', name: 'vdb' });
    expect(windowsEntry.roleOf('C:\\x\\node.exe')).to.equal(undefined);
    expect(windowsEntry.roleOf('C:\\x\\terraform-provider-sec.exe')).to.equal(undefined);
  });
});
