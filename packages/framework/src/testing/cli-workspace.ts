/**
 * The test kit's acceptance part: runs a provider under the real Terraform or OpenTofu CLI, as
 * terraform-plugin-testing does for Go providers. A workspace is a directory with a filesystem mirror
 * that holds the provider (a launcher that runs its JavaScript entry with this Node), so `init` installs
 * it as it would a release, and every command of the CLI works on it: plan, apply, import, query,
 * destroy. Each test asserts what the CLI planned and what the state holds.
 *
 * The launcher is a POSIX shell script: Linux and macOS.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The provider a workspace installs: its source address, version and the module that serves it. */
export interface ProviderUnderTest {
  readonly namespace: string;
  readonly name: string;
  readonly version: string;
  /** Its registry host; the mirror serves it on both public registries' hosts when not given. */
  readonly hostname?: string;
  /** The JavaScript module that calls `serve`, run with the Node that runs the tests. */
  readonly main: string;
}

export interface CliWorkspaceOptions {
  /** The `terraform` or `tofu` executable: a path, or a name found on PATH. */
  readonly cli: string;
  readonly provider: ProviderUnderTest;
  /** The working directory; a new one under the system's temporary directory when not given. */
  readonly dir?: string;
  /** Variables for every command, over the process's own (e.g. the provider's settings). */
  readonly env?: Readonly<Record<string, string>>;
  /** How long one command may run, in milliseconds (default 5 minutes). */
  readonly timeoutMs?: number;
}

/** What a command did: its exit code and what it wrote. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** One resource's planned change, as `show -json` of the plan gives it. */
export interface PlannedChange {
  readonly address: string;
  /** Terraform's actions: `["create"]`, `["update"]`, `["delete", "create"]`, `["no-op"]`, … */
  readonly actions: readonly string[];
}

export interface Plan {
  /** The resources the plan changes (every action but `no-op`). */
  readonly changes: readonly PlannedChange[];
  /** The plan as `show -json` gives it. */
  readonly json: any;
}

/** A resource in the state, as `show -json` gives it. */
export interface StateResource {
  readonly address: string;
  readonly type: string;
  readonly name: string;
  readonly values: Record<string, unknown>;
  /** Which of its values are sensitive: `true` at each such path, as `show -json` gives `sensitive_values`. */
  readonly sensitiveValues: Record<string, unknown>;
}

