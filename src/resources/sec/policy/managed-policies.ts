import {
  attr,
  attrStep,
  block,
  DiagnosticError,
  type ModelOf,
  type OpContext,
  resource,
  resourceSchema,
  t,
  type Validator,
} from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import { BUILT_IN_POLICY_PREFIX } from '../../../clients/sec/policy-values.js';
import type { Policy, PolicySettings } from '../../../clients/sec/policies.js';
import { severityAttribute } from './severity.js';
import { secItems } from '../rules.js';
import { checkManagedPolicyIds } from './catalogue.js';

const builtIn: Validator<string> = {
  description: `starts with \`${BUILT_IN_POLICY_PREFIX}\` (built-in policies only)`,
  check: (value) =>
    value.startsWith(BUILT_IN_POLICY_PREFIX)
      ? undefined
      : `must be the id of a built-in policy, which starts with "${BUILT_IN_POLICY_PREFIX}"; manage ` +
        `custom policies with sec_policy. Got ${JSON.stringify(value)}`,
};

const POLICY_PATH = [attrStep('policy')];

const schema = resourceSchema(
  {
    id: attr.sdkId('A timestamp taken when the resource was created; it has no meaning on the platform.'),
    policy: block.set(
      {
        id: attr.string({
          required: true,
          refersTo: 'a built-in policy',
          validate: [builtIn],
          description: 'The id of a built-in policy, defined by the platform (it starts with `platform-global`).',
        }),
        enabled: attr.bool({ required: true, description: 'Whether the policy is evaluated.' }),
        severity: severityAttribute(
          'The severity of what the policy reports: `Critical`, `High`, `Medium`, `Low` or `Info`, in any case.',
        ),
      },
      {
        ...secItems('Policies:bulk'),
        description: 'The settings of one built-in policy. Each policy may appear once.',
      },
    ),
    original_settings: attr.of(t.list(t.object({ id: t.string, enabled: t.bool, severity: t.string })))({
      computed: true,
      changesWith: ['policy'],
      description:
        'The settings each configured policy had before this resource first changed it. Removing a ' +
        'policy from `policy`, or destroying the resource, puts them back.',
    }),
  },
  {
    description:
      'Settings (enabled, severity) of built-in policies, changed in bulk. The policies themselves ' +
      'always exist: destroying the resource, or removing a policy from it, restores the settings the ' +
      'policies had before.',
  },
);
type Model = ModelOf<typeof schema.fields>;
type Original = { id: string; enabled: boolean; severity: string };

/** Go's default time format in UTC, as the reference provider's ids have it. */
function timestampId(): string {
  const iso = new Date().toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} +0000 UTC`;
}

async function currentPolicies(ctx: OpContext<SecClient>): Promise<Map<string, Policy>> {
  return new Map((await ctx.client.policies.list({ signal: ctx.signal })).map((p) => [p.policyId, p]));
}

function capture(ids: string[], current: Map<string, Policy>): Original[] {
  const missing = ids.filter((id) => !current.has(id));
  if (missing.length > 0) {
    throw new DiagnosticError(
      'Unknown built-in policy',
      `The platform has no policy ${missing.map((id) => `"${id}"`).join(', ')}.`,
      POLICY_PATH,
    );
  }
  return ids.map((id) => {
    const p = current.get(id)!;
    return { id, enabled: p.enabled, severity: p.severity };
  });
}

const settingsOf = (m: Model): PolicySettings[] =>
  m.policy.map((p) => ({ policyId: p.id, enabled: p.enabled, severity: p.severity }));
const restoring = (originals: Original[]): PolicySettings[] =>
  originals.map((o) => ({ policyId: o.id, enabled: o.enabled, severity: o.severity }));
const byId = (a: Original, b: Original) => a.id.localeCompare(b.id);
const originalsOf = (m: Model): Original[] =>
  (m.original_settings ?? []).map((o) => ({ id: o.id ?? '', enabled: o.enabled ?? false, severity: o.severity ?? '' }));

export default resource<typeof schema.fields, SecClient>({
  typeName: 'sec_managed_policies',
  schema,
  repeatableCreate:
    'It creates no object: it changes the settings of existing built-in policies, and setting them again ' +
    'changes nothing more.',
  // Nothing on the platform names this resource's settings: its identity is the id it took when created.
  identity: {
    attributes: {
      id: {
        description:
          'The timestamp the resource took as its id when it was created (it has no meaning on the platform).',
        forImport: 'required',
      },
    },
  },
  checkAgainstCatalogue: checkManagedPolicyIds,
  validate(config, diags) {
    const seen = new Set<string>();
    for (const p of config.policy ?? []) {
      if (p.id == null) continue;
      if (seen.has(p.id))
        diags.error(
          'Duplicate policy',
          `The policy "${p.id}" appears in more than one \`policy\` block; each policy may appear once.`,
          POLICY_PATH,
        );
      seen.add(p.id);
    }
  },
  async create(plan, ctx) {
    const originals = capture(
      plan.policy.map((p) => p.id),
      await currentPolicies(ctx),
    );
    await ctx.client.policies.bulkUpdate(settingsOf(plan), { signal: ctx.signal });
    return { id: timestampId(), original_settings: originals.sort(byId) };
  },
  async read(prior, ctx) {
    const current = await currentPolicies(ctx);
    return {
      // Built-in policies cannot be deleted; one that vanished shows as disabled without severity.
      policy: prior.policy.map((p) => {
        const now = current.get(p.id);
        return now
          ? { id: p.id, enabled: now.enabled, severity: now.severity }
          : { id: p.id, enabled: false, severity: '' };
      }),
    };
  },
  async update(plan, prior, ctx) {
    const wanted = new Set(plan.policy.map((p) => p.id));
    const before = originalsOf(prior);
    const known = new Set(before.map((o) => o.id));
    const kept = before.filter((o) => wanted.has(o.id));
    const released = before.filter((o) => !wanted.has(o.id));
    const current = await currentPolicies(ctx);
    const added = capture(
      plan.policy.map((p) => p.id).filter((id) => !known.has(id)),
      current,
    );
    // Policies no longer managed get their original settings back, in the same call.
    const restore = restoring(released.filter((o) => current.has(o.id)));
    await ctx.client.policies.bulkUpdate([...restore, ...settingsOf(plan)], { signal: ctx.signal });
    return { original_settings: [...kept, ...added].sort(byId) };
  },
  async delete(prior, ctx) {
    const current = await currentPolicies(ctx);
    // A policy the platform no longer has cannot be restored; the others still are.
    const restore = restoring(originalsOf(prior).filter((o) => current.has(o.id)));
    if (restore.length > 0) await ctx.client.policies.bulkUpdate(restore, { signal: ctx.signal });
  },
});
