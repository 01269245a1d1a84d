/**
 * Database API keys: v2 keys with access rules and the legacy v1 keys
 * (docs/api/vdb.md, "Database API keys"). The secret is returned by create only; lists return it
 * blank. The store keeps it (tests read it there).
 */
import type { AuthKey, DatabaseApiKey } from './records.js';
import { parseTimestamp, type WireObject } from './wire-codec.js';
import { VDB_SERVICES } from '../../wire/vdb-proto.js';
import { secretValue } from '../core/index.js';
import { requireCluster } from './clusters.js';
import {
  checkAccount,
  createdByEmail,
  newId,
  nowTimestamp,
  removeStored,
  sentFields,
  type StoredKind,
  type VdbContext,
} from './context.js';
import { Violations, notFound } from './errors.js';
import type { HandlerCall, ServiceRegistration } from './server.js';

/** v2 keys; the stored objects keep the secret `key`. They go with their cluster. */
export const DATABASE_API_KEYS: StoredKind<'databaseApiKeys', DatabaseApiKey> = {
  name: 'databaseApiKeys',
  label: 'database API key',
  refersTo: [{ to: 'clusters', field: 'clusterId', whenDeleted: 'remove' }],
};

/** Legacy v1 keys; the stored objects keep the secret `key`. They go with the last of their clusters. */
export const AUTH_KEYS: StoredKind<'authKeys', AuthKey> = {
  name: 'authKeys',
  label: 'legacy database API key',
  refersTo: [{ to: 'clusters', field: 'clusterIds', whenDeleted: 'remove' }],
};

/** What the server sets of a key; every other field is kept as the client sent it. */
const V2_SERVER_FIELDS = ['id', 'createdAt', 'createdByEmail', 'postfix', 'key'] as const;
const V1_SERVER_FIELDS = ['id', 'createdAt', 'prefix', 'key'] as const;

export const KEY_MODULE = { services: keyServices, storage: [DATABASE_API_KEYS, AUTH_KEYS] } as const;

function keyServices(ctx: VdbContext): ServiceRegistration[] {
  return [
    {
      service: VDB_SERVICES.databaseApiKeyV2,
      handlers: {
        ListDatabaseApiKeys: (request) => {
          checkAccount(ctx, request.accountId);
          const clusterId = request.clusterId as string | undefined;
          const items = ctx.store
            .list<DatabaseApiKey>(DATABASE_API_KEYS.name)
            .filter((key) => clusterId === undefined || key.clusterId === clusterId)
            .map((key) => ({ ...key, key: '' }));
          return { items };
        },
        CreateDatabaseApiKey: (request, call) => ({
          databaseApiKey: createV2(ctx, request.databaseApiKey as DatabaseApiKey | undefined, call),
        }),
        DeleteDatabaseApiKey: (request) => {
          checkAccount(ctx, request.accountId);
          const key = ctx.store.get<DatabaseApiKey>(DATABASE_API_KEYS.name, request.databaseApiKeyId as string);
          if (!key || key.clusterId !== request.clusterId)
            throw notFound(`database API key ${String(request.databaseApiKeyId)}`);
          removeStored(ctx, DATABASE_API_KEYS, key.id);
          return {};
        },
      },
    },
    {
      service: VDB_SERVICES.databaseApiKeyV1,
      handlers: {
        ListDatabaseApiKeys: (request) => {
          checkAccount(ctx, request.accountId);
          const clusterId = request.clusterId as string | undefined;
          const items = ctx.store
            .list<AuthKey>(AUTH_KEYS.name)
            .filter((key) => clusterId === undefined || key.clusterIds.includes(clusterId))
            .map((key) => ({ ...key, key: '' }));
          return { items };
        },
        CreateDatabaseApiKey: (request) => ({
          databaseApiKey: createV1(ctx, request.databaseApiKey as AuthKey | undefined),
        }),
        DeleteDatabaseApiKey: (request) => {
          checkAccount(ctx, request.accountId);
          const keyId = request.databaseApiKeyId as string;
          if (!ctx.store.has(AUTH_KEYS.name, keyId)) throw notFound(`database API key ${keyId}`);
          removeStored(ctx, AUTH_KEYS, keyId);
          return {};
        },
      },
    },
  ];
}

function createV2(ctx: VdbContext, input: DatabaseApiKey | undefined, call: HandlerCall): WireObject {
  // The API's rules held (request-rules.ts): a key is given, in bounds, with nothing the server sets.
  const key = input!;
  // The rule's "now" is the real clock; the emulator's runs ahead of it once a test advances it.
  const expires = key.expiresAt === undefined ? undefined : parseTimestamp(key.expiresAt);
  if (expires && expires.seconds * 1000 <= ctx.clock.now()) {
    const v = new Violations();
    v.add('database_api_key.expires_at', 'must be greater than now', 'timestamp.gt_now');
    v.throwIfAny();
  }
  checkAccount(ctx, key.accountId);
  requireCluster(ctx, key.clusterId);

  const secret = secretValue(24);
  const stored: DatabaseApiKey = {
    ...sentFields(key, V2_SERVER_FIELDS),
    id: newId(),
    createdAt: nowTimestamp(ctx),
    createdByEmail: createdByEmail(call.caller, 'nobody'),
    postfix: secret.slice(-4),
    key: secret,
  };
  ctx.store.put(DATABASE_API_KEYS.name, stored.id, stored);
  return stored as unknown as WireObject;
}

function createV1(ctx: VdbContext, input: AuthKey | undefined): WireObject {
  // The API's rules held (request-rules.ts): a key for 1-100 clusters, with nothing the server sets.
  const key = input!;
  checkAccount(ctx, key.accountId);
  for (const clusterId of key.clusterIds) requireCluster(ctx, clusterId);

  const secret = secretValue(24);
  const stored: AuthKey = {
    ...sentFields(key, V1_SERVER_FIELDS),
    id: newId(),
    createdAt: nowTimestamp(ctx),
    prefix: secret.slice(0, 6),
    key: secret,
  };
  ctx.store.put(AUTH_KEYS.name, stored.id, stored);
  return stored as unknown as WireObject;
}
