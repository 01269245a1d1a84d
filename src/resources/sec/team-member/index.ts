import {
  attr,
  type AttributePath,
  attrStep,
  type ConfigModelOf,
  DiagnosticError,
  type Diagnostics,
  indexStep,
  isApiError,
  listResource,
  type OpContext,
  resource,
  type ResourceDef,
  resourceSchema,
  validators,
} from '@keel/provider-framework';
import { idIdentity } from '../../shared/identity.js';
import type { SecClient } from '../../../clients/sec/index.js';
import type { OrgTeamMemberInput, TeamMember, TeamMemberInput } from '../../../clients/sec/team-members.js';
import { listOrNull } from '../governance-values.js';
import { schema, type Model, type OrganizationModel, wired } from './schema.js';
import { madeAtFrom } from '../../shared/made-at.js';

const ORG: AttributePath = [attrStep('organization'), indexStep(0)];
const inOrg = (name: string): AttributePath => [...ORG, attrStep(name)];
const accountNames = (names: string[] | null) => [...new Set((names ?? []).map((n) => n.trim().toUpperCase()))];

/**
 * The role rules that need more than one attribute (docs/api/sec.md, "Team member roles"); what is
 * not known yet is not judged.
 */
function roleProblems(m: ConfigModelOf<typeof schema.fields>, diags: Diagnostics): void {
  const org = m.organization?.[0];
  if (!org) return;
  if (m.administrator === true) {
    diags.error(
      'Conflicting roles',
      '`administrator` is an account-level role; for an organization-level member use ' +
        '`organization { administrator = true }`.',
      [attrStep('administrator')],
    );
  }
  if (org.administrator === true && org.user === true)
    diags.error(
      'Conflicting roles',
      'A member is either an organization administrator or an organization user, not both.',
      inOrg('user'),
    );
  for (const list of ['admin_accounts', 'user_accounts'] as const) {
    if ((org[list] ?? []).length === 0) continue;
    if (org.administrator === true || org.user === true) {
      diags.error(
        'Conflicting roles',
        `\`${list}\` grants per-account roles and cannot be combined with organization-wide ` +
          `\`administrator\` or \`user\`.`,
        inOrg(list),
      );
    }
  }
  const admins = new Set(accountNames(org.admin_accounts ?? null));
  const both = accountNames(org.user_accounts ?? null).filter((a) => admins.has(a));
  if (both.length > 0)
    diags.error(
      'Conflicting roles',
      `The account(s) ${both.join(', ')} are in both \`admin_accounts\` and \`user_accounts\`.`,
      inOrg('user_accounts'),
    );
  const roles = [org.administrator, org.user, org.admin_accounts, org.user_accounts];
  const noRole =
    roles.every((r) => r !== undefined) &&
    org.administrator !== true &&
    org.user !== true &&
    (org.admin_accounts ?? []).length + (org.user_accounts ?? []).length === 0;
  if (noRole)
    diags.error(
      'Organization member without a role',
      'Set `administrator` or `user` to true, or list accounts in `admin_accounts` or `user_accounts`.',
      ORG,
    );
}

function toApi(m: Model): TeamMemberInput | OrgTeamMemberInput {
  const props = { firstName: m.first_name, lastName: m.last_name, company: m.company };
  const common = { userName: m.email.trim(), userEnabled: m.enabled !== false, declared: wired.declared(m) };
  const org = m.organization[0];
  if (!org) return { ...common, props: { ...props, accountAdmin: m.administrator === true } };
  const adminRoleAccounts = accountNames(org.admin_accounts);
  const userRoleAccounts = accountNames(org.user_accounts);
  return {
    ...common,
    orgAdmin: org.administrator === true,
    orgUser: org.user === true,
    adminRoleAccounts,
    userRoleAccounts,
    props,
  };
}

function fromApi(t: TeamMember, prior: Partial<Model>): Partial<Model> {
  const common: Partial<Model> = {
    id: t.userGuid,
    guid: t.userGuid,
    email: t.userName,
    first_name: t.props.firstName,
    last_name: t.props.lastName,
    company: t.props.company,
    enabled: t.userEnabled,
    created_time: t.props.createdTime,
    updated_time: t.props.updatedTime,
    updated_by: t.props.updatedBy,
    ...(wired.read(t) as Partial<Model>),
  };
  if (!t.organization) return { ...common, administrator: t.props.accountAdmin, organization: [] };
  const o = t.organization;
  // Organization-wide roles cover every account; otherwise each row is one per-account role.
  const perAccount = !o.orgAdmin && !o.orgUser;
  const rows = (admin: boolean) =>
    perAccount ? o.accounts.filter((a) => a.admin === admin).map((a) => a.accountName) : [];
  const before: Partial<OrganizationModel> = prior.organization?.[0] ?? {};
  const organization: OrganizationModel = {
    administrator: o.orgAdmin,
    user: o.orgUser,
    admin_accounts: listOrNull(rows(true), before.admin_accounts),
    user_accounts: listOrNull(rows(false), before.user_accounts),
  };
  return { ...common, administrator: false, organization: [organization] };
}

