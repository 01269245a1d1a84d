/**
 * What running the real Terraform CLI against our executables needs, shared by the demo and the
 * acceptance tests: a CLI configuration with `dev_overrides` (no `terraform init`, no network) and
 * an environment that keeps Terraform quiet and self-contained.
 */
import { join } from 'node:path';
import { PROJECT_PROVIDERS, projectProvider, sourceAddress } from '../providers/project.js';

/**
 * A CLI configuration that makes Terraform take each provider named (default: every provider of the
 * repository, src/providers/project.ts) from `binDir`, by its source address (`keel/<name>`).
 */
export function devOverridesConfig(
  binDir: string,
  providers: readonly string[] = PROJECT_PROVIDERS.map((p) => p.name),
): string {
  return providerInstallationConfig(
    Object.fromEntries(providers.map((name) => [sourceAddress(projectProvider(name)), binDir])),
  );
}

/** A CLI configuration: each provider source taken from its directory, any other from its registry. */
export function providerInstallationConfig(dirBySource: Readonly<Record<string, string>>): string {
  const lines = Object.entries(dirBySource)
    .map(([source, dir]) => `    "${source}" = "${dir}"\n`)
    .join('');
  return `provider_installation {\n${lines ? `  dev_overrides {\n${lines}  }\n` : ''}  direct {}\n}\n`;
}

/** The environment for one workspace: its CLI config, its own data directory, no prompts or checkpoints. */
export function terraformEnv(
  workspaceDir: string,
  cliConfigPath: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    TF_CLI_CONFIG_FILE: cliConfigPath,
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    CHECKPOINT_DISABLE: '1',
    TF_DATA_DIR: join(workspaceDir, '.terraform'),
    ...extra,
  };
}

/**
 * The sec provider's connection settings as the environment variables it reads (SEC_API_URL has no provider-block
 * form).
 */
export function secProviderEnv(api: {
  url: string;
  account: string;
  apiKey: string;
  apiSecret: string;
}): Record<string, string> {
  return { SEC_API_URL: api.url, SEC_ACCOUNT: api.account, SEC_API_KEY: api.apiKey, SEC_API_SECRET: api.apiSecret };
}

/** The vdb provider's connection settings as the environment variables it reads. */
export function vdbProviderEnv(api: { url: string; apiKey: string; accountId: string }): Record<string, string> {
  return { VDB_API_URL: api.url, VDB_API_KEY: api.apiKey, VDB_ACCOUNT_ID: api.accountId };
}
