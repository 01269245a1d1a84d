/**
 * Where the sec provider's settings come from (sec.md §4, DECISIONS): the provider block wins per
 * setting, then SEC_* environment variables; static credentials (account + key/secret or token) skip
 * the profile file, otherwise the profile (`profile` or "default") in ~/.sec.toml fills the gaps.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { DiagnosticError, type Diagnostics } from '../../engine/diagnostics.js';
import { booleanVariable } from '../shared/provider-settings.js';

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

const nonEmpty = (...values: (string | null | undefined)[]): string | undefined => values.find((v) => v !== undefined && v !== null && v !== '') ?? undefined;

/** `acme`, `acme.eu`, `https://acme.sec-platform.example/x` → `acme` / `acme.eu` (sec.md §3.1). */
export function normaliseAccount(account: string): string {
  let a = account.trim().replace(/^[a-z]+:\/\//i, '');
  const at = a.toLowerCase().indexOf(`.${PLATFORM_DOMAIN}`);
  if (at >= 0) a = a.slice(0, at);
  return a.replace(/\/.*$/, '');
}

export function resolveSecSettings(cfg: SecProviderSettings, env: NodeJS.ProcessEnv, diags: Diagnostics): ResolvedSecSettings {
  let account = nonEmpty(cfg.account, env.SEC_ACCOUNT);
  let apiKey = nonEmpty(cfg.api_key, env.SEC_API_KEY);
  let apiSecret = nonEmpty(cfg.api_secret, env.SEC_API_SECRET);
  let apiToken = nonEmpty(cfg.api_token, env.SEC_API_TOKEN);
  let subaccount = nonEmpty(cfg.subaccount, env.SEC_SUBACCOUNT);
  const organization = cfg.organization ?? booleanVariable(env, 'SEC_ORGANIZATION', 'organization') ?? false;
  const staticCredentials = account !== undefined && ((apiKey !== undefined && apiSecret !== undefined) || apiToken !== undefined);
  if (!staticCredentials) {
    const profileName = nonEmpty(cfg.profile, env.SEC_PROFILE) ?? 'default';
    const profile = readProfile(profileName, env, diags);
    account ??= profile.account;
    subaccount ??= profile.subaccount;
    apiKey ??= profile.api_key;
    apiSecret ??= profile.api_secret;
    apiToken ??= profile.api_token;
  }
  if (account === undefined) {
    throw new DiagnosticError('Missing account', 'Set `account` in the provider block, the SEC_ACCOUNT environment variable, or `account` in the profile file ~/.sec.toml.');
  }
  if (apiToken === undefined && (apiKey === undefined || apiSecret === undefined)) {
    throw new DiagnosticError(
      'Missing credentials',
      'Set `api_key` and `api_secret` (or SEC_API_KEY and SEC_API_SECRET), or `api_token` (SEC_API_TOKEN), in the provider block, the environment or the profile file ~/.sec.toml.',
    );
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

function readProfile(name: string, env: NodeJS.ProcessEnv, diags: Diagnostics): z.infer<typeof profileSchema> {
  const home = env.HOME ?? env.USERPROFILE ?? '';
  const file = join(home, '.sec.toml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new DiagnosticError(
      'The provider is not configured properly',
      `One or more settings are missing: set account and credentials in the provider block or the SEC_* environment variables, or create the profile file ${file}.`,
    );
  }
  try {
    if ((statSync(file).mode & 0o044) !== 0) {
      diags.warning('Profile file is readable by other users', `${file} holds API credentials but other users can read it. Restrict it with: chmod 600 ${file}`);
    }
  } catch {
    // A file we could read but not stat has nothing more to warn about.
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (err) {
    throw new DiagnosticError('Invalid profile file', `${file} is not valid TOML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  const section = doc[name];
  if (section === undefined) throw new DiagnosticError(`Profile '${name}' not found`, `The profile file ${file} has no [${name}] section. Add one, or choose another profile with \`profile\` or SEC_PROFILE.`);
  const parsed = profileSchema.safeParse(section);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DiagnosticError('Invalid profile', `In ${file}, [${name}] ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}
