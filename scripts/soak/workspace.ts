/** One soak workspace: its folder, its CLI configuration (dev_overrides on the providers under test) and Terraform. */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { devOverridesConfig, terraformEnv } from '../../src/tfclient/terraform-cli.js';
import type { StateEntry } from './ledger.js';

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface StateModule {
  readonly resources?: StateEntry[];
  readonly child_modules?: StateModule[];
}

export class SoakWorkspace {
  readonly dir: string;
  private readonly env: Record<string, string>;

  constructor(root: string, index: number, binDir: string, providerEnv: Record<string, string>) {
    this.dir = join(root, `w${index}`);
    mkdirSync(join(this.dir, 'config'), { recursive: true });
    const cliConfig = join(this.dir, '.terraformrc');
    writeFileSync(cliConfig, devOverridesConfig(binDir));
    this.env = terraformEnv(this.dir, cliConfig, providerEnv);
    // The soak measures the providers as users run them: no log a user did not ask for.
    delete this.env.TF_LOG;
    delete this.env.TF_LOG_PROVIDER;
  }

  write(mainTf: string): void {
    writeFileSync(join(this.dir, 'config', 'main.tf'), mainTf);
  }

  /** `terraform -chdir=config <args>`: its exit code and output. */
  terraform(args: readonly string[]): Promise<CommandResult> {
    return new Promise((resolve) => {
      execFile(
        'terraform',
        [`-chdir=${join(this.dir, 'config')}`, ...args],
        { env: this.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  /** Every resource of the state (`terraform show -json`). */
  async state(): Promise<StateEntry[]> {
    const shown = await this.terraform(['show', '-json']);
    if (shown.code !== 0) throw new Error(`terraform show -json failed in ${this.dir}:\n${shown.stderr}`);
    const document = JSON.parse(shown.stdout) as { values?: { root_module?: StateModule } };
    const entries: StateEntry[] = [];
    const walk = (module: StateModule | undefined): void => {
      for (const resource of module?.resources ?? []) entries.push(resource);
      for (const child of module?.child_modules ?? []) walk(child);
    };
    walk(document.values?.root_module);
    return entries;
  }
}
