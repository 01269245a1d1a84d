/**
 * Completeness of the per-type tables tests keep by hand (a configuration for each type, a test for
 * each example): what the provider registers or ships is the truth, and a failure says what to add
 * or remove, and where, instead of a diff of names. ARCHITECTURE.md ("Where new things go") lists
 * the tests that use it.
 */
import { expect } from 'chai';

export interface TypeTable {
  /** What each entry stands for, as a message names it: `vdb resource type`. */
  readonly what: string;
  /** Where the entries are: `VDB_CASES in test/resources/vdb/identity-and-lists.test.ts`. */
  readonly where: string;
  /** The entry to add for a type, written as it is written there. */
  readonly entry: (type: string) => string;
  /** What an entry is called there (`test`, `file`); default `entry`. */
  readonly noun?: string;
}

/**
 * One line per problem: a required type without an entry, an entry for a type that is not
 * required, a type with more than one entry. Empty when the table covers `required` exactly.
 */
export function tableProblems(table: TypeTable, required: readonly string[], present: readonly string[]): string[] {
  const noun = table.noun ?? 'entry';
  const aNoun = `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
  const requiredSet = new Set(required);
  const counts = new Map<string, number>();
  for (const type of present) counts.set(type, (counts.get(type) ?? 0) + 1);
  return [
    ...[...requiredSet]
      .filter((type) => !counts.has(type))
      .sort()
      .map((type) => `${table.what} ${type} has no ${noun} in ${table.where}; add ${table.entry(type)}`),
    ...[...counts.keys()]
      .filter((type) => !requiredSet.has(type))
      .sort()
      .map((type) => `${table.where} has ${aNoun} for ${type}, which is no ${table.what}; remove it`),
    ...[...counts]
      .filter(([, n]) => n > 1)
      .map(([type]) => type)
      .sort()
      .map(
        (type) =>
          `${table.where} has ${counts.get(type)} ${noun === 'entry' ? 'entries' : `${noun}s`} for ${type}; keep one`,
      ),
  ];
}

/** Fails with the problems, one a line, under `title`; passes when there are none. */
export function failOnProblems(title: string, problems: readonly string[]): void {
  if (problems.length > 0) expect.fail(`${title}:\n  ${problems.join('\n  ')}`);
}
