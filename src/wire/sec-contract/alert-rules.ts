import { field, type ContractBodies } from './language.js';
import { RULE_SEVERITY, routingRuleBody } from './routing-rules.js';

/**
 * Where alerts come from (neutral names, docs/api/sec.md, "Alert rules"): the agent, the four
 * clouds, Kubernetes.
 */
export const ALERT_RULE_SOURCES = ['Agent', 'CloudA', 'CloudB', 'CloudC', 'CloudD', 'K8s'] as const;
/** What kind of alert. */
export const ALERT_RULE_CATEGORIES = ['Anomaly', 'Policy', 'Composite'] as const;
/** What the alert is about, as the platform names it since its event categories became subcategories. */
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

/** The request body of an alert rule. */
export const ALERT_RULE_BODIES: ContractBodies = {
  AlertRules: routingRuleBody('Event', {
    // A rule may have no channel yet (it then routes nothing).
    channels: field.array(field.string()),
    filters: {
      severity: field.array(RULE_SEVERITY, { minItems: 1 }),
      resourceGroups: field.array(field.string(), { optional: true }),
      subCategory: field.array(field.string({ oneOf: ALERT_RULE_SUBCATEGORIES }), { optional: true }),
      source: field.array(field.string({ oneOf: ALERT_RULE_SOURCES }), { optional: true }),
      category: field.array(field.string({ oneOf: ALERT_RULE_CATEGORIES }), { optional: true }),
    },
  }),
};
