/**
 * What the provider can know of the client that runs it and of what its user asked (docs/decisions.md,
 * "Whose object is it"). The plugin protocol carries neither, so:
 *
 * - **Which client.** pulumi-terraform-bridge configures the provider with `terraform_version`
 *   "pulumi-terraform-bridge"; OpenTofu runs as `tofu`. Messages name commands, types and settings as
 *   that client's user writes them (host-terms.ts).
 * - **What was asked**, from the client's command line (host-process.ts) and Terraform's
 *   `TF_CLI_ARGS` variables: a destroy (Terraform and OpenTofu plan every resource of the configuration
 *   before a destroy, and an error of that plan stops it: so the checks of the world only warn then), a
 *   plan narrowed by `-target` (its walk shows only part of the state), and Pulumi's stack (the stacks of
 *   one project share a directory, and the records of creates are kept per stack).
 *
 * Read once, when first asked; what cannot be read is not known (no destroy, no target, no stack).
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ancestors, type ProcessInfo, type ProcessReader, systemReader } from './host-process.js';

export type HostKind = 'terraform' | 'opentofu' | 'pulumi';

/** What the user asked the client for, as far as its command line says. */
export interface HostCommand {
  /** A destroy, whose first plan Terraform and OpenTofu make of the whole configuration. */
  readonly destroying: boolean;
  /**
   * Narrowed to some resources (`-target`, `-exclude`; Pulumi's `--target`, `--exclude`): the walk shows
   * only part of the state.
   */
  readonly targeted: boolean;
  /**
   * An apply of a saved plan (`terraform apply PLANFILE`): the client makes no plan walk, so every walk
   * this process serves is an apply walk, whatever its calls (OpenTofu re-plans each change first).
   */
  readonly appliesSavedPlan?: boolean;
  /** That plan file's path (saved-plan.ts reads the state it was made against). */
  readonly savedPlan?: string;
  /** Pulumi's stack (its last name part), when the command, PULUMI_STACK or the selected stack names it. */
  readonly stack?: string;
  /**
   * The state file the command names with the `local` backend's legacy `-state=PATH` (plan, apply,
   * destroy, refresh, import), resolved against the working directory: that file is the state.
   */
  readonly statePath?: string;
  /**
   * A test run (`terraform test`, `tofu test`): its states are its own, made and destroyed by the run,
   * so it neither takes over what a record says a killed run made nor leaves records another run reads.
   */
  readonly testing?: boolean;
  /** `-refresh=false`: the plan walk reads no object from the platform. */
  readonly noRefresh?: boolean;
}

/** What the bridge sends as Terraform's version when it configures a provider. */
export const PULUMI_BRIDGE_VERSION = 'pulumi-terraform-bridge';

const TERRAFORM_COMMANDS = new Set([
  'apply',
  'console',
  'destroy',
  'import',
  'plan',
  'query',
  'refresh',
  'show',
  'state',
  'test',
  'validate',
]);
/** The commands that take the `local` backend's legacy `-state=PATH`. */
const STATE_FLAG_COMMANDS = new Set(['apply', 'destroy', 'import', 'plan', 'refresh']);
const PULUMI_COMMANDS = new Set(['up', 'update', 'preview', 'destroy', 'refresh', 'import', 'watch']);

