/**
 * Why no attribute checks a rule: `not configured`, no argument sets the field (the resource or the
 * provider writes it). A rule on a field an argument sets is derived (`secRules`) or claimed with the checks
 * that hold it (`checkedBy`), which the agreement test tries; so only a rule across fields may be left to
 * the resource's code, and it is claimed (`inCode`), not listed here.
 */
export type Unchecked = 'not configured';

/**
 * The rules of sec's contract no attribute checks at plan, each with the reason none needs to, by a
 * test on the rule's name (`<field>#<kind>`, src/resources/sec/rules.ts). The coverage test
 * (test/resources/sec/api-rules.test.ts) fails for a rule neither checked nor named here, and for a
 * reason that names no unchecked rule; the generated table of docs/api/sec.md gives each reason.
 */
export const SEC_RULES_NOT_CHECKED_AT_PLAN: readonly (readonly [RegExp, string, Unchecked])[] = [
  [
    /^(ContainerRegistries:\w+\.registryType|AlertChannels:Tracker\.trackerType)#oneOf$/,
    'the resource writes its own kind (a resource type per registry kind, per tracker configuration)',
    'not configured',
  ],
  [
    /^ContainerRegistries:REGISTRY_A\.authType#oneOf$/,
    'the resource writes it from which credentials are given (registry-a.ts)',
    'not configured',
  ],
  [
    /^ContainerRegistries:REGISTRY_[DF]\.registryDomain#oneOf$/,
    "the resource writes the kind's one host itself (no argument sets it)",
    'not configured',
  ],
  [
    /^(AlertRules|DataExportRules|ReportRules)\.type#oneOf$/,
    'the resource writes the one type its collection takes (`Event`, `Dataexport`, `Report`)',
    'not configured',
  ],
  [
    /^VulnerabilityExceptions\.exceptionType#oneOf$/,
    'the resource writes it: one resource type per exception type (host, container)',
    'not configured',
  ],
  [
    /^Policies(:update)?\.policyType#oneOf$/,
    'the resource writes it: sec_policy sends `Violation` (its `type` takes only that), ' +
      'sec_policy_compliance `Compliance`',
    'not configured',
  ],
  [
    /^Metrics\./,
    "the provider's own usage events (src/clients/sec/metrics.ts), which it writes itself: no argument sets a field",
    'not configured',
  ],
  [
    /^(AlertChannels:\w+\.customTemplateFile|CloudAccounts:\w+\.accountMappingFile)#format$/,
    'the resource writes the data URL itself, from a JSON document (a template) or blocks (mappings) it checks',
    'not configured',
  ],
];

/** Why `rule` is not checked at plan, or undefined where no reason names it. */
export function reasonNotChecked(rule: string): string | undefined {
  return SEC_RULES_NOT_CHECKED_AT_PLAN.find(([pattern]) => pattern.test(rule))?.[1];
}
