/**
 * What the framework's tests share: the tarball packed as npm would publish it (scripts/pack-framework.mjs),
 * a scratch folder outside the repository, and the environment npm and the CLIs run in there.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

/** A new folder under the system's temporary directory, far from the repository. */
export const scratchFolder = (label: string): string => mkdtempSync(join(tmpdir(), `framework-${label}-`));

export interface PackedFramework {
  readonly tarball: string;
  /** What scripts/pack-framework.mjs printed: files by folder, sizes. */
  readonly summary: string;
}

/** Packs packages/framework (built by `npm run build`) into `folder`. */
export async function packFramework(folder: string): Promise<PackedFramework> {
  const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'scripts', 'pack-framework.mjs'), folder], {
    cwd: REPO_ROOT,
    env: npmEnv(process.env),
  });
  const lines = stdout.trimEnd().split('\n');
  return { tarball: lines.at(-1)!, summary: lines.slice(0, -1).join('\n') };
}

/**
 * The environment for npm in a scratch folder: this Node (and its npm) first on PATH, npm's cache
 * where it is for the user running the suite (so a changed HOME does not download everything again),
 * no lifecycle noise.
 */
export function npmEnv(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  return {
    ...env,
    PATH: [dirname(process.execPath), ...(extra.PATH ?? base.PATH ?? '').split(delimiter)].join(delimiter),
    npm_config_cache: join(homedir(), '.npm'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...Object.fromEntries(Object.entries(extra).filter(([key]) => key !== 'PATH')),
  };
}

/** Runs a command in `cwd`; rejects with its output when it fails. */
export async function runIn(
  cwd: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
    return stdout + stderr;
  } catch (error: any) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}
