/**
 * Where the sec provider's settings come from (docs/api/sec.md, "Provider settings";
 * docs/decisions.md, "Where the settings come from"): the provider block wins per setting, then
 * SEC_* environment variables; static credentials (account + key/secret or token) skip the profile
 * file, otherwise the profile (`profile` or "default") in ~/.sec.toml fills the gaps.
 */
import { attrStep, DiagnosticError, type Diagnostics } from '@keel/provider-framework';
import { booleanVariable, firstSet, missingSetting, settingSources } from '../shared/provider-settings.js';
import type { ProfileLookup } from './profile-file.js';

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
  /** SEC_MAX_RESPONSE_BYTES, when set. */
  maxResponseBytes?: number;
}

export const PLATFORM_DOMAIN = 'sec-platform.example';

/**
 * `acme`, `acme.eu`, `https://acme.sec-platform.example/x` → `acme` / `acme.eu`
 * (docs/api/sec.md, "Base URL").
 */
export function normaliseAccount(account: string): string {
  let a = account.trim().replace(/^[a-z]+:\/\//i, '');
  const at = a.toLowerCase().indexOf(`.${PLATFORM_DOMAIN}`);
  if (at >= 0) a = a.slice(0, at);
  return a.replace(/\/.*$/, '');
}

export async function resolveSecSettings(
  cfg: SecProviderSettings,
  env: NodeJS.ProcessEnv,
  diags: Diagnostics,
): Promise<ResolvedSecSettings> {
  let account = firstSet(cfg.account, env.SEC_ACCOUNT);
  let apiKey = firstSet(cfg.api_key, env.SEC_API_KEY);
  let apiSecret = firstSet(cfg.api_secret, env.SEC_API_SECRET);
  let apiToken = firstSet(cfg.api_token, env.SEC_API_TOKEN);
  let subaccount = firstSet(cfg.subaccount, env.SEC_SUBACCOUNT);
  const organization = cfg.organization ?? booleanVariable(env, 'SEC_ORGANIZATION', 'organization') ?? false;
  const staticCredentials =
    account !== undefined && ((apiKey !== undefined && apiSecret !== undefined) || apiToken !== undefined);
  // Static credentials leave nothing missing, so the profile is always read before a missing setting is reported.
  let profile: ProfileLookup | undefined;
  if (!staticCredentials) {
    // The profile reader (smol-toml, zod) loads only when a profile is read.
    const { readProfile } = await import('./profile-file.js');
    profile = readProfile(cfg.profile, env, diags);
    const values = profile.values;
    account ??= firstSet(values.account);
    subaccount ??= firstSet(values.subaccount);
    apiKey ??= firstSet(values.api_key);
    apiSecret ??= firstSet(values.api_secret);
    apiToken ??= firstSet(values.api_token);
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
  const maxResponseBytes = maxResponseBytesVariable(env);
  return {
    baseUrl: firstSet(env.SEC_API_URL) ?? `https://${normalised}.${PLATFORM_DOMAIN}`,
    account: normalised,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(apiSecret !== undefined ? { apiSecret } : {}),
    ...(apiToken !== undefined ? { apiToken } : {}),
    ...(subaccount !== undefined ? { subaccount } : {}),
    organization,
    ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
  };
}

const KIB = 1024;
const MIB = 1024 * KIB;
/** The largest cap allowed: an answer's text must stay well inside V8's longest string (~512 MiB). */
const MAX_RESPONSE_CAP = 256 * MIB;

/**
 * SEC_MAX_RESPONSE_BYTES: the most an API answer's body may hold (default 64 MiB, in the client), as
 * bytes or with a KiB or MiB suffix; from 1 KiB to 256 MiB. Undefined when unset or empty.
 */
export function maxResponseBytesVariable(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SEC_MAX_RESPONSE_BYTES;
  const text = (raw ?? '').trim();
  if (text === '') return undefined;
  const match = /^(\d{1,12})\s*(kib|mib)?$/i.exec(text);
  const bytes = match ? Number(match[1]) * (match[2] ? (match[2].toLowerCase() === 'kib' ? KIB : MIB) : 1) : NaN;
  if (!(bytes >= KIB && bytes <= MAX_RESPONSE_CAP))
    throw new DiagnosticError(
      'Invalid SEC_MAX_RESPONSE_BYTES',
      'The SEC_MAX_RESPONSE_BYTES environment variable, the most an API answer may hold, must be a number of ' +
        `bytes from 1024 to ${MAX_RESPONSE_CAP} (a KiB or MiB suffix may follow: 64MiB), got ${JSON.stringify(raw)}.`,
    );
  return bytes;
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
