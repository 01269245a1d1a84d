/**
 * How the vdb platform lists the objects arguments name (`refersTo`), in the account the object
 * belongs to, so the plan checks that each known id names one it holds (engine/catalogue/reference-checks.ts).
 * Hybrid environments and regions are checked with the cluster's placement (catalogue.ts).
 */
import type { ReferenceKinds } from '@keel/provider-framework';
import type { VdbContext } from './common.js';

/** The object's account: its own `account_id`, else the provider's; undefined while unknown. */
const account = (config: Readonly<Record<string, unknown>>, client: VdbContext): string | undefined => {
  const own = config.account_id;
  if (own === undefined) return undefined;
  return typeof own === 'string' && own !== '' ? own : (client.defaultAccountId ?? undefined);
};

const clusters = {
  what: 'clusters',
  scope: account,
  scopeLabel: 'account',
  list: async (client: VdbContext, accountId: string, signal: AbortSignal) =>
    (await client.api.clusters.list({ accountId }, { signal })).map((c) => c.id),
};

export const VDB_REFERENCES: ReferenceKinds<VdbContext> = {
  'a cluster': clusters,
  clusters,
  roles: {
    what: 'roles',
    scope: account,
    scopeLabel: 'account',
    list: async (client, accountId, signal) =>
      (await client.api.iam.listRoles({ accountId }, { signal })).map((r) => r.id),
  },
  'a member of the account': {
    what: 'members (by e-mail address)',
    scope: account,
    scopeLabel: 'account',
    list: async (client, accountId, signal) =>
      (await client.api.accounts.listAccountMembers({ accountId }, { signal })).map((m) => m.user.email),
  },
};
