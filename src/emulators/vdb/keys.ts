/**
 * Database API keys: v2 keys with access rules and the legacy v1 keys
 * (docs/api/vdb.md, "Database API keys"). The secret is returned by create only; lists return it
 * blank. The store keeps it (tests read it there).
 */
import type { AccessRule, AuthKey, DatabaseApiKey } from './records.js';
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
  type StoredKind,
  type VdbContext,
} from './context.js';
import { Violations, notFound } from './errors.js';
import { LIMITS } from './limits.js';
import * as rule from './rules.js';
import type { HandlerCall, ServiceRegistration } from './server.js';

const KEY_NAME = /^[\w\s-]+$/;
const COLLECTION_NAME = /^[a-zA-Z0-9\-_.]+$/;

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

export const KEY_MODULE = { services: keyServices, storage: [DATABASE_API_KEYS, AUTH_KEYS] } as const;

function keyServices(ctx: VdbContext): ServiceRegistration[] {
  return [
    {
      service: VDB_SERVICES.databaseApiKeyV2,
      handlers: {
        ListDatabaseApiKeys: (request) => {
          checkAccount(ctx, 'account_id', request.accountId);
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
          checkAccount(ctx, 'account_id', request.accountId);
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
          checkAccount(ctx, 'account_id', request.accountId);
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
          checkAccount(ctx, 'account_id', request.accountId);
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
  const v = new Violations();
  if (!rule.required(v, 'database_api_key', input)) v.throwIfAny();
  const key = input!;
  const path = 'database_api_key';
  rule.mustBeEmpty(v, `${path}.id`, key.id);
  rule.mustBeEmpty(v, `${path}.created_at`, key.createdAt);
  rule.mustBeEmpty(v, `${path}.created_by_email`, key.createdByEmail);
  rule.mustBeEmpty(v, `${path}.postfix`, key.postfix);
  rule.mustBeEmpty(v, `${path}.key`, key.key);
  rule.uuid(v, `${path}.cluster_id`, key.clusterId);
  rule.length(v, `${path}.name`, key.name, 4, LIMITS.databaseKeyName);
  if (key.name !== '') rule.pattern(v, `${path}.name`, key.name, KEY_NAME);
  if (key.expiresAt !== undefined) {
    const expires = parseTimestamp(key.expiresAt);
    if (expires && expires.seconds * 1000 <= ctx.clock.now())
      v.add(`${path}.expires_at`, 'value must be greater than now', 'timestamp.gt_now');
  }
  validateAccessRules(v, `${path}.access_rules`, key.accessRules);
  v.throwIfAny();
  checkAccount(ctx, `${path}.account_id`, key.accountId);
  requireCluster(ctx, key.clusterId);

  const secret = secretValue(24);
  const stored: DatabaseApiKey = {
    id: newId(),
    accountId: key.accountId,
    createdAt: nowTimestamp(ctx),
    clusterId: key.clusterId,
    name: key.name,
    ...(key.expiresAt !== undefined ? { expiresAt: key.expiresAt } : {}),
    accessRules: key.accessRules,
    createdByEmail: createdByEmail(call.caller, 'nobody'),
    postfix: secret.slice(-4),
    key: secret,
  };
  ctx.store.put(DATABASE_API_KEYS.name, stored.id, stored);
  return stored as unknown as WireObject;
}

/** At most 20 rules, each with a scope; one global rule alone, or collection rules only. */
export function validateAccessRules(v: Violations, path: string, rules: readonly AccessRule[]): void {
  rule.minItems(v, path, rules, 1);
  rule.maxItems(v, path, rules, LIMITS.accessRules);
  let globals = 0;
  let collections = 0;
  rules.forEach((accessRule, i) => {
    const at = `${path}[${i}]`;
    if (accessRule.globalAccess) {
      globals++;
      if (accessRule.globalAccess.accessType.endsWith('_UNSPECIFIED')) {
        v.add(`${at}.global_access.access_type`, 'value must not be in list [0]', 'enum.not_in');
      }
    } else if (accessRule.collectionAccess) {
      collections++;
      const name = accessRule.collectionAccess.collectionName;
      rule.length(v, `${at}.collection_access.collection_name`, name, 1, LIMITS.collectionName);
      if (name !== '') rule.pattern(v, `${at}.collection_access.collection_name`, name, COLLECTION_NAME);
      if (accessRule.collectionAccess.accessType.endsWith('_UNSPECIFIED')) {
        v.add(`${at}.collection_access.access_type`, 'value must not be in list [0]', 'enum.not_in');
      }
    } else {
      v.add(`${at}.scope`, 'exactly one field is required in oneof', 'required');
    }
  });
  if (globals > 1) v.add(path, 'at most one global access rule is allowed', 'access_rules.single_global');
  if (globals > 0 && collections > 0)
    v.add(path, 'a global access rule cannot be combined with collection access rules', 'access_rules.no_mixing');
}

function createV1(ctx: VdbContext, input: AuthKey | undefined): WireObject {
  const v = new Violations();
  if (!rule.required(v, 'database_api_key', input)) v.throwIfAny();
  const key = input!;
  rule.mustBeEmpty(v, 'database_api_key.id', key.id);
  rule.mustBeEmpty(v, 'database_api_key.prefix', key.prefix);
  rule.mustBeEmpty(v, 'database_api_key.key', key.key);
  rule.minItems(v, 'database_api_key.cluster_ids', key.clusterIds, 1);
  rule.maxItems(v, 'database_api_key.cluster_ids', key.clusterIds, LIMITS.legacyKeyClusters);
  key.clusterIds.forEach((id, i) => rule.uuid(v, `database_api_key.cluster_ids[${i}]`, id));
  v.throwIfAny();
  checkAccount(ctx, 'database_api_key.account_id', key.accountId);
  for (const clusterId of key.clusterIds) requireCluster(ctx, clusterId);

  const secret = secretValue(24);
  const stored: AuthKey = {
    id: newId(),
    accountId: key.accountId,
    createdAt: nowTimestamp(ctx),
    clusterIds: key.clusterIds,
    prefix: secret.slice(0, 6),
    key: secret,
  };
  ctx.store.put(AUTH_KEYS.name, stored.id, stored);
  return stored as unknown as WireObject;
}
