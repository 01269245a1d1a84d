/**
 * Pulumi through the real pulumi-terraform-bridge: the path a Pulumi user takes. The bridge's dynamic
 * provider (Pulumi's `terraform-provider` plugin) is installed into a fresh PULUMI_HOME, `pulumi
 * package get-schema terraform-provider <our executable>` gives the schema, Pulumi's own generator
 * writes the TypeScript SDK from it (as `pulumi package add` does), and a program using that SDK runs
 * against the emulator with a local file backend and passphrase secrets: up, no changes on preview
 * and refresh, secrets encrypted in the exported state, an update in place and a replacement, an
 * import, and a destroy that leaves the emulator as it was.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BRIDGE_DIFFERENCE_CLASSES, dynamicBridgeModel, schemaDifferences } from './bridge-schema.js';
import { startEmulator, type EmulatorHandle } from './examples-workspace.js';
import { PROGRAM_OBJECTS } from './pulumi-objects.js';
import type { PulumiRun } from './pulumi-program.js';
import { expectSecretsEncrypted, installBridge, mustRun, pulumiEnv } from './pulumi-yaml.js';
import { requireRealClient } from './real-clients.js';
import { REPO_ROOT, runCommand } from './terraform.js';
import { loadProviderDef } from '../../src/providers/describe.js';

type Outputs = Record<string, string>;

const PREFIX = 'pulumi';

/** The TypeScript program (pulumi-program.ts) of a provider, which makes its objects of pulumi-objects.ts. */
interface ProgramCase {
  readonly provider: PulumiRun['provider'];
  /** A resource without dependents, adopted again by the `import` resource option. */
  readonly imported: { name: string; type: string; collection: string };
}

const CASES: ProgramCase[] = [
  // Its secret webhook URL, which the platform returns, is read back by the import.
  {
    provider: 'sec',
    imported: { name: 'chat', type: 'sec:index/alertChannelChat:AlertChannelChat', collection: 'AlertChannels' },
  },
  { provider: 'vdb', imported: { name: 'role', type: 'vdb:index/accountsRole:AccountsRole', collection: 'roles' } },
];

