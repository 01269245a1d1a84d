import type { ResourceDef } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import alertProfile from './alert-profile.js';
import managedPolicies from './managed-policies.js';
import policy from './policy.js';
import policyException from './policy-exception.js';
import policyCompliance from './policy-compliance.js';

/**
 * Alert profiles, custom (violation and compliance) policies, their exceptions, and the settings of
 * built-in policies.
 */
export const policyResources: ResourceDef<any, SecClient>[] = [
  alertProfile,
  policy,
  policyCompliance,
  policyException,
  managedPolicies,
];
