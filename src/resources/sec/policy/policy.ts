import { checkPolicyReferences } from './catalogue.js';
import {
  attr,
  block,
  DiagnosticError,
  isApiError,
  type ModelOf,
  type OpContext,
  resource,
  resourceSchema,
  validators,
} from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import { BUILT_IN_POLICY_PREFIX } from '../../../clients/sec/policy-values.js';
import { POLICY_ID_SUFFIX } from '../../../wire/sec-contract/policies.js';
import { checkedBy, secRules } from '../rules.js';
import { wireFields } from '../wired-fields.js';
import type { Policy, PolicyUpdate } from '../../../clients/sec/policies.js';
import { severityAttribute } from './severity.js';
import { idIdentity } from '../../shared/identity.js';

/** The platform's rule for a policy id's suffix (the contract's pattern). */
export const SUFFIX = new RegExp(POLICY_ID_SUFFIX.pattern!, 'u');
/** A suffix, or "" for none: the platform is sent no suffix either way, and numbers the policy. */
export const SUFFIX_OR_NONE = new RegExp(`^$|${SUFFIX.source}`, 'u');
/** What a suffix must be, in the contract's words. */
export const SUFFIX_RULE = POLICY_ID_SUFFIX.patternRule!;

/** The check of `policy_id_suffix`: the contract's pattern, or `""` for none; `samples` it takes. */
export const policyIdSuffix = (samples: readonly string[]) =>
  validators.matches(SUFFIX_OR_NONE, `${SUFFIX_RULE}, e.g. \`abcd-1234\`; or \`""\` for none`, samples);
// "" is the provider's "none", which the contract's pattern alone would refuse: the attributes check
// the pattern with SUFFIX_OR_NONE.
const SUFFIX_CHECKS = [policyIdSuffix(['tfsample', 'tfsample-1234', ''])];
checkedBy('Policies.policyId', 'pattern', {
  checks: SUFFIX_CHECKS,
  sent: (suffix) => (suffix === '' ? undefined : suffix),
});
// An update sends the same attributes as a create.
checkedBy('Policies:update.limit', 'range', { sameAs: 'Policies.limit' });
checkedBy('Policies:update.evalFrequency', 'oneOf', { sameAs: 'Policies.evalFrequency' });
checkedBy('Policies:update.alertProfile', 'pattern', { sameAs: 'Policies.alertProfile' });

/**
 * Attributes that are one field of the body as it is, by the field's path (../wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped below.
 */
const wired = wireFields(
  'Policies',
  {
    id: attr.computedId('The policy id: `<tenant>-<policy_id_suffix>`, or `<tenant>-<number>` when no suffix is set.'),
    title: attr.string({
      required: true,
      validate: [validators.nonEmpty(), ...secRules('Policies.title', { name: true })],
      description: 'The title of the policy.',
    }),
    query_id: attr.string({
      required: true,
      refersTo: 'a query',
      validate: [validators.nonEmpty()],
      description:
        'The id of the query the policy evaluates: the `id` of a `sec_query`, or of one of the ' +
        "platform's queries (ids starting `SEC_Global_`). The platform refuses a query that does not " +
        'exist.',
    }),
    description: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'What the policy detects.',
    }),
    remediation: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'How to fix what the policy detects.',
    }),
    severity: severityAttribute(
      'The severity of what the policy reports: `Critical`, `High`, `Medium`, `Low` or `Info`, in any ' +
        'case. The platform stores it lower-case; a difference in case alone is no change.',
    ),
    type: attr.string({
      required: true,
      validate: [validators.oneOf('Violation')],
      description: 'The policy type; must be `Violation`.',
    }),
    evaluation: attr.string({
      optional: true,
      default: 'Hourly',
      validate: secRules('Policies.evalFrequency'),
      description: 'How often the query is evaluated (default `Hourly`).',
    }),
    policy_id_suffix: attr.string({
      optional: true,
      replace: true,
      validate: SUFFIX_CHECKS,
      description:
        'Appended to the tenant name to form the policy id (`abcd-1234` gives `<tenant>-abcd-1234`); the ' +
        'platform numbers the policy when it is not set or `""`. The id of a policy cannot change, so ' +
        'a change creates a new policy.',
    }),
    limit: attr.number({
      optional: true,
      default: 1000,
      validate: secRules<number>('Policies.limit'),
      description: 'The most results the policy reports per evaluation (default 1000).',
    }),
    enabled: attr.bool({ optional: true, default: true, description: 'Whether the policy is evaluated.' }),
    tags: attr.stringSet({
      optional: true,
      validate: [validators.each(validators.nonEmpty())],
      description: 'User tags of the policy.',
    }),
    alerting: block.one(
      {
        enabled: attr.bool({ optional: true, default: true, description: 'Whether the policy raises alerts.' }),
        profile: attr.string({
          refersTo: 'a template of an alert profile',
          required: true,
          validate: secRules('Policies.alertProfile', {
            samples: ['SEC_CloudATrail_Alerts', 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation'],
          }),
          description:
            'The alert profile that shapes the alerts, with one of its templates as ' +
            '`<profile>.<template>` (e.g. `SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation`), or ' +
            'alone as `<profile>` (e.g. `SEC_CloudATrail_Alerts`). The platform accepts both; a bare ' +
            "profile alerts with the profile's default alert template, so the profile must have " +
            'templates (every built-in one but the base profile has).',
        }),
      },
      { description: 'How the policy raises alerts. Without it the policy raises none.' },
    ),
    owner: attr.string({ computed: true, description: 'The user who owns the policy.' }),
    updated_time: attr.string({ computed: true, volatile: true, description: 'When the policy was last changed.' }),
    updated_by: attr.string({ computed: true, volatile: true, description: 'Who last changed the policy.' }),
    computed_tags: attr.string({
      computed: true,
      changesWith: ['tags'],
      description: 'All tags of the policy, joined with `,`.',
    }),
  },
  {},
  { update: 'Policies:update' },
);

