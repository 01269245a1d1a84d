/**
 * `vdb_accounts_user_roles` (docs/api/vdb.md, "Assigning roles to members"): roles assigned to one
 * member of an account. It is not authoritative: it assigns the roles it names that the member
 * lacks, and takes back only the roles it granted itself, recorded in its private state. A role the
 * member already had when the resource assigned it (from the console, an invitation, another
 * resource) is never revoked by it.
 *
 * What cannot be made exact: two resources naming one role for one member. Neither sees the other
 * (Terraform shows a provider one resource at a time, and the platform keeps no record of who
 * assigned a role), so the role belongs to the resource that assigned it; when that one goes, the
 * role goes, and the other resource's next plan shows it missing and assigns it again (then it is
 * the one that granted it). Within one run, assignments to the same member are serialised so that
 * exactly one resource grants a role both name.
 *
 * Reads show which of its roles the user still has (drift shows as a change; the later upstream
 * fix). There is no import.
 */
import {
  attr,
  attrStep,
  DiagnosticError,
  type ModelOf,
  type OpContext,
  resource,
  resourceSchema,
  validators,
} from '@keel/provider-framework';
import { accountIdentityAttribute, accountIdField, accountIdOf, isNotFound, type VdbContext } from './common.js';
import { sharedApiRules } from './rules.js';
import { heldInCode, combinations } from './rules-held.js';

const ASSIGN = 'iam.v1.AssignUserRolesRequest';

const fields = {
  id: attr.string({ computed: true, changesWith: ['user_email'], description: '`<account_id>/<user_id>`.' }),
  account_id: accountIdField(),
  user_email: attr.string({
    required: true,
    refersTo: 'a member of the account',
    // The member is what the resource's assignments belong to, and its identity: another member is another object.
    replace: true,
    validate: [validators.matches(/^[^@\s]+@[^@\s]+$/, 'an e-mail address')],
    description:
      'The e-mail address of the account member (exact, case-sensitive match). The assignments belong to the member, ' +
      'so a change takes back what this resource granted the old one and assigns the roles to the new one.',
  }),
  role_ids: attr.stringSet({
    required: true,
    refersTo: 'roles',
    // Sent as the roles to add and to take back: both have the API's rules (at most 100 UUIDs).
    validate: sharedApiRules<string[]>([`${ASSIGN}.role_ids_to_add`, `${ASSIGN}.role_ids_to_delete`]),
    description:
      'The roles this resource assigns to the user. Those the user lacks are granted; removing one from the set, or ' +
      'destroying the resource, revokes it only if this resource granted it.',
  }),
  keep_on_destroy: attr.bool({
    optional: true,
    default: false,
    providerOnly: true,
    description: 'Whether destroying the resource leaves the roles it granted assigned.',
  }),
  user_id: attr.string({ computed: true, changesWith: ['user_email'], description: 'The id of the user.' }),
};

const schema = resourceSchema(fields, {
  description:
    'Assigns roles to a member of an account. The resource takes back only the roles it granted: ' +
    'on destroy, or when a role leaves `role_ids`, it revokes a role only if the member did not have it ' +
    'when the resource assigned it, so roles given in the console, by an invitation or by ' +
    'another `vdb_accounts_user_roles` stay. Two resources naming the same role for one member are best avoided: ' +
    'the role belongs to the resource that assigned it first; destroying the other leaves it, ' +
    'destroying that one revokes it, and the other assigns it again at its next apply.',
});
type Model = ModelOf<typeof fields>;

/** The member with this exact e-mail address; null when there is none. */
async function findUserId(accountId: string, email: string, ctx: OpContext<VdbContext>): Promise<string | null> {
  const members = await ctx.client.api.accounts.listAccountMembers({ accountId }, { signal: ctx.signal });
  const matches = members.filter((m) => m.user.email === email);
  if (matches.length > 1) {
    throw new DiagnosticError(
      'Ambiguous user',
      `${matches.length} members of account ${accountId} have the e-mail address ${JSON.stringify(email)}.`,
      [attrStep('user_email')],
    );
  }
  return matches[0]?.user.id ?? null;
}

async function requireUserId(accountId: string, email: string, ctx: OpContext<VdbContext>): Promise<string> {
  const id = await findUserId(accountId, email, ctx);
  if (id === null)
    throw new DiagnosticError(
      'User not found',
      `No member of account ${accountId} has the e-mail address ${JSON.stringify(email)}.`,
      [attrStep('user_email')],
    );
  return id;
}

async function currentRoles(accountId: string, userId: string, ctx: OpContext<VdbContext>): Promise<Set<string>> {
  return new Set(
    (await ctx.client.api.iam.listUserRoles({ accountId, userId }, { signal: ctx.signal })).map((r) => r.id),
  );
}

/** The request that adds `add` and takes back `remove`; none when both are empty (assign.not_empty). */
function assignment(accountId: string, userId: string, add: string[], remove: string[]) {
  if (add.length === 0 && remove.length === 0) return undefined;
  return { accountId, userId, roleIdsToAdd: add, roleIdsToDelete: remove };
}

heldInCode({
  message: 'iam.v1.AssignUserRolesRequest',
  rules: ['assign.not_empty'],
  where: 'user-roles.ts: an assignment with no role to add or take back is not sent',
  samples: () => {
    const role = '5f0c2a51-7c1e-4a8e-b1d5-0d3c9a7e6b21';
    return combinations({ add: [[], [role]], remove: [[], [role]] });
  },
  sent: ({ add, remove }) =>
    assignment('7d9e1f3a-2b4c-4d5e-8f60-718293a4b5c6', '3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', add, remove),
});

