/** BackupService in the vdb emulator: schedules and backups. */
import { expect } from 'chai';
import type { BackupSchedule, VdbClient } from '../../../src/clients/vdb/index.js';
import type { VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { PROVISIONING_MS, failure, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  const { healthyCluster } = useVdbEmulator((session) => ({ emulator, vdb, account } = session));

  describe('backups', () => {
    it('accepts cron expressions, descriptors and @every; rejects the rest precisely', async () => {
      const cluster = await healthyCluster();
      const create = (schedule: string, retentionPeriod?: { seconds: number; nanos: number }) =>
        vdb.backupSchedules.create({ accountId: account, clusterId: cluster.id, schedule, retentionPeriod });
      for (const good of [
        '0 3 * * *',
        '*/15 0-6 1,15 JAN-MAR MON-FRI',
        '0 0 3 * * ?',
        '0 0 3 ? * SUN 2030',
        '@daily',
        '@every 1h30m',
        '@annually',
      ]) {
        const schedule = await create(good);
        expect(schedule.schedule).to.equal(good);
        expect(schedule.status).to.equal('BACKUP_SCHEDULE_STATUS_ACTIVE');
      }
      const cases: Array<[string, string]> = [
        ['0 3 * *', 'a cron expression has 5 to 7 fields, got 4'],
        ['61 3 * * *', 'minute field "61": "61" is not a valid minute (0-59)'],
        ['0 3 * * FUNDAY', 'day of week field "FUNDAY"'],
        ['0 3 */0 * *', 'day of month field "*/0": step "0" must be a positive number'],
        ['0 9-5 * * *', 'hour field "9-5": range "9-5" runs backwards'],
        ['@fortnightly', 'unknown descriptor "@fortnightly"'],
        ['@every soon', '@every: invalid duration "soon"'],
      ];
      for (const [bad, reason] of cases) {
        const message = await failure(create(bad), 'invalid');
        expect(message, bad).to.include(`backup_schedule.schedule: must be a valid cron expression: ${reason}`);
      }
      expect(await failure(create(''), 'invalid')).to.include(
        'backup_schedule.schedule: must be at least 1 characters [string.min_len]',
      );
      expect(await failure(create('@daily', { seconds: 3_600, nanos: 0 }), 'invalid')).to.include(
        'backup_schedule.retention_period: must be greater than or equal to 86400s and less than or equal to 31536000s [duration.gte_lte]',
      );
      expect(await failure(create('@daily', { seconds: 366 * 86_400, nanos: 0 }), 'invalid')).to.include(
        '[duration.gte_lte]',
      );
      await create('@daily', { seconds: 365 * 86_400, nanos: 0 });
    });

    it('reads, updates and deletes schedules within their cluster', async () => {
      const cluster = await healthyCluster();
      const schedule = await vdb.backupSchedules.create({
        accountId: account,
        clusterId: cluster.id,
        schedule: '@daily',
        retentionPeriod: { seconds: 7 * 86_400, nanos: 0 },
      });
      await failure(
        vdb.backupSchedules.get({ accountId: account, clusterId: crypto.randomUUID(), backupScheduleId: schedule.id }),
        'not_found',
      );
      const updated = await vdb.backupSchedules.update({
        id: schedule.id,
        accountId: account,
        clusterId: cluster.id,
        schedule: '0 4 * * *',
      });
      expect(updated).to.deep.include({ schedule: '0 4 * * *', createdAt: schedule.createdAt });
      expect(updated.retentionPeriod, 'a full update: no retention now').to.equal(undefined);
      const read = await vdb.backupSchedules.get({
        accountId: account,
        clusterId: cluster.id,
        backupScheduleId: schedule.id,
      });
      expect(read).to.deep.equal(updated);
      expect(
        await failure(vdb.backupSchedules.update({ ...updated, clusterId: crypto.randomUUID() }), 'invalid'),
      ).to.include('cluster_id cannot be changed');
      expect(
        (await vdb.backupSchedules.list({ accountId: account, clusterId: cluster.id })).map(
          (s: BackupSchedule) => s.id,
        ),
      ).to.deep.equal([schedule.id]);
      await vdb.backupSchedules.delete({ accountId: account, backupScheduleId: schedule.id, deleteBackups: true });
      await failure(
        vdb.backupSchedules.get({ accountId: account, clusterId: cluster.id, backupScheduleId: schedule.id }),
        'not_found',
      );
    });

    it('runs manual backups to SUCCEEDED with a snapshot of the cluster', async () => {
      const cluster = await healthyCluster();
      const backup = await vdb.backups.create({
        accountId: account,
        clusterId: cluster.id,
        retentionPeriod: { seconds: 2 * 86_400, nanos: 0 },
      });
      expect(backup.status).to.equal('BACKUP_STATUS_RUNNING');
      expect(backup.name).to.match(/^orders-\d{14}$/);
      expect(backup.clusterInfo).to.deep.include({
        name: 'orders',
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-east-1',
        restorePackageId: emulator.packageId('aws', 'small'),
      });
      expect(backup.clusterInfo?.resourcesSummary?.ram).to.deep.equal({ amount: 12, unit: 'Gi' });
      emulator.clock.advance(PROVISIONING_MS);
      const done = await vdb.backups.get({ accountId: account, backupId: backup.id });
      expect(done.status).to.equal('BACKUP_STATUS_SUCCEEDED');
      expect(done.backupDuration).to.deep.equal({ seconds: 1, nanos: 0 });
      expect((await vdb.backups.list({ accountId: account, clusterId: cluster.id })).map((b) => b.id)).to.deep.equal([
        backup.id,
      ]);
      expect(
        await failure(
          vdb.backups.create({ accountId: account, clusterId: cluster.id, retentionPeriod: { seconds: 60, nanos: 0 } }),
          'invalid',
        ),
      ).to.include('backup.retention_period');
      await failure(vdb.backups.create({ accountId: account, clusterId: crypto.randomUUID() }), 'not_found');
      await vdb.backups.delete({ accountId: account, backupId: backup.id });
      await failure(vdb.backups.get({ accountId: account, backupId: backup.id }), 'not_found');
    });
  });
});