export class HostView {
  private bridged = false;
  /** The client's version, as ConfigureProvider gives it (OpenTofu gives its own). */
  private version: string | undefined;
  private tofu: boolean | undefined;
  private asked: HostCommand | undefined;
  private above: (ProcessInfo & { pid: number })[] | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly cwd: string = process.cwd(),
    private readonly reader: ProcessReader = systemReader(),
    /** The process that started this one: the client. */
    private readonly parent: number = process.ppid,
  ) {}

  /** ConfigureProvider said which client it is: the bridge names itself. */
  configured(terraformVersion: string): void {
    this.bridged = terraformVersion === PULUMI_BRIDGE_VERSION;
    this.version = terraformVersion;
  }

  /**
   * Whether the plan walk reads from the platform (ReadResource) every object of the state it keeps,
   * changes, replaces or destroys, and none that it forgets (a `removed` block with `destroy = false`):
   * Terraform since 1.10 (hashicorp/terraform#35458), in a plan that refreshes. OpenTofu reads what it
   * forgets too, and `-refresh=false` reads nothing: there a forgotten object and a tainted one being
   * replaced make the same calls.
   */
  get readsAllButForgotten(): boolean {
    if (this.kind !== 'terraform' || this.command.noRefresh) return false;
    const [major, minor] = (this.version ?? '').split('.').map(Number);
    return major !== undefined && minor !== undefined && (major > 1 || (major === 1 && minor >= 10));
  }

  /** Which client: Pulumi's bridge by its word; OpenTofu by its program, read only when a message asks. */
  get kind(): HostKind {
    if (this.bridged) return 'pulumi';
    this.tofu ??= this.clientProgram()?.startsWith('tofu') === true;
    return this.tofu ? 'opentofu' : 'terraform';
  }

  /** Pulumi's bridge (known without reading any process). */
  get isPulumi(): boolean {
    return this.bridged;
  }

  /** Pulumi's engine applies each create right after planning it, in the same process. */
  get appliesRightAfterPlan(): boolean {
    return this.bridged;
  }

  get command(): HostCommand {
    this.asked ??= this.bridged ? this.pulumiCommand() : this.terraformCommand();
    return this.asked;
  }

  /** The command lines of the client and what started it, nearest first. */
  private commandLines(): string[][] {
    return this.processesAbove().map((info) => [...info.argv]);
  }

  private processesAbove(): (ProcessInfo & { pid: number })[] {
    this.above ??= ancestors(this.reader, this.parent);
    return this.above;
  }

  /**
   * Which run of the client this process serves: the client's process, by its pid and start time, which
   * every provider process it starts shares (Terraform's and OpenTofu's plan and apply walks of one
   * `apply`). Undefined where the system does not say when the client started, and for Pulumi, whose
   * walk does not show every object of the stack before its creates.
   */
  get run(): string | undefined {
    if (this.bridged || !this.reader.startTimes) return undefined;
    const client = this.processesAbove()[0];
    return client?.started === undefined ? undefined : `${client.pid}-${client.started}`;
  }

  /** The client's program name, without its directory and extension. */
  private clientProgram(): string | undefined {
    const argv = this.commandLines()[0];
    return argv?.[0] === undefined ? undefined : programName(argv[0]);
  }

  private terraformCommand(): HostCommand {
    const argv = this.commandLines()[0] ?? [];
    const at = argv.findIndex((token, i) => i > 0 && TERRAFORM_COMMANDS.has(token));
    if (at < 0) return { destroying: false, targeted: false };
    const command = argv[at]!;
    // Terraform adds TF_CLI_ARGS and TF_CLI_ARGS_<command> to what the command line gives.
    const args = [...argv.slice(at + 1), ...words(this.env.TF_CLI_ARGS), ...words(this.env[`TF_CLI_ARGS_${command}`])];
    // Go's flag package takes a boolean flag alone or as `=1`, `=t`, `=T`, `=TRUE`, `=true` or `=True`.
    const saved = command === 'apply' ? positional(argv.slice(at + 1))[0] : undefined;
    const statePath = STATE_FLAG_COMMANDS.has(command) ? flagValue(args, ['-state', '--state']) : undefined;
    const destroyFlag = args.some((a) => /^--?destroy(=(1|t|T|TRUE|true|True))?$/.test(a));
    const noRefresh = args.some((a) => /^--?refresh=(0|f|F|FALSE|false|False)$/.test(a));
    return {
      ...(command === 'test' ? { testing: true } : {}),
      ...(noRefresh ? { noRefresh } : {}),
      destroying: command === 'destroy' || ((command === 'plan' || command === 'apply') && destroyFlag),
      targeted: args.some((a) => /^--?(target|exclude)(=|$)/.test(a)),
      ...(saved !== undefined ? { appliesSavedPlan: true, savedPlan: resolve(this.cwd, saved) } : {}),
      ...(statePath ? { statePath: resolve(this.cwd, statePath) } : {}),
    };
  }

  private pulumiCommand(): HostCommand {
    const argv = this.commandLines().find((a) => a[0] !== undefined && programName(a[0]) === 'pulumi') ?? [];
    const at = argv.findIndex((token, i) => i > 0 && PULUMI_COMMANDS.has(token));
    const args = at < 0 ? [] : argv.slice(at + 1);
    const stack = flagValue(args, ['-s', '--stack']) || this.env.PULUMI_STACK?.trim() || this.selectedStack();
    const named = stack ? stack.split('/').at(-1) : undefined;
    return {
      destroying: argv[at] === 'destroy',
      targeted: args.some((a) => /^(-t|--target|--exclude)(=|$)/.test(a)),
      ...(named ? { stack: named } : {}),
    };
  }

  /**
   * The stack `pulumi stack select` chose for the project in this directory: Pulumi keeps it in
   * `<PULUMI_HOME>/workspaces/<project>-<sha1 of Pulumi.yaml's real path>-workspace.json`, per backend.
   */
  private selectedStack(): string | undefined {
    const project = this.env.PULUMI_PROJECT?.trim();
    if (!project) return undefined;
    const home = this.env.PULUMI_HOME?.trim() || join(homedir(), '.pulumi');
    for (const file of ['Pulumi.yaml', 'Pulumi.yml']) {
      try {
        const path = realpathSync(join(this.cwd, file));
        const digest = createHash('sha1').update(path).digest('hex');
        const settings = JSON.parse(
          readFileSync(join(home, 'workspaces', `${project}-${digest}-workspace.json`), 'utf8'),
        ) as { stack?: unknown; stacks?: Record<string, unknown> };
        const backend = this.env.PULUMI_BACKEND_URL?.trim();
        const perBackend = Object.values(settings.stacks ?? {}).filter((s) => typeof s === 'string') as string[];
        const chosen =
          (backend ? settings.stacks?.[backend] : undefined) ??
          (perBackend.length === 1 ? perBackend[0] : undefined) ??
          settings.stack;
        return typeof chosen === 'string' && chosen !== '' ? chosen : undefined;
      } catch {}
    }
    return undefined;
  }
}

