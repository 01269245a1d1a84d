/** DatabaseApiKeyService v2 (cluster.auth.v2): database API keys of one cluster, with access rules. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import type { VdbCallOptions } from '../config.js';
import { type Answered, type Sent, VDB_ENUMS, type VdbEnum } from '../messages.js';
import { SharedListings } from '../shared-listing.js';

export const GLOBAL_ACCESS_TYPES = VDB_ENUMS['cluster.auth.v2.GlobalAccessRuleAccessType'];
export type GlobalAccessType = VdbEnum<'cluster.auth.v2.GlobalAccessRuleAccessType'>;
export const COLLECTION_ACCESS_TYPES = VDB_ENUMS['cluster.auth.v2.CollectionAccessRuleAccessType'];
export type CollectionAccessType = VdbEnum<'cluster.auth.v2.CollectionAccessRuleAccessType'>;

/** One global rule or one collection's: at most one of the two members is set. */
export type AccessRule = Answered<'cluster.auth.v2.AccessRule'>;

/**
 * A key as created: every field a client may set (`expiresAt` RFC 3339, absent: never expires; one global
 * rule, or collection rules), so a field the `.proto` gains is sent with no line here.
 */
export type DatabaseApiKeyInput = Omit<
  Sent<'cluster.auth.v2.DatabaseApiKey', 'accountId' | 'clusterId' | 'name' | 'accessRules'>,
  'id' | 'createdAt' | 'createdByEmail' | 'postfix' | 'key'
>;

/**
 * A key: `createdByEmail` is empty when a management key made it, `postfix` the secret's last
 * characters, `key` the secret, which only the create response carries ("" elsewhere).
 */
export type DatabaseApiKey = Answered<'cluster.auth.v2.DatabaseApiKey'>;

export type DatabaseApiKeysApi = ReturnType<typeof databaseApiKeysApi>;

export function databaseApiKeysApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.databaseApiKeyV2);
  const listings = new SharedListings<DatabaseApiKey>();
  const list = calls.unary<{ accountId: string; clusterId?: string | undefined }, DatabaseApiKey[]>({
    method: 'ListDatabaseApiKeys',
    safety: 'read',
    answer: many('items', ['id']),
  });
  return {
    list,

    /**
     * One key of a cluster, or undefined when it is gone. The platform only lists keys: reads waiting at
     * the same time share a listing begun after each of them began (../shared-listing.ts).
     */
    find: (
      { accountId, clusterId, id }: { accountId: string; clusterId: string; id: string },
      options?: VdbCallOptions,
    ): Promise<DatabaseApiKey | undefined> =>
      listings.find(`${accountId}/${clusterId}`, id, () => list({ accountId, clusterId }, options)),

    /** Retried only when declined (see Errors in ../api.ts). The answer carries the secret, shown only now. */
    create: calls.unary<DatabaseApiKeyInput, DatabaseApiKey>({
      method: 'CreateDatabaseApiKey',
      safety: 'once',
      request: (key) => ({ databaseApiKey: { ...key } }),
      answer: one('databaseApiKey', ['id', 'key']),
    }),

    delete: calls.unary<{ accountId: string; clusterId: string; databaseApiKeyId: string }, void>({
      method: 'DeleteDatabaseApiKey',
      safety: 'idempotent',
      answer: nothing,
    }),
  };
}