for (const c of CASES)
  describe(`acceptance: Pulumi through pulumi-terraform-bridge, ${c.provider}`, function () {
    this.timeout(600_000);
    let emulator: EmulatorHandle;
    let dir: string;
    let pulumi: string;
    let env: Record<string, string>;
    let sdk: string;
    let bridgeSchema: unknown;
    let executable: string;
    let initial: Record<string, string[]>;
    let ids: Outputs;
    const objects = PROGRAM_OBJECTS[c.provider];
    const snapshot = () => Object.fromEntries(objects.collections.map((name) => [name, emulator.ids(name).sort()]));

    async function program(
      op: PulumiRun['op'],
      stage = 1,
      imports: Record<string, string> = {},
    ): Promise<{ summary: any; outputs: Outputs }> {
      const request: PulumiRun = {
        op,
        provider: c.provider,
        sdk,
        pulumiBin: dirname(pulumi),
        workDir: join(dir, 'work'),
        stage,
        imports,
        env,
      };
      const r = await runCommand(process.execPath, [join(REPO_ROOT, 'dist/test/acceptance/pulumi-program.js')], {
        env: { ...env, KEEL_PULUMI_RUN: JSON.stringify(request) },
        maxBuffer: 256 * 1024 * 1024,
      });
      if (r.code !== 0) throw new Error(`pulumi ${op} (stage ${stage}) failed:\n${r.stderr.slice(-6000)}`);
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    }

    const pulumiCli = (args: string[]) =>
      mustRun(pulumi, [...args, '--stack', 'test', '--non-interactive'], { cwd: join(dir, 'work'), env });

    const expectEncrypted = async (outputs: Outputs) =>
      expectSecretsEncrypted((await pulumiCli(['stack', 'export'])).stdout, objects.secrets(outputs));

    before(async function () {
      pulumi = requireRealClient(this, 'pulumi');
      const bridge = requireRealClient(this, 'pulumi-resource-terraform-provider');
      const generator = requireRealClient(this, 'sdk-gen');
      emulator = await startEmulator[c.provider]();
      initial = snapshot();
      dir = mkdtempSync(join(tmpdir(), 'keel-pulumi-'));
      mkdirSync(join(dir, 'work', 'state'), { recursive: true });
      env = pulumiEnv(dir, emulator.env);
      await installBridge(pulumi, bridge, env);
      executable = join(REPO_ROOT, 'bin', `terraform-provider-${c.provider}`);
      const schema = await mustRun(pulumi, ['package', 'get-schema', 'terraform-provider', executable], { env });
      writeFileSync(join(dir, 'schema.json'), schema.stdout);
      bridgeSchema = JSON.parse(schema.stdout);
      const sdkDir = join(dir, 'sdk', c.provider);
      await mustRun(generator, ['nodejs', join(dir, 'schema.json'), sdkDir], { env });
      // The SDK's own install step (tsc into bin/), with this checkout's @pulumi/pulumi so the program
      // and the SDK share one Pulumi runtime.
      for (const pkg of ['@pulumi/pulumi', '@types/node']) {
        mkdirSync(dirname(join(sdkDir, 'node_modules', pkg)), { recursive: true });
        symlinkSync(join(REPO_ROOT, 'node_modules', pkg), join(sdkDir, 'node_modules', pkg));
      }
      await mustRun(process.execPath, [join(sdkDir, 'scripts', 'postinstall.js')], {
        cwd: sdkDir,
        env: { ...env, PATH: `${join(REPO_ROOT, 'node_modules', '.bin')}:${env.PATH}` },
      });
      sdk = join(sdkDir, 'bin', 'index.js');
    });

    after(async () => {
      await emulator?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(`gives the bridge's schema, which is the Pulumi model's but for ${BRIDGE_DIFFERENCE_CLASSES.length} listed classes`, async () => {
      const differences = schemaDifferences(bridgeSchema, await dynamicBridgeModel(c.provider, executable));
      expect(differences, differences.slice(0, 20).join('\n')).to.deep.equal([]);
    });

    it("carries none of the provider's functions: a Pulumi program has no way to call them (README, Pulumi)", async () => {
      const declared = (await loadProviderDef(c.provider)).functions ?? [];
      expect(declared.length).to.be.above(0);
      const tokens = Object.keys((bridgeSchema as { functions?: object }).functions ?? {});
      const carried = tokens.filter((t) =>
        declared.some((f) => t.toLowerCase().includes(f.name.replaceAll('_', '').toLowerCase())),
      );
      expect(carried, 'the bridge now carries provider functions: say so in the README and call one').to.deep.equal([]);
      expect(
        tokens.every((t) => /\/get[A-Z]|terraformConfig/.test(t)),
        tokens.join(', '),
      ).to.equal(true);
    });

    it("creates the program's resources, as the emulator confirms", async () => {
      const { summary, outputs } = await program('up');
      expect(summary.result).to.equal('succeeded');
      ids = outputs;
      objects.created(emulator, ids, PREFIX);
    });

    it('previews and refreshes with no changes', async () => {
      await program('preview');
      await program('refresh');
    });

    it('keeps secrets encrypted in `pulumi stack export`', async () => {
      await expectEncrypted(ids);
    });

    it('updates in place and replaces, then previews with no changes', async () => {
      const { summary, outputs } = await program('up', 2);
      expect(summary.resourceChanges).to.include({ update: 1, replace: 1 });
      expect(outputs[objects.inPlace], 'updated in place').to.equal(ids[objects.inPlace]);
      expect(outputs[objects.replaced], 'replaced').to.not.equal(ids[objects.replaced]);
      const replacedCollection = objects.collections.find(
        (name) => emulator.get(name, outputs[objects.replaced]!) !== undefined,
      );
      expect(replacedCollection, 'the replacement is held').to.not.equal(undefined);
      expect(emulator.get(replacedCollection!, ids[objects.replaced]!), 'the replaced object is gone').to.equal(
        undefined,
      );
      objects.updated(emulator, outputs, PREFIX);
      ids = outputs;
      await program('preview', 2);
      await expectEncrypted(ids);
    });

    // The `import` resource option, from a program; `pulumi import` on the command line is in
    // pulumi-cli.test.ts (a YAML project).
    it('imports an existing object with the `import` resource option, then previews with no changes', async () => {
      const { name, type, collection } = c.imported;
      await pulumiCli(['state', 'delete', `urn:pulumi:test::keel-${c.provider}::${type}::${name}`, '--yes']);
      const held = emulator.ids(collection).sort();
      const { summary } = await program('up', 2, { [name]: ids[name]! });
      expect(summary.resourceChanges).to.include({ import: 1 });
      expect(emulator.ids(collection).sort(), 'nothing created or deleted').to.deep.equal(held);
      await expectEncrypted(ids);
      await program('preview', 2);
    });

    it('destroys everything, leaving the emulator as it was', async () => {
      await program('destroy', 2);
      expect(snapshot()).to.deep.equal(initial);
    });
  });
