/**
 * Secrets in a configuration: the rules between a secret argument and its write-only twin, and
 * messages that never quote a secret.
 */
import { type AttributePath, attrStep } from '../../schema/path.js';
import { Unknown, type ObjectValue } from '../../schema/value.js';
import type { Diagnostics } from '../diagnostics/index.js';

/** The rules between a secret argument and its write-only twin (define.ts `writeOnlyTwin`). */
export function twinProblems(
  name: string,
  required: boolean,
  value: ObjectValue,
  diags: Diagnostics,
  at: AttributePath,
): void {
  const plain = value[name] ?? null;
  const wo = value[`${name}_wo`] ?? null;
  const version = value[`${name}_wo_version`] ?? null;
  const step = (n: string) => [...at, attrStep(n)];
  // A secret one of the pair must give is required in all but name: a blank one says nothing.
  if (required) {
    for (const [n, v] of [
      [name, plain],
      [`${name}_wo`, wo],
    ] as const) {
      if (typeof v === 'string' && v.trim() === '')
        diags.error(`Invalid value for "${n}"`, 'The value must not be empty or only whitespace.', step(n));
    }
  }
  // An unknown value may yet be null: the rules between the pair wait until it is known.
  if ([plain, wo, version].some((v) => v instanceof Unknown)) return;
  if (plain !== null && wo !== null) {
    diags.error('Conflicting arguments', `Set \`${name}\` or \`${name}_wo\`, not both.`, step(`${name}_wo`));
  } else if (required && plain === null && wo === null) {
    diags.error(
      'Missing configuration for required argument',
      `The argument "${name}" is required: set \`${name}\`, or \`${name}_wo\` to keep the value out of the state.`,
      step(name),
    );
  }
  if (version !== null && wo === null) {
    diags.error(
      'Invalid argument',
      `\`${name}_wo_version\` only applies with \`${name}_wo\`.`,
      step(`${name}_wo_version`),
    );
  }
}

const HIDDEN = '(sensitive value)';

/**
 * A validator's message with every text of a sensitive value hidden: validators quote the value they
 * refuse (JSON-quoted, as every validator here writes a value; an invariant test holds them to it),
 * and a secret must never reach a diagnostic. Only quoted texts are replaced, so the message's own
 * words stay, even where a short value happens to equal one ("an http:// or https:// URL").
 */
export function withoutSecrets(problem: string, value: unknown): string {
  const texts: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string' && v !== '') texts.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(value);
  let out = problem;
  // Longest first, so no part of a longer quoted text survives a shorter one's replacement.
  for (const text of texts.sort((a, b) => b.length - a.length)) out = out.replaceAll(JSON.stringify(text), HIDDEN);
  return out;
}