/** `-s dev`, `--stack=dev`: the value of the first of `names` given. */
function flagValue(args: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    for (const name of names) {
      if (arg === name) return args[i + 1];
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return undefined;
}

/** Flags of Terraform's and OpenTofu's plan and apply that take no value of their own (Go's boolean flags). */
const BOOLEAN_FLAGS = new Set([
  'allow-deferral',
  'auto-approve',
  'compact-warnings',
  'concise',
  'destroy',
  'input',
  'json',
  'light',
  'lock',
  'no-color',
  'refresh',
  'refresh-only',
  'show-sensitive',
]);

/**
 * The arguments that are no flag nor a flag's value: Go's flag package takes `-name value` for a flag
 * with a value, `-name` alone for a boolean one, and stops at `--` or at the first positional argument.
 */
function positional(args: readonly string[]): string[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args.slice(i + 1);
    if (!arg.startsWith('-') || arg === '-') return args.slice(i);
    const name = arg.replace(/^--?/, '');
    if (!name.includes('=') && !BOOLEAN_FLAGS.has(name)) i++;
  }
  return [];
}

function programName(path: string): string {
  return basename(path.replace(/\\/g, '/')).replace(/\.exe$/i, '');
}

function words(text: string | undefined): string[] {
  return text?.trim() ? text.trim().split(/\s+/) : [];
}

export { systemReader, type ProcessReader };