/** A command that ended with an exit code other than the one expected. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly args: readonly string[],
    readonly result: CliResult,
  ) {
    super(`\`${args.join(' ')}\` exited with ${result.code}:\n${result.stderr || result.stdout}`);
  }
}

const PUBLIC_REGISTRIES = ['registry.terraform.io', 'registry.opentofu.org'];

/** A working directory where the CLI runs with the provider under test installed. */
export class CliWorkspace {
  private constructor(
    readonly dir: string,
    private readonly options: CliWorkspaceOptions,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Makes the directory, its mirror and the CLI configuration that installs from it. */
  static async create(options: CliWorkspaceOptions): Promise<CliWorkspace> {
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), `tf-${options.provider.name}-`));
    mkdirSync(dir, { recursive: true });
    const cliConfig = join(dir, '.terraformrc');
    writeFileSync(cliConfig, mirrorOf(options.provider, join(dir, '.mirror')));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TF_CLI_CONFIG_FILE: cliConfig,
      TF_IN_AUTOMATION: '1',
      TF_INPUT: '0',
      CHECKPOINT_DISABLE: '1',
      ...options.env,
    };
    return new CliWorkspace(dir, options, env);
  }

  /** Writes a configuration file (main.tf unless named) in the working directory. */
  async writeConfig(hcl: string, file = 'main.tf'): Promise<void> {
    writeFileSync(join(this.dir, file), hcl);
  }

  /** Runs the CLI with these arguments; rejects with CliError unless it exits with one of `expect`. */
  run(args: readonly string[], expect: readonly number[] = [0]): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      execFile(
        this.options.cli,
        args,
        { cwd: this.dir, env: this.env, timeout: this.options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          const result = { code, stdout, stderr };
          if (expect.includes(code)) resolve(result);
          else reject(new CliError([this.options.cli, ...args], result));
        },
      );
    });
  }

  init(): Promise<CliResult> {
    return this.run(['init', '-input=false', '-no-color']);
  }

  /** Plans (`plan -out`) and reads the plan back (`show -json`). */
  async plan(extra: readonly string[] = []): Promise<Plan> {
    await this.run(['plan', '-input=false', '-no-color', '-out=.planned', ...extra]);
    const json = JSON.parse((await this.run(['show', '-json', '.planned'])).stdout);
    const changes = ((json.resource_changes ?? []) as any[])
      .map((change) => ({ address: String(change.address), actions: change.change.actions as string[] }))
      .filter((change) => !(change.actions.length === 1 && change.actions[0] === 'no-op'));
    return { changes, json };
  }

  apply(extra: readonly string[] = []): Promise<CliResult> {
    return this.run(['apply', '-input=false', '-no-color', '-auto-approve', ...extra]);
  }

  destroy(extra: readonly string[] = []): Promise<CliResult> {
    return this.run(['destroy', '-input=false', '-no-color', '-auto-approve', ...extra]);
  }

  /** `import <address> <id>`: takes an existing object into the state by its import id. */
  importResource(address: string, id: string): Promise<CliResult> {
    return this.run(['import', '-input=false', '-no-color', address, id]);
  }

  /** Every resource and data source in the state, child modules' too. */
  async state(): Promise<StateResource[]> {
    const json = JSON.parse((await this.run(['show', '-json'])).stdout);
    const resources: StateResource[] = [];
    const visit = (module: any) => {
      for (const r of module?.resources ?? [])
        resources.push({
          address: r.address,
          type: r.type,
          name: r.name,
          values: r.values,
          sensitiveValues: r.sensitive_values ?? {},
        });
      for (const child of module?.child_modules ?? []) visit(child);
    };
    visit(json.values?.root_module);
    return resources;
  }

  /** One resource's values in the state; throws when the state has none at that address. */
  async resource(address: string): Promise<Record<string, unknown>> {
    const found = (await this.state()).find((r) => r.address === address);
    if (found === undefined) throw new Error(`the state holds no ${address}`);
    return found.values;
  }

  /** Removes the working directory (not one given as `dir`). */
  dispose(): void {
    if (this.options.dir === undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Throws, naming each change, unless the plan changes nothing. */
export function assertNoChanges(plan: Plan): void {
  if (plan.changes.length > 0)
    throw new Error(`expected no changes, the plan has:\n${plan.changes.map(describeChange).join('\n')}`);
}

/** Throws unless the plan makes exactly these changes (address → actions joined by `,`), in any order. */
export function assertChanges(plan: Plan, expected: Readonly<Record<string, string>>): void {
  const got = Object.fromEntries(plan.changes.map((c) => [c.address, c.actions.join(',')]));
  const same =
    Object.keys(got).length === Object.keys(expected).length &&
    Object.entries(expected).every(([address, actions]) => got[address] === actions);
  if (!same)
    throw new Error(
      `expected the plan to make ${JSON.stringify(expected)}, it has:\n${plan.changes.map(describeChange).join('\n')}`,
    );
}

/**
 * The CLIs a suite runs against: `TF_ACC_TERRAFORM_PATH` as terraform-plugin-testing reads it, here
 * also a list (separated as PATH is); `terraform` from PATH when unset.
 */
export function clisFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const listed = (env.TF_ACC_TERRAFORM_PATH ?? '').split(delimiter).filter((path) => path !== '');
  return listed.length > 0 ? listed : ['terraform'];
}

/** One planned change as a line of a message. */
export const describeChange = (change: PlannedChange): string => `  ${change.address}: ${change.actions.join(', ')}`;

/**
 * Fills `root` with an unpacked filesystem mirror of the provider (a launcher per registry host) and
 * returns the CLI configuration that installs it from there and everything else from its registry.
 */
function mirrorOf(provider: ProviderUnderTest, root: string): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const platform = `${process.platform}_${arch}`;
  const hosts = provider.hostname ? [provider.hostname] : PUBLIC_REGISTRIES;
  const launcher = `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(provider.main)} "$@"\n`;
  for (const host of hosts) {
    const at = join(root, host, provider.namespace, provider.name, provider.version, platform);
    mkdirSync(at, { recursive: true });
    const file = join(at, `terraform-provider-${provider.name}_v${provider.version}`);
    writeFileSync(file, launcher);
    chmodSync(file, 0o755);
  }
  const sources = hosts.map((host) => JSON.stringify(`${host}/${provider.namespace}/${provider.name}`)).join(', ');
  return (
    `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(root)}\n` +
    `    include = [${sources}]\n  }\n  direct {\n    exclude = [${sources}]\n  }\n}\n`
  );
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
