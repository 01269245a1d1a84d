/**
 * Provider settings that an environment variable may supply, read the same way by both providers:
 * the provider block wins, an empty variable counts as unset, and a diagnostic about a setting names
 * both the argument (with its attribute path) and the variable, never a secret value.
 */
import { attrStep, DiagnosticError } from '@keel/provider-framework';

/**
 * Where a setting can be given, for messages: "`api_key` in the provider block or the VDB_API_KEY environment
 * variable".
 */
export const settingSources = (attribute: string, variable: string): string =>
  `\`${attribute}\` in the provider block or the ${variable} environment variable`;

/**
 * A required setting that neither the provider block nor the environment gives; `configured` is the
 * provider block's value, so that a message says when the block has it, but empty.
 */
export function missingSetting(
  summary: string,
  attribute: string,
  variable: string,
  alternative = '',
  configured: string | null = null,
): DiagnosticError {
  const empty = configured !== null && configured.trim() === '';
  const given = empty ? `\`${attribute}\` is empty in the provider block. ` : '';
  const detail = `${given}Set ${settingSources(attribute, variable)}${alternative}.`;
  return new DiagnosticError(summary, detail, [attrStep(attribute)]);
}

/**
 * What the provider block says of a setting it gives empty, where that block wins over the
 * environment even when empty (vdb, as its reference provider did): that it is empty there, and,
 * only when the variable it hides is set, how to use that instead. Undefined when it is not empty.
 */
export function emptyInBlock(
  attribute: string,
  variable: string,
  configured: string | null,
  env: NodeJS.ProcessEnv,
): { said: string; hidden?: string } | undefined {
  if (configured === null || configured.trim() !== '') return undefined;
  const said = `\`${attribute}\` is empty in the provider block`;
  if ((env[variable] ?? '').trim() === '') return { said };
  const hidden =
    `A value there, even an empty one, wins over the ${variable} environment variable, which is set: ` +
    `remove \`${attribute}\` from the provider block to use the variable.`;
  return { said, hidden };
}

/**
 * A boolean setting's environment variable: true/false/1/0 in any case; unset or empty → undefined.
 * Anything else (`maybe`, `yes`, `t`) is refused rather than guessed, on the argument it stands for.
 */
export function booleanVariable(env: NodeJS.ProcessEnv, variable: string, attribute: string): boolean | undefined {
  const raw = env[variable];
  const text = (raw ?? '').trim().toLowerCase();
  if (text === '') return undefined;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new DiagnosticError(
    `Invalid ${variable}`,
    `The ${variable} environment variable, which sets \`${attribute}\`, must be true, false, 1 or 0 (in any case), ` +
      `got ${JSON.stringify(raw)}.`,
    [attrStep(attribute)],
  );
}

/** The first of `values` that is set and not empty. */
export const firstSet = (...values: (string | null | undefined)[]): string | undefined =>
  values.find((v) => v !== undefined && v !== null && v !== '') ?? undefined;
