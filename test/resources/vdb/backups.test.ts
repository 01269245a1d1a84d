/**
 * Backup schedules, manual backups and their data sources, plus the booking packages data source,
 * through the provider executable against the in-process emulator.
 */
import { expect } from 'chai';
import { VDB_COLLECTIONS } from '../../../src/emulators/vdb/index.js';
import type { BackupSchedule } from '../../../src/clients/vdb/api.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { startHarness, type Harness } from './harness.js';

const SCHEDULE = 'vdb_accounts_backup_schedule';
const BACKUP = 'vdb_accounts_manual_backup';

describe('vdb backups', function () {
  this.timeout(60_000);
  let h: Harness;
  let cluster: ObjectValue;
  let clusterId: string;

  before(async () => {
    h = await startHarness({ provisioningMs: 100 });
    cluster = await h.converge('vdb_accounts_cluster', null, {
      name: 'tf-backups',
      cloud_provider: 'aws',
      cloud_region: 'eu-central-1',
      configuration: [
        { number_of_nodes: 2, node_configuration: [{ package_id: h.emulator.packageId('aws', 'small') }] },
      ],
    });
    clusterId = cluster.id as string;
  });
  after(async () => {
    if (cluster) await h.destroy('vdb_accounts_cluster', cluster).catch(() => undefined);
    await h?.close();
  });

  it('schedule: create, no-op re-plan (duration notation kept), update in place, import, drift, destroy', async () => {
    const plain = { cluster_id: clusterId, cron_expression: '0 3 * * *', retention_period: '72h' };
    let state = await h.converge(SCHEDULE, null, plain);
    const id = state.id as string;
    const stored = () => h.emulator.get<BackupSchedule>(VDB_COLLECTIONS.backupSchedules, id)!;
    expect(stored()).to.deep.include({
      clusterId,
      schedule: '0 3 * * *',
      retentionPeriod: { seconds: 259_200, nanos: 0 },
    });
    expect(state).to.deep.include({
      status: 'BACKUP_SCHEDULE_STATUS_ACTIVE',
      retention_period: '72h',
      delete_backups_on_destroy: true,
      deleted_at: '',
    });
    // The platform reports 72h0m0s; the configured form stays.
    expect((await h.tf.read(SCHEDULE, state)).state!.retention_period).to.equal('72h');
    expect(await h.isNoOp(SCHEDULE, state, { ...plain, retention_period: '72h0m0s' })).to.equal(true);

    h.emulator.clearRequests();
    const changed = { ...plain, cron_expression: '@daily', retention_period: '168h' };
    expect((await h.plan(SCHEDULE, state, changed)).requiresReplace).to.deep.equal([]);
    state = await h.converge(SCHEDULE, state, changed);
    expect(state.id).to.equal(id);
    expect(stored()).to.deep.include({ schedule: '@daily', retentionPeriod: { seconds: 604_800, nanos: 0 } });
    expect(h.emulator.requests.map((r) => r.method)).to.include('UpdateBackupSchedule');

    // Only delete_backups_on_destroy changes: nothing is sent to the platform.
    h.emulator.clearRequests();
    state = await h.converge(SCHEDULE, state, { ...changed, delete_backups_on_destroy: false });
    expect(h.emulator.requests.map((r) => r.method)).to.not.include('UpdateBackupSchedule');

    const imported = await h.tf.importState(SCHEDULE, `${clusterId}/${id}`);
    expect(imported).to.deep.include({
      id,
      cluster_id: clusterId,
      cron_expression: '@daily',
      retention_period: '168h0m0s',
      delete_backups_on_destroy: true,
    });
    expect(await h.isNoOp(SCHEDULE, imported, changed)).to.equal(true);

    h.emulator.put(VDB_COLLECTIONS.backupSchedules, id, { ...stored(), schedule: '0 4 * * *' });
    const drifted = (await h.tf.read(SCHEDULE, state)).state!;
    expect(drifted.cron_expression).to.equal('0 4 * * *');
    expect(await h.isNoOp(SCHEDULE, drifted, { ...changed, delete_backups_on_destroy: false })).to.equal(false);

    // The data sources read the schedule as the emulator holds it.
    const single = await h.tf.readData(
      SCHEDULE,
      h.tf.config(h.tf.dataSourceSchema(SCHEDULE).block, { id, cluster_id: clusterId }),
    );
    expect(single).to.deep.include({
      id,
      cron_expression: '0 4 * * *',
      retention_period: '168h0m0s',
      account_id: h.emulator.accountId,
      status: 'BACKUP_SCHEDULE_STATUS_ACTIVE',
    });
    const list = await h.tf.readData(
      'vdb_accounts_backup_schedules',
      h.tf.config(h.tf.dataSourceSchema('vdb_accounts_backup_schedules').block, { cluster_id: clusterId }),
    );
    expect((list.schedules as ObjectValue[]).map((s) => s.id)).to.deep.equal([id]);

    h.emulator.clearRequests();
    await h.destroy(SCHEDULE, drifted);
    expect(h.emulator.get(VDB_COLLECTIONS.backupSchedules, id)).to.equal(undefined);
    expect(h.emulator.requests.find((r) => r.method === 'DeleteBackupSchedule')!.request).to.deep.include({
      backupScheduleId: id,
      deleteBackups: false,
    });
    expect((await h.tf.read(SCHEDULE, drifted)).state).to.equal(null);
  });

  it('schedule: cron and retention are checked at plan time', async () => {
    const err = await h.failure(
      h.tf.validateResource(
        SCHEDULE,
        h.config(SCHEDULE, { cluster_id: clusterId, cron_expression: '0 25 * * *', retention_period: '2h' }),
      ),
    );
    const byPath = Object.fromEntries(err.diagnostics.map((d) => [d.path, d.detail]));
    expect(byPath.cron_expression).to.match(/hour field "25"/);
    expect(byPath.retention_period).to.match(/between 24h and 8760h/);
    const unparsable = await h.failure(
      h.tf.validateResource(
        SCHEDULE,
        h.config(SCHEDULE, { cluster_id: clusterId, cron_expression: '@daily', retention_period: 'a week' }),
      ),
    );
    expect(unparsable.diagnostics[0]).to.deep.include({ path: 'retention_period' });
  });

  it('manual backup: create, status progresses on refresh, cluster_info, replace, import, destroy', async () => {
    const plain = { cluster_id: clusterId, retention_period: '48h' };
    const state = await h.converge(BACKUP, null, plain);
    const id = state.id as string;
    expect(state).to.deep.include({ status: 'BACKUP_STATUS_RUNNING', backup_schedule_id: '', retention_period: '48h' });
    expect(state.name).to.match(/^tf-backups-/);
    const info = (state.cluster_info as ObjectValue[])[0]!;
    expect(info).to.deep.include({
      name: 'tf-backups',
      cloud_provider_id: 'aws',
      cloud_provider_region_id: 'eu-central-1',
    });
    expect((info.configuration as ObjectValue[])[0]).to.deep.include({ number_of_nodes: 2 });
    expect((info.resources_summary as ObjectValue[])[0]!.cpu).to.deep.equal([{ amount: 2000, unit: 'm' }]);
    expect(h.emulator.get(VDB_COLLECTIONS.backups, id)).to.deep.include({
      clusterId,
      retentionPeriod: { seconds: 172_800, nanos: 0 },
    });

    h.emulator.clock.advance(1_000);
    const later = (await h.tf.read(BACKUP, state)).state!;
    expect(later.status).to.equal('BACKUP_STATUS_SUCCEEDED');
    expect(await h.isNoOp(BACKUP, later, plain)).to.equal(true);

    expect((await h.plan(BACKUP, later, { ...plain, retention_period: '96h' })).requiresReplace).to.deep.include([
      { attr: 'retention_period' },
    ]);
    expect(
      await h.isNoOp(BACKUP, later, { ...plain, retention_period: '48h0m0s' }),
      'same duration, other notation',
    ).to.equal(true);

    const imported = await h.tf.importState(BACKUP, id);
    expect(imported).to.deep.include({
      id,
      cluster_id: clusterId,
      retention_period: '48h0m0s',
      status: 'BACKUP_STATUS_SUCCEEDED',
    });
    expect(await h.isNoOp(BACKUP, imported, plain)).to.equal(true);

    await h.destroy(BACKUP, later);
    expect(h.emulator.get(VDB_COLLECTIONS.backups, id)).to.equal(undefined);
    expect((await h.tf.read(BACKUP, later)).state).to.equal(null);
  });

  it("booking packages data source lists the region's packages", async () => {
    const data = await h.tf.readData(
      'vdb_booking_packages',
      h.tf.config(h.tf.dataSourceSchema('vdb_booking_packages').block, {
        cloud_provider: 'aws',
        cloud_region: 'eu-west-1',
      }),
    );
    const packages = data.packages as ObjectValue[];
    const small = packages.find((p) => p.id === h.emulator.packageId('aws', 'small'))!;
    expect(small).to.deep.include({
      name: 'small',
      type: 'paid',
      currency: 'USD',
      status: 'PACKAGE_STATUS_ACTIVE',
      tier: 'PACKAGE_TIER_STANDARD',
    });
    expect(small.resource_configuration).to.deep.equal([{ cpu: '1000m', ram: '4Gi', disk: '32Gi' }]);
    expect(small.available_additional_resources).to.deep.equal([{ disk_price_per_hour: 20 }]);
    // eu-west-1 has no free tier.
    expect(packages.map((p) => p.name)).to.not.include('free');
  });
});
