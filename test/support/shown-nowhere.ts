import { globToRegExp } from './glob.js';

/**
 * The answer tests' fields shown nowhere on purpose, each with why, by glob (`*` for any text): which
 * of the fields nothing looks at the list does not explain, and which of its entries explain none.
 */
export function shownNowhereProblems(
  unmapped: readonly string[],
  shownNowhere: Readonly<Record<string, string>>,
): { readonly unexplained: string[]; readonly stale: string[] } {
  const globs = Object.keys(shownNowhere).map((glob) => ({ glob, pattern: globToRegExp(glob) }));
  return {
    unexplained: unmapped.filter((field) => !globs.some(({ pattern }) => pattern.test(field))),
    stale: globs.filter(({ pattern }) => !unmapped.some((field) => pattern.test(field))).map(({ glob }) => glob),
  };
}
