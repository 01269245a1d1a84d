// Alert rule constants the resource definitions need at start-up, apart from the client's zod schemas
// (./alert-rules.ts), which load only once the provider is configured.

import type { ALERT_RULE_SUBCATEGORIES } from '../../wire/sec-contract/alert-rules.js';
import { ownEntry } from '@keel/provider-framework/client';

// The platform's lists, as its contract has them.
export {
  ALERT_RULE_CATEGORIES,
  ALERT_RULE_SOURCES,
  ALERT_RULE_SUBCATEGORIES,
} from '../../wire/sec-contract/alert-rules.js';

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

/** A subcategory in the form the platform stores (any name but an older one is its own, `constructor` too). */
export const currentSubcategory = (name: string): string => ownEntry(LEGACY_ALERT_RULE_SUBCATEGORIES, name) ?? name;
