/**
 * Where a provider keeps its create journal (journal-files.ts has what is in it), and for which state
 * (docs/decisions.md, "Whose object is it"): under Terraform's data directory of the working directory,
 * or a directory the user chose, per provider and per state. A state is what the client reads and
 * writes: the backend's type and the configuration that names its states (an `http` backend's address,
 * an `s3` backend's bucket and key, a `local` backend's file, as `terraform init` recorded them in the
 * data directory), and the workspace. Two backend keys of one directory (GitLab's state names,
 * Terragrunt), two workspaces, two configurations on one volume: each its own records and notes.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { digest } from './journal-files.js';
import { removeOlderThan, RUN_FILE_DAYS } from './journal-runs.js';

/** Which state a run reads and writes: what its records and notes are kept for. */
export interface StateIdentity {
  /** The workspace (Terraform's, OpenTofu's), or the Pulumi stack. */
  readonly workspace: string;
  /** A digest of the backend's type and of the configuration that names its states, never a credential. */
  readonly backend: string;
  /** A digest of where this workspace's state is in that backend: with the workspace, the state's directory. */
  readonly state: string;
  /** The backend as a person finds it, for messages: its type and where it keeps states. */
  readonly where: string;
  /** A test run (`terraform test`, `tofu test`): reads what the states hold, writes nothing, adopts nothing. */
  readonly test?: true;
}

/** Where a provider keeps its journal: the directory and the state it serves. */
export interface JournalPlace {
  /** Where this state's records are, before the API's digest. */
  readonly root: string;
  /** The state as this process found it when it started (a run's later processes take the run's: `stateOfRun`). */
  readonly state: StateIdentity;
  readonly workspace: string;
  /** The records of every state: `<base>/<provider>/<state>/`. */
  readonly base: string;
}

/** A provider as its source address names it: `acme/kv` is the namespace `acme` and the name `kv`. */
export interface ProviderAddress {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The journal's place for a provider process started in `cwd` with `env`: the data directory's
 * `<namespace>-creates/<name>/<state>` (`keel-creates/sec/default~3f2a…`).
 */
export function journalPlace(provider: ProviderAddress, env: NodeJS.ProcessEnv, cwd: string): JournalPlace {
  const dataDir = env.TF_DATA_DIR?.trim() || '.terraform';
  const base = isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir);
  const workspace = env.TF_WORKSPACE?.trim() || selectedWorkspace(base) || 'default';
  const records = join(base, `${fileSafe(provider.namespace)}-creates`);
  const state = { workspace, ...backendOf(base, cwd, workspace) };
  return { root: recordsRoot(records, provider.name, state), state, workspace, base: records };
}

/**
 * The journal's directory of `state` under `dir` (a place the user chose, or the data directory's
 * `<namespace>-creates`).
 */
export function recordsRoot(dir: string, provider: string, state: StateIdentity): string {
  return join(resolve(dir), provider, stateDirName(state));
}

/** A state's directory: its workspace, readable, and its backend's digest. */
export function stateDirName(state: StateIdentity): string {
  return `${fileSafe(state.workspace)}~${state.state}`;
}

/** Whether a directory's name is a state's (earlier releases kept records per workspace alone: not read). */
export const isStateDirName = (name: string) => /~[0-9a-z]{12}$/.test(name);

/**
 * The state of a run that names its state file with the `local` backend's legacy `-state=PATH`: that
 * file, whatever workspace is selected (another backend ignores the flag, and its state stays `state`).
 */
export function atStatePath(state: StateIdentity, path: string): StateIdentity {
  if (!state.where.startsWith('the local backend')) return state;
  const located = { path };
  return {
    ...state,
    state: digest(`local\0${canonical(located)}`).slice(0, 12),
    where: `the local backend${locatorOf('local', located)}`,
  };
}

/** The state a test run keeps nothing for: its own, which no other run reads. */
export function testState(state: StateIdentity): StateIdentity {
  return { ...state, state: 'testrun00000', where: 'a test run', test: true };
}

/**
 * The state of the client's run `run` (its process id and start time: engine/host/host-view.ts), the
 * same for every provider process of it: the first one writes what it found (`seen`), and the others
 * read that, so a `terraform workspace select` in another shell while an apply waits at "yes" changes
 * nothing for that apply. Where the file cannot be written or read, `seen` (this process's own).
 */
export function stateOfRun(base: string, run: string, seen: StateIdentity): StateIdentity {
  const dir = join(base, 'runs');
  const file = join(dir, `${fileSafe(run)}.json`);
  try {
    try {
      writeFileSync(file, `${JSON.stringify(seen)}\n`, { flag: 'wx' });
      // The files of runs long over go as a new run's begins, as the notes' run lists do.
      void removeOlderThan(dir, RUN_FILE_DAYS, basename(file));
      return seen;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, `${JSON.stringify(seen)}\n`, { flag: 'wx' });
        return seen;
      }
      if (code !== 'EEXIST') throw err;
    }
    const held = JSON.parse(readFileSync(file, 'utf8')) as Partial<StateIdentity>;
    const { workspace, backend, state, where } = held;
    if ([workspace, backend, state, where].some((v) => typeof v !== 'string' || v === '')) return seen;
    return { workspace: workspace!, backend: backend!, state: state!, where: where! };
  } catch {
    return seen;
  }
}

