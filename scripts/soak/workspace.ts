/** One soak workspace: its folder, its CLI configuration (dev_overrides on the providers under test) and Terraform. */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { devOverridesConfig, terraformEnv } from '../../src/tfclient/terraform-cli.js';
import type { StateEntry } from './ledger.js';

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
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

  /**
   * Every resource of the state, read from the local backend's file as the last command left it.
   * `terraform show -json` says the same but starts both providers for their schemas: a tenth of the
   * soak's CPU went to it, with eight workspaces asking after every step.
   */
  async state(): Promise<StateEntry[]> {
    let text: string;
    try {
      text = await readFile(join(this.dir, 'config', 'terraform.tfstate'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const document = JSON.parse(text) as { version?: number; resources?: StateFileResource[] };
    if (document.version !== 4) throw new Error(`${this.dir}: a state file of version ${document.version}, not 4`);
    return (document.resources ?? []).flatMap((resource) =>
      resource.mode === 'managed'
        ? resource.instances.map((instance) => ({
            address: instanceAddress(resource, instance.index_key),
            type: resource.type,
            values: instance.attributes,
          }))
        : [],
    );
  }
}

/** A resource of a version 4 state file, as far as the soak reads it. */
interface StateFileResource {
  readonly module?: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  readonly instances: ReadonlyArray<{
    readonly index_key?: number | string;
    readonly attributes: Record<string, unknown>;
  }>;
}

/** `module.m.type.name[key]`, as Terraform writes an instance's address. */
function instanceAddress(resource: StateFileResource, key: number | string | undefined): string {
  const index = key === undefined ? '' : `[${JSON.stringify(key)}]`;
  return `${resource.module ? `${resource.module}.` : ''}${resource.type}.${resource.name}${index}`;
}
