#!/usr/bin/env node
// Builds the real clients the acceptance tests drive besides Terraform, from the Go module proxy:
// OpenTofu's CLI, Pulumi's CLI, pulumi-terraform-bridge's dynamically bridged provider and our
// nodejs-sdk generator (test/real-clients/*/go.mod pin each upstream module). Test-side only.
//
// Binaries go to a cache outside the work tree, $KEEL_CLIENTS_DIR or ~/.cache/keel-clients/bin, with
// clients.json beside them recording the module files each was built from, so the tests can tell a
// stale build. A build whose module files are unchanged is reused; Go's own caches (GOMODCACHE,
// GOCACHE) make a rebuild after a change cheap.
//
// Usage: node scripts/clients.mjs   (npm run clients)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each client: the module that pins it, the package built, the file name and the link-time values. */
const CLIENTS = [
  {
    binary: 'tofu',
    module: 'test/real-clients/opentofu',
    package: 'github.com/opentofu/opentofu/cmd/tofu',
    // As OpenTofu's releases: the version without its "-dev" suffix.
    ldflags: ['-X github.com/opentofu/opentofu/version.dev=no'],
  },
  {
    binary: 'pulumi',
    module: 'test/real-clients/pulumi-cli',
    package: 'github.com/pulumi/pulumi/pkg/v3/cmd/pulumi',
    ldflags: ['-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.274.1'],
  },
  {
    binary: 'nodejs-sdk',
    module: 'test/real-clients/pulumi-cli',
    package: './nodejs-sdk',
    ldflags: [],
  },
  {
    // The name under which Pulumi looks for the `terraform-provider` plugin.
    binary: 'pulumi-resource-terraform-provider',
    module: 'test/real-clients/pulumi-bridge',
    package: 'github.com/pulumi/pulumi-terraform-bridge/v3/dynamic',
    ldflags: ['-X github.com/pulumi/pulumi-terraform-bridge/v3/dynamic/version.version=v3.120.0'],
  },
];

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = process.env.KEEL_CLIENTS_DIR || join(homedir(), '.cache', 'keel-clients', 'bin');

/** What a build depends on: its module's files (ours included), the package, the flags and Go. */
function moduleDigest(moduleDir, client, go) {
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum']) hash.update(readFileSync(join(moduleDir, file)));
  if (client.package.startsWith('./')) hash.update(readFileSync(join(moduleDir, client.package, 'main.go')));
  return hash.update(JSON.stringify([client.package, client.ldflags, go])).digest('hex');
}
const manifestPath = join(binDir, 'clients.json');

function goVersion() {
  try {
    return execFileSync('go', ['version'], { encoding: 'utf8' }).trim();
  } catch (err) {
    fail('go version', err);
  }
}

function fail(command, err) {
  const detail = String(err?.stderr ?? err?.message ?? err)
    .trim()
    .split('\n')
    .slice(-15)
    .join('\n');
  console.error(`clients: \`${command}\` failed: ${detail}`);
  process.exit(1);
}

mkdirSync(binDir, { recursive: true });
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};
const go = goVersion();
console.log(`clients: ${go}, into ${binDir}`);
for (const client of CLIENTS) {
  const moduleDir = join(repoRoot, client.module);
  const digest = moduleDigest(moduleDir, client, go);
  const target = join(binDir, client.binary);
  if (manifest[client.binary] === digest && existsSync(target)) {
    console.log(`clients: ${client.binary} is up to date`);
    continue;
  }
  const args = ['build', '-trimpath', '-ldflags', client.ldflags.join(' '), '-o', `${target}.partial`, client.package];
  const command = `(cd ${client.module} && go ${args.map((a) => (a.includes(' ') ? `'${a}'` : a)).join(' ')})`;
  const started = process.hrtime.bigint();
  try {
    execFileSync('go', args, { cwd: moduleDir, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  } catch (err) {
    fail(command, err);
  }
  renameSync(`${target}.partial`, target);
  manifest[client.binary] = digest;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `clients: built ${client.binary} in ${Number((process.hrtime.bigint() - started) / 1_000_000n) / 1000} s`,
  );
}
