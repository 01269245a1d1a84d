/** DatabaseApiKeyService v1 (cluster.auth.v1, deprecated): the legacy database API keys of an account. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import type { VdbCallOptions } from '../config.js';
import type { Answered, Sent } from '../messages.js';
import { SharedListings } from '../shared-listing.js';

/**
 * A legacy (v1) database API key: `prefix` is the secret's first characters, `key` the secret, which only
 * the create response carries ("" elsewhere).
 */
export type AuthKey = Answered<'cluster.auth.v1.DatabaseApiKey'>;

/** A legacy key as created: every field a client may set, so a field the `.proto` gains is sent with no line here. */
export type AuthKeyInput = Omit<
  Sent<'cluster.auth.v1.DatabaseApiKey', 'accountId' | 'clusterIds'>,
  'id' | 'createdAt' | 'prefix' | 'key'
>;

export type AuthKeysApi = ReturnType<typeof authKeysApi>;

export function authKeysApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.databaseApiKeyV1);
  // The legacy service has no get: reads share listings of the account's keys.
  const listings = new SharedListings<AuthKey>();
  /** All keys of the account, or those attached to one cluster. */
  const list = calls.unary<{ accountId: string; clusterId?: string | undefined }, AuthKey[]>({
    method: 'ListDatabaseApiKeys',
    safety: 'read',
    answer: many('items', ['id']),
  });
  return {
    list,

    /** One key of the account, or undefined when it is gone; reads share listings as DatabaseApiKeysApi.find does. */
    find: (
      { accountId, id }: { accountId: string; id: string },
      options?: VdbCallOptions,
    ): Promise<AuthKey | undefined> => listings.find(accountId, id, () => list({ accountId }, options)),

    /** Retried only when declined (see Errors in ../api.ts). The answer carries the secret, shown only now. */
    create: calls.unary<AuthKeyInput, AuthKey>({
      method: 'CreateDatabaseApiKey',
      safety: 'once',
      request: (key) => ({ databaseApiKey: { ...key } }),
      answer: one('databaseApiKey', ['id', 'key']),
    }),

    delete: calls.unary<{ accountId: string; databaseApiKeyId: string }, void>({
      method: 'DeleteDatabaseApiKey',
      safety: 'idempotent',
      answer: nothing,
    }),
  };
}
