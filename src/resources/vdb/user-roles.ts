/**
 * `vdb_accounts_user_roles` (vdb.md §2.8, §3.8): roles assigned to one member of an account. It is
 * not authoritative: it adds the roles it names and removes only those it added, never roles
 * assigned elsewhere. Reads show which of its roles the user still has (drift shows as a change;
 * the later upstream fix). There is no import.
 */
import { attr, resourceSchema, validators, type ModelOf } from '../../schema/define.js';
import { resource, type OpContext } from '../../engine/contracts.js';
import { DiagnosticError } from '../../engine/diagnostics.js';
import { attrStep } from '../../schema/path.js';
import { accountIdField, accountIdOf, isNotFound, type VdbContext } from './common.js';
import { uuid } from './formats.js';

const fields = {
  id: attr.string({ computed: true, changesWith: ['user_email'], description: '`<account_id>/<user_id>`.' }),
  account_id: accountIdField(),
  user_email: attr.string({
    required: true,
    validate: [validators.matches(/^[^@\s]+@[^@\s]+$/, 'an e-mail address')],
    description: 'The e-mail address of the account member (exact, case-sensitive match).',
  }),
  role_ids: attr.stringSet({
    required: true,
    validate: [validators.each(uuid)],
    description: 'The roles this resource assigns to the user. Roles the user has from elsewhere are left alone.',
  }),
  keep_on_destroy: attr.bool({ optional: true, default: false, description: 'Whether destroying the resource leaves the roles assigned.' }),
  user_id: attr.string({ computed: true, changesWith: ['user_email'], description: 'The id of the user.' }),
};

const schema = resourceSchema(fields, { description: 'Assigns roles to a member of an account, without touching roles assigned elsewhere.' });
type Model = ModelOf<typeof fields>;

/** The member with this exact e-mail address; null when there is none. */
async function findUserId(accountId: string, email: string, ctx: OpContext<VdbContext>): Promise<string | null> {
  const members = await ctx.client.api.accounts.listAccountMembers({ accountId }, { signal: ctx.signal });
  const matches = members.filter((m) => m.user.email === email);
  if (matches.length > 1) {
    throw new DiagnosticError('Ambiguous user', `${matches.length} members of account ${accountId} have the e-mail address ${JSON.stringify(email)}.`, [attrStep('user_email')]);
  }
  return matches[0]?.user.id ?? null;
}

async function requireUserId(accountId: string, email: string, ctx: OpContext<VdbContext>): Promise<string> {
  const id = await findUserId(accountId, email, ctx);
  if (id === null) throw new DiagnosticError('User not found', `No member of account ${accountId} has the e-mail address ${JSON.stringify(email)}.`, [attrStep('user_email')]);
  return id;
}

async function currentRoles(accountId: string, userId: string, ctx: OpContext<VdbContext>): Promise<Set<string>> {
  return new Set((await ctx.client.api.iam.listUserRoles({ accountId, userId }, { signal: ctx.signal })).map((r) => r.id));
}

async function assign(accountId: string, userId: string, add: string[], remove: string[], ctx: OpContext<VdbContext>): Promise<void> {
  if (add.length === 0 && remove.length === 0) return;
  await ctx.client.api.iam.assignUserRoles({ accountId, userId, roleIdsToAdd: add, roleIdsToDelete: remove }, { signal: ctx.signal });
}

const stateOf = (accountId: string, userId: string, roleIds: string[]): Partial<Model> => ({ id: `${accountId}/${userId}`, account_id: accountId, user_id: userId, role_ids: roleIds });

export const userRoles = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_user_roles',
  schema,
  repeatableCreate: 'It creates no object: it assigns roles to an existing member, and assigning them again changes nothing more.',
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const userId = await requireUserId(accountId, plan.user_email, ctx);
    const current = await currentRoles(accountId, userId, ctx);
    await assign(accountId, userId, plan.role_ids.filter((r) => !current.has(r)), [], ctx);
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
    return stateOf(accountId, userId, prior.role_ids.filter((r) => current.has(r)));
  },
  async update(plan, prior, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const userId = plan.user_email === prior.user_email && prior.user_id ? prior.user_id : await requireUserId(accountId, plan.user_email, ctx);
    const current = await currentRoles(accountId, userId, ctx);
    const wanted = new Set(plan.role_ids);
    const add = plan.role_ids.filter((r) => !current.has(r));
    // Only roles this resource managed before and no longer wants; a different user keeps what it has.
    const remove = userId === prior.user_id ? prior.role_ids.filter((r) => !wanted.has(r) && current.has(r)) : [];
    await assign(accountId, userId, add, remove, ctx);
    if (userId !== prior.user_id && prior.user_id && !prior.keep_on_destroy) {
      // The resource moved to another user: take its roles back from the previous one.
      const previous = await currentRoles(accountId, prior.user_id, ctx).catch((err: unknown) => (isNotFound(err) ? new Set<string>() : Promise.reject(err)));
      await assign(accountId, prior.user_id, [], prior.role_ids.filter((r) => previous.has(r)), ctx);
    }
    return stateOf(accountId, userId, plan.role_ids);
  },
  async delete(prior, ctx) {
    if (prior.keep_on_destroy) return;
    const accountId = accountIdOf(prior.account_id, ctx);
    const userId = prior.user_id ?? (await findUserId(accountId, prior.user_email, ctx));
    if (!userId) return;
    let current: Set<string>;
    try {
      current = await currentRoles(accountId, userId, ctx);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    await assign(accountId, userId, [], prior.role_ids.filter((r) => current.has(r)), ctx);
  },
});
