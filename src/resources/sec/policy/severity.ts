/**
 * The policy severity as users write it: `Critical`, `High`, `Medium`, `Low` or `Info` in any case.
 * The platform stores it lower-case; Terraform keeps the configured form and compares ignoring case
 * (docs/api/sec.md, "Values the platform normalises"), so `High` in the configuration and `high` on
 * the platform are no difference.
 */
import { attr, type Validator } from '@keel/provider-framework';
import { POLICY_SEVERITIES } from '../../../clients/sec/policy-values.js';
import { checkedBy } from '../rules.js';

// The contract says the severity rule across a body's fields (any case); the attribute below checks it.
for (const body of ['Policies', 'Policies:update', 'Policies:bulk[]'])
  checkedBy(body, 'check', {
    inCode: 'severityValidator, the severity of sec_policy, sec_policy_compliance and sec_managed_policies',
  });

const SHOWN = ['Critical', 'High', 'Medium', 'Low', 'Info'];

const normal = (value: string) => value.trim().toLowerCase();

export const severityValidator: Validator<string> = {
  description: `one of ${SHOWN.map((s) => `\`${s}\``).join(', ')} (any case)`,
  // The platform stores it lower-case: an upper-case spelling must stay as configured.
  samples: [...SHOWN, 'HIGH'],
  written: (value) => SHOWN.find((s) => s.toLowerCase() === normal(value)),
  check: (value) =>
    (POLICY_SEVERITIES as readonly string[]).includes(normal(value))
      ? undefined
      : `must be one of ${SHOWN.map((s) => JSON.stringify(s)).join(', ')} (any case), got ${JSON.stringify(value)}`,
};

export const sameSeverity = (a: string, b: string): boolean => normal(a) === normal(b);

export function severityAttribute(description: string) {
  return attr.string({ required: true, validate: [severityValidator], equal: sameSeverity, description });
}
