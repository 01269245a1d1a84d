/**
 * What the storage declarations of the vdb emulator's service modules decide (StoredKind in
 * src/emulators/vdb/context.ts): which objects go with a deleted one, which only lose its id, and
 * which refuse the deletion; and that a declaration naming nothing stops the emulator at start.
 */
import { expect } from 'chai';
import { MemoryStore } from '../../../src/emulators/core/index.js';
import { RpcError } from '../../../src/emulators/vdb/errors.js';
import { removeStored, type StoredKind, type VdbContext } from '../../../src/emulators/vdb/context.js';
import { checkedKinds } from '../../../src/emulators/vdb/services.js';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { createVdbClient, type VdbClient } from '../../../src/clients/vdb/index.js';

interface Owner {
  readonly id: string;
  readonly name: string;
}
interface Part {
  readonly id: string;
  readonly ownerId: string;
}
interface Shared {
  readonly id: string;
  readonly ownerIds: readonly string[];
}
interface Tag {
  readonly id: string;
  readonly partId: string;
}
interface Blocker {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly pinned: boolean;
}
interface Archive {
  readonly id: string;
  readonly ownerId: string;
}
interface Label {
  readonly id: string;
  readonly ownerIds: readonly string[];
}

/** The owners whose side state was dropped (`forget`), in order. */
const forgotten: string[] = [];
const OWNERS: StoredKind<'owners', Owner> = {
  name: 'owners',
  label: 'owner',
  forget: (_ctx, id) => forgotten.push(id),
};
const PARTS: StoredKind<'parts', Part> = {
  name: 'parts',
  label: 'part',
  refersTo: [{ to: 'owners', field: 'ownerId', whenDeleted: 'remove' }],
};
const SHARED: StoredKind<'shared', Shared> = {
  name: 'shared',
  label: 'shared thing',
  refersTo: [{ to: 'owners', field: 'ownerIds', whenDeleted: 'remove' }],
};
const TAGS: StoredKind<'tags', Tag> = {
  name: 'tags',
  label: 'tag',
  refersTo: [{ to: 'parts', field: 'partId', whenDeleted: 'remove' }],
};
const BLOCKERS: StoredKind<'blockers', Blocker> = {
  name: 'blockers',
  label: 'blocker',
  refersTo: [{ to: 'owners', field: 'ownerId', whenDeleted: 'refuse', applies: (blocker) => blocker.pinned }],
};
const ARCHIVES: StoredKind<'archives', Archive> = {
  name: 'archives',
  label: 'archive',
  refersTo: [{ to: 'owners', field: 'ownerId', whenDeleted: 'remove', onlyIfAsked: 'deleteBackups' }],
};
const LABELS: StoredKind<'labels', Label> = {
  name: 'labels',
  label: 'label',
  refersTo: [{ to: 'owners', field: 'ownerIds', whenDeleted: 'detach' }],
};

