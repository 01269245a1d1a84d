/** BackupService (cluster.backup.v1): backup schedules and the backups of a cluster. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { items, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import { type Answered, type Sent, VDB_ENUMS, type VdbEnum } from '../messages.js';

export const BACKUP_SCHEDULE_STATUSES = VDB_ENUMS['cluster.backup.v1.BackupScheduleStatus'];
export type BackupScheduleStatus = VdbEnum<'cluster.backup.v1.BackupScheduleStatus'>;
export const BACKUP_STATUSES = VDB_ENUMS['cluster.backup.v1.BackupStatus'];
export type BackupStatus = VdbEnum<'cluster.backup.v1.BackupStatus'>;

/**
 * A schedule as created: cron (5–7 fields), `@daily` etc., or `@every <go duration>`, how long backups
 * stay, and any other field of the message (sent as given, so a field the `.proto` gains needs nothing here).
 */
export type BackupScheduleInput = Omit<
  Sent<'cluster.backup.v1.BackupSchedule', 'accountId' | 'clusterId' | 'schedule'>,
  'id' | 'createdAt' | 'deletedAt' | 'status'
>;
export type BackupScheduleUpdate = BackupScheduleInput & { readonly id: string };
export type BackupSchedule = Answered<'cluster.backup.v1.BackupSchedule'>;

export type ResourceQuantity = Answered<'cluster.backup.v1.ResourceQuantity'>;
/** The cluster as it was when the backup was taken. */
export type BackupClusterInfo = Answered<'cluster.backup.v1.ClusterInfo'>;

/** A backup as asked for, and any other field the client may set (sent as given, as a schedule's). */
export type BackupInput = Omit<
  Sent<'cluster.backup.v1.Backup', 'accountId' | 'clusterId'>,
  'id' | 'createdAt' | 'deletedAt' | 'name' | 'status' | 'backupDuration' | 'backupScheduleId' | 'clusterInfo'
>;
/** A backup; its name is the server's, and `backupScheduleId` is set when a schedule took it. */
export type Backup = Answered<'cluster.backup.v1.Backup'>;

export type BackupSchedulesApi = ReturnType<typeof backupSchedulesApi>;

export function backupSchedulesApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.backup);
  return {
    list: calls.allPages<{ accountId: string; clusterId?: string | undefined }, BackupSchedule>({
      method: 'ListBackupSchedules',
      items: items(['id']),
    }),

    get: calls.unary<{ accountId: string; clusterId: string; backupScheduleId: string }, BackupSchedule>({
      method: 'GetBackupSchedule',
      safety: 'read',
      answer: one('backupSchedule', ['id']),
    }),

    /** Retried only when declined (see Errors in ../api.ts). */
    create: calls.unary<BackupScheduleInput, BackupSchedule>({
      method: 'CreateBackupSchedule',
      safety: 'once',
      request: (input) => ({ backupSchedule: { ...input } }),
      answer: one('backupSchedule', ['id']),
    }),

    update: calls.unary<BackupScheduleUpdate, BackupSchedule>({
      method: 'UpdateBackupSchedule',
      safety: 'idempotent',
      request: (input) => ({ backupSchedule: { ...input } }),
      answer: one('backupSchedule', ['id']),
    }),

    delete: calls.unary<{ accountId: string; backupScheduleId: string; deleteBackups?: boolean | undefined }, void>({
      method: 'DeleteBackupSchedule',
      safety: 'idempotent',
      answer: nothing,
    }),
  };
}

export type BackupsApi = ReturnType<typeof backupsApi>;

export function backupsApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.backup);
  return {
    list: calls.allPages<
      { accountId: string; clusterId?: string | undefined; backupScheduleId?: string | undefined },
      Backup
    >({ method: 'ListBackups', items: items(['id']) }),

    get: calls.unary<{ accountId: string; backupId: string }, Backup>({
      method: 'GetBackup',
      safety: 'read',
      answer: one('backup', ['id']),
    }),

    /** Retried only when declined (see Errors in ../api.ts). Returns at once (status RUNNING); no waiting. */
    create: calls.unary<BackupInput, Backup>({
      method: 'CreateBackup',
      safety: 'once',
      request: (input) => ({ backup: { ...input } }),
      answer: one('backup', ['id']),
    }),

    delete: calls.unary<{ accountId: string; backupId: string }, void>({
      method: 'DeleteBackup',
      safety: 'idempotent',
      answer: nothing,
    }),
  };
}