/** The workspace `terraform workspace select` wrote into the data directory, if any. */
function selectedWorkspace(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, 'environment'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The backend `terraform init` (or `tofu init`) recorded in the data directory (`terraform.tfstate`'s
 * `backend`, the configuration merged with every `-backend-config`), or the `local` backend when none
 * is: its digest, of its type and the settings that name its states, and where it keeps them.
 */
export function backendOf(
  dataDir: string,
  cwd: string,
  workspace = 'default',
): { backend: string; state: string; where: string } {
  let type = 'local';
  let config: Record<string, unknown> = {};
  try {
    const recorded = JSON.parse(readFileSync(join(dataDir, 'terraform.tfstate'), 'utf8')) as {
      backend?: { type?: unknown; config?: unknown };
    };
    if (typeof recorded.backend?.type === 'string' && recorded.backend.type !== '') {
      type = recorded.backend.type;
      const c = recorded.backend.config;
      if (typeof c === 'object' && c !== null && !Array.isArray(c)) config = c as Record<string, unknown>;
    }
  } catch {}
  const local = type === 'local' ? localNaming(config, cwd) : undefined;
  const naming = local ?? namingSettings(config);
  // The workspace's own state: where a `local` backend keeps its file; elsewhere the workspace beside the settings.
  const located = local ? { path: localState(local, workspace) } : naming;
  return {
    backend: digest(`${type}\0${canonical(naming)}`).slice(0, 12),
    state: digest(`${type}\0${canonical(located)}`).slice(0, 12),
    where: `the ${type} backend${locatorOf(type, located)}`,
  };
}

/** A `local` backend's files, as paths from the working directory: two configurations' never coincide. */
function localNaming(config: Record<string, unknown>, cwd: string): { path: string; workspace_dir: string } {
  const text = (name: string, otherwise: string) =>
    typeof config[name] === 'string' && config[name] !== '' ? (config[name] as string) : otherwise;
  return {
    path: resolve(cwd, text('path', 'terraform.tfstate')),
    workspace_dir: resolve(cwd, text('workspace_dir', 'terraform.tfstate.d')),
  };
}

/** The state file of `workspace`: the default workspace's is `path`, another's is under `workspace_dir`. */
function localState(naming: { path: string; workspace_dir: string }, workspace: string): string {
  return workspace === 'default' ? naming.path : join(naming.workspace_dir, workspace, 'terraform.tfstate');
}

/**
 * Settings that say nothing of which state (credentials, which change as they rotate; retries,
 * timeouts, locking): left out, so the same state is the same whoever reads it.
 */
const NOT_NAMING = new RegExp(
  [
    'password|secret|token|credential|access_key|private_key|client_certificate|client_key|sas|encryption',
    'username|profile|assume_role|shared_|skip_|retry|timeout|insecure|lock|update_method|proxy|^ca_|_ca_',
  ].join('|'),
  'i',
);

function namingSettings(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) {
    if (NOT_NAMING.test(name) || value === null || value === '' || value === false) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[name] = value;
  }
  return out;
}

/** JSON with every object's keys in order: one text for one configuration. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Where a backend keeps states, as its settings say it (no credential, no query), for messages. */
function locatorOf(type: string, naming: Record<string, unknown>): string {
  const text = (name: string) => (typeof naming[name] === 'string' ? (naming[name] as string) : '');
  const at = (where: string) => (where ? ` at ${where}` : '');
  switch (type) {
    case 'local':
      return at(text('path'));
    case 'http':
    case 'consul':
      return at(withoutCredentials(text('address')) + (text('path') ? `/${text('path')}` : ''));
    case 's3':
      return at(text('bucket') && `s3://${text('bucket')}/${text('key')}`);
    case 'gcs':
      return at(text('bucket') && `gs://${text('bucket')}/${text('prefix')}`);
    case 'azurerm':
      return at([text('storage_account_name'), text('container_name'), text('key')].filter((p) => p !== '').join('/'));
    default:
      return '';
  }
}

function withoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.toString();
  } catch {
    return '';
  }
}

/** A name as a file name: kept where it is plain, else its safe characters and a digest. */
export function fileSafe(name: string): string {
  return /^[A-Za-z0-9._-]{1,64}$/.test(name) && !name.startsWith('.')
    ? name
    : `${name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32)}-${digest(name).slice(0, 8)}`;
}
