/** DatabaseApiKeyService v2 (cluster.auth.v2): database API keys of one cluster, with access rules. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import type { VdbCallOptions } from '../config.js';
import { SharedListings } from '../shared-listing.js';

export const GLOBAL_ACCESS_TYPES = [
  'GLOBAL_ACCESS_RULE_ACCESS_TYPE_UNSPECIFIED',
  'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY',
  'GLOBAL_ACCESS_RULE_ACCESS_TYPE_MANAGE',
] as const;
export type GlobalAccessType = (typeof GLOBAL_ACCESS_TYPES)[number];

export const COLLECTION_ACCESS_TYPES = [
  'COLLECTION_ACCESS_RULE_ACCESS_TYPE_UNSPECIFIED',
  'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY',
  'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE',
] as const;
export type CollectionAccessType = (typeof COLLECTION_ACCESS_TYPES)[number];

/** Exactly one of the two members is set. */
export type AccessRule =
  | { readonly globalAccess: { readonly accessType: GlobalAccessType }; readonly collectionAccess?: undefined }
  | {
      readonly collectionAccess: { readonly collectionName: string; readonly accessType: CollectionAccessType };
      readonly globalAccess?: undefined;
    };

export interface DatabaseApiKeyInput {
  readonly accountId: string;
  readonly clusterId: string;
  readonly name: string;
  /** RFC 3339; absent = never expires. */
  readonly expiresAt?: string | undefined;
  /** One global rule, or up to 20 collection rules. */
  readonly accessRules: readonly AccessRule[];
}

export interface DatabaseApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt?: string | undefined;
  readonly clusterId: string;
  readonly name: string;
  readonly expiresAt?: string | undefined;
  readonly accessRules: readonly AccessRule[];
  /** Empty when created by a management key. */
  readonly createdByEmail: string;
  /** The last characters of the secret. */
  readonly postfix: string;
  /** The secret: only the create response carries it; "" elsewhere. */
  readonly key: string;
}

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
      request: (key) => ({
        databaseApiKey: {
          accountId: key.accountId,
          clusterId: key.clusterId,
          name: key.name,
          expiresAt: key.expiresAt,
          accessRules: key.accessRules,
        },
      }),
      answer: one('databaseApiKey', ['id', 'key']),
    }),

    delete: calls.unary<{ accountId: string; clusterId: string; databaseApiKeyId: string }, void>({
      method: 'DeleteDatabaseApiKey',
      safety: 'idempotent',
      answer: nothing,
    }),
  };
}
