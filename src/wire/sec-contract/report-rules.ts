import { field, type ContractBodies } from './language.js';
import { RULE_SEVERITY, routingRuleBody } from './routing-rules.js';

/**
 * Every notification flag a report rule carries, in the neutral wire format
 * (docs/api/sec.md, "Report notification keys"). The platform keeps all of them on every rule.
 */
export const REPORT_NOTIFICATION_KEYS = [
  // Cloud A compliance reports.
  'pci',
  'cloudACisS3',
  'soc',
  'cloudASocRev2',
  'hipaa',
  'iso2700',
  'nist800-171Rev2',
  'nist800-53Rev4',
  // Cloud B compliance reports.
  'cloudBPci',
  'cloudBPciRev2',
  'cloudBCis',
  'cloudBCis12',
  'cloudBSoc',
  'cloudBSocRev2',
  'cloudBHipaa',
  'cloudBHipaaRev2',
  'cloudBIso27001',
  'cloudBK8s',
  // Cloud C compliance reports.
  'cloudCPci',
  'cloudCCis',
  'cloudCSoc',
  'cloudCCis131',
  // Daily reports.
  'cloudATrailEvents',
  'cloudAComplianceEvents',
  'cloudCActivityLogEvents',
  'cloudCComplianceEvents',
  'cloudBAuditTrailEvents',
  'cloudBComplianceEvents',
  'clusterDistroCompliance',
  'clusterDistroComplianceEvents',
  'platformEvents',
  'agentEvents',
  // Weekly trend report.
  'trendReport',
] as const;

/** The request body of a report rule. */
export const REPORT_RULE_BODIES: ContractBodies = {
  ReportRules: routingRuleBody('Report', {
    channels: field.array(field.string(), { minItems: 1 }),
    filters: {
      severity: field.array(RULE_SEVERITY, { minItems: 1 }),
      resourceGroups: field.array(field.string(), { optional: true }),
    },
    fields: {
      // The platform keeps the complete set, so every flag must be given.
      reportNotificationTypes: field.object(
        Object.fromEntries(REPORT_NOTIFICATION_KEYS.map((key) => [key, field.boolean()])),
      ),
    },
  }),
};
