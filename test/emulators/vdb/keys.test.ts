/** Database API keys (v2 with access rules, legacy v1) in the vdb emulator. */
import { expect } from 'chai';
import type { DatabaseApiKey, VdbClient } from '../../../src/clients/vdb/index.js';
import { VDB_SERVICES } from '../../../src/wire/vdb-proto.js';
import { VDB_COLLECTIONS, type VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { failure, rawCall, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  const { healthyCluster } = useVdbEmulator((session) => ({ emulator, vdb, account } = session));

  describe('database API keys', () => {
    it('creates v2 keys with the secret once, lists them blanked, deletes them per cluster', async () => {
      const cluster = await healthyCluster();
      const key = await vdb.databaseApiKeys.create({
        accountId: account,
        clusterId: cluster.id,
        name: 'search reader',
        accessRules: [
          {
            collectionAccess: {
              collectionName: 'docs.v1',
              accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE',
            },
          },
        ],
      });
      expect(key.key).to.match(/^[0-9a-f]{48}$/);
      expect(key.postfix).to.equal(key.key.slice(-4));
      expect(key.createdByEmail).to.equal('');
      expect(
        emulator.get<DatabaseApiKey>(VDB_COLLECTIONS.databaseApiKeys, key.id)?.key,
        'the store keeps the secret',
      ).to.equal(key.key);
      const [listed] = await vdb.databaseApiKeys.list({ accountId: account, clusterId: cluster.id });
      expect(listed).to.deep.include({ id: key.id, key: '', postfix: key.postfix, name: 'search reader' });
      expect(await vdb.databaseApiKeys.list({ accountId: account, clusterId: crypto.randomUUID() })).to.deep.equal([]);

      await failure(
        vdb.databaseApiKeys.delete({ accountId: account, clusterId: crypto.randomUUID(), databaseApiKeyId: key.id }),
        'not_found',
      );
      await vdb.databaseApiKeys.delete({ accountId: account, clusterId: cluster.id, databaseApiKeyId: key.id });
      await failure(
        vdb.databaseApiKeys.delete({ accountId: account, clusterId: cluster.id, databaseApiKeyId: key.id }),
        'not_found',
      );
    });

    it('validates names, expiry and mutually exclusive access rules', async () => {
      const cluster = await healthyCluster();
      const base = { accountId: account, clusterId: cluster.id, name: 'good name' };
      const global = { globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' as const } };
      const collection = {
        collectionAccess: {
          collectionName: 'docs',
          accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' as const,
        },
      };
      expect(
        await failure(vdb.databaseApiKeys.create({ ...base, accessRules: [global, collection] }), 'invalid'),
      ).to.include(
        'database_api_key.access_rules: a global access rule cannot be combined with collection access rules [access_rules.no_mixing]',
      );
      expect(
        await failure(vdb.databaseApiKeys.create({ ...base, accessRules: [global, global] }), 'invalid'),
      ).to.include('at most one global access rule is allowed');
      expect(await failure(vdb.databaseApiKeys.create({ ...base, accessRules: [] }), 'invalid')).to.include(
        'database_api_key.access_rules: must contain at least 1 item(s)',
      );
      expect(
        await failure(vdb.databaseApiKeys.create({ ...base, accessRules: Array(21).fill(collection) }), 'invalid'),
      ).to.include('must contain no more than 20 item(s)');
      const badRules = await failure(
        vdb.databaseApiKeys.create({
          ...base,
          name: 'ab',
          expiresAt: '2001-01-01T00:00:00Z',
          accessRules: [
            {
              collectionAccess: {
                collectionName: 'docs/*',
                accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_UNSPECIFIED',
              },
            },
          ],
        }),
        'invalid',
      );
      expect(badRules).to.include('database_api_key.name: must be at least 4 characters');
      expect(badRules).to.include('database_api_key.expires_at: must be greater than now [timestamp.gt_now]');
      expect(badRules).to.include('access_rules[0].collection_access.collection_name: does not match regex pattern');
      expect(badRules).to.include(
        'access_rules[0].collection_access.access_type: must not be in list [0] [enum.not_in]',
      );
      const scopeless = await rawCall(
        emulator,
        VDB_SERVICES.databaseApiKeyV2,
        'CreateDatabaseApiKey',
        { databaseApiKey: { ...base, accessRules: [{}] } },
        {
          authorization: `apikey ${emulator.apiKey}`,
        },
      );
      expect(scopeless.error?.details).to.include(
        'database_api_key.access_rules[0].scope: exactly one field is required in oneof [required]',
      );
      await failure(
        vdb.databaseApiKeys.create({ ...base, clusterId: crypto.randomUUID(), accessRules: [global] }),
        'not_found',
      );
    });

    it('creates legacy keys for one or more clusters', async () => {
      const one = await healthyCluster({ name: 'one' });
      const two = await healthyCluster({ name: 'two' });
      const key = await vdb.authKeys.create({ accountId: account, clusterIds: [one.id, two.id] });
      expect(key.prefix).to.equal(key.key.slice(0, 6));
      expect(key.clusterIds).to.deep.equal([one.id, two.id]);
      expect((await vdb.authKeys.list({ accountId: account })).map((k) => [k.id, k.key])).to.deep.equal([[key.id, '']]);
      expect(await vdb.authKeys.list({ accountId: account, clusterId: crypto.randomUUID() })).to.deep.equal([]);
      expect(await failure(vdb.authKeys.create({ accountId: account, clusterIds: [] }), 'invalid')).to.include(
        'database_api_key.cluster_ids: must contain at least 1 item(s)',
      );
      expect(await failure(vdb.authKeys.create({ accountId: account, clusterIds: ['x'] }), 'invalid')).to.include(
        'database_api_key.cluster_ids[0]: must be a valid UUID',
      );
      await vdb.authKeys.delete({ accountId: account, databaseApiKeyId: key.id });
      await failure(vdb.authKeys.delete({ accountId: account, databaseApiKeyId: key.id }), 'not_found');
    });
  });
});
