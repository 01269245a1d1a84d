import { attr, dataSource, resourceSchema, t } from '@keel/provider-framework';
import type { SecClient } from '../../clients/sec/index.js';

const account = t.object({
  account_name: t.string,
  admin: t.bool,
  cust_guid: t.string,
  user_enabled: t.bool,
  user_guid: t.string,
});

const schema = resourceSchema(
  {
    id: attr.computedId('The user name of the profile.'),
    username: attr.string({ computed: true, description: 'The user name (e-mail) of the API key owner.' }),
    org_account: attr.bool({ computed: true, description: 'Whether the account is an organization account.' }),
    org_admin: attr.bool({ computed: true, description: 'Whether the user administers the organization.' }),
    org_user: attr.bool({ computed: true, description: 'Whether the user is an organization user.' }),
    url: attr.string({ computed: true, description: 'The account URL.' }),
    accounts: attr.of(t.set(account))({ computed: true, description: 'The accounts the user can access.' }),
  },
  { description: 'The profile of the user that owns the API key the provider uses.' },
);

export default dataSource<typeof schema.fields, SecClient>({
  typeName: 'sec_user_profile',
  schema,
  async read(_config, ctx) {
    const profiles = await ctx.client.userProfile.get({ signal: ctx.signal });
    // The platform may list several profiles; the last one describes the current key
    // (docs/api/sec.md, "User profile").
    const p = profiles[profiles.length - 1];
    if (!p) throw new Error('the platform returned no user profile');
    return {
      id: p.username,
      username: p.username,
      org_account: p.orgAccount,
      org_admin: p.orgAdmin,
      org_user: p.orgUser,
      url: p.url,
      accounts: p.accounts.map((a) => ({
        account_name: a.accountName,
        admin: a.admin,
        cust_guid: a.custGuid,
        user_enabled: a.userEnabled,
        user_guid: a.userGuid,
      })),
    };
  },
});
