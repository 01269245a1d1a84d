import { field, type ContractBodies } from './language.js';

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

/** A rule's severities: 1 = Critical … 5 = Info (alert and report rules alike). */
export const RULE_SEVERITY = field.integer({ min: 1, max: 5 });

/** The request body of an alert rule, a create or a whole replacement alike. */
export const ALERT_RULE_BODIES: ContractBodies = {
  AlertRules: field.object({
    mcGuid: field.string({ optional: true }),
    type: field.string({ oneOf: ['Event'] }),
    // A rule may have no channel yet (it then routes nothing).
    intgGuidList: field.array(field.string()),
    filters: field.object({
      name: field.string(),
      description: field.string({ optional: true, allowEmpty: true }),
      enabled: field.flag(),
      severity: field.array(RULE_SEVERITY, { minItems: 1 }),
      resourceGroups: field.array(field.string(), { optional: true }),
      subCategory: field.array(field.string({ oneOf: ALERT_RULE_SUBCATEGORIES }), { optional: true }),
      source: field.array(field.string({ oneOf: ALERT_RULE_SOURCES }), { optional: true }),
      category: field.array(field.string({ oneOf: ALERT_RULE_CATEGORIES }), { optional: true }),
      // Read-only fields a client may send back; ignored.
      createdOrUpdatedTime: field.string({ optional: true, allowEmpty: true }),
      createdOrUpdatedBy: field.string({ optional: true, allowEmpty: true }),
    }),
  }),
};
