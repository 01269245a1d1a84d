/**
 * The rules of sec's contract no attribute checks at plan, each with the reason none needs to, by a
 * test on the rule's name (`<field>#<kind>`, src/resources/sec/rules.ts). Every reason is that no
 * argument sets the field (the resource or the provider writes it): a rule on a field an argument sets
 * is derived (`secRules`) or claimed with the checks that hold it (`checkedBy`), which the agreement
 * test tries, and a rule across fields is claimed as the resource's code (`inCode`), not listed here.
 * The coverage test (test/resources/sec/api-rules.test.ts) fails for a rule neither checked nor named
 * here, and for a reason that names no unchecked rule; the generated table of docs/api/sec.md gives each
 * reason.
 */
export const SEC_RULES_NOT_CHECKED_AT_PLAN: readonly (readonly [RegExp, string])[] = [
  [
    /^(ContainerRegistries:\w+\.registryType|AlertChannels:Tracker\.trackerType)#oneOf$/,
    'the resource writes its own kind (a resource type per registry kind, per tracker configuration)',
  ],
  [
    /^ContainerRegistries:REGISTRY_A\.authType#oneOf$/,
    'the resource writes it from which credentials are given (registry-a.ts)',
  ],
  [
    /^ContainerRegistries:REGISTRY_[DF]\.registryDomain#oneOf$/,
    "the resource writes the kind's one host itself (no argument sets it)",
  ],
  [
    /^(AlertRules|DataExportRules|ReportRules)\.type#oneOf$/,
    'the resource writes the one type its collection takes (`Event`, `Dataexport`, `Report`)',
  ],
  [
    /^VulnerabilityExceptions\.exceptionType#oneOf$/,
    'the resource writes it: one resource type per exception type (host, container)',
  ],
  [
    /^Policies(:update)?\.policyType#oneOf$/,
    'the resource writes it: sec_policy sends `Violation` (its `type` takes only that), ' +
      'sec_policy_compliance `Compliance`',
  ],
  [
    /^Metrics\./,
    "the provider's own usage events (src/clients/sec/metrics.ts), which it writes itself: no argument sets a field",
  ],
  [
    /^(AlertChannels:\w+\.customTemplateFile|CloudAccounts:\w+\.accountMappingFile)#format$/,
    'the resource writes the data URL itself, from a JSON document (a template) or blocks (mappings) it checks',
  ],
];

/** Why `rule` is not checked at plan, or undefined where no reason names it. */
export function reasonNotChecked(rule: string): string | undefined {
  return SEC_RULES_NOT_CHECKED_AT_PLAN.find(([pattern]) => pattern.test(rule))?.[1];
}
