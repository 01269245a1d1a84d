/**
 * The release (`npm run release`, scripts/release) installs like any provider and runs where there
 * is no Node: built twice (the second time signed with a throwaway GPG key) and compared byte for
 * byte; then, with a PATH that holds nothing at all (Terraform called by its absolute path), real
 * Terraform installs both providers from the filesystem mirror and from the network mirror served
 * over HTTPS on loopback with a test CA, the lock files record the archives' hashes, the released vdb
 * provider trusts an API certificate only through NODE_EXTRA_CA_CERTS (as the checkout's does,
 * test/acceptance/api-trust), and an example applies against the emulators started from the released
 * emulator executables, re-plans empty and is destroyed.
 */
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { generateCertificate } from '../../src/server/tls.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import {
  MANIFEST,
  RELEASED,
  buildRelease,
  currentPlatform,
  emulatorArchiveName,
  emulatorExecutableName,
  providerArchiveName,
  providerExecutableName,
  type ReleaseResult,
} from '../../scripts/release/build.js';
import { packageHashV1 } from '../../scripts/release/hashes.js';
import { listZip, readZip as readZipFile, unpackZip, type ReadEntry } from '../../scripts/release/zip.js';
import { REPO_ROOT, Workspace, requireTerraform } from './terraform.js';

const REQUIRE_BOTH = `terraform {
  required_providers {
    sec = { source = "keel/sec" }
    vdb = { source = "keel/vdb" }
  }
}
`;

/** A CLI configuration installing keel/* by one method (its block's first lines). */
const installation = (method: string) =>
  `provider_installation {\n  ${method}\n    include = ["registry.terraform.io/keel/*"]\n  }\n}\n`;

/** Every file under `dir`, by path relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The entries of an archive, inflated once per file for the whole test (the archives hold ~95 MiB each). */
const zipEntries = new Map<string, Promise<ReadEntry[]>>();
function readZip(file: string): Promise<ReadEntry[]> {
  let entries = zipEntries.get(file);
  if (!entries) zipEntries.set(file, (entries = readZipFile(file)));
  return entries;
}

/** The hashes `.terraform.lock.hcl` records for one provider. */
function lockedHashes(workspace: Workspace, name: string): string[] {
  const lock = readFileSync(join(workspace.dir, 'config', '.terraform.lock.hcl'), 'utf8');
  const block = new RegExp(`provider "registry\\.terraform\\.io/keel/${name}" \\{([^}]*)\\}`).exec(lock);
  expect(block, `${name} in the lock file:\n${lock}`).to.not.equal(null);
  return [...block![1]!.matchAll(/"((?:h1|zh):[^"]+)"/g)].map((m) => m[1]!).sort();
}