async function assign(
  accountId: string,
  userId: string,
  add: string[],
  remove: string[],
  ctx: OpContext<VdbContext>,
): Promise<void> {
  const request = assignment(accountId, userId, add, remove);
  if (request) await ctx.client.api.iam.assignUserRoles(request, { signal: ctx.signal });
}

const stateOf = (accountId: string, userId: string, roleIds: string[]): Partial<Model> => ({
  id: `${accountId}/${userId}`,
  account_id: accountId,
  user_id: userId,
  role_ids: roleIds,
});

/** Private-state key: the role ids this resource granted (the member lacked them when it assigned them). */
const GRANTED = 'granted_role_ids';

/**
 * The roles this resource granted. State written before the record existed has none; the resource
 * then took back all its roles, so it keeps doing that for them.
 */
function grantedBy(prior: Model, ctx: OpContext<VdbContext>): Set<string> {
  const recorded = ctx.private[GRANTED];
  return new Set(Array.isArray(recorded) ? recorded.filter((r): r is string => typeof r === 'string') : prior.role_ids);
}

function recordGranted(ctx: OpContext<VdbContext>, granted: Iterable<string>): void {
  ctx.private[GRANTED] = [...new Set(granted)].sort();
}

/**
 * Runs the look-at-then-assign steps for one member one at a time in this provider process:
 * Terraform applies independent resources in parallel, and two of them naming one role must not
 * both see it missing and both count it as theirs.
 */
const memberQueues = new Map<string, Promise<unknown>>();

async function forMember<T>(accountId: string, userId: string, step: () => Promise<T>): Promise<T> {
  const key = `${accountId}/${userId}`;
  const run = (memberQueues.get(key) ?? Promise.resolve()).then(step);
  const settled = run.catch(() => undefined);
  memberQueues.set(key, settled);
  try {
    return await run;
  } finally {
    if (memberQueues.get(key) === settled) memberQueues.delete(key);
  }
}

/** Takes back from `userId` the granted roles it still has; NotFound (the member left) takes nothing. */
async function revokeGranted(
  accountId: string,
  userId: string,
  granted: Set<string>,
  ctx: OpContext<VdbContext>,
): Promise<void> {
  await forMember(accountId, userId, async () => {
    let current: Set<string>;
    try {
      current = await currentRoles(accountId, userId, ctx);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    await assign(
      accountId,
      userId,
      [],
      [...granted].filter((r) => current.has(r)),
      ctx,
    );
  });
}

export const userRoles = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_user_roles',
  schema,
  repeatableCreate:
    'It creates no object: it assigns roles to an existing member, and assigning them again changes nothing more.',
  // The platform has no object for the assignments: they are named by the member they belong to.
  identity: {
    attributes: {
      account_id: accountIdentityAttribute(
        "The account of the member. The provider's `account_id` when the resource sets none.",
      ),
      user_email: { description: 'The e-mail address of the member the roles are assigned to.', forImport: 'required' },
    },
  },
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const userId = await requireUserId(accountId, plan.user_email, ctx);
    const granted = await forMember(accountId, userId, async () => {
      const current = await currentRoles(accountId, userId, ctx);
      const add = plan.role_ids.filter((r) => !current.has(r));
      await assign(accountId, userId, add, [], ctx);
      return add;
    });
    recordGranted(ctx, granted);
    return stateOf(accountId, userId, plan.role_ids);
  },
  async read(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    const userId = await findUserId(accountId, prior.user_email, ctx);
    // A member who left the account takes the assignments along.
    if (userId === null) return null;
    let current: Set<string>;
    try {
      current = await currentRoles(accountId, userId, ctx);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    // A granted role someone else took away is no longer this resource's: if it comes back from
    // elsewhere, this resource must not take it back.
    if (Array.isArray(ctx.private[GRANTED]))
      recordGranted(
        ctx,
        [...grantedBy(prior, ctx)].filter((r) => current.has(r)),
      );
    return stateOf(
      accountId,
      userId,
      prior.role_ids.filter((r) => current.has(r)),
    );
  },
  async update(plan, prior, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const userId =
      plan.user_email === prior.user_email && prior.user_id
        ? prior.user_id
        : await requireUserId(accountId, plan.user_email, ctx);
    const wanted = new Set(plan.role_ids);
    const granted = grantedBy(prior, ctx);
    if (userId !== prior.user_id && prior.user_id) {
      // The resource moved to another user: take back from the previous one what it granted there.
      if (!prior.keep_on_destroy) await revokeGranted(accountId, prior.user_id, granted, ctx);
      granted.clear();
    }
    await forMember(accountId, userId, async () => {
      const current = await currentRoles(accountId, userId, ctx);
      const add = plan.role_ids.filter((r) => !current.has(r));
      // Only roles this resource granted and no longer wants; the member keeps what came from elsewhere.
      const remove = [...granted].filter((r) => !wanted.has(r) && current.has(r));
      await assign(accountId, userId, add, remove, ctx);
      recordGranted(
        ctx,
        [...granted, ...add].filter((r) => wanted.has(r)),
      );
    });
    return stateOf(accountId, userId, plan.role_ids);
  },
  async delete(prior, ctx) {
    if (prior.keep_on_destroy) return;
    const accountId = accountIdOf(prior.account_id, ctx);
    const userId = prior.user_id ?? (await findUserId(accountId, prior.user_email, ctx));
    if (!userId) return;
    await revokeGranted(accountId, userId, grantedBy(prior, ctx), ctx);
  },
});
