import { expect } from 'chai';
import { createVdbClient, type VdbClient } from '../../src/clients/vdb/index.js';
import { LISTING_FRESH_MS, SharedListings } from '../../src/clients/vdb/shared-listing.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { packageId } from '../../src/emulators/vdb/catalog.js';

/** A listing whose answer the test gives when it chooses. */
function pending<T>() {
  let answer!: (items: readonly T[]) => void;
  let refuse!: (error: Error) => void;
  const items = new Promise<readonly T[]>((resolve, reject) => {
    answer = resolve;
    refuse = reject;
  });
  return { items, answer, refuse };
}

describe('shared listings: reads of what the platform can only list', () => {
  let now = 0;
  let listings: SharedListings<string>;
  let calls: number;
  const list = (items: readonly string[]) => () => {
    calls++;
    return Promise.resolve(items);
  };

  beforeEach(() => {
    now = 1_000;
    calls = 0;
    listings = new SharedListings<string>(() => now);
  });

  it('answer reads that begin within the window from one listing, in flight or answered', async () => {
    const first = pending<string>();
    const a = listings.read('cluster-1', () => {
      calls++;
      return first.items;
    });
    now += 10;
    const b = listings.read('cluster-1', list(['other']));
    first.answer(['k1', 'k2']);
    expect(await a).to.deep.equal(['k1', 'k2']);
    expect(await b, 'joined the listing in flight').to.deep.equal(['k1', 'k2']);
    now += LISTING_FRESH_MS - 10;
    expect(await listings.read('cluster-1', list(['other']))).to.deep.equal(['k1', 'k2']);
    expect(calls).to.equal(1);
  });

  it('list again once the listing is older than the window, and per scope', async () => {
    await listings.read('cluster-1', list(['old']));
    expect(await listings.read('cluster-2', list(['two'])), 'another scope').to.deep.equal(['two']);
    now += LISTING_FRESH_MS + 1;
    expect(await listings.read('cluster-1', list(['new']))).to.deep.equal(['new']);
    expect(calls).to.equal(3);
  });

  it("never answer a read with a listing begun before the process's own create or delete in that scope ended", async () => {
    const before = pending<string>();
    const stale = listings.read('cluster-1', () => before.items);
    const write = pending<string>();
    const deleting = listings.writing('cluster-1', () => write.items);
    // Begun while the delete is in flight: it may not be the answer to reads after the delete either.
    const during = listings.read('cluster-1', list(['during']));
    write.answer([]);
    await deleting;
    before.answer(['deleted-key']);
    expect(await stale).to.deep.equal(['deleted-key']);
    expect(await during).to.deep.equal(['during']);
    expect(await listings.read('cluster-1', list(['after'])), 'a fresh listing after the write').to.deep.equal([
      'after',
    ]);
    expect(await listings.read('cluster-2', list(['x'])), 'other scopes are not touched').to.deep.equal(['x']);
  });

  it('do not share a listing that failed', async () => {
    const failing = pending<string>();
    const a = listings.read('cluster-1', () => failing.items);
    failing.refuse(new Error('unavailable'));
    await a.then(
      () => expect.fail('the listing failed'),
      (error: Error) => expect(error.message).to.equal('unavailable'),
    );
    expect(await listings.read('cluster-1', list(['k1']))).to.deep.equal(['k1']);
  });
});

describe('vdb client: refreshing many keys of one cluster', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;

  beforeEach(async () => {
    emulator = await startVdbEmulator({ provisioningMs: 0 });
    vdb = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'test' });
  });
  afterEach(async () => {
    vdb.close();
    await emulator.close();
  });

  const listings = () => emulator.requests.filter((r) => r.method === 'ListDatabaseApiKeys').length;

  it('costs a listing per window, not one per key, and still sees its own deletes at once', async () => {
    const accountId = emulator.accountId;
    const cluster = await vdb.clusters.create({
      accountId,
      name: 'shared',
      cloudProviderId: 'aws',
      cloudProviderRegionId: 'eu-central-1',
      configuration: { numberOfNodes: 1, packageId: packageId('aws', 'small') },
    });
    const keys = [];
    for (let i = 0; i < 200; i++) {
      keys.push(
        await vdb.databaseApiKeys.create({
          accountId,
          clusterId: cluster.id,
          name: `key-${i}`,
          accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' } }],
        }),
      );
    }
    const before = listings();
    // Ten at a time, as Terraform's refresh reads them.
    const found: (string | undefined)[] = [];
    for (let i = 0; i < keys.length; i += 10) {
      const batch = keys.slice(i, i + 10);
      found.push(
        ...(await Promise.all(
          batch.map(
            async (k) => (await vdb.databaseApiKeys.find({ accountId, clusterId: cluster.id, id: k.id }))?.name,
          ),
        )),
      );
    }
    expect(found).to.deep.equal(keys.map((k) => k.name));
    expect(listings() - before, 'listings for 200 reads').to.be.at.most(2);

    await vdb.databaseApiKeys.delete({ accountId, clusterId: cluster.id, databaseApiKeyId: keys[0]!.id });
    expect(await vdb.databaseApiKeys.find({ accountId, clusterId: cluster.id, id: keys[0]!.id })).to.equal(undefined);
    expect((await vdb.databaseApiKeys.find({ accountId, clusterId: cluster.id, id: keys[1]!.id }))?.name).to.equal(
      'key-1',
    );
  });
});
