/**
 * Where a provider keeps its create journal (journal-files.ts has what is in it): under Terraform's
 * data directory of the working directory, or a directory the user chose, per provider and workspace.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { digest } from './journal-files.js';

/** Where a provider keeps its journal: the directory and the Terraform workspace it serves. */
export interface JournalPlace {
  /** Where this workspace's records are, before the API's digest. */
  readonly root: string;
  readonly workspace: string;
  /** The records of every workspace: `<base>/<provider>/<workspace>/`. */
  readonly base: string;
}

/** A provider as its source address names it: `acme/kv` is the namespace `acme` and the name `kv`. */
export interface ProviderAddress {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The journal's place for a provider process started in `cwd` with `env`: the data directory's
 * `<namespace>-creates/<name>/<workspace>` (`keel-creates/sec/default`).
 */
export function journalPlace(provider: ProviderAddress, env: NodeJS.ProcessEnv, cwd: string): JournalPlace {
  const dataDir = env.TF_DATA_DIR?.trim() || '.terraform';
  const base = isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir);
  const workspace = env.TF_WORKSPACE?.trim() || selectedWorkspace(base) || 'default';
  const records = join(base, `${fileSafe(provider.namespace)}-creates`);
  return { root: recordsRoot(records, provider.name, workspace), workspace, base: records };
}

/**
 * The journal's directory under `dir` (a place the user chose, `create_records_dir`, or the data
 * directory's `<namespace>-creates`), relative paths from the working directory.
 */
export function recordsRoot(dir: string, provider: string, workspace: string): string {
  return join(resolve(dir), provider, fileSafe(workspace));
}

/** The workspace `terraform workspace select` wrote into the data directory, if any. */
function selectedWorkspace(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, 'environment'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A name as a file name: kept where it is plain, else its safe characters and a digest. */
function fileSafe(name: string): string {
  return /^[A-Za-z0-9._-]{1,64}$/.test(name) && !name.startsWith('.')
    ? name
    : `${name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32)}-${digest(name).slice(0, 8)}`;
}