/** An executable's absolute path from the test's own PATH. */
function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, command);
    if (dir && existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

interface RunningEmulator {
  readonly process: ChildProcess;
  readonly ready: Record<string, string>;
}

/** Starts a released emulator executable and reads its ready line. */
async function startReleasedEmulator(executable: string, env: NodeJS.ProcessEnv): Promise<RunningEmulator> {
  const child = spawn(executable, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${executable} exited ${code} before it was ready: ${stderr}`)));
    child.once('error', reject);
  });
  return { process: child, ready: JSON.parse(line) as Record<string, string> };
}

describe('acceptance: the release installs with terraform init and runs with no node on PATH', function () {
  this.timeout(900_000);
  let platform: string;
  const scratch = mkdtempSync(join(tmpdir(), 'keel-release-test-'));
  const gnupgHome = join(scratch, 'gnupg');
  /** A directory with nothing in it: the PATH of Terraform, the providers and the emulators. */
  const emptyPath = join(scratch, 'empty-path');
  let unsigned: ReleaseResult;
  let signed: ReleaseResult;
  let unsignedLog: string[];
  let keyFingerprint: string;
  let terraform: string;
  const emulators: RunningEmulator[] = [];
  const workspaces: Workspace[] = [];

  before(async function () {
    requireTerraform(this);
    platform = currentPlatform();
    terraform = onPath('terraform')!;
    mkdirSync(emptyPath);
    mkdirSync(gnupgHome);
    chmodSync(gnupgHome, 0o700);
    const gpgEnv = { ...process.env, GNUPGHOME: gnupgHome };
    const made = spawnSync(
      'gpg',
      [
        '--batch',
        '--passphrase',
        '',
        '--quick-gen-key',
        'keel release test <release-test@example.invalid>',
        'ed25519',
        'sign',
        '1d',
      ],
      { env: gpgEnv, encoding: 'utf8' },
    );
    expect(made.status, `gpg could not make a key: ${made.error?.message ?? made.stderr}`).to.equal(0);
    const listed = spawnSync('gpg', ['--batch', '--with-colons', '--list-secret-keys'], {
      env: gpgEnv,
      encoding: 'utf8',
    }).stdout;
    keyFingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(listed)![1]!;

    unsignedLog = [];
    unsigned = await buildRelease({
      outDir: join(scratch, 'release-1'),
      signingKey: '',
      log: (line) => unsignedLog.push(line),
    });
    signed = await buildRelease({
      outDir: join(scratch, 'release-2'),
      signingKey: keyFingerprint,
      env: gpgEnv,
      log: () => undefined,
    });
  });

  after(() => {
    for (const emulator of emulators) emulator.process.kill('SIGTERM');
    for (const workspace of workspaces) workspace.dispose();
    spawnSync('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: gnupgHome } });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('builds the same bytes twice: archives, SHA256SUMS, manifests and both mirrors', () => {
    const first = filesUnder(unsigned.outDir);
    const second = filesUnder(signed.outDir).filter((file) => !file.endsWith('.sig'));
    expect(second).to.deep.equal(first);
    for (const file of first) {
      expect(readFileSync(join(signed.outDir, file)).equals(readFileSync(join(unsigned.outDir, file))), file).to.equal(
        true,
      );
    }
  });

  it('lays out each provider as a registry and the mirrors expect, the executable beside the runtime', async () => {
    for (const { name, version } of RELEASED) {
      const archiveName = providerArchiveName(name, version, platform);
      const archive = readFileSync(join(unsigned.outDir, archiveName));
      const sha = createHash('sha256').update(archive).digest('hex');
      expect(readFileSync(join(unsigned.outDir, `terraform-provider-${name}_${version}_SHA256SUMS`), 'utf8')).to.equal(
        `${sha}  ${archiveName}\n`,
      );
      expect(
        readFileSync(join(unsigned.outDir, `terraform-provider-${name}_${version}_manifest.json`), 'utf8'),
      ).to.equal(MANIFEST);
      expect(JSON.parse(MANIFEST)).to.deep.equal({ version: 1, metadata: { protocol_versions: ['6.0'] } });

      const entries = await readZip(join(unsigned.outDir, archiveName));
      const names = entries.map((entry) => entry.name);
      expect(
        names.filter((n) => n.startsWith(`terraform-provider-${name}`)),
        'one executable Terraform can find',
      ).to.deep.equal([providerExecutableName(name, version)]);
      expect(
        names.filter((n) => n.endsWith('/')),
        'no directory entries',
      ).to.deep.equal([]);
      expect(names).to.include.members([
        'runtime/node',
        'runtime/LICENSE',
        'bin/start-bundle.cjs',
        `dist/bundle/terraform-provider-${name}.cjs.cache`,
        `dist/bundle/terraform-provider-${name}-service.cjs`,
        `dist/bundle/terraform-provider-${name}-service.cjs.cache`,
        'THIRD_PARTY_NOTICES.txt',
      ]);
      const mode = (file: string) => entries.find((entry) => entry.name === file)!.mode & 0o777;
      expect(mode(providerExecutableName(name, version))).to.equal(0o755);
      expect(mode('runtime/node')).to.equal(0o755);
      expect(mode('bin/start-bundle.cjs')).to.equal(0o644);
      const h1 = packageHashV1(entries);

      expect(
        readFileSync(join(unsigned.outDir, 'mirror', 'registry.terraform.io', 'keel', name, archiveName)).equals(
          archive,
        ),
      ).to.equal(true);
      const network = join(unsigned.outDir, 'network-mirror', 'registry.terraform.io', 'keel', name);
      expect(JSON.parse(readFileSync(join(network, 'index.json'), 'utf8'))).to.deep.equal({
        versions: { [version]: {} },
      });
      expect(JSON.parse(readFileSync(join(network, `${version}.json`), 'utf8'))).to.deep.equal({
        archives: { [platform]: { url: archiveName, hashes: [h1, `zh:${sha}`] } },
      });
      expect(readFileSync(join(network, archiveName)).equals(archive)).to.equal(true);

      const emulatorEntries = await listZip(join(unsigned.outDir, emulatorArchiveName(name, version, platform)));
      expect(emulatorEntries.find((entry) => entry.name === emulatorExecutableName(name))!.mode & 0o777).to.equal(
        0o755,
      );
      expect(readFileSync(join(unsigned.outDir, `${name}-emulator_${version}_SHA256SUMS`), 'utf8')).to.match(
        new RegExp(`^[0-9a-f]{64}  ${name}-emulator_`),
      );
    }
  });

  it('signs SHA256SUMS with the key KEEL_RELEASE_GPG_KEY names, and says so when none is named', () => {
    expect(filesUnder(unsigned.outDir).filter((file) => file.endsWith('.sig'))).to.deep.equal([]);
    expect(unsignedLog.join('\n')).to.match(/not signed: KEEL_RELEASE_GPG_KEY is not set/);
    const env = { ...process.env, GNUPGHOME: gnupgHome };
    for (const released of [...signed.providers, ...signed.emulators]) {
      const signature = readFileSync(released.signature!);
      expect(signature[0]! & 0x80, 'a binary OpenPGP packet, not ASCII armour').to.equal(0x80);
      const verified = spawnSync(
        'gpg',
        ['--batch', '--status-fd', '1', '--verify', released.signature!, released.sums],
        { env, encoding: 'utf8' },
      );
      expect(verified.status, verified.stderr).to.equal(0);
      expect(verified.stdout).to.include(`VALIDSIG ${keyFingerprint}`);
      const tampered = join(scratch, 'tampered-SHA256SUMS');
      writeFileSync(
        tampered,
        readFileSync(released.sums, 'utf8').replace(/^./, (c) => (c === '0' ? '1' : '0')),
      );
      expect(
        spawnSync('gpg', ['--batch', '--verify', released.signature!, tampered], { env }).status,
        'a changed file fails',
      ).to.not.equal(0);
    }
  });

  /** The expected lock-file hashes of a provider: h1 of the archive's files, zh of the archive. */
  async function archiveHashes(name: string, version: string): Promise<{ h1: string; zh: string }> {
    const file = join(unsigned.outDir, providerArchiveName(name, version, platform));
    return {
      h1: packageHashV1(await readZip(file)),
      zh: `zh:${createHash('sha256').update(readFileSync(file)).digest('hex')}`,
    };
  }

  const terraformEnvironment = (extra: Record<string, string> = {}) => ({ PATH: emptyPath, ...extra });

  it('installs from the filesystem mirror; released vdb trusts an API CA only via NODE_EXTRA_CA_CERTS', async () => {
    expect(readdirSync(emptyPath)).to.deep.equal([]);
    const certificate = await generateCertificate('localhost');
    const api: VdbEmulator = await startVdbEmulator({
      tls: { certPem: certificate.certPem, keyPem: certificate.keyPem },
    });
    try {
      const caFile = join(scratch, 'api-ca.pem');
      writeFileSync(caFile, certificate.certPem);
      const config = `${REQUIRE_BOTH}
provider "vdb" {}

data "vdb_booking_packages" "here" {
  cloud_provider = "aws"
  cloud_region   = "us-east-1"
}
`;
      const cliConfig = installation(`filesystem_mirror {\n    path    = "${join(unsigned.outDir, 'mirror')}"`);
      const apiEnv = {
        ...vdbProviderEnv({ url: api.url, apiKey: api.apiKey, accountId: api.accountId }),
        GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: '',
      };
      const ws = new Workspace(config, terraformEnvironment(apiEnv), { cliConfig, terraform });
      workspaces.push(ws);
      const init = await ws.expect(['init', '-no-color', '-input=false']);
      expect(init.stdout)
        .to.match(/Installing keel\/sec v2\.2\.0/)
        .and.to.match(/Installing keel\/vdb v1\.19\.2/);
      for (const { name, version } of RELEASED) {
        const { h1 } = await archiveHashes(name, version);
        // From a filesystem mirror Terraform records the h1: hash of what it unpacked.
        expect(lockedHashes(ws, name), name).to.deep.equal([h1]);
        const installed = join(
          ws.dir,
          '.terraform',
          'providers',
          'registry.terraform.io',
          'keel',
          name,
          version,
          platform,
        );
        expect(existsSync(join(installed, providerExecutableName(name, version))), `${installed}`).to.equal(true);
      }

      api.clearRequests();
      const reached = await ws.expect(['plan', '-no-color'], 0, { NODE_EXTRA_CA_CERTS: caFile });
      expect(reached.stderr).to.not.match(/development overrides/i);
      expect(api.requests.length, 'the read reached the API').to.be.at.least(1);
      api.clearRequests();
      const refused = await ws.run(['plan', '-no-color'], { NODE_EXTRA_CA_CERTS: '' });
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.match(/certificate/i);
      expect(api.requests).to.have.length(0);
    } finally {
      await api.close();
    }
  });

  /**
   * A static HTTPS server on loopback with a test CA: the network mirror tree under /, and the Provider
   * Registry Protocol's two answers under /v1/providers/ over the signed release (what a private
   * registry serves once the README's files are uploaded to it).
   */
  async function startHttps(): Promise<{ server: Server; port: number; caFile: string; served: string[] }> {
    const certificate = await generateCertificate('localhost');
    const caFile = join(scratch, 'https-ca.pem');
    writeFileSync(caFile, certificate.certPem);
    const served: string[] = [];
    const gpgEnv = { ...process.env, GNUPGHOME: gnupgHome };
    const publicKey = spawnSync('gpg', ['--batch', '--armor', '--export', keyFingerprint], {
      env: gpgEnv,
      encoding: 'utf8',
    }).stdout;
    const json = (value: unknown) => ({ type: 'application/json', body: Buffer.from(JSON.stringify(value)) });
    const registryAnswer = (path: string): { type: string; body: Buffer } | undefined => {
      const versions = /^\/v1\/providers\/keel\/([a-z]+)\/versions$/.exec(path);
      const download = /^\/v1\/providers\/keel\/([a-z]+)\/([0-9.]+)\/download\/([a-z0-9]+)\/([a-z0-9]+)$/.exec(path);
      const released = signed.providers.find((p) => p.name === (versions ?? download)?.[1]);
      if (!released) return undefined;
      const [os, arch] = platform.split('_');
      if (versions)
        return json({ versions: [{ version: released.version, protocols: ['6.0'], platforms: [{ os, arch }] }] });
      if (download![2] !== released.version || `${download![3]}_${download![4]}` !== platform) return undefined;
      const filename = providerArchiveName(released.name, released.version, platform);
      const sums = `terraform-provider-${released.name}_${released.version}_SHA256SUMS`;
      return json({
        protocols: ['6.0'],
        os,
        arch,
        filename,
        download_url: `/files/${filename}`,
        shasums_url: `/files/${sums}`,
        shasums_signature_url: `/files/${sums}.sig`,
        shasum: released.zh.slice('zh:'.length),
        signing_keys: { gpg_public_keys: [{ key_id: keyFingerprint.slice(-16), ascii_armor: publicKey }] },
      });
    };
    const server = createServer({ key: certificate.keyPem, cert: certificate.certPem }, (request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'https://localhost').pathname);
      served.push(path);
      const inside = (root: string, rest: string) =>
        join(root, ...rest.split('/').filter((part) => part && part !== '..'));
      const file = path.startsWith('/files/')
        ? inside(signed.outDir, path.slice('/files/'.length))
        : inside(join(signed.outDir, 'network-mirror'), path);
      const answer = path.startsWith('/v1/')
        ? registryAnswer(path)
        : existsSync(file) && statSync(file).isFile()
          ? { type: file.endsWith('.json') ? 'application/json' : 'application/octet-stream', body: readFileSync(file) }
          : undefined;
      if (!answer) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as { port: number }).port, caFile, served };
  }

  /** The sec example and the vdb role example side by side. */
  const exampleConfig = () => {
    const example = (path: string) =>
      readFileSync(join(REPO_ROOT, 'examples', path), 'utf8').replace(/^terraform \{[\s\S]*?\n\}\n/m, '');
    return REQUIRE_BOTH + example('sec/main.tf') + example('vdb/vdb_accounts_role/main.tf');
  };

  it('installs from the network mirror over HTTPS; applies on the released emulators, re-plans, destroys', async () => {
    const https = await startHttps();
    try {
      const cliConfig = installation(`network_mirror {\n    url     = "https://localhost:${https.port}/"`);
      const unpacked = join(scratch, 'emulators');
      const running: Record<string, RunningEmulator> = {};
      for (const { name, version } of RELEASED) {
        await unpackZip(join(signed.outDir, emulatorArchiveName(name, version, platform)), join(unpacked, name));
        running[name] = await startReleasedEmulator(join(unpacked, name, emulatorExecutableName(name)), {
          ...process.env,
          PATH: emptyPath,
        });
        emulators.push(running[name]!);
      }
      const sec = running.sec!.ready;
      const vdb = running.vdb!.ready;
      const apiEnv = {
        ...secProviderEnv({ url: sec.url!, account: sec.account!, apiKey: sec.api_key!, apiSecret: sec.api_secret! }),
        ...vdbProviderEnv({ url: vdb.url!, apiKey: vdb.api_key!, accountId: vdb.account_id! }),
      };
      const mirrored = new Workspace(
        exampleConfig(),
        terraformEnvironment({ ...apiEnv, SSL_CERT_FILE: https.caFile }),
        { cliConfig, terraform },
      );
      workspaces.push(mirrored);

      // Without the test CA Terraform refuses the mirror: the connection really is verified HTTPS.
      const untrusted = await mirrored.run(['init', '-no-color', '-input=false'], {
        SSL_CERT_FILE: join(scratch, 'no-such-ca.pem'),
      });
      expect(untrusted.code).to.equal(1);
      expect(untrusted.stderr, untrusted.stderr).to.match(/certificate/i);

      await mirrored.expect(['init', '-no-color', '-input=false']);
      for (const { name, version } of RELEASED) {
        const { h1 } = await archiveHashes(name, version);
        // Terraform checked the mirror's h1: and zh: against the download ("verified checksum") but,
        // as the mirror's word is not signed, records the h1: of what it unpacked.
        expect(lockedHashes(mirrored, name), name).to.deep.equal([h1]);
        expect(https.served).to.include.members([
          `/registry.terraform.io/keel/${name}/index.json`,
          `/registry.terraform.io/keel/${name}/${version}.json`,
          `/registry.terraform.io/keel/${name}/${providerArchiveName(name, version, platform)}`,
        ]);
      }

      await mirrored.expect(['apply', '-auto-approve', '-no-color']);
      const state = await mirrored.state();
      expect([...state.keys()].sort()).to.deep.equal([
        'data.sec_user_profile.me',
        'sec_agent_access_token.ci',
        'sec_alert_channel_email.security',
        'vdb_accounts_role.example',
      ]);
      expect(state.get('vdb_accounts_role.example')!.values.id).to.be.a('string').and.not.equal('');
      expect(state.get('sec_alert_channel_email.security')!.values.intg_guid).to.be.a('string').and.not.equal('');
      await mirrored.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      await mirrored.expect(['destroy', '-auto-approve', '-no-color']);
      expect([...(await mirrored.state()).keys()]).to.deep.equal([]);
    } finally {
      https.server.close();
    }
  });

  it('installs from a registry serving the signed release: signature checked, h1: and zh: locked', async () => {
    const https = await startHttps();
    try {
      // A `host` block stands the test server in for registry.terraform.io, so the addresses stay keel/<name>.
      const cliConfig =
        `host "registry.terraform.io" {\n  services = {\n` +
        `    "providers.v1" = "https://localhost:${https.port}/v1/providers/"\n  }\n}\n` +
        'provider_installation {\n  direct {\n    include = ["registry.terraform.io/keel/*"]\n  }\n}\n';
      const ws = new Workspace(REQUIRE_BOTH, terraformEnvironment({ SSL_CERT_FILE: https.caFile }), {
        cliConfig,
        terraform,
      });
      workspaces.push(ws);
      const init = await ws.expect(['init', '-no-color', '-input=false']);
      expect(init.stdout).to.match(
        new RegExp(`Installed keel/sec v2\\.2\\.0 \\(self-signed, key ID ${keyFingerprint.slice(-16)}\\)`),
      );
      for (const { name, version } of RELEASED) {
        const { h1, zh } = await archiveHashes(name, version);
        expect(lockedHashes(ws, name), name).to.deep.equal([h1, zh]);
        expect(https.served).to.include(`/files/terraform-provider-${name}_${version}_SHA256SUMS.sig`);
      }
    } finally {
      https.server.close();
    }
  });
});
