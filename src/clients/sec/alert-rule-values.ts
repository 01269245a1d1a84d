// Alert rule constants the resource definitions need at start-up, apart from the client's zod schemas
// (./alert-rules.ts), which load only once the provider is configured.

/** Where alerts come from (neutral names, sec.md §3.6). */
export const ALERT_RULE_SOURCES = ['Agent', 'CloudA', 'CloudB', 'CloudC', 'K8s'] as const;
/** What kind of alert. */
export const ALERT_RULE_CATEGORIES = ['Anomaly', 'Policy', 'Composite'] as const;
/** What the alert is about. */
export const ALERT_RULE_EVENT_CATEGORIES = [
  'Compliance',
  'App',
  'Cloud',
  'File',
  'Machine',
  'User',
  'Platform',
  'K8sActivity',
  'Registry',
  'SystemCall',
  'HostVulnerability',
  'ContainerVulnerability',
] as const;
