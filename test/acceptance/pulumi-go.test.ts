/**
 * Pulumi's third language: a Go program on the SDKs Pulumi's Go generator (pkg/codegen/go, through
 * sdk-gen) writes from the bridge's schema of each provider, run by Pulumi's Automation API for Go
 * (test/acceptance/pulumi-go/main.go) against the emulators. The path is a Go user's: the providers
 * installed into the bridge's cache (`npm run install-providers -- --pulumi`), each package taken by
 * its address (`keel/sec 2.2.0`), so nothing in the SDKs names a path of this machine; the SDKs in
 * `sdks/<name>` of a Go module whose go.mod has the `replace` lines `pulumi package add` writes and
 * requires Pulumi's Go SDK 3.274.1; `go build`. Then, for each provider, the objects of
 * pulumi-objects.ts: up, preview and refresh with no changes, secrets encrypted in `pulumi stack
 * export`, an update in place and a replacement, and a destroy that leaves the emulator as it was.
 * `pulumi package add` for Go needs Pulumi's Go language host, which the Go module proxy does not
 * serve; the SDK step it runs is this generator.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { runtimeCacheDir } from '../../packages/framework/src/release/runtimes.js';
import { startEmulator, type EmulatorHandle, type Provider } from './examples-workspace.js';
import { heldIds, PROGRAM_OBJECTS, programStages, type ProgramOutputs } from './pulumi-objects.js';
import { installBridge, mustRun, pulumiEnv } from './pulumi-yaml.js';
import { requireRealClient } from './real-clients.js';
import { REPO_ROOT } from './terraform.js';
import { ORDER_NOTE } from '../../packages/framework/src/schema/define.js';

const PROGRAM_MODULE = join(REPO_ROOT, 'test', 'acceptance', 'pulumi-go');
const PREFIX = 'go';

/** Each package as `pulumi package add terraform-provider keel/<name> <version>` takes it. */
const PACKAGES: Record<Provider, { version: string; module: string; setHolder: string }> = {
  // setHolder: a file of the SDK with a set of the program's (alert channels, permissions).
  sec: {
    version: '2.2.0',
    module: 'github.com/pulumi/pulumi-terraform-provider/sdks/go/sec/v2',
    setHolder: 'alertRule.go',
  },
  vdb: {
    version: '1.19.2',
    module: 'github.com/pulumi/pulumi-terraform-provider/sdks/go/vdb',
    setHolder: 'accountsRole.go',
  },
};

/** One home (bridge, providers, both SDKs and the built program) for both providers' suites. */
interface GoProgram {
  readonly home: string;
  readonly executable: string;
  readonly sdkFiles: Record<Provider, number>;
}
let built: Promise<GoProgram> | undefined;

after(async () => {
  const program = await built?.catch(() => undefined);
  if (program) rmSync(program.home, { recursive: true, force: true });
});

async function buildProgram(pulumi: string, bridge: string, generator: string): Promise<GoProgram> {
  const home = mkdtempSync(join(tmpdir(), 'keel-pulumi-go-'));
  const env = pulumiEnv(home, {});
  await installBridge(pulumi, bridge, env);
  // The providers into the bridge's cache, as a user does once from a checkout.
  await promisify(execFile)(
    process.execPath,
    [join(REPO_ROOT, 'dist', 'scripts', 'install-providers.js'), '--pulumi'],
    {
      env: { ...process.env, ...env, KEEL_RUNTIME_CACHE: runtimeCacheDir() },
    },
  );
  const project = join(home, 'program');
  mkdirSync(project);
  for (const file of ['main.go', 'go.mod', 'go.sum']) copyFileSync(join(PROGRAM_MODULE, file), join(project, file));
  const sdkFiles = {} as Record<Provider, number>;
  for (const provider of ['sec', 'vdb'] as const) {
    const { version } = PACKAGES[provider];
    const schema = await mustRun(pulumi, ['package', 'get-schema', 'terraform-provider', `keel/${provider}`, version], {
      env,
    });
    const schemaFile = join(home, `${provider}-schema.json`);
    writeFileSync(schemaFile, schema.stdout);
    const sdk = join(project, 'sdks', provider);
    await mustRun(generator, ['go', schemaFile, sdk], { env });
    sdkFiles[provider] = goFiles(sdk).length;
  }
  const executable = join(home, 'pulumi-go');
  // -trimpath as npm run clients builds Pulumi's CLI, so the two builds share Go's cache.
  await mustRun('go', ['build', '-trimpath', '-o', executable, '.'], {
    cwd: project,
    env: { ...goEnvironment(), GOFLAGS: '-mod=readonly' },
  });
  return { home, executable, sdkFiles };
}

