/**
 * The report notification blocks of a report rule: each flag and the API key it is sent as
 * (docs/api/sec.md, "Report notification keys"). Upstream sends several daily flags to the wrong keys;
 * this table is the intended wiring, one flag to one key.
 */
import { attr, type AttrDef, block, type BlockDef } from '@keel/provider-framework';
import type { ReportNotificationKey } from '../../../clients/sec/report-rules.js';

interface Flag {
  readonly key: ReportNotificationKey;
  readonly description: string;
}

const CLOUD_A = {
  pci: { key: 'pci', description: 'Cloud A PCI DSS report.' },
  cis_s3: { key: 'cloudACisS3', description: 'Cloud A CIS benchmark and object-store report.' },
  soc: { key: 'soc', description: 'Cloud A SOC 2 report.' },
  soc_rev2: { key: 'cloudASocRev2', description: 'Cloud A SOC 2 report, revision 2.' },
  hipaa: { key: 'hipaa', description: 'Cloud A HIPAA report.' },
  iso_2700: { key: 'iso2700', description: 'Cloud A ISO 27001 report.' },
  nist_800_171_rev2: { key: 'nist800-171Rev2', description: 'Cloud A NIST 800-171 revision 2 report.' },
  nist_800_53_rev4: { key: 'nist800-53Rev4', description: 'Cloud A NIST 800-53 revision 4 report.' },
} as const satisfies Record<string, Flag>;

const CLOUD_B = {
  pci: { key: 'cloudBPci', description: 'Cloud B PCI DSS report.' },
  pci_rev2: { key: 'cloudBPciRev2', description: 'Cloud B PCI DSS report, revision 2.' },
  cis: { key: 'cloudBCis', description: 'Cloud B CIS benchmark report.' },
  cis_12: { key: 'cloudBCis12', description: 'Cloud B CIS benchmark 1.2 report.' },
  soc: { key: 'cloudBSoc', description: 'Cloud B SOC 2 report.' },
  soc_rev2: { key: 'cloudBSocRev2', description: 'Cloud B SOC 2 report, revision 2.' },
  hipaa: { key: 'cloudBHipaa', description: 'Cloud B HIPAA report.' },
  hipaa_rev2: { key: 'cloudBHipaaRev2', description: 'Cloud B HIPAA report, revision 2.' },
  iso_27001: { key: 'cloudBIso27001', description: 'Cloud B ISO 27001 report.' },
  k8s: { key: 'cloudBK8s', description: 'Cloud B Kubernetes benchmark report.' },
} as const satisfies Record<string, Flag>;

const CLOUD_C = {
  pci: { key: 'cloudCPci', description: 'Cloud C PCI DSS report.' },
  cis: { key: 'cloudCCis', description: 'Cloud C CIS benchmark report.' },
  soc: { key: 'cloudCSoc', description: 'Cloud C SOC 2 report.' },
  cis_131: { key: 'cloudCCis131', description: 'Cloud C CIS benchmark 1.3.1 report.' },
} as const satisfies Record<string, Flag>;

const DAILY = {
  cloud_a_trail: { key: 'cloudATrailEvents', description: 'Daily report of Cloud A audit-trail events.' },
  cloud_a_compliance: { key: 'cloudAComplianceEvents', description: 'Daily report of Cloud A compliance events.' },
  cloud_c_activity_log: { key: 'cloudCActivityLogEvents', description: 'Daily report of Cloud C activity-log events.' },
  cloud_c_compliance: { key: 'cloudCComplianceEvents', description: 'Daily report of Cloud C compliance events.' },
  cloud_b_audit_trail: { key: 'cloudBAuditTrailEvents', description: 'Daily report of Cloud B audit-trail events.' },
  cloud_b_compliance: { key: 'cloudBComplianceEvents', description: 'Daily report of Cloud B compliance events.' },
  cluster_distro_compliance: {
    key: 'clusterDistroCompliance',
    description: 'Daily cluster-distribution compliance report.',
  },
  cluster_distro_compliance_events: {
    key: 'clusterDistroComplianceEvents',
    description: 'Daily report of cluster-distribution compliance events.',
  },
  platform: { key: 'platformEvents', description: 'Daily report of platform events.' },
  host_security: { key: 'agentEvents', description: 'Daily report of host security (agent) events.' },
} as const satisfies Record<string, Flag>;

type FlagFields<T> = { [K in keyof T]: AttrDef<boolean, false> };

function reportBlock<T extends Record<string, Flag>>(flags: T, description: string): BlockDef<FlagFields<T>> {
  const fields = Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [
      name,
      attr.bool({ optional: true, default: false, description: `${flag.description} Default \`false\`.` }),
    ]),
  ) as FlagFields<T>;
  // A block with every report off is no block to the platform, which keeps only the flags.
  return block.one(fields, { description, emptyMeansAbsent: true });
}

/** The four optional blocks, by attribute name, with the flag → API key table of each. */
export const REPORT_BLOCKS = {
  cloud_a_compliance_reports: { flags: CLOUD_A, def: reportBlock(CLOUD_A, 'Cloud A compliance reports to send.') },
  cloud_b_compliance_reports: { flags: CLOUD_B, def: reportBlock(CLOUD_B, 'Cloud B compliance reports to send.') },
  cloud_c_compliance_reports: { flags: CLOUD_C, def: reportBlock(CLOUD_C, 'Cloud C compliance reports to send.') },
  daily_compliance_reports: { flags: DAILY, def: reportBlock(DAILY, 'Daily event and compliance reports to send.') },
} as const;

export type ReportBlockName = keyof typeof REPORT_BLOCKS;
export const REPORT_BLOCK_NAMES = Object.keys(REPORT_BLOCKS) as ReportBlockName[];

/** The flags of one block as [attribute, API key] pairs. */
export function flagKeys(name: ReportBlockName): [string, ReportNotificationKey][] {
  return Object.entries(REPORT_BLOCKS[name].flags as Record<string, Flag>).map(([field, flag]) => [field, flag.key]);
}
