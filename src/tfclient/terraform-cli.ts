/**
 * What running the real Terraform CLI against our executables needs, shared by the demo and the
 * acceptance tests: a CLI configuration with `dev_overrides` (no `terraform init`, no network) and
 * an environment that keeps Terraform quiet and self-contained.
 */
import { join } from 'node:path';

/** A CLI configuration that makes Terraform take `keel/<provider>` from `binDir`. */
export function devOverridesConfig(binDir: string, providers: readonly string[] = ['sec', 'vdb']): string {
  const lines = providers.map((p) => `    "keel/${p}" = "${binDir}"`).join('\n');
  return `provider_installation {\n  dev_overrides {\n${lines}\n  }\n  direct {}\n}\n`;
}

/** The environment for one workspace: its CLI config, its own data directory, no prompts or checkpoints. */
export function terraformEnv(workspaceDir: string, cliConfigPath: string, extra: Record<string, string> = {}): Record<string, string> {
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
