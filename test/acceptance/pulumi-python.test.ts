/**
 * Pulumi's second language: for each provider, the Python SDK that Pulumi's own generator
 * (pkg/codegen/python, through sdk-gen) writes from the bridge's schema, and a Python program on it
 * run by the Automation API of PyPI's `pulumi` package (pulumi_program.py), against the emulator: the
 * objects of pulumi-objects.ts, up, preview and refresh with no changes, secrets encrypted in `pulumi
 * stack export`, an update in place and a replacement, and a destroy that leaves the emulator as it
 * was. `pulumi package add` for Python needs Pulumi's Python language host, which the Go module proxy
 * does not serve; the SDK step it runs is this generator.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startEmulator, type EmulatorHandle } from './examples-workspace.js';
import { heldIds, PROGRAM_OBJECTS, programStages, type ProgramOutputs } from './pulumi-objects.js';
import { installBridge, mustRun, pulumiEnv } from './pulumi-yaml.js';
import { requireRealClient } from './real-clients.js';
import { REPO_ROOT } from './terraform.js';

const PREFIX = 'python';

for (const c of Object.values(PROGRAM_OBJECTS))
  describe(`acceptance: Pulumi with a Python program, ${c.provider}`, function () {
    this.timeout(600_000);
    let emulator: EmulatorHandle;
    let dir: string;
    let pulumi: string;
    let pythonPath: string;
    let env: Record<string, string>;
    let sdk: string;
    let initial: Record<string, string[]>;

    async function program(
      op: 'up' | 'preview' | 'refresh' | 'destroy',
      stage = 1,
    ): Promise<{ summary: any; outputs: ProgramOutputs }> {
      const run = {
        op,
        provider: c.provider,
        stage,
        prefix: PREFIX,
        sdk,
        pulumiRoot: dirname(dirname(pulumi)),
        workDir: join(dir, 'work'),
        secrets: c.secretConfig,
        env,
      };
      const r = await mustRun('python3', [join(REPO_ROOT, 'test', 'acceptance', 'pulumi_program.py')], {
        env: { ...env, PYTHONPATH: pythonPath, KEEL_PULUMI_RUN: JSON.stringify(run) },
      });
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    }

    const exported = async () =>
      (
        await mustRun(pulumi, ['stack', 'export', '--stack', 'test', '--non-interactive'], {
          cwd: join(dir, 'work'),
          env,
        })
      ).stdout;

    before(async function () {
      pulumi = requireRealClient(this, 'pulumi');
      const bridge = requireRealClient(this, 'pulumi-resource-terraform-provider');
      const generator = requireRealClient(this, 'sdk-gen');
      pythonPath = requireRealClient(this, 'pulumi-python');
      emulator = await startEmulator[c.provider]();
      initial = heldIds(c, emulator);
      dir = mkdtempSync(join(tmpdir(), 'keel-pulumi-python-'));
      mkdirSync(join(dir, 'work', 'state'), { recursive: true });
      env = pulumiEnv(dir, emulator.env);
      await installBridge(pulumi, bridge, env);
      const executable = join(REPO_ROOT, 'bin', `terraform-provider-${c.provider}`);
      const schema = await mustRun(pulumi, ['package', 'get-schema', 'terraform-provider', executable], { env });
      writeFileSync(join(dir, 'schema.json'), schema.stdout);
      const generated = join(dir, 'sdk', c.provider);
      await mustRun(generator, ['python', join(dir, 'schema.json'), generated], { env });
      // Installed as `package add` installs it (the SDK reads its version from the installed metadata).
      sdk = join(dir, 'site-packages');
      await mustRun('python3', ['-m', 'pip', 'install', '--quiet', '--no-deps', '--target', sdk, generated], { env });
    });

    after(async () => {
      await emulator?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    programStages({
      objects: c,
      prefix: PREFIX,
      run: program,
      exported,
      emulator: () => emulator,
      initial: () => initial,
    });
  });
