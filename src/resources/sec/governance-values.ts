/**
 * Value rules shared by the report rule, resource group, team member and vulnerability exception
 * resources: the platform normalises some values (case, whitespace, order), so the configuration
 * keeps its own spelling and these say when two spellings mean the same
 * (docs/api/sec.md, "Values the platform normalises").
 */
import { type Validator, validators } from '@keel/provider-framework';
import { RULE_SEVERITY_NAMES } from '../../wire/sec-contract/routing-rules.js';
import { VULNERABILITY_SEVERITIES } from '../../wire/sec-contract/vulnerability-exceptions.js';

/**
 * The severities of reports and vulnerability exceptions, in the platform's spelling (its contract's
 * list for exceptions; alert and report rules send their position, 1 to 5).
 */
export const SEVERITIES = VULNERABILITY_SEVERITIES;

/**
 * The severities checks of a rule's list (alert and report rules): at least one, each a name in any case.
 * With `severityNumbers`, what the rules claim to check of the contract's numbers (rules.ts, checkedBy).
 */
export const severityListChecks = (): Validator<string[]>[] => [
  validators.nonEmpty(),
  validators.each(oneOfIgnoringCase(SEVERITIES)),
];

/**
 * Each entry of a list sent trimmed (`trimmedTexts`) is more than white space: that would be sent as "",
 * which the platform refuses at apply.
 */
export const notBlankEntries: Validator<string[]> = validators.each(
  validators.matches(/\S/u, 'text that is not only white space'),
);

/** A list of texts as the platform is sent it, each trimmed (ids, GUIDs). */
export const trimmedTexts = (value: unknown): unknown =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item.trim() : item)) : value;

/**
 * A severities list as the platform is sent it: each name once, as its number (its position in the
 * contract's RULE_SEVERITY_NAMES from 1; 0 for a name that is none), as the client maps it.
 */
export const severityNumbers = (value: unknown): unknown =>
  Array.isArray(value)
    ? [...new Set(value.map((name) => canonical(SEVERITIES, String(name))))].map(
        (name) => (RULE_SEVERITY_NAMES as readonly (string | undefined)[]).indexOf(name) + 1,
      )
    : value;
export type Severity = (typeof SEVERITIES)[number];

/** The allowed value that `value` spells, ignoring case and surrounding whitespace. */
export function canonical<T extends string>(allowed: readonly T[], value: string): T | undefined {
  const wanted = value.trim().toLowerCase();
  return allowed.find((a) => a.toLowerCase() === wanted);
}

/** Like validators.oneOf, ignoring case and surrounding whitespace. */
export function oneOfIgnoringCase(allowed: readonly string[]): Validator<string> {
  const list = allowed.map((a) => `\`${a}\``).join(', ');
  return {
    description: `one of ${list} (case-insensitive)`,
    samples: [...allowed, allowed[0]!.toUpperCase()],
    written: (v) => canonical(allowed, v),
    check: (v) =>
      canonical(allowed, v)
        ? undefined
        : `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')} (any case), got ${JSON.stringify(v)}`,
  };
}

const folded = (values: readonly string[], fold: (s: string) => string) => [...new Set(values.map(fold))].sort();
const sameSorted = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The same values apart from case, whitespace, order and repetition (severities, account names). */
export function sameIgnoringCase(a: readonly string[], b: readonly string[]): boolean {
  return sameSorted(
    folded(a, (s) => s.trim().toLowerCase()),
    folded(b, (s) => s.trim().toLowerCase()),
  );
}

/** The same values apart from surrounding whitespace, order and repetition (GUID sets). */
export function sameTrimmedSet(a: readonly string[], b: readonly string[]): boolean {
  return sameSorted(
    folded(a, (s) => s.trim()),
    folded(b, (s) => s.trim()),
  );
}

/** The same list apart from surrounding whitespace of its elements. */
export function sameTrimmedList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x.trim() === b[i]!.trim());
}

/** Two spellings of one value, ignoring case and surrounding whitespace. */
export function sameTextIgnoringCase(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * An optional string the API reports as "" when unset: null unless the prior state (or plan) holds
 * "", so an absent argument stays absent.
 */
export function textOrNull(value: string | undefined, prior: string | null | undefined): string | null {
  if (value === undefined || value === '') return prior === '' ? '' : null;
  return value;
}

/** An optional list the API reports as empty or absent when unset: null unless the prior held []. */
export function listOrNull(
  values: readonly string[] | undefined,
  prior: readonly string[] | null | undefined,
): string[] | null {
  if (values === undefined || values.length === 0) return prior && prior.length === 0 ? [] : null;
  return [...values];
}

/** An optional flag the API always reports: false stays null when the prior did not set it. */
export function flagOrNull(value: boolean, prior: boolean | null | undefined): boolean | null {
  return value ? true : prior === null || prior === undefined ? null : false;
}