/** Go's own settings from this environment (its caches and proxy), not the Pulumi home's HOME. */
function goEnvironment(): Record<string, string> {
  const keep = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('PULUMI'),
  );
  return Object.fromEntries(keep);
}

function goFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.go'))
    .map((name) => join(dir, name));
}

for (const provider of ['sec', 'vdb'] as const) {
  const objects = PROGRAM_OBJECTS[provider];
  describe(`acceptance: Pulumi with a Go program, ${provider}`, function () {
    this.timeout(900_000);
    let emulator: EmulatorHandle;
    let program: GoProgram;
    let pulumi: string;
    let env: Record<string, string>;
    let workDir: string;
    let initial: Record<string, string[]>;

    async function operate(op: 'up' | 'preview' | 'refresh' | 'destroy', stage = 1) {
      const run = {
        op,
        provider,
        stage,
        prefix: PREFIX,
        workDir,
        pulumiRoot: dirname(dirname(pulumi)),
        secrets: objects.secretConfig,
        env,
      };
      const r = await mustRun(program.executable, [], { env: { ...env, KEEL_PULUMI_RUN: JSON.stringify(run) } });
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { summary: any; outputs: ProgramOutputs };
    }

    const exported = async () =>
      (await mustRun(pulumi, ['stack', 'export', '--stack', 'test', '--non-interactive'], { cwd: workDir, env }))
        .stdout;

    before(async function () {
      pulumi = requireRealClient(this, 'pulumi');
      const bridge = requireRealClient(this, 'pulumi-resource-terraform-provider');
      const generator = requireRealClient(this, 'sdk-gen');
      built ??= buildProgram(pulumi, bridge, generator);
      program = await built;
      emulator = await startEmulator[provider]();
      initial = heldIds(objects, emulator);
      env = pulumiEnv(program.home, emulator.env);
      workDir = join(program.home, `work-${provider}`);
      mkdirSync(join(workDir, 'state'), { recursive: true });
    });

    after(async () => {
      await emulator?.close();
    });

    it('has an SDK from the package added by address, naming no path of this machine', () => {
      const sdk = join(program.home, 'program', 'sdks', provider);
      const files = goFiles(sdk);
      expect(files.length)
        .to.equal(program.sdkFiles[provider])
        .and.be.above(provider === 'sec' ? 60 : 15);
      const goMod = readFileSync(join(sdk, 'go.mod'), 'utf8');
      expect(goMod).to.include(`module ${PACKAGES[provider].module}\n`);
      const plugin = JSON.parse(readFileSync(join(sdk, provider, 'pulumi-plugin.json'), 'utf8'));
      expect(plugin.parameterization).to.include({ name: provider, version: PACKAGES[provider].version });
      expect(JSON.parse(Buffer.from(plugin.parameterization.value, 'base64').toString())).to.deep.equal({
        remote: { url: `registry.opentofu.org/keel/${provider}`, version: PACKAGES[provider].version },
      });
      const machinePaths = [program.home, REPO_ROOT, tmpdir()];
      const naming = files.filter((file) => machinePaths.some((path) => readFileSync(file, 'utf8').includes(path)));
      expect(naming, 'SDK files that name a path of this machine').to.deep.equal([]);
      // A set is a slice in Go; its doc comment says that order does not matter.
      expect(readFileSync(join(sdk, provider, PACKAGES[provider].setHolder), 'utf8')).to.include(ORDER_NOTE);
      console.log(`      (${provider}: ${files.length} Go files in the SDK)`);
    });

    programStages({
      objects,
      prefix: PREFIX,
      run: operate,
      exported,
      emulator: () => emulator,
      initial: () => initial,
    });
  });
}
