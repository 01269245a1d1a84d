// Alert rule constants the resource definitions need at start-up, apart from the client's zod schemas
// (./alert-rules.ts), which load only once the provider is configured.

/**
 * Where alerts come from (neutral names, docs/api/sec.md, "Alert rules"): the agent, the four
 * clouds, Kubernetes.
 */
export const ALERT_RULE_SOURCES = ['Agent', 'CloudA', 'CloudB', 'CloudC', 'CloudD', 'K8s'] as const;
/** What kind of alert. */
export const ALERT_RULE_CATEGORIES = ['Anomaly', 'Policy', 'Composite'] as const;
/** What the alert is about: the platform's current subcategories (the API field `subCategory`). */
export const ALERT_RULE_SUBCATEGORIES = [
  'Compliance',
  'Application',
  'Cloud Activity',
  'File',
  'Machine',
  'User',
  'Platform',
  'Kubernetes Activity',
  'Registry',
  'SystemCall',
  'Host Vulnerability',
  'Container Vulnerability',
  'Threat Intel',
] as const;
/**
 * Older names of subcategories, still accepted and sent as the current name: the platform's former
 * event categories (`App`, `Cloud`, `K8sActivity`), and the spellings without a space this provider
 * took before (`HostVulnerability`, `ContainerVulnerability`).
 */
export const LEGACY_ALERT_RULE_SUBCATEGORIES: Readonly<Record<string, (typeof ALERT_RULE_SUBCATEGORIES)[number]>> = {
  App: 'Application',
  Cloud: 'Cloud Activity',
  K8sActivity: 'Kubernetes Activity',
  HostVulnerability: 'Host Vulnerability',
  ContainerVulnerability: 'Container Vulnerability',
};

/** A subcategory in the form the platform stores. */
export const currentSubcategory = (name: string): string => LEGACY_ALERT_RULE_SUBCATEGORIES[name] ?? name;