describe('vdb emulator: storage declarations', () => {
  let ctx: VdbContext;

  beforeEach(() => {
    forgotten.length = 0;
    const storage = [OWNERS, PARTS, SHARED, TAGS, BLOCKERS, ARCHIVES, LABELS];
    ctx = { store: new MemoryStore(), storage } as unknown as VdbContext;
    for (const id of ['a', 'b']) ctx.store.put(OWNERS.name, id, { id, name: `owner ${id}` });
    ctx.store.put(PARTS.name, 'pa', { id: 'pa', ownerId: 'a' });
    ctx.store.put(PARTS.name, 'pb', { id: 'pb', ownerId: 'b' });
    ctx.store.put(TAGS.name, 'ta', { id: 'ta', partId: 'pa' });
    ctx.store.put(SHARED.name, 'only-a', { id: 'only-a', ownerIds: ['a'] });
    ctx.store.put(SHARED.name, 'both', { id: 'both', ownerIds: ['a', 'b'] });
    ctx.store.put(BLOCKERS.name, 'loose', { id: 'loose', name: 'loose', ownerId: 'a', pinned: false });
    ctx.store.put(ARCHIVES.name, 'xa', { id: 'xa', ownerId: 'a' });
    ctx.store.put(LABELS.name, 'la', { id: 'la', ownerIds: ['a', 'b'] });
  });

  it('removes what refers to the deleted object with `remove`, and in turn what refers to that', () => {
    removeStored(ctx, OWNERS, 'a');
    expect(ctx.store.ids(OWNERS.name)).to.deep.equal(['b']);
    expect(ctx.store.ids(PARTS.name)).to.deep.equal(['pb']);
    expect(ctx.store.ids(TAGS.name), "the removed part's tag").to.deep.equal([]);
    expect(ctx.store.ids(SHARED.name), 'what had other owners stays').to.deep.equal(['both']);
    expect(ctx.store.get(SHARED.name, 'both')).to.deep.equal({ id: 'both', ownerIds: ['b'] });
    expect(ctx.store.get(LABELS.name, 'la'), 'detached, kept').to.deep.equal({ id: 'la', ownerIds: ['b'] });
    expect(ctx.store.ids(BLOCKERS.name), 'a reference that does not apply is none').to.deep.equal(['loose']);
    expect(forgotten).to.deep.equal(['a']);
  });

  it('removes what is removed only when asked, only when the delete call asks', () => {
    removeStored(ctx, OWNERS, 'a');
    expect(ctx.store.ids(ARCHIVES.name)).to.deep.equal(['xa']);
    removeStored(ctx, OWNERS, 'b', { deleteBackups: true });
    expect(ctx.store.ids(ARCHIVES.name), "not b's").to.deep.equal(['xa']);
    ctx.store.put(OWNERS.name, 'a', { id: 'a', name: 'owner a' });
    removeStored(ctx, OWNERS, 'a', { deleteBackups: true });
    expect(ctx.store.ids(ARCHIVES.name)).to.deep.equal([]);
  });

  it('a `refuse` stops the whole deletion, naming what is in the way, before anything is removed', () => {
    ctx.store.put(BLOCKERS.name, 'p1', { id: 'p1', name: 'first', ownerId: 'a', pinned: true });
    ctx.store.put(BLOCKERS.name, 'p2', { id: 'p2', name: 'second', ownerId: 'a', pinned: true });
    const before = ctx.storage.map((kind) => ctx.store.list(kind.name));
    let refused: unknown;
    try {
      removeStored(ctx, OWNERS, 'a');
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(RpcError);
    expect((refused as RpcError).message).to.equal('owner a still has 2 blocker(s) (first, second); delete them first');
    expect(ctx.storage.map((kind) => ctx.store.list(kind.name))).to.deep.equal(before);
    expect(forgotten).to.deep.equal([]);
  });

  it('a collection declared twice, or a reference to a kind nobody stores, stops the emulator at start', () => {
    expect(() => checkedKinds([OWNERS, PARTS, { ...PARTS }])).to.throw(
      'vdb emulator: the collection parts is declared twice',
    );
    expect(() => checkedKinds([PARTS])).to.throw(
      'vdb emulator: parts.ownerId refers to owners, which no service module stores',
    );
    expect(checkedKinds([OWNERS, PARTS])).to.deep.equal([OWNERS, PARTS]);
  });
});

describe('vdb emulator: what goes with a deleted object', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;

  beforeEach(async () => {
    emulator = await startVdbEmulator({ provisioningMs: 1_000 });
    vdb = createVdbClient({
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      userAgent: 'test',
      retry: { maxAttempts: 1 },
    });
  });

  afterEach(async () => {
    vdb.close();
    await emulator.close();
  });

  it("a hybrid environment's bootstrap credentials go with it", async () => {
    const accountId = emulator.accountId;
    const environment = await vdb.hybridEnvironments.create({
      accountId,
      name: 'on-prem',
      configuration: { namespace: 'vdb-system' },
    });
    await vdb.hybridEnvironments.generateBootstrapCommands({ accountId, hybridCloudEnvironmentId: environment.id });
    expect(emulator.ids(VDB_COLLECTIONS.bootstrapCredentials)).to.deep.equal([environment.id]);
    await vdb.hybridEnvironments.delete({ accountId, hybridCloudEnvironmentId: environment.id });
    expect(emulator.ids(VDB_COLLECTIONS.hybridEnvironments)).to.deep.equal([]);
    expect(emulator.ids(VDB_COLLECTIONS.bootstrapCredentials)).to.deep.equal([]);
  });

  it("a schedule's backups go with it only when the delete asks", async () => {
    const accountId = emulator.accountId;
    const cluster = await vdb.clusters.create({
      accountId,
      name: 'orders',
      cloudProviderId: 'aws',
      cloudProviderRegionId: 'us-east-1',
      configuration: { numberOfNodes: 1, packageId: emulator.packageId('aws', 'small') },
    });
    emulator.clock.advance(1_000);
    const schedules = await Promise.all(
      ['@daily', '@weekly'].map((schedule) =>
        vdb.backupSchedules.create({ accountId, clusterId: cluster.id, schedule }),
      ),
    );
    // The platform makes a schedule's backups itself; here they are written behind the API's back.
    for (const schedule of schedules) {
      const made = await vdb.backups.create({ accountId, clusterId: cluster.id });
      emulator.put(VDB_COLLECTIONS.backups, made.id, {
        ...emulator.get(VDB_COLLECTIONS.backups, made.id),
        backupScheduleId: schedule.id,
      });
    }
    const [kept, gone] = schedules as [(typeof schedules)[0], (typeof schedules)[0]];
    await vdb.backupSchedules.delete({ accountId, backupScheduleId: kept.id });
    await vdb.backupSchedules.delete({ accountId, backupScheduleId: gone.id, deleteBackups: true });
    expect(
      emulator.list<{ backupScheduleId?: string }>(VDB_COLLECTIONS.backups).map((backup) => backup.backupScheduleId),
    ).to.deep.equal([kept.id]);
  });
});
