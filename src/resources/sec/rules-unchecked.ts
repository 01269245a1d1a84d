/**
 * The rules of sec's contract no attribute checks at plan, each with the reason none needs to, by a
 * test on the rule's name (`<field>#<kind>`, src/resources/sec/rules.ts). The coverage test
 * (test/resources/sec/api-rules.test.ts) fails for a rule neither checked nor named here, and for a
 * reason that names no unchecked rule; the generated table of docs/api/sec.md gives each reason.
 */
export const SEC_RULES_NOT_CHECKED_AT_PLAN: readonly (readonly [RegExp, string])[] = [];

/** Why `rule` is not checked at plan, or undefined where no reason names it. */
export function reasonNotChecked(rule: string): string | undefined {
  return SEC_RULES_NOT_CHECKED_AT_PLAN.find(([pattern]) => pattern.test(rule))?.[1];
}
