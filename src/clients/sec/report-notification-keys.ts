// Report flags the resource definitions need at start-up, apart from the client's zod schemas
// (./report-rules.ts), which load only once the provider is configured.

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
export type ReportNotificationKey = (typeof REPORT_NOTIFICATION_KEYS)[number];
export type ReportNotifications = Record<ReportNotificationKey, boolean>;
