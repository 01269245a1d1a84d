import type { ResourceDef } from '@keel/provider-framework';
import type { SecClient } from '../../../../clients/sec/index.js';
import cloudACfg from './cloud-a-cfg.js';
import cloudACt from './cloud-a-ct.js';
import cloudAEksAuditLog from './cloud-a-eks-audit-log.js';
import cloudAGovCfg from './cloud-a-gov-cfg.js';
import cloudAGovCt from './cloud-a-gov-ct.js';
import cloudAAgentlessScanning from './cloud-a-agentless-scanning.js';
import cloudAOrgAgentlessScanning from './cloud-a-org-agentless-scanning.js';
import cloudADspm from './cloud-a-dspm.js';
import cloudBCfg from './cloud-b-cfg.js';
import cloudBAt from './cloud-b-at.js';
import cloudBPubSubAuditLog from './cloud-b-pub-sub-audit-log.js';
import cloudBGkeAuditLog from './cloud-b-gke-audit-log.js';
import cloudBAgentlessScanning from './cloud-b-agentless-scanning.js';
import cloudCCfg from './cloud-c-cfg.js';
import cloudCAl from './cloud-c-al.js';
import cloudCAdAl from './cloud-c-ad-al.js';
import cloudCAgentlessScanning from './cloud-c-agentless-scanning.js';
import cloudCDspm from './cloud-c-dspm.js';
import cloudDCfg from './cloud-d-cfg.js';

/** Every cloud-account integration resource (docs/api/sec.md, "Cloud account types", in its order). */
export const cloudAccountResources: ResourceDef<any, SecClient>[] = [
  cloudACfg,
  cloudACt,
  cloudAEksAuditLog,
  cloudAGovCfg,
  cloudAGovCt,
  cloudAAgentlessScanning,
  cloudAOrgAgentlessScanning,
  cloudADspm,
  cloudBCfg,
  cloudBAt,
  cloudBPubSubAuditLog,
  cloudBGkeAuditLog,
  cloudBAgentlessScanning,
  cloudCCfg,
  cloudCAl,
  cloudCAdAl,
  cloudCAgentlessScanning,
  cloudCDspm,
  cloudDCfg,
];
