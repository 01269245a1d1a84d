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
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startEmulator, type EmulatorHandle } from './examples-workspace.js';
import { PROGRAM_SECRETS, type PulumiRun } from './pulumi-program.js';
import { requireRealClient } from './real-clients.js';
import { REPO_ROOT } from './terraform.js';

/** The bridge's version as scripts/clients.mjs builds it: the plugin version the SDK asks for. */
const BRIDGE_VERSION = 'v3.120.0';

interface Exec {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], options: { cwd?: string; env: Record<string, string> }): Promise<Exec> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function mustRun(file: string, args: string[], options: { cwd?: string; env: Record<string, string> }) {
  const r = await run(file, args, options);
  if (r.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${r.code}\n${r.stderr}\n${r.stdout}`);
  return r;
}

describe('acceptance: Pulumi through pulumi-terraform-bridge, sec', function () {
  this.timeout(600_000);
  let emulator: EmulatorHandle;
  let dir: string;
  let pulumi: string;
  let env: Record<string, string>;
  let sdk: string;
  let before1: Record<string, string[]>;
  const collections = ['AlertChannels', 'ContainerRegistries', 'AlertRules'];
  const snapshot = () => Object.fromEntries(collections.map((c) => [c, emulator.ids(c).sort()]));

  async function program(
    op: PulumiRun['op'],
    stage = 1,
    imports: Record<string, string> = {},
  ): Promise<{ summary: any; outputs: Record<string, string> }> {
    const request: PulumiRun = {
      imports,
      op,
      provider: 'sec',
      sdk,
      pulumiBin: dirname(pulumi),
      workDir: join(dir, 'work'),
      stage,
      env,
    };
    const r = await run(process.execPath, [join(REPO_ROOT, 'dist/test/acceptance/pulumi-program.js')], {
      env: { ...env, KEEL_PULUMI_RUN: JSON.stringify(request) },
    });
    if (r.code !== 0) throw new Error(`pulumi ${op} (stage ${stage}) failed:\n${r.stderr.slice(-6000)}`);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
  }

  const pulumiCli = (args: string[]) =>
    mustRun(pulumi, [...args, '--non-interactive'], { cwd: join(dir, 'work'), env });

  before(async function () {
    pulumi = requireRealClient(this, 'pulumi');
    const bridge = requireRealClient(this, 'pulumi-resource-terraform-provider');
    const generator = requireRealClient(this, 'nodejs-sdk');
    emulator = await startEmulator.sec();
    before1 = snapshot();
    dir = mkdtempSync(join(tmpdir(), 'keel-pulumi-'));
    mkdirSync(join(dir, 'work', 'state'), { recursive: true });
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      PULUMI_HOME: join(dir, 'pulumi-home'),
      PULUMI_CONFIG_PASSPHRASE: 'keel-test-passphrase',
      PULUMI_SKIP_UPDATE_CHECK: '1',
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
      ...emulator.env,
    };
    // Pulumi's `terraform-provider` plugin is the bridge's dynamic provider, from our build.
    await mustRun(pulumi, ['plugin', 'install', 'resource', 'terraform-provider', BRIDGE_VERSION, '--file', bridge], {
      env,
    });
    const schema = await mustRun(
      pulumi,
      ['package', 'get-schema', 'terraform-provider', join(REPO_ROOT, 'bin', 'terraform-provider-sec')],
      { env },
    );
    writeFileSync(join(dir, 'schema.json'), schema.stdout);
    sdk = join(dir, 'sdk', 'sec');
    await mustRun(generator, [join(dir, 'schema.json'), sdk], { env });
    // The SDK's own install step (tsc into bin/), with this checkout's @pulumi/pulumi so the program
    // and the SDK share one Pulumi runtime.
    for (const pkg of ['@pulumi/pulumi', '@types/node']) {
      mkdirSync(dirname(join(sdk, 'node_modules', pkg)), { recursive: true });
      symlinkSync(join(REPO_ROOT, 'node_modules', pkg), join(sdk, 'node_modules', pkg));
    }
    await mustRun(process.execPath, [join(sdk, 'scripts', 'postinstall.js')], {
      cwd: sdk,
      env: { ...env, PATH: `${join(REPO_ROOT, 'node_modules', '.bin')}:${env.PATH}` },
    });
    sdk = join(sdk, 'bin', 'index.js');
  });

  after(async () => {
    await emulator?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let ids: Record<string, string>;

  it("creates the program's resources, as the emulator confirms", async () => {
    const { summary, outputs } = await program('up');
    expect(summary.result).to.equal('succeeded');
    ids = outputs;
    const chat = emulator.get('AlertChannels', ids.chat!) as any;
    expect(chat?.data?.webhookUrl).to.equal(PROGRAM_SECRETS.chatWebhookUrl);
    expect((emulator.get('AlertChannels', ids.email!) as any)?.data?.channelProps?.recipients).to.deep.equal([
      'security@example.com',
      'oncall@example.com',
    ]);
    const registry = emulator.get('ContainerRegistries', ids.registry!) as any;
    expect(registry?.data?.crossAccountCredentials).to.deep.equal({
      roleArn: 'arn:cloud-a:iam::123456789012:role/sec-registry-reader',
      externalId: 'pulumi-external-id',
    });
    expect(registry?.data?.limitByLabel).to.deep.equal([{ team: 'payments' }]);
    const rule = emulator.get('AlertRules', ids.rule!) as any;
    expect(rule?.intgGuidList).to.deep.equal([ids.email]);
  });

  it('previews and refreshes with no changes', async () => {
    await program('preview');
    await program('refresh');
  });

  it('keeps secret inputs encrypted in `pulumi stack export`', async () => {
    const exported = (await pulumiCli(['stack', 'export', '--stack', 'test'])).stdout;
    expect(exported).to.not.include(PROGRAM_SECRETS.chatWebhookUrl);
    expect(exported).to.include('"ciphertext"');
  });

  it('updates in place and replaces, then previews with no changes', async () => {
    const { summary, outputs } = await program('up', 2);
    expect(summary.resourceChanges).to.include({ update: 1, replace: 1 });
    expect(outputs.email, 'updated in place').to.equal(ids.email);
    expect((emulator.get('AlertChannels', ids.email!) as any)?.name).to.equal('pulumi-email-renamed');
    expect(outputs.registry, 'replaced').to.not.equal(ids.registry);
    expect(emulator.get('ContainerRegistries', ids.registry!), 'the old integration is gone').to.equal(undefined);
    const registry = emulator.get('ContainerRegistries', outputs.registry!) as any;
    expect(registry?.data?.accessKeyCredentials).to.deep.equal({
      accessKeyId: 'AKEXAMPLE0123456789',
      secretAccessKey: PROGRAM_SECRETS.registrySecret,
    });
    ids = outputs;
    await program('preview', 2);
    const exported = (await pulumiCli(['stack', 'export', '--stack', 'test'])).stdout;
    expect(exported).to.not.include(PROGRAM_SECRETS.registrySecret);
  });

  // `pulumi import` on the command line needs the language host, which the module proxy does not
  // serve; the `import` resource option adopts the object through the same engine step.
  it('imports an existing object with the `import` resource option, then previews with no changes', async () => {
    // The chat channel, whose secret webhook URL the platform returns: the import reads it back.
    const type = 'sec:index/alertChannelChat:AlertChannelChat';
    const urn = `urn:pulumi:test::keel-sec::${type}::chat`;
    await pulumiCli(['state', 'delete', urn, '--stack', 'test', '--yes']);
    const channels = emulator.ids('AlertChannels').sort();
    const { summary } = await program('up', 2, { chat: ids.chat! });
    expect(summary.resourceChanges).to.include({ import: 1 });
    expect(emulator.ids('AlertChannels').sort(), 'nothing created or deleted').to.deep.equal(channels);
    const exported = (await pulumiCli(['stack', 'export', '--stack', 'test'])).stdout;
    expect(exported, 'the imported secret stays encrypted').to.not.include(PROGRAM_SECRETS.chatWebhookUrl);
    await program('preview', 2);
  });

  it('destroys everything, leaving the emulator as it was', async () => {
    await program('destroy', 2);
    expect(snapshot()).to.deep.equal(before1);
  });
});
