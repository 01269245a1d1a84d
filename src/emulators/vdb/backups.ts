/**
 * BackupService: schedules (cron expression, retention 1–365 days) and backups
 * (docs/api/vdb.md, "Backups and backup schedules"). A backup is RUNNING when created and SUCCEEDED
 * `provisioningMs` later (or FAILED, SKIPPED, … when a test asked the next backup to end so:
 * `failNextBackup`).
 */
import type { Backup, BackupSchedule, Cluster } from './records.js';
import { parseTimestamp, type WireObject } from './wire-codec.js';
import { nanosToDuration } from '../../../packages/framework/src/wire/go-duration.js';
import { VDB_SERVICES } from '../../wire/vdb-proto.js';
import { packagesFor } from './catalog.js';
import { requireCluster } from './clusters.js';
import { paginate } from './paging.js';
import {
  checkAccount,
  newId,
  nowTimestamp,
  removeStored,
  replacedBy,
  sentFields,
  type StoredKind,
  type VdbContext,
} from './context.js';
import { Violations, invalidArgument, notFound } from './errors.js';
import { cronProblem } from './cron.js';
import type { ServiceRegistration } from './server.js';

/** The fields of a schedule and of a backup that the server sets (the others are the client's, kept as sent). */
const SCHEDULE_SERVER_FIELDS = ['id', 'createdAt', 'deletedAt', 'status'] as const;
const BACKUP_SERVER_FIELDS = [
  'id',
  'createdAt',
  'deletedAt',
  'name',
  'status',
  'backupDuration',
  'backupScheduleId',
  'clusterInfo',
] as const;

/** Schedules go with their cluster. */
export const BACKUP_SCHEDULES: StoredKind<'backupSchedules', BackupSchedule> = {
  name: 'backupSchedules',
  label: 'backup schedule',
  refersTo: [{ to: 'clusters', field: 'clusterId', whenDeleted: 'remove' }],
};

/** Backups outlive their cluster and schedule unless the delete call asks (`delete_backups`). */
export const BACKUPS: StoredKind<'backups', Backup> = {
  name: 'backups',
  label: 'backup',
  refersTo: [
    { to: 'clusters', field: 'clusterId', whenDeleted: 'remove', onlyIfAsked: 'deleteBackups' },
    { to: BACKUP_SCHEDULES.name, field: 'backupScheduleId', whenDeleted: 'remove', onlyIfAsked: 'deleteBackups' },
  ],
  refresh: refreshBackup,
};

export const BACKUP_MODULE = { services: backupServices, storage: [BACKUP_SCHEDULES, BACKUPS] } as const;

