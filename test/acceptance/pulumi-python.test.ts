/**
 * Pulumi's second language: for each provider, the Python SDK that Pulumi's own generator
 * (pkg/codegen/python, through sdk-gen) writes from the bridge's schema, and a Python program on it
 * run by the Automation API of PyPI's `pulumi` package (pulumi_program.py), against the emulator: up,
 * an empty preview, secrets encrypted in `pulumi stack export`, and a destroy that leaves the emulator
 * as it was. `pulumi package add` for Python needs Pulumi's Python language host, which the Go module
 * proxy does not serve; the SDK step it runs is this generator.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startEmulator, type EmulatorHandle, type Provider } from './examples-workspace.js';
import { PROGRAM_SECRETS } from './pulumi-program.js';
import { expectSecretsEncrypted, installBridge, mustRun, pulumiEnv, type Outputs } from './pulumi-yaml.js';
import { requireRealClient } from './real-clients.js';
import { REPO_ROOT } from './terraform.js';

interface PythonCase {
  readonly provider: Provider;
  readonly collections: readonly string[];
  readonly secrets: Record<string, string>;
  readonly created: (emulator: EmulatorHandle, outputs: Outputs) => void;
  /** Plain texts of secrets that `pulumi stack export` must hold only encrypted. */
  readonly secretTexts: (outputs: Outputs) => string[];
}

const CASES: PythonCase[] = [
  {
    provider: 'sec',
    collections: ['AlertChannels', 'AlertRules'],
    secrets: { chatWebhookUrl: PROGRAM_SECRETS.chatWebhookUrl },
    created(emulator, ids) {
      expect((emulator.get('AlertChannels', ids.chat!) as any)?.data?.webhookUrl).to.equal(
        PROGRAM_SECRETS.chatWebhookUrl,
      );
      expect((emulator.get('AlertChannels', ids.email!) as any)?.name).to.equal('python-email');
      expect((emulator.get('AlertRules', ids.rule!) as any)?.intgGuidList).to.deep.equal([ids.email]);
    },
    secretTexts: () => [PROGRAM_SECRETS.chatWebhookUrl],
  },
  {
    provider: 'vdb',
    collections: ['clusters', 'roles', 'databaseApiKeys'],
    secrets: {},
    created(emulator, ids) {
      expect((emulator.get('clusters', ids.cluster!) as any)?.name).to.equal('python-cluster');
      expect((emulator.get('roles', ids.role!) as any)?.description).to.equal('Create and restore backups');
      expect((emulator.get('databaseApiKeys', ids.key!) as any)?.name).to.equal('python-key');
    },
    secretTexts: (outputs) => [outputs.keySecret!],
  },
];

for (const c of CASES)
  describe(`acceptance: Pulumi with a Python program, ${c.provider}`, function () {
    this.timeout(600_000);
    let emulator: EmulatorHandle;
    let dir: string;
    let pulumi: string;
    let pythonPath: string;
    let env: Record<string, string>;
    let sdk: string;
    let initial: Record<string, string[]>;
    let ids: Outputs;
    const snapshot = () => Object.fromEntries(c.collections.map((name) => [name, emulator.ids(name).sort()]));

    async function program(op: 'up' | 'preview' | 'destroy'): Promise<{ summary: any; outputs: Outputs }> {
      const run = {
        op,
        provider: c.provider,
        sdk,
        pulumiRoot: dirname(dirname(pulumi)),
        workDir: join(dir, 'work'),
        secrets: c.secrets,
        env,
      };
      const r = await mustRun('python3', [join(REPO_ROOT, 'test', 'acceptance', 'pulumi_program.py')], {
        env: { ...env, PYTHONPATH: pythonPath, KEEL_PULUMI_RUN: JSON.stringify(run) },
      });
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    }

    before(async function () {
      pulumi = requireRealClient(this, 'pulumi');
      const bridge = requireRealClient(this, 'pulumi-resource-terraform-provider');
      const generator = requireRealClient(this, 'sdk-gen');
      pythonPath = requireRealClient(this, 'pulumi-python');
      emulator = await startEmulator[c.provider]();
      initial = snapshot();
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

    it("creates the program's resources, as the emulator confirms", async () => {
      const { summary, outputs } = await program('up');
      expect(summary.create).to.be.greaterThan(0);
      ids = outputs;
      c.created(emulator, ids);
    });

    it('previews with no changes, secrets encrypted in `pulumi stack export`', async () => {
      await program('preview');
      const exported = (
        await mustRun(pulumi, ['stack', 'export', '--stack', 'test', '--non-interactive'], {
          cwd: join(dir, 'work'),
          env,
        })
      ).stdout;
      expectSecretsEncrypted(exported, c.secretTexts(ids));
    });

    it('destroys everything, leaving the emulator as it was', async () => {
      await program('destroy');
      expect(snapshot()).to.deep.equal(initial);
    });
  });
