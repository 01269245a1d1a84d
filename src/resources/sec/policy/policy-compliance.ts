/**
 * Compliance policies: a query the platform assesses daily for its compliance reports, beside the
 * violation policies of `sec_policy`. Same API (Policies, type `Compliance`), fewer settings: no
 * evaluation frequency, result limit or alert profile; alerting is on or off.
 */
import { attr, DiagnosticError, type ModelOf, resource, resourceSchema, validators } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import { BUILT_IN_POLICY_PREFIX } from '../../../clients/sec/policy-values.js';
import type { Policy, PolicyUpdate } from '../../../clients/sec/policies.js';
import { severityAttribute } from './severity.js';
import { idIdentity } from '../../shared/identity.js';
import { secRules } from '../rules.js';
import { wireFields } from '../wired-fields.js';
import { importedSuffix, policyIdSuffix } from './policy.js';

const COMPLIANCE = 'Compliance';
/** What the platform keeps for settings a compliance policy does not have. */
const LIMIT = 1000;
const EVALUATION = 'Daily';

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
        "The id of the query the policy assesses: the `id` of a `sec_query`, or of one of the platform's " +
        'queries (ids starting `SEC_Global_`). The platform refuses a query that does not exist.',
    }),
    description: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'What the policy assesses.',
    }),
    remediation: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'How to fix what the policy finds.',
    }),
    severity: severityAttribute(
      'The severity of what the policy finds: `Critical`, `High`, `Medium`, `Low` or `Info`, in any ' +
        'case. The platform stores it lower-case; a difference in case alone is no change.',
    ),
    policy_id_suffix: attr.string({
      optional: true,
      replace: true,
      validate: [policyIdSuffix(['tfcompliance', 'tfcompliance-12', ''])],
      description:
        'Appended to the tenant name to form the policy id (`abcd-1234` gives `<tenant>-abcd-1234`); the ' +
        'platform numbers the policy when it is not set or `""`. The id of a policy cannot change, so ' +
        'a change creates a new policy.',
    }),
    enabled: attr.bool({
      optional: true,
      default: true,
      description: 'Whether the policy is assessed. Default `true`.',
    }),
    tags: attr.stringSet({
      optional: true,
      validate: [validators.each(validators.nonEmpty())],
      description: 'User tags of the policy.',
    }),
    alerting_enabled: attr.bool({
      optional: true,
      default: true,
      description: 'Whether the policy raises alerts. Default `true`.',
    }),
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
    'A compliance policy: a query the platform assesses daily for its compliance reports. Violation ' +
    'policies are `sec_policy`.',
});
type Model = ModelOf<typeof schema.fields>;

const toApi = (m: Model): PolicyUpdate => ({
  policyType: COMPLIANCE,
  queryId: m.query_id,
  title: m.title,
  enabled: m.enabled !== false,
  description: m.description,
  remediation: m.remediation,
  severity: m.severity,
  limit: LIMIT,
  evalFrequency: EVALUATION,
  alertEnabled: m.alerting_enabled !== false,
  alertProfile: '',
  tags: m.tags ?? [],
  declared: wired.declared(m),
});

function fromApi(p: Policy, like: Model | null): Partial<Model> {
  if (p.policyType !== COMPLIANCE) {
    throw new DiagnosticError(
      'Not a compliance policy',
      `The policy ${p.policyId} is a ${p.policyType} policy; manage it with sec_policy (or ` +
        `sec_managed_policies for a built-in one).`,
    );
  }
  return {
    id: p.policyId,
    title: p.title,
    query_id: p.queryId,
    description: p.description,
    remediation: p.remediation,
    severity: p.severity,
    enabled: p.enabled,
    tags: p.tags.length === 0 && (like?.tags ?? null) === null ? null : [...p.tags],
    alerting_enabled: p.alertEnabled,
    owner: p.owner,
    updated_time: p.lastUpdateTime,
    updated_by: p.lastUpdateUser,
    computed_tags: p.tags.join(','),
    ...(wired.read(p) as Partial<Model>),
  };
}

const custom = (policies: Policy[]) =>
  policies.filter((p) => !p.policyId.startsWith(BUILT_IN_POLICY_PREFIX) && p.policyType === COMPLIANCE);

export default resource<typeof schema.fields, SecClient>({
  typeName: 'sec_policy_compliance',
  schema,
  importIdDescription: 'the policy id',
  importState: async (id) => ({ id }),
  identity: idIdentity('The policy id.'),
  list: {
    schema: resourceSchema(
      {},
      {
        description:
          'Lists the custom compliance policies (built-in ones are for `sec_managed_policies`); the API ' +
          'offers no filter.',
      },
    ),
    async list(_filters, ctx) {
      const out: Partial<Model>[] = [];
      for (const p of custom(await ctx.client.policies.list({ signal: ctx.signal })))
        out.push({ ...fromApi(p, null), policy_id_suffix: await importedSuffix(p.policyId, ctx) });
      return out;
    },
    displayName: (m) => m.title,
  },
  async create(plan, ctx) {
    return fromApi(
      await ctx.client.policies.create(
        { policyIdSuffix: plan.policy_id_suffix ?? undefined, ...toApi(plan) },
        { signal: ctx.signal },
      ),
      plan,
    );
  },
  findCreated: {
    key: 'its id suffix when it has one, otherwise its title and query',
    describe: (plan) =>
      plan.policy_id_suffix
        ? `the compliance policy whose id ends in -${plan.policy_id_suffix}`
        : `the compliance policy titled ${JSON.stringify(plan.title)} on query ${JSON.stringify(plan.query_id)}`,
    // The id is unique among all policies, of any type.
    uniqueKey: (plan) => plan.policy_id_suffix !== null,
    // A policy of another type holds an id, nothing else this resource could take for its own.
    list: async (plan, ctx) =>
      (await ctx.client.policies.list({ signal: ctx.signal }))
        .filter((p) => !p.policyId.startsWith(BUILT_IN_POLICY_PREFIX))
        .map((p) => (p.policyType === COMPLIANCE ? fromApi(p, plan) : { id: p.policyId })),
    holdsKey: (plan, found) =>
      plan.policy_id_suffix !== null
        ? (found.id ?? '').endsWith(`-${plan.policy_id_suffix}`)
        : found.title === plan.title && found.query_id === plan.query_id,
    importId: (found) => found.id ?? '',
  },
  async read(prior, ctx) {
    const fresh = fromApi(await ctx.client.policies.get(prior.id ?? '', { signal: ctx.signal }), prior);
    // Only an imported state lacks the update time; the suffix is then recovered from the id.
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
