/** BackupService (cluster.backup.v1): backup schedules and the backups of a cluster. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { items, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import type { ProtoDuration } from '../common.js';
import type { ClusterConfiguration } from './clusters.js';

export const BACKUP_SCHEDULE_STATUSES = [
  'BACKUP_SCHEDULE_STATUS_UNSPECIFIED',
  'BACKUP_SCHEDULE_STATUS_ACTIVE',
  'BACKUP_SCHEDULE_STATUS_FAILED_TO_SYNC',
  'BACKUP_SCHEDULE_STATUS_NOT_FOUND',
  'BACKUP_SCHEDULE_STATUS_DISABLED',
] as const;
export type BackupScheduleStatus = (typeof BACKUP_SCHEDULE_STATUSES)[number];

export const BACKUP_STATUSES = [
  'BACKUP_STATUS_UNSPECIFIED',
  'BACKUP_STATUS_RUNNING',
  'BACKUP_STATUS_SKIPPED',
  'BACKUP_STATUS_FAILED',
  'BACKUP_STATUS_SUCCEEDED',
  'BACKUP_STATUS_FAILED_TO_SYNC',
  'BACKUP_STATUS_NOT_FOUND',
] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

export interface BackupScheduleInput {
  readonly accountId: string;
  readonly clusterId: string;
  /** Cron (5–7 fields), `@daily` etc., or `@every <go duration>`. */
  readonly schedule: string;
  /** 1 day … 365 days. */
  readonly retentionPeriod?: ProtoDuration | undefined;
}

export interface BackupScheduleUpdate extends BackupScheduleInput {
  readonly id: string;
}

export interface BackupSchedule {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly accountId: string;
  readonly clusterId: string;
  readonly schedule: string;
  readonly retentionPeriod?: ProtoDuration | undefined;
  readonly deletedAt?: string | undefined;
  readonly status: BackupScheduleStatus;
}

export interface ResourceQuantity {
  readonly amount: number;
  readonly unit: string;
}

/** The cluster as it was when the backup was taken. */
export interface BackupClusterInfo {
  readonly name: string;
  readonly cloudProviderId: string;
  readonly cloudProviderRegionId: string;
  readonly configuration?: ClusterConfiguration | undefined;
  readonly resourcesSummary?:
    | {
        readonly cpu?: ResourceQuantity | undefined;
        readonly ram?: ResourceQuantity | undefined;
        readonly disk?: ResourceQuantity | undefined;
      }
    | undefined;
  readonly restorePackageId?: string | undefined;
}

export interface BackupInput {
  readonly accountId: string;
  readonly clusterId: string;
  readonly retentionPeriod?: ProtoDuration | undefined;
}

export interface Backup {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly accountId: string;
  readonly clusterId: string;
  /** Server-generated. */
  readonly name: string;
  readonly status: BackupStatus;
  readonly deletedAt?: string | undefined;
  readonly backupDuration?: ProtoDuration | undefined;
  /** Set when a schedule produced the backup. */
  readonly backupScheduleId?: string | undefined;
  readonly retentionPeriod?: ProtoDuration | undefined;
  readonly clusterInfo?: BackupClusterInfo | undefined;
}

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
      request: (input) => ({
        backupSchedule: {
          accountId: input.accountId,
          clusterId: input.clusterId,
          schedule: input.schedule,
          retentionPeriod: input.retentionPeriod,
        },
      }),
      answer: one('backupSchedule', ['id']),
    }),

    update: calls.unary<BackupScheduleUpdate, BackupSchedule>({
      method: 'UpdateBackupSchedule',
      safety: 'idempotent',
      request: (input) => ({
        backupSchedule: {
          id: input.id,
          accountId: input.accountId,
          clusterId: input.clusterId,
          schedule: input.schedule,
          retentionPeriod: input.retentionPeriod,
        },
      }),
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
      request: (input) => ({
        backup: { accountId: input.accountId, clusterId: input.clusterId, retentionPeriod: input.retentionPeriod },
      }),
      answer: one('backup', ['id']),
    }),

    delete: calls.unary<{ accountId: string; backupId: string }, void>({
      method: 'DeleteBackup',
      safety: 'idempotent',
      answer: nothing,
    }),
  };
}
