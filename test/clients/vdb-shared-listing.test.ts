import { expect } from 'chai';
import { createVdbClient, type VdbClient } from '../../src/clients/vdb/index.js';
import { SharedListings } from '../../src/clients/vdb/shared-listing.js';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
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

/** What the platform lists: objects with ids. */
type Item = { readonly id: string };

describe('shared listings: reads of what the platform can only list', () => {
  let listings: SharedListings<Item>;
  /** Every listing sent, in order, each answered when the test says. */
  let sent: ReturnType<typeof pending<Item>>[];
  const list = () => {
    const listing = pending<Item>();
    sent.push(listing);
    return listing.items;
  };

  beforeEach(() => {
    listings = new SharedListings<Item>();
    sent = [];
  });

  it('answer a read only with a listing begun after it began; the reads that wait share the next one', async () => {
    const first = listings.read('cluster-1', list);
    const second = listings.read('cluster-1', list);
    const third = listings.read('cluster-1', list);
    expect(sent, 'one listing out at a time per scope').to.have.length(1);
    sent[0]!.answer([{ id: 'k1' }]);
    expect(await first).to.deep.equal([{ id: 'k1' }]);
    await Promise.resolve();
    expect(sent, 'the next starts when the first ends, for both reads that arrived meanwhile').to.have.length(2);
    sent[1]!.answer([{ id: 'k2' }]);
    expect(await second).to.deep.equal([{ id: 'k2' }]);
    expect(await third).to.deep.equal([{ id: 'k2' }]);
    // Once nothing is out, a read lists at once and never gets an answer older than itself.
    const later = listings.read('cluster-1', list);
    expect(sent).to.have.length(3);
    sent[2]!.answer([]);
    expect(await later).to.deep.equal([]);
  });

  it('keep scopes apart, and forget a scope once nothing is out', async () => {
    const one = listings.read('cluster-1', list);
    const two = listings.read('cluster-2', list);
    expect(sent).to.have.length(2);
    sent[0]!.answer([{ id: 'a' }]);
    sent[1]!.answer([{ id: 'b' }]);
    expect([await one, await two]).to.deep.equal([[{ id: 'a' }], [{ id: 'b' }]]);
    await Promise.resolve();
    expect((listings as unknown as { scopes: Map<string, unknown> }).scopes.size).to.equal(0);
  });

  it('give a failed listing to the reads that waited for it only, and list again after it', async () => {
    const failing = listings.read('cluster-1', list);
    const waiting = listings.read('cluster-1', list);
    sent[0]!.refuse(new Error('unavailable'));
    await failing.then(
      () => expect.fail('the listing failed'),
      (error: Error) => expect(error.message).to.equal('unavailable'),
    );
    await Promise.resolve();
    sent[1]!.answer([{ id: 'k1' }]);
    expect(await waiting, 'the read that arrived later has its own listing').to.deep.equal([{ id: 'k1' }]);
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

  it('shares listings among the reads waiting together, and sees a change made before a read at once', async () => {
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
    // Ten at a time: the first of each ten lists alone, the nine behind it share the next listing.
    expect(listings() - before, 'listings for 200 reads').to.equal(40);

    // Removed behind the process's back, just after a read: the next read sees it gone.
    emulator.remove(VDB_COLLECTIONS.databaseApiKeys, keys[0]!.id);
    expect(await vdb.databaseApiKeys.find({ accountId, clusterId: cluster.id, id: keys[0]!.id })).to.equal(undefined);
    expect((await vdb.databaseApiKeys.find({ accountId, clusterId: cluster.id, id: keys[1]!.id }))?.name).to.equal(
      'key-1',
    );
  });
});