const schema = resourceSchema(wired.fields, {
  description:
    'A custom policy: a query the platform evaluates on a schedule, and how its results are reported and alerted on.',
});
type Model = ModelOf<typeof schema.fields>;

const toApi = (m: Model): PolicyUpdate => {
  const alerting = m.alerting[0];
  return {
    policyType: m.type,
    queryId: m.query_id,
    title: m.title,
    enabled: m.enabled !== false,
    description: m.description,
    remediation: m.remediation,
    severity: m.severity,
    limit: m.limit ?? 1000,
    evalFrequency: m.evaluation ?? 'Hourly',
    // No alerting block: no alerts, and no profile ("" clears one set before).
    alertEnabled: alerting ? alerting.enabled !== false : false,
    alertProfile: alerting?.profile ?? '',
    tags: m.tags ?? [],
    declared: wired.declared(m),
  };
};

/** `like` is the plan or prior state: an unset tag list stays unset when the platform reports none. */
const fromApi = (p: Policy, like: Model | null): Partial<Model> => ({
  id: p.policyId,
  title: p.title,
  query_id: p.queryId,
  description: p.description,
  remediation: p.remediation,
  severity: p.severity,
  type: p.policyType,
  evaluation: p.evalFrequency,
  limit: p.limit,
  enabled: p.enabled,
  tags: p.tags.length === 0 && (like?.tags ?? null) === null ? null : [...p.tags],
  alerting: p.alertProfile ? [{ enabled: p.alertEnabled, profile: p.alertProfile }] : [],
  owner: p.owner,
  updated_time: p.lastUpdateTime,
  updated_by: p.lastUpdateUser,
  computed_tags: p.tags.join(','),
  ...(wired.read(p) as Partial<Model>),
});

/**
 * The suffix of an imported policy's id. The id is `<tenant>-<suffix>` or `<tenant>-<number>`;
 * the tenant is the account, which the user profile names.
 */
export async function importedSuffix(policyId: string, ctx: OpContext<SecClient>): Promise<string | null> {
  let tenants: string[];
  try {
    const profiles = await ctx.client.userProfile.get({ signal: ctx.signal });
    tenants = profiles
      .flatMap((p) => [p.url.split('.')[0] ?? '', ...p.accounts.map((a) => a.accountName)])
      .map((t) => t.toLowerCase());
  } catch (err) {
    if (isApiError(err, 'cancelled')) throw err;
    ctx.diags.warning(
      'Cannot determine policy_id_suffix',
      `The account name could not be read from the user profile, so policy_id_suffix of the imported ` +
        `policy ${policyId} is left unset: ${err instanceof Error ? err.message : String(err)}`,
    );
    return null;
  }
  // The longest matching tenant wins: a tenant may itself contain "-".
  for (const tenant of [...new Set(tenants)].filter(Boolean).sort((a, b) => b.length - a.length)) {
    if (!policyId.startsWith(`${tenant}-`)) continue;
    const rest = policyId.slice(tenant.length + 1);
    return SUFFIX.test(rest) ? rest : null;
  }
  return null;
}

