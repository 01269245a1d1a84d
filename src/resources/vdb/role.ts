/**
 * `vdb_accounts_role` (docs/api/vdb.md, "Roles"): a custom IAM role of an account with its permissions.
 * Unlike the upstream provider, a resource-level `account_id` is honoured on create too
 * (docs/api/vdb.md, "Account ids on resources").
 */
import * as forms from '../../schema/forms.js';
import {
  attr,
  block,
  listedInOneCall,
  listResource,
  type ModelOf,
  resource,
  resourceSchema,
} from '@keel/provider-framework';
import type { Role } from '../../clients/vdb/api.js';
import {
  accountScopedIdentity,
  accountFilter,
  accountIdField,
  accountIdOf,
  deleteIgnoringNotFound,
  type VdbContext,
} from './common.js';
import { formatTimestamp, text } from './formats.js';
import { apiItems, apiRules } from './rules.js';
import { checkPermissions } from './catalogue.js';
import { madeAtFrom } from '../shared/made-at.js';
import { wireMessage } from './wired-fields.js';

const declared = {
  id: attr.computedId('The role id (a UUID).'),
  account_id: accountIdField(),
  name: attr.string({
    required: true,
    // One line of visible text (forms.name), which the platform does not require; its rules are the wiring's.
    validate: [forms.name(64)],
    description: 'Name of the role.',
  }),
  description: attr.string({
    optional: true,
    validate: apiRules('iam.v1.Role.description'),
    description: 'What the role is for.',
  }),
  role_type: attr.string({ computed: true, description: 'The role type; `ROLE_TYPE_CUSTOM` for roles managed here.' }),
  permissions: block.set(
    {
      value: attr.string({
        required: true,
        refersTo: "a permission of the platform's catalogue",
        // The API's rule, and the form of the catalogue's values, so that a typo is named at plan.
        validate: [
          ...apiRules('iam.v1.Permission.value'),
          text(1, 128, /^[a-z_]+:[a-z_]+$/, 'a permission such as `read:backups`'),
        ],
        description: 'The permission, e.g. `read:backups` or `write:clusters`.',
      }),
      category: attr.string({
        computed: true,
        description: 'The category the platform files the permission under, e.g. `Cluster` or `Account Management`.',
      }),
    },
    { ...apiItems('iam.v1.Role.permissions'), description: 'The permissions the role grants.' },
  ),
  created_at: attr.string({ computed: true, description: 'When the role was created (RFC 3339).' }),
  last_modified_at: attr.string({
    computed: true,
    volatile: true,
    description: 'When the role last changed (RFC 3339).',
  }),
  sub_type: attr.string({ computed: true, description: 'The system role sub-type, empty for custom roles.' }),
};

/**
 * The role's fields that are the API's as they are (./wired-fields.ts): checked, sent and read back from
 * their wiring alone, so a field the `.proto` gains needs its attribute and its entry here. The
 * description (an empty one kept as configured) and the permissions are mapped by hand.
 */
const wired = wireMessage('iam.v1.Role', declared, { name: 'name' });
const fields = wired.fields;

const schema = resourceSchema(fields, { description: 'A custom role of an account, granting a set of permissions.' });
type Model = ModelOf<typeof fields>;

/**
 * The role as the resource shows it. Permissions come in the order of `order` (the plan's) where
 * they match, so each planned element finds its own category in the result.
 */
/** What a read makes of the role the platform holds, against the state before it. */
function readFrom(r: Role, prior: Model): Partial<Model> {
  const result = fromApi(r, prior.permissions, prior);
  // An empty description and an unset one are the same to the platform: keep the configured form.
  if (result.description === null && prior.description === '') result.description = '';
  return result;
}

function fromApi(r: Role, order: readonly { value: string }[] = [], prior?: Model): Partial<Model> {
  const rank = (v: string) => {
    const i = order.findIndex((p) => p.value === v);
    return i < 0 ? order.length : i;
  };
  const permissions = [...r.permissions]
    .sort((a, b) => rank(a.value) - rank(b.value))
    .map((p) => ({ value: p.value, category: p.category ?? '' }));
  return {
    ...wired.read(r, prior),
    id: r.id,
    account_id: r.accountId,
    description: r.description === '' ? null : r.description,
    role_type: r.roleType,
    permissions,
    created_at: formatTimestamp(r.createdAt),
    last_modified_at: formatTimestamp(r.lastModifiedAt),
    sub_type: r.subType && !r.subType.endsWith('_UNSPECIFIED') ? r.subType : '',
  };
}

const toApi = (m: Model, accountId: string) => ({
  ...(wired.send(m) as { name: string }),
  accountId,
  ...(m.description ? { description: m.description } : {}),
  permissions: m.permissions.map((p) => p.value),
});

const roleFilters = resourceSchema(
  { account_id: accountFilter('custom roles') },
  { description: 'Lists the custom roles of an account (system roles belong to the platform).' },
);

export const role = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_role',
  schema,
  checkAgainstCatalogue: checkPermissions,
  importIdDescription: 'the role id',
  importState: async (id) => ({ id }),
  identity: accountScopedIdentity({ id: 'The role id.' }),
  // System roles belong to the platform: only custom roles are this resource's.
  list: listResource<typeof fields, typeof roleFilters.fields, VdbContext>({
    schema: roleFilters,
    async list(f, ctx) {
      const roles = await ctx.client.api.iam.listRoles(
        { accountId: accountIdOf(f.account_id, ctx) },
        { signal: ctx.signal },
      );
      return roles.filter((r) => r.roleType === 'ROLE_TYPE_CUSTOM').map((r) => fromApi(r));
    },
    displayName: (m) => m.name,
  }),
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    return fromApi(
      await ctx.client.api.iam.createRole(toApi(plan, accountId), { signal: ctx.signal }),
      plan.permissions,
      plan,
    );
  },
  // A custom role is known by its name.
  findCreated: {
    key: 'its name',
    uniqueKey: false,
    describe: (plan) => `the custom role named ${JSON.stringify(plan.name)}`,
    list: async (plan, ctx) =>
      (await ctx.client.api.iam.listRoles({ accountId: accountIdOf(plan.account_id, ctx) }, { signal: ctx.signal }))
        .filter((r) => r.roleType === 'ROLE_TYPE_CUSTOM')
        .map((r) => fromApi(r, plan.permissions, plan)),
    scope: (plan) => plan.account_id ?? '',
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.id ?? '',
    madeAt: madeAtFrom('created_at'),
  },
  async read(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    return readFrom(await ctx.client.api.iam.getRole({ accountId, roleId: prior.id! }, { signal: ctx.signal }), prior);
  },
  // The account's roles come in one answer (ListRoles has no pages).
  readsByListing: {
    scope: (prior, ctx) => accountIdOf(prior.account_id, ctx),
    pages: listedInOneCall((ctx, prior: Model) =>
      ctx.client.api.iam.listRoles({ accountId: accountIdOf(prior.account_id, ctx) }, { signal: ctx.signal }),
    ),
    idOf: (role) => role.id,
    read: (role, prior) => readFrom(role, prior),
  },
  async update(plan, prior, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    return fromApi(
      await ctx.client.api.iam.updateRole({ ...toApi(plan, accountId), id: prior.id! }, { signal: ctx.signal }),
      plan.permissions,
      plan,
    );
  },
  async delete(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    await deleteIgnoringNotFound(() =>
      ctx.client.api.iam.deleteRole({ accountId, roleId: prior.id! }, { signal: ctx.signal }),
    );
  },
});