function backupServices(ctx: VdbContext): ServiceRegistration[] {
  return [
    {
      service: VDB_SERVICES.backup,
      handlers: {
        ListBackupSchedules: (request) => {
          checkAccount(ctx, request.accountId);
          const clusterId = request.clusterId as string | undefined;
          const items = ctx.store
            .list<BackupSchedule>(BACKUP_SCHEDULES.name)
            .filter((s) => clusterId === undefined || s.clusterId === clusterId);
          return paginate(ctx, items, request);
        },
        GetBackupSchedule: (request) => {
          checkAccount(ctx, request.accountId);
          return {
            backupSchedule: requireSchedule(ctx, request.backupScheduleId as string, request.clusterId as string),
          };
        },
        CreateBackupSchedule: (request) => ({
          backupSchedule: createSchedule(ctx, request.backupSchedule as BackupSchedule | undefined),
        }),
        UpdateBackupSchedule: (request) => ({
          backupSchedule: updateSchedule(ctx, request.backupSchedule as BackupSchedule | undefined),
        }),
        DeleteBackupSchedule: (request) => {
          checkAccount(ctx, request.accountId);
          const schedule = requireSchedule(ctx, request.backupScheduleId as string);
          removeStored(ctx, BACKUP_SCHEDULES, schedule.id, { deleteBackups: request.deleteBackups === true });
          return {};
        },
        ListBackups: (request) => {
          checkAccount(ctx, request.accountId);
          const clusterId = request.clusterId as string | undefined;
          const scheduleId = request.backupScheduleId as string | undefined;
          const items = refreshAllBackups(ctx).filter(
            (b) =>
              (clusterId === undefined || b.clusterId === clusterId) &&
              (scheduleId === undefined || b.backupScheduleId === scheduleId),
          );
          return paginate(ctx, items, request);
        },
        GetBackup: (request) => {
          checkAccount(ctx, request.accountId);
          return { backup: requireBackup(ctx, request.backupId as string) };
        },
        CreateBackup: (request) => ({ backup: createBackup(ctx, request.backup as Backup | undefined) }),
        DeleteBackup: (request) => {
          checkAccount(ctx, request.accountId);
          requireBackup(ctx, request.backupId as string);
          removeStored(ctx, BACKUPS, request.backupId as string);
          return {};
        },
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// schedules

function requireSchedule(ctx: VdbContext, id: string, clusterId?: string): BackupSchedule {
  const schedule = ctx.store.get<BackupSchedule>(BACKUP_SCHEDULES.name, id);
  if (!schedule || (clusterId !== undefined && clusterId !== '' && schedule.clusterId !== clusterId))
    throw notFound(`backup schedule ${id}`);
  return schedule;
}

/**
 * The schedule's grammar is the server's code, not a rule of the API (its length is: it held before
 * the handler ran, so the expression parsed here is short).
 */
function checkCron(schedule: BackupSchedule): void {
  const problem = cronProblem(schedule.schedule);
  if (!problem) return;
  const v = new Violations();
  v.add('backup_schedule.schedule', `must be a valid cron expression: ${problem}`, 'string.cron');
  v.throwIfAny();
}

function createSchedule(ctx: VdbContext, input: BackupSchedule | undefined): WireObject {
  // The API's rules held (request-rules.ts): a schedule is given, in bounds, with nothing the server sets.
  const schedule = input!;
  checkCron(schedule);
  checkAccount(ctx, schedule.accountId);
  requireCluster(ctx, schedule.clusterId);
  // Every field the client may set is kept as sent; the server sets the rest.
  const stored: BackupSchedule = {
    ...sentFields(schedule, SCHEDULE_SERVER_FIELDS),
    id: newId(),
    createdAt: nowTimestamp(ctx),
    status: 'BACKUP_SCHEDULE_STATUS_ACTIVE',
  };
  ctx.store.put(BACKUP_SCHEDULES.name, stored.id, stored);
  return stored as unknown as WireObject;
}

function updateSchedule(ctx: VdbContext, input: BackupSchedule | undefined): WireObject {
  // The API's rules held (request-rules.ts): a schedule with an id is given, in bounds.
  const schedule = input!;
  checkCron(schedule);
  checkAccount(ctx, schedule.accountId);
  const current = requireSchedule(ctx, schedule.id);
  if (schedule.clusterId !== current.clusterId) {
    throw invalidArgument(`backup_schedule.cluster_id cannot be changed (is ${current.clusterId})`);
  }
  const stored: BackupSchedule = {
    ...replacedBy(current, schedule, SCHEDULE_SERVER_FIELDS),
    accountId: current.accountId,
    clusterId: current.clusterId,
  };
  ctx.store.put(BACKUP_SCHEDULES.name, stored.id, stored);
  return stored as unknown as WireObject;
}

// ---------------------------------------------------------------------------------------------
// backups

function requireBackup(ctx: VdbContext, id: string): Backup {
  const backup = refreshBackup(ctx, id);
  if (!backup) throw notFound(`backup ${id}`);
  return backup;
}

function createBackup(ctx: VdbContext, input: Backup | undefined): WireObject {
  // The API's rules held (request-rules.ts): a backup is given, in bounds, with nothing the server sets.
  const backup = input!;
  checkAccount(ctx, backup.accountId);
  const cluster = requireCluster(ctx, backup.clusterId);
  const stamp = nowTimestamp(ctx)
    .replace(/[-:TZ]/g, '')
    .slice(0, 14);
  // Every field the client may set is kept as sent; the server sets the rest.
  const stored: Backup = {
    ...sentFields(backup, BACKUP_SERVER_FIELDS),
    id: newId(),
    createdAt: nowTimestamp(ctx),
    clusterId: cluster.id,
    name: `${cluster.name}-${stamp}`,
    status: 'BACKUP_STATUS_RUNNING',
    clusterInfo: clusterInfo(ctx, cluster),
  };
  ctx.store.put(BACKUPS.name, stored.id, stored);
  const failure = ctx.backupFailures.shift();
  if (failure !== undefined) ctx.backupOutcomes.set(stored.id, failure);
  return stored as unknown as WireObject;
}

function clusterInfo(ctx: VdbContext, cluster: Cluster): Backup['clusterInfo'] {
  const pkg = packagesFor(ctx, cluster.cloudProviderId, cluster.cloudProviderRegionId).find(
    (p) => p.id === cluster.configuration.packageId,
  );
  const quantity = (text: string | undefined): { amount: number; unit: string } => {
    const match = /^(\d+)(\D*)$/.exec(text ?? '');
    return match
      ? { amount: Number(match[1]) * cluster.configuration.numberOfNodes, unit: match[2]! }
      : { amount: 0, unit: '' };
  };
  return {
    name: cluster.name,
    cloudProviderId: cluster.cloudProviderId,
    cloudProviderRegionId: cluster.cloudProviderRegionId,
    configuration: cluster.configuration,
    resourcesSummary: {
      cpu: quantity(pkg?.resourceConfiguration?.cpu),
      ram: quantity(pkg?.resourceConfiguration?.ram),
      disk: quantity(pkg?.resourceConfiguration?.disk),
    },
    ...(pkg ? { restorePackageId: pkg.id } : {}),
  };
}

function refreshAllBackups(ctx: VdbContext): Backup[] {
  return ctx.store.list<Backup>(BACKUPS.name).map((backup) => refreshBackup(ctx, backup.id)!);
}

/** RUNNING backups finish `provisioningMs` after they were created, as SUCCEEDED unless a test said otherwise. */
export function refreshBackup(ctx: VdbContext, id: string): Backup | undefined {
  const backup = ctx.store.get<Backup>(BACKUPS.name, id);
  if (backup?.status !== 'BACKUP_STATUS_RUNNING' || backup.createdAt === undefined) return backup;
  const created = parseTimestamp(backup.createdAt);
  if (!created) return backup;
  const startedMs = created.seconds * 1000 + Math.floor(created.nanos / 1e6);
  if (ctx.clock.now() < startedMs + ctx.provisioningMs) return backup;
  const finished: Backup = {
    ...backup,
    status: (ctx.backupOutcomes.get(id) ?? 'BACKUP_STATUS_SUCCEEDED') as Backup['status'],
    backupDuration: nanosToDuration(BigInt(ctx.provisioningMs) * 1_000_000n),
  };
  ctx.store.put(BACKUPS.name, id, finished);
  return finished;
}