export default resource<typeof schema.fields, SecClient>({
  typeName: 'sec_policy',
  schema,
  checkAgainstCatalogue: checkPolicyReferences,
  importIdDescription: 'the policy id',
  importState: async (id) => ({ id }),
  identity: idIdentity('The policy id.'),
  // Built-in policies are changed with sec_managed_policies, not managed as sec_policy: not listed.
  list: {
    schema: resourceSchema(
      {},
      {
        description:
          `Lists the custom policies (built-in ones, whose ids start ` +
          `\`${BUILT_IN_POLICY_PREFIX}\`, are for \`sec_managed_policies\`; compliance policies for ` +
          `\`sec_policy_compliance\`); the API offers no filter.`,
      },
    ),
    async list(_filters, ctx) {
      // Compliance policies are for sec_policy_compliance.
      const custom = (await ctx.client.policies.list({ signal: ctx.signal })).filter(
        (p) => !p.policyId.startsWith(BUILT_IN_POLICY_PREFIX) && p.policyType === 'Violation',
      );
      const out: Partial<Model>[] = [];
      // As a read after an import does, the suffix is recovered from the id.
      for (const p of custom)
        out.push({ ...fromApi(p, null), policy_id_suffix: await importedSuffix(p.policyId, ctx) });
      return out;
    },
    displayName: (m) => m.title,
  },
  async create(plan, ctx) {
    const created = await ctx.client.policies.create(
      { policyIdSuffix: plan.policy_id_suffix ?? undefined, ...toApi(plan) },
      { signal: ctx.signal },
    );
    return fromApi(created, plan);
  },
  // A custom policy is known by its id suffix when it has one, otherwise by its title and query.
  findCreated: {
    key: 'its id suffix when it has one, otherwise its title, query and type',
    describe: (plan) =>
      plan.policy_id_suffix
        ? `the custom policy whose id ends in -${plan.policy_id_suffix}`
        : `the custom ${plan.type} policy titled ${JSON.stringify(plan.title)} on query ` +
          `${JSON.stringify(plan.query_id)}`,
    // The id is unique among all policies, of any type.
    uniqueKey: (plan) => plan.policy_id_suffix !== null,
    list: async (plan, ctx) =>
      (await ctx.client.policies.list({ signal: ctx.signal }))
        .filter((p) => !p.policyId.startsWith(BUILT_IN_POLICY_PREFIX))
        .map((p) => fromApi(p, plan)),
    holdsKey: (plan, found) =>
      plan.policy_id_suffix !== null
        ? (found.id ?? '').endsWith(`-${plan.policy_id_suffix}`)
        : found.title === plan.title && found.query_id === plan.query_id && found.type === plan.type,
    importId: (found) => found.id ?? '',
  },
  async read(prior, ctx) {
    const policy = await ctx.client.policies.get(prior.id ?? '', { signal: ctx.signal });
    // A policy's type never changes: another type can only come from an import of the wrong id.
    if (policy.policyType !== 'Violation') {
      throw new DiagnosticError(
        'Not a violation policy',
        `The policy ${policy.policyId} is a ${policy.policyType} policy; manage ` +
          (policy.policyType === 'Compliance'
            ? 'it with sec_policy_compliance (or sec_managed_policies for a built-in one)'
            : 'a built-in one with sec_managed_policies') +
          '.',
      );
    }
    const fresh = fromApi(policy, prior);
    // Only an imported state lacks the update time; the suffix is then recovered from the id
    // (otherwise it is create-only and stays as configured).
    if (prior.updated_time === null && prior.policy_id_suffix === null)
      return { ...fresh, policy_id_suffix: await importedSuffix(fresh.id!, ctx) };
    return fresh;
  },
  async update(plan, prior, ctx) {
    return fromApi(await ctx.client.policies.update(prior.id ?? '', toApi(plan), { signal: ctx.signal }), plan);
  },
  async delete(prior, ctx) {
    await ctx.client.policies.delete(prior.id ?? '', { signal: ctx.signal });
  },
});
