import { field, invalid, quote, type ContractBodies } from './language.js';

/** The platform's severities of a policy, in the lower-case form it stores (it takes any case). */
export const POLICY_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
/** How often a policy's query is evaluated. */
export const EVALUATION_FREQUENCIES = ['Hourly', 'Daily'] as const;
/** Custom policies report violations; compliance policies feed the compliance reports. */
export const POLICY_TYPES = ['Violation', 'Compliance'] as const;

/** The suffix a create may give the policy id (`<tenant>-<suffix>`). */
export const POLICY_ID_SUFFIX = field.string({
  optional: true,
  pattern: '^[a-z][a-z0-9]{0,15}(-[0-9]{1,8})?$',
  patternRule:
    'lower-case letters and digits starting with a letter (at most 16), optionally followed by "-" and up to 8 digits',
});

/** Fields a create must carry, and the shape of every field an update may carry. */
const policyFields = {
  policyType: field.string({ oneOf: POLICY_TYPES }),
  queryId: field.string(),
  title: field.string(),
  enabled: field.boolean(),
  description: field.string(),
  remediation: field.string(),
  severity: field.string(),
  limit: field.integer({ optional: true, min: 1, max: 5000 }),
  evalFrequency: field.string({ optional: true, oneOf: EVALUATION_FREQUENCIES }),
  alertEnabled: field.boolean({ optional: true }),
  // "" for none; profile names hold no dot, so the first dot ends the profile's name.
  alertProfile: field.string({
    optional: true,
    allowEmpty: true,
    pattern: '^[^.]+(\\..+)?$',
    patternRule: 'an alert profile, alone or with one of its templates: `<profile>` or `<profile>.<template>`',
  }),
  tags: field.array(field.string(), { optional: true }),
};

const SEVERITY_RULE = `severity is one of ${POLICY_SEVERITIES.join(', ')}, in any case`;

function checkSeverity(value: Record<string, unknown>, path: string): void {
  const severity = value.severity;
  if (typeof severity !== 'string') return;
  if (!(POLICY_SEVERITIES as readonly string[]).includes(severity.trim().toLowerCase())) {
    throw invalid(
      `${path}.severity must be one of ${POLICY_SEVERITIES.join(', ')} (any case) (got ${quote(severity)})`,
    );
  }
}

/**
 * The request bodies of policies: a create, an update (any field may be left out; the id and type
 * cannot change), and the bulk change of several policies' `enabled` and `severity`.
 */
export const POLICY_BODIES: ContractBodies = {
  Policies: field.object(
    { policyId: POLICY_ID_SUFFIX, ...policyFields },
    { check: checkSeverity, checkRule: SEVERITY_RULE },
  ),
  'Policies:update': field.object(
    {
      // The whole id here (an update names the policy it changes); it must be the policy's own.
      policyId: field.string({ optional: true }),
      ...Object.fromEntries(Object.entries(policyFields).map(([k, s]) => [k, { ...s, optional: true }])),
    },
    { check: checkSeverity, checkRule: SEVERITY_RULE },
  ),
  'Policies:bulk': field.array(
    field.object(
      {
        policyId: field.string(),
        enabled: field.boolean({ optional: true }),
        severity: field.string({ optional: true }),
      },
      { check: checkSeverity, checkRule: SEVERITY_RULE },
    ),
    { minItems: 1 },
  ),
};