const MODE_MISMATCH = 'Team member does not match the provider mode';

/** Why a member with (or without) an `organization` block does not fit the provider's mode. */
const modeHint = (organizationBlock: boolean) =>
  organizationBlock
    ? 'An `organization` block makes an organization-level member, which needs `organization = true` in ' +
      'the provider configuration.'
    : 'With `organization = true` in the provider configuration, team members are organization-level: ' +
      'add an `organization` block.';

/** Points a platform refusal caused by the provider's organization setting at the `organization` block. */
async function explainingMode<T>(m: Model, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isApiError(err, 'invalid') || !/organization access|organization-level|account-level/i.test(err.message))
      throw err;
    throw new DiagnosticError(
      MODE_MISMATCH,
      `${modeHint(m.organization.length > 0)} The platform said: ${err.message}`,
      [attrStep('organization')],
    );
  }
}

const guidOf = (m: Model) => m.guid ?? m.id ?? '';

/** By user GUID or by e-mail address; null, or ApiError 'not_found', when there is no such member. */
async function importMember(id: string, ctx: OpContext<SecClient>): Promise<Partial<Model> | null> {
  const opts = { signal: ctx.signal };
  if (id.includes('@')) {
    const [found] = await ctx.client.teamMembers.search(id.trim(), opts);
    return found ? { id: found.userGuid, guid: found.userGuid } : null;
  }
  // Looked up here rather than left to the read, so that the engine's message says a member can
  // also be imported by e-mail address.
  await ctx.client.teamMembers.get(id, opts);
  return { id, guid: id };
}

/** The API searches members by user name, the e-mail address. */
const filters = resourceSchema(
  {
    email: attr.string({
      optional: true,
      validate: [validators.nonEmpty()],
      description: 'Only the member with this e-mail address (the API searches by it).',
    }),
  },
  { description: 'Lists the team members, or the one with a given e-mail address.' },
);

const teamMember = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_team_member',
  schema,
  importIdDescription: 'the user GUID, or the e-mail address',
  importState: importMember,
  identity: idIdentity('The user GUID of the member.'),
  list: listResource<typeof schema.fields, typeof filters.fields, SecClient>({
    schema: filters,
    async list(f, ctx) {
      const opts = { signal: ctx.signal };
      const members =
        f.email !== null
          ? await ctx.client.teamMembers.search(f.email.trim(), opts)
          : await ctx.client.teamMembers.list(opts);
      return members.map((m) => fromApi(m, {}));
    },
    displayName: (m) => m.email,
  }),
  validate: roleProblems,
  // The provider's mode decides which kind of member a configuration can make: judged at plan time.
  validateWithProvider(config, client, diags) {
    if (config.organization === undefined || config.organization.length > 0 === client.organization) return;
    diags.error(MODE_MISMATCH, modeHint(config.organization.length > 0), [attrStep('organization')]);
  },
  create: async (plan, ctx) =>
    fromApi(await explainingMode(plan, () => ctx.client.teamMembers.create(toApi(plan), { signal: ctx.signal })), plan),
  // A member is known by the e-mail address (the user name), which is unique in the account.
  findCreated: {
    key: 'its e-mail address',
    uniqueKey: true,
    describe: (plan) => `the team member ${plan.email.trim()}`,
    // One listing of the account's members serves every create.
    list: async (plan, ctx) => (await ctx.client.teamMembers.list({ signal: ctx.signal })).map((m) => fromApi(m, plan)),
    holdsKey: (plan, found) => found.email?.trim().toLowerCase() === plan.email.trim().toLowerCase(),
    importId: (found) => guidOf(found as Model),
    madeAt: madeAtFrom('created_time'),
  },
  read: async (prior, ctx) => fromApi(await ctx.client.teamMembers.get(guidOf(prior), { signal: ctx.signal }), prior),
  update: async (plan, prior, ctx) =>
    fromApi(
      await explainingMode(plan, () =>
        ctx.client.teamMembers.update(guidOf(prior), toApi(plan), { signal: ctx.signal }),
      ),
      plan,
    ),
  delete: async (prior, ctx) => ctx.client.teamMembers.delete(guidOf(prior), { signal: ctx.signal }),
});

export const teamMemberResources: ResourceDef<any, SecClient>[] = [teamMember];
