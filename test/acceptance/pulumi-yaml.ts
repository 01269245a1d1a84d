/**
 * What the Pulumi tests share (pulumi.test.ts, pulumi-python.test.ts, pulumi-cli.test.ts,
 * install-providers.test.ts): the environment Pulumi runs in, our build of the bridge as its plugin,
 * the check of exported secrets, and a YAML project driven through the real Pulumi CLI.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { CLIENTS_DIR, requireRealClient } from './real-clients.js';
import { runCommand } from './terraform.js';

/** The bridge's version as scripts/clients.mjs builds it: the plugin version Pulumi is told. */
export const BRIDGE_VERSION = 'v3.120.0';

export type Resources = Record<string, unknown>;
export type Outputs = Record<string, string>;

/**
 * Pulumi's environment with `home` as HOME and PULUMI_HOME's parent: a passphrase for secrets, no
 * update check or plugin download, the emulator's settings, and PATH without the clients' folder, so
 * Pulumi runs the plugins installed into the home, not ones on PATH.
 */
export function pulumiEnv(home: string, emulatorEnv: Record<string, string>): Record<string, string> {
  return {
    PATH: (process.env.PATH ?? '/usr/bin:/bin')
      .split(':')
      .filter((entry) => entry !== CLIENTS_DIR)
      .join(':'),
    HOME: home,
    PULUMI_HOME: join(home, '.pulumi'),
    PULUMI_CONFIG_PASSPHRASE: 'keel-test-passphrase',
    PULUMI_SKIP_UPDATE_CHECK: '1',
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
    ...emulatorEnv,
  };
}

/** Runs a command; unless it exits 0, fails with its output. */
export async function mustRun(file: string, args: string[], options: { cwd?: string; env: Record<string, string> }) {
  const r = await runCommand(file, args, { ...options, maxBuffer: 256 * 1024 * 1024 });
  if (r.code !== 0)
    throw new Error(`${file} ${args.join(' ')} exited ${r.code}\n${r.stderr.slice(-6000)}\n${r.stdout}`);
  return r;
}

/** Pulumi's `terraform-provider` plugin is the bridge's dynamic provider, from our build. */
export async function installBridge(pulumi: string, bridge: string, env: Record<string, string>): Promise<void> {
  await mustRun(pulumi, ['plugin', 'install', 'resource', 'terraform-provider', BRIDGE_VERSION, '--file', bridge], {
    env,
  });
}

/** What `pulumi stack export` printed holds secrets encrypted, and none of `secrets` in plain text. */
export function expectSecretsEncrypted(exported: string, secrets: readonly string[]): void {
  expect(exported).to.include('"ciphertext"');
  for (const secret of secrets)
    expect(exported.includes(secret), `a secret (${secret.length} chars) in plain text`).to.equal(false);
}

/**
 * A fresh Pulumi home (or `home`'s), a local file backend with passphrase secrets, and a YAML project
 * named `keel-<name>`.
 */
export class YamlProject {
  readonly dir = mkdtempSync(join(tmpdir(), 'keel-pulumi-yaml-'));
  readonly work = join(this.dir, 'work');
  readonly env: Record<string, string>;

  constructor(
    readonly pulumi: string,
    name: string,
    emulatorEnv: Record<string, string>,
    home?: string,
  ) {
    mkdirSync(join(this.dir, 'state'), { recursive: true });
    mkdirSync(this.work);
    this.env = pulumiEnv(home ?? this.dir, emulatorEnv);
    writeFileSync(this.projectFile, stringify({ name: `keel-${name}`, runtime: 'yaml' }));
  }

  get projectFile(): string {
    return join(this.work, 'Pulumi.yaml');
  }

  async run(args: string[], expectCode = 0) {
    return this.runWith(args, {}, expectCode);
  }

  /** As `run`, with more in the environment; `expectCode` null takes any exit code. */
  async runWith(args: string[], env: Record<string, string>, expectCode: number | null = 0) {
    const r = await runCommand(this.pulumi, [...args, '--non-interactive'], {
      cwd: this.work,
      env: { ...this.env, ...env },
      maxBuffer: 256 * 1024 * 1024,
    });
    if (expectCode !== null && r.code !== expectCode)
      throw new Error(`pulumi ${args.join(' ')} exited ${r.code}, not ${expectCode}\n${r.stderr}\n${r.stdout}`);
    return r;
  }

  /** The project file with `program` as its program, keeping what `package add` wrote. */
  writeProgram(program: { variables?: Resources; resources: Resources; outputs?: Outputs }, config?: Resources) {
    const project = parse(readFileSync(this.projectFile, 'utf8')) as Record<string, unknown>;
    delete project.variables;
    delete project.outputs;
    writeFileSync(this.projectFile, stringify({ ...project, ...(config ? { config } : {}), ...program }));
  }

  program(): Record<string, unknown> {
    return parse(readFileSync(this.projectFile, 'utf8')) as Record<string, unknown>;
  }

  async outputs(): Promise<Outputs> {
    return JSON.parse((await this.run(['stack', 'output', '--json', '--show-secrets', '--stack', 'test'])).stdout);
  }

  async expectSecretsEncrypted(secrets: string[]): Promise<void> {
    expectSecretsEncrypted((await this.run(['stack', 'export', '--stack', 'test'])).stdout, secrets);
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A YAML project on our builds of the bridge and the YAML language host (scripts/clients.mjs), logged
 * in to its backend, with stack `test`.
 */
export async function yamlProject(
  ctx: Mocha.Context,
  name: string,
  emulatorEnv: Record<string, string>,
  home?: string,
): Promise<YamlProject> {
  const pulumi = requireRealClient(ctx, 'pulumi');
  const bridge = requireRealClient(ctx, 'pulumi-resource-terraform-provider');
  // Pulumi takes a language host it bundles from beside its executable, where clients.mjs builds it.
  requireRealClient(ctx, 'pulumi-language-yaml');
  const project = new YamlProject(pulumi, name, emulatorEnv, home);
  await installBridge(pulumi, bridge, project.env);
  await project.run(['login', `file://${join(project.dir, 'state')}`]);
  await project.run(['stack', 'init', 'test']);
  return project;
}
