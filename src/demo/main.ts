/**
 * The main demo: starts the embedded sec emulator and applies examples/sec with the real Terraform
 * CLI where it is installed (through dev_overrides), otherwise with our own Terraform-side client.
 * It prints the plan and the result, then what the emulator holds.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSecEmulator, type SecEmulator } from '../emulators/sec/index.js';
import { TerraformClient, configValue } from '../tfclient/terraform-client.js';
import { devOverridesConfig, terraformEnv, secProviderEnv } from '../tfclient/terraform-cli.js';
import { formatValue, valueEquals } from '../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function hasTerraform(): boolean {
  try {
    execFileSync('terraform', ['version'], {
      stdio: 'ignore',
      env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' },
    });
    return true;
  } catch {
    return false;
  }
}

function banner(text: string): void {
  console.log(`\n=== ${text} ===`);
}

// The emulator runs in this process, so Terraform must run without blocking the event loop.
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => resolvePromise(code));
  });
}

async function withTerraform(emulator: SecEmulator): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-demo-'));
  try {
    const cliConfig = join(dir, 'terraformrc');
    writeFileSync(cliConfig, devOverridesConfig(join(repoRoot, 'bin'), ['sec']));
    mkdirSync(join(dir, 'config'));
    cpSync(join(repoRoot, 'examples', 'sec'), join(dir, 'config'), { recursive: true });
    const env = terraformEnv(dir, cliConfig, secProviderEnv(emulator));
    for (const args of [['plan'], ['apply', '-auto-approve'], ['plan', '-detailed-exitcode']]) {
      banner(`terraform ${args.join(' ')}`);
      const code = await run('terraform', [`-chdir=${join(dir, 'config')}`, ...args], env);
      if (code !== 0) throw new Error(`terraform ${args.join(' ')} exited ${code}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same configuration as examples/sec/main.tf, driven through our Terraform-side client. */
async function withOwnClient(emulator: SecEmulator): Promise<void> {
  const client = await TerraformClient.start(join(repoRoot, 'bin', 'terraform-provider-sec'), secProviderEnv(emulator));
  try {
    await client.configure({});
    const resources: [string, string, Record<string, unknown>][] = [
      [
        'sec_alert_channel_email',
        'security',
        { name: 'security-team', recipients: ['oncall@example.com', 'security@example.com'] },
      ],
      ['sec_agent_access_token', 'ci', { name: 'ci-fleet', description: 'Agents in the CI fleet' }],
    ];
    for (const [type, name, plain] of resources) {
      const schema = client.resourceSchema(type);
      const config = configValue(schema.block, plain);
      await client.validateResource(type, config);
      const change = await client.plan(type, null, config);
      banner(`plan: ${type}.${name} will be created`);
      printObject(schema.block, change.planned!);
      const { state } = await client.apply(type, null, change, config);
      banner(`applied: ${type}.${name}`);
      printObject(schema.block, state!);
      const again = await client.plan(type, state, config);
      const replanned = valueEquals(impliedType(schema.block), again.planned, state);
      console.log(`re-plan: ${replanned ? 'no changes' : 'CHANGES (unexpected)'}`);
    }
    const profileSchema = client.dataSourceSchema('sec_user_profile');
    const profile = await client.readData('sec_user_profile', configValue(profileSchema.block, {}));
    banner('data.sec_user_profile.me');
    printObject(profileSchema.block, profile);
  } finally {
    await client.close();
  }
}

function printObject(block: Parameters<typeof impliedType>[0], v: ObjectValue): void {
  for (const [name, attr] of Object.entries(block.attributes)) {
    const shown = attr.sensitive && v[name] !== null ? '(sensitive value)' : formatValue(attr.type, v[name] ?? null);
    console.log(`  ${name.padEnd(24)} = ${shown}`);
  }
}

async function main(): Promise<void> {
  const emulator = await startSecEmulator();
  console.log(`sec emulator listening at ${emulator.url} (account ${emulator.account})`);
  try {
    if (hasTerraform()) await withTerraform(emulator);
    else {
      console.log(
        "terraform is not installed: applying examples/sec with the project's own Terraform-side client instead",
      );
      await withOwnClient(emulator);
    }
    banner('what the emulator holds');
    for (const collection of ['AlertChannels', 'AgentAccessTokens']) {
      for (const item of emulator.list(collection) as Record<string, unknown>[]) {
        const { accessToken, ...shown } = item;
        console.log(
          `  ${collection}: ${JSON.stringify(accessToken ? { ...shown, accessToken: '(sensitive)' } : shown)}`,
        );
      }
    }
  } finally {
    await emulator.close();
  }
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
