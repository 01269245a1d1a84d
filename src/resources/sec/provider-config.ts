/**
 * Where the sec provider's settings come from (sec.md §4, DECISIONS): the provider block wins per
 * setting, then SEC_* environment variables; static credentials (account + key/secret or token) skip
 * the profile file, otherwise the profile (`profile` or "default") in ~/.sec.toml fills the gaps.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { DiagnosticError, type Diagnostics } from '../../engine/diagnostics.js';
import { attrStep } from '../../schema/path.js';
import { booleanVariable, missingSetting, settingSources } from '../shared/provider-settings.js';

export interface SecProviderSettings {
  account: string | null;
  api_key: string | null;
  api_secret: string | null;
  api_token: string | null;
  profile: string | null;
  subaccount: string | null;
  organization: boolean | null;
}

export interface ResolvedSecSettings {
  baseUrl: string;
  account: string;
  apiKey?: string;
  apiSecret?: string;
  apiToken?: string;
  subaccount?: string;
  organization: boolean;
}

export const PLATFORM_DOMAIN = 'sec-platform.example';

const profileSchema = z.object({
  account: z.string().optional(),
  subaccount: z.string().optional(),
  api_key: z.string().optional(),
  api_secret: z.string().optional(),
  api_token: z.string().optional(),
  version: z.number().optional(),
});

const nonEmpty = (...values: (string | null | undefined)[]): string | undefined =>
  values.find((v) => v !== undefined && v !== null && v !== '') ?? undefined;

/** `acme`, `acme.eu`, `https://acme.sec-platform.example/x` → `acme` / `acme.eu` (sec.md §3.1). */
export function normaliseAccount(account: string): string {
  let a = account.trim().replace(/^[a-z]+:\/\//i, '');
  const at = a.toLowerCase().indexOf(`.${PLATFORM_DOMAIN}`);
  if (at >= 0) a = a.slice(0, at);
  return a.replace(/\/.*$/, '');
}

export function resolveSecSettings(
  cfg: SecProviderSettings,
  env: NodeJS.ProcessEnv,
  diags: Diagnostics,
): ResolvedSecSettings {
  let account = nonEmpty(cfg.account, env.SEC_ACCOUNT);
  let apiKey = nonEmpty(cfg.api_key, env.SEC_API_KEY);
  let apiSecret = nonEmpty(cfg.api_secret, env.SEC_API_SECRET);
  let apiToken = nonEmpty(cfg.api_token, env.SEC_API_TOKEN);
  let subaccount = nonEmpty(cfg.subaccount, env.SEC_SUBACCOUNT);
  const organization = cfg.organization ?? booleanVariable(env, 'SEC_ORGANIZATION', 'organization') ?? false;
  const staticCredentials =
    account !== undefined && ((apiKey !== undefined && apiSecret !== undefined) || apiToken !== undefined);
  // Static credentials leave nothing missing, so the profile is always read before a missing setting is reported.
  let profile: ProfileLookup | undefined;
  if (!staticCredentials) {
    profile = readProfile(cfg, env, diags);
    const values = profile.values;
    account ??= nonEmpty(values.account);
    subaccount ??= nonEmpty(values.subaccount);
    apiKey ??= nonEmpty(values.api_key);
    apiSecret ??= nonEmpty(values.api_secret);
    apiToken ??= nonEmpty(values.api_token);
  }
  const orFromProfile = (what: string) => (profile ? profileHint(profile, what) : '');
  if (account === undefined) {
    throw missingSetting('Missing account', 'account', 'SEC_ACCOUNT', orFromProfile('`account`'), cfg.account);
  }
  if (apiToken === undefined) {
    // Half a key pair: name the missing half.
    const otherHalf = (summary: string, have: string, missing: string, variable: string) =>
      new DiagnosticError(
        summary,
        `\`${have}\` is set but \`${missing}\` is not. Set ` +
          `${settingSources(missing, variable)}${orFromProfile(`\`${missing}\``)}; or use \`api_token\` ` +
          `(SEC_API_TOKEN) instead of the key pair.`,
        [attrStep(missing)],
      );
    if (apiKey !== undefined && apiSecret === undefined)
      throw otherHalf('Missing API secret', 'api_key', 'api_secret', 'SEC_API_SECRET');
    if (apiSecret !== undefined && apiKey === undefined)
      throw otherHalf('Missing API key', 'api_secret', 'api_key', 'SEC_API_KEY');
    if (apiKey === undefined) {
      throw new DiagnosticError(
        'Missing credentials',
        `Set \`api_key\` and \`api_secret\` (environment SEC_API_KEY and SEC_API_SECRET), or ` +
          `\`api_token\` (SEC_API_TOKEN), in the provider block or the ` +
          `environment${orFromProfile('them')}.`,
        [attrStep('api_key')],
      );
    }
  }
  const normalised = normaliseAccount(account);
  return {
    baseUrl: nonEmpty(env.SEC_API_URL) ?? `https://${normalised}.${PLATFORM_DOMAIN}`,
    account: normalised,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(apiSecret !== undefined ? { apiSecret } : {}),
    ...(apiToken !== undefined ? { apiToken } : {}),
    ...(subaccount !== undefined ? { subaccount } : {}),
    organization,
  };
}

type ProfileValues = z.infer<typeof profileSchema>;

/** The profile as found: read, or left empty because there is no file or (for `default`) no such section. */
interface ProfileLookup {
  readonly file: string;
  readonly name: string;
  readonly found: 'profile' | 'no file' | 'no section';
  readonly values: ProfileValues;
}

/** How a missing setting could come from the profile, for the end of a message. */
function profileHint(profile: ProfileLookup, what: string): string {
  const { file, name } = profile;
  switch (profile.found) {
    case 'profile':
      return `, or in the [${name}] profile of ${file}`;
    case 'no section':
      return `, or add a [${name}] profile that sets ${what} to ${file}`;
    case 'no file':
      return `, or create the profile file ${file} with a [${name}] profile that sets ${what}`;
  }
}

/**
 * The profile `profile` / SEC_PROFILE names, else `default`. A missing file, or a missing [default],
 * just gives nothing (the missing settings are reported then, saying where they could come from);
 * a profile asked for by name must exist. A file that exists but cannot be read is an error.
 */
function readProfile(cfg: SecProviderSettings, env: NodeJS.ProcessEnv, diags: Diagnostics): ProfileLookup {
  const named = nonEmpty(cfg.profile, env.SEC_PROFILE);
  const name = named ?? 'default';
  const file = join(env.HOME ?? env.USERPROFILE ?? '', '.sec.toml');
  const profilePath = cfg.profile !== null && cfg.profile !== '' ? [attrStep('profile')] : undefined;
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
    throw unreadable(FILE_ERRORS[code ?? ''] ?? (code ? `error ${code}` : String(err)));
  }
}

const FILE_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'its symbolic links form a loop',
  ENOTDIR: 'a part of its path is a file, not a directory',
};
