/**
 * The sec provider's profile file (~/.sec.toml, docs/api/sec.md, "The profile file"): read only
 * when the provider block and the environment leave account or credentials unset
 * (./provider-config.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { attrStep, DiagnosticError, type Diagnostics, ownEntry } from '@keel/provider-framework/client';
import { firstSet } from '../shared/provider-settings.js';

const profileSchema = z.object({
  account: z.string().optional(),
  subaccount: z.string().optional(),
  api_key: z.string().optional(),
  api_secret: z.string().optional(),
  api_token: z.string().optional(),
  version: z.number().optional(),
});

type ProfileValues = z.infer<typeof profileSchema>;

/** The profile as found: read, or left empty because there is no file or (for `default`) no such section. */
export interface ProfileLookup {
  readonly file: string;
  readonly name: string;
  readonly found: 'profile' | 'no file' | 'no section';
  readonly values: ProfileValues;
}

/**
 * The profile `profile` / SEC_PROFILE names, else `default`. A missing file, or a missing [default],
 * just gives nothing (the missing settings are reported then, saying where they could come from);
 * a profile asked for by name (`profile`, from the provider block) must exist. A file that exists but
 * cannot be read is an error.
 */
export function readProfile(profile: string | null, env: NodeJS.ProcessEnv, diags: Diagnostics): ProfileLookup {
  const named = firstSet(profile, env.SEC_PROFILE);
  const name = named ?? 'default';
  const file = join(env.HOME ?? env.USERPROFILE ?? '', '.sec.toml');
  const profilePath = profile !== null && profile !== '' ? [attrStep('profile')] : undefined;
  const text = readProfileFile(file);
  if (text === undefined) {
    if (named === undefined) return { file, name, found: 'no file', values: {} };
    throw new DiagnosticError(
      `Profile '${name}' not found`,
      `The profile file ${file} does not exist. Create it with a [${name}] profile, or give account and ` +
        `credentials in the provider block or the SEC_* environment variables.`,
      profilePath,
    );
  }
  try {
    if ((statSync(file).mode & 0o044) !== 0) {
      diags.warning(
        'Profile file is readable by other users',
        `${file} holds API credentials but other users can read it. Restrict it with: chmod 600 ${file}`,
      );
    }
  } catch {
    // A file we could read but not stat has nothing more to warn about.
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (err) {
    // Only smol-toml's first line: the excerpt after it quotes the file, which may hold a secret.
    const reason = (err instanceof Error ? err.message.split('\n')[0]! : String(err)).replace(
      /^Invalid TOML document: /,
      '',
    );
    const where = err instanceof TomlError ? `line ${err.line}, column ${err.column}: ` : '';
    throw new DiagnosticError('Invalid profile file', `${file} is not valid TOML: ${where}${reason}.`);
  }
  const section = doc[name];
  if (section === undefined) {
    if (named === undefined) return { file, name, found: 'no section', values: {} };
    throw new DiagnosticError(
      `Profile '${name}' not found`,
      `The profile file ${file} has no [${name}] section. Add one, or choose another profile with ` +
        `\`profile\` or SEC_PROFILE.`,
      profilePath,
    );
  }
  const parsed = profileSchema.safeParse(section);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DiagnosticError(
      'Invalid profile',
      `In ${file}, [${name}] ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  return { file, name, found: 'profile', values: parsed.data };
}

/** The profile file's text; undefined when there is no file. Any other failure says why it cannot be read. */
function readProfileFile(file: string): string | undefined {
  const unreadable = (why: string) =>
    new DiagnosticError(
      'Cannot read the profile file',
      `${file} exists but cannot be read: ${why}. Fix that, or give account and credentials in the ` +
        `provider block or the SEC_* environment variables, which make the provider skip the file.`,
    );
  try {
    // Checked first: reading a directory fails late, and reading a FIFO would never return.
    const stats = statSync(file);
    if (!stats.isFile()) throw unreadable(stats.isDirectory() ? 'it is a directory' : 'it is not a regular file');
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof DiagnosticError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw unreadable(ownEntry(FILE_ERRORS, code ?? '') ?? (code ? `error ${code}` : String(err)));
  }
}

const FILE_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'its symbolic links form a loop',
  ENOTDIR: 'a part of its path is a file, not a directory',
};
