/**
 * `vdb_accounts_backup_schedule` and the `vdb_accounts_backup_schedule(s)` data sources
 * (docs/api/vdb.md, "Backup schedules"): recurring backups of a cluster. The cron expression and
 * the retention are checked at plan time; a retention written another way (`72h` vs `72h0m0s`) is
 * no change.
 */
import {
  attr,
  dataSource,
  listedInOneCall,
  listResource,
  type ModelOf,
  resource,
  resourceSchema,
  t,
} from '@keel/provider-framework';
import type { BackupSchedule } from '../../clients/vdb/api.js';
import {
  ACCOUNT_ID,
  accountScopedIdentity,
  accountFilter,
  accountIdField,
  accountIdOf,
  deleteIgnoringNotFound,
  goDurationToProto,
  protoToGoDuration,
  shownAsComputed,
  shownShape,
  splitImportId,
  type VdbContext,
} from './common.js';
import { cronExpression, formatTimestamp, sameGoDuration, uuid } from './formats.js';
import { apiRules } from './rules.js';
import { madeAtFrom } from '../shared/made-at.js';
import { wireMessage } from './wired-fields.js';

const SCHEDULE = 'cluster.backup.v1.BackupSchedule';

const declared = {
  id: attr.computedId('The schedule id (a UUID).'),
  account_id: accountIdField(),
  cluster_id: attr.string({
    required: true,
    replace: true,
    refersTo: 'a cluster',
    description: 'The cluster to back up.',
  }),
  cron_expression: attr.string({
    required: true,
    // Its length is the API's rule (from the wiring), its grammar the server's code (docs/api/vdb.md,
    // "Schedule expressions").
    validate: [cronExpression],
    description:
      'When backups run: a cron expression (`minute hour day-of-month month day-of-week`, e.g. `0 3 * * *`; 6 or 7 ' +
      'fields with seconds and year are accepted too), a macro such as `@daily`, or `@every <duration>`.',
  }),
  retention_period: attr.string({
    optional: true,
    validate: apiRules(`${SCHEDULE}.retention_period`),
    equal: sameGoDuration,
    description:
      "How long each backup is kept, as a Go duration from `24h` to `8760h` (e.g. `72h`). Unset uses the platform's " +
      'default.',
  }),
  created_at: attr.string({ computed: true, description: 'When the schedule was created (RFC 3339).' }),
  deleted_at: attr.string({ computed: true, description: 'When the schedule was deleted (RFC 3339), or empty.' }),
  status: attr.string({ computed: true, description: 'Status of the schedule, e.g. `BACKUP_SCHEDULE_STATUS_ACTIVE`.' }),
  delete_backups_on_destroy: attr.bool({
    optional: true,
    default: true,
    providerOnly: true,
    description: 'Whether the backups the schedule made are deleted with it.',
  }),
};

/**
 * The schedule's fields that are the API's as they are (./wired-fields.ts): checked, sent, read back and
 * compared by an update from their wiring alone, so a field the `.proto` gains needs its attribute and
 * its entry here. The retention period (a Duration held as a Go duration) is mapped by hand.
 */
const wired = wireMessage(SCHEDULE, declared, {
  cluster_id: 'cluster_id',
  cron_expression: 'schedule',
});
const fields = wired.fields;

const schema = resourceSchema(fields, { description: 'A backup schedule of a cluster.' });
type Model = ModelOf<typeof fields>;

/** A schedule as the resource and the data sources show it (`delete_backups_on_destroy` aside). */
function scheduleFromApi(s: BackupSchedule, prior?: Model) {
  return {
    ...wired.read(s, prior),
    id: s.id,
    account_id: s.accountId,
    retention_period: protoToGoDuration(s.retentionPeriod),
    created_at: formatTimestamp(s.createdAt),
    deleted_at: formatTimestamp(s.deletedAt),
    status: s.status,
  };
}

function toApi(m: Model, accountId: string) {
  const retentionPeriod = goDurationToProto(m.retention_period);
  return {
    ...(wired.send(m) as { clusterId: string; schedule: string }),
    accountId,
    ...(retentionPeriod ? { retentionPeriod } : {}),
  };
}

/** The API lists an account's backup schedules, or one cluster's. */
const scheduleFilters = resourceSchema(
  {
    account_id: accountFilter('backup schedules'),
    cluster_id: attr.string({ optional: true, validate: [uuid], description: 'Only the schedules of this cluster.' }),
  },
  { description: 'Lists the backup schedules of an account, or of one cluster (not those marked deleted).' },
);

export const backupSchedule = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_backup_schedule',
  schema,
  importIdDescription: '`<cluster_id>/<backup_schedule_id>`',
  identity: accountScopedIdentity({ cluster_id: 'The cluster the schedule backs up.', id: 'The schedule id.' }),
  list: listResource<typeof fields, typeof scheduleFilters.fields, VdbContext>({
    schema: scheduleFilters,
    async list(f, ctx) {
      const request = {
        accountId: accountIdOf(f.account_id, ctx),
        ...(f.cluster_id ? { clusterId: f.cluster_id } : {}),
      };
      // A schedule marked deleted is on its way out: not one to manage.
      return (await ctx.client.api.backupSchedules.list(request, { signal: ctx.signal }))
        .filter((s) => !s.deletedAt)
        .map((s) => scheduleFromApi(s));
    },
    displayName: (m) => `${m.cron_expression} (cluster ${m.cluster_id})`,
  }),
  importState: async (id) => {
    const [clusterId, scheduleId] = splitImportId(id, 'cluster_id', 'backup_schedule_id');
    return { id: scheduleId, cluster_id: clusterId };
  },
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    return scheduleFromApi(
      await ctx.client.api.backupSchedules.create(toApi(plan, accountId), { signal: ctx.signal }),
      plan,
    );
  },
  // A schedule has no name: it is known by its cluster, cron expression and retention.
  findCreated: {
    key: 'its cluster, cron expression and retention',
    uniqueKey: false,
    describe: (plan) =>
      `the backup schedule of cluster ${plan.cluster_id} with cron expression ${JSON.stringify(plan.cron_expression)}`,
    // One listing of the account's schedules serves the creates on every cluster.
    list: async (plan, ctx) =>
      (
        await ctx.client.api.backupSchedules.list(
          { accountId: accountIdOf(plan.account_id, ctx) },
          { signal: ctx.signal },
        )
      )
        .filter((s) => !s.deletedAt)
        .map((s) => scheduleFromApi(s)),
    scope: (plan) => plan.account_id ?? '',
    holdsKey: (plan, found) =>
      found.cluster_id === plan.cluster_id &&
      found.cron_expression === plan.cron_expression &&
      sameGoDuration(found.retention_period ?? '', plan.retention_period ?? ''),
    importId: (found) => `${found.cluster_id}/${found.id}`,
    madeAt: madeAtFrom('created_at'),
  },
  async read(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    return scheduleFromApi(
      await ctx.client.api.backupSchedules.get(
        { accountId, clusterId: prior.cluster_id, backupScheduleId: prior.id! },
        { signal: ctx.signal },
      ),
      prior,
    );
  },
  // Every schedule of the account in one listing (its pages), those marked deleted too, as a read finds them.
  readsByListing: {
    scope: (prior, ctx) => accountIdOf(prior.account_id, ctx),
    pages: listedInOneCall((ctx, prior: Model) =>
      ctx.client.api.backupSchedules.list({ accountId: accountIdOf(prior.account_id, ctx) }, { signal: ctx.signal }),
    ),
    // As findCreated's import id names it.
    idOf: (schedule) => `${schedule.clusterId}/${schedule.id}`,
    read: (schedule, prior) => scheduleFromApi(schedule, prior),
  },
  async update(plan, prior, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const changed =
      JSON.stringify(wired.send(plan)) !== JSON.stringify(wired.send(prior)) ||
      !sameGoDuration(plan.retention_period ?? '', prior.retention_period ?? '');
    // delete_backups_on_destroy is the provider's own setting: nothing to send for it.
    const s = changed
      ? await ctx.client.api.backupSchedules.update(
          { ...toApi(plan, accountId), id: prior.id! },
          { signal: ctx.signal },
        )
      : await ctx.client.api.backupSchedules.get(
          { accountId, clusterId: prior.cluster_id, backupScheduleId: prior.id! },
          { signal: ctx.signal },
        );
    return scheduleFromApi(s, plan);
  },
  async delete(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    await deleteIgnoringNotFound(() =>
      ctx.client.api.backupSchedules.delete(
        { accountId, backupScheduleId: prior.id!, deleteBackups: prior.delete_backups_on_destroy !== false },
        { signal: ctx.signal },
      ),
    );
  },
});

/** A listed schedule: every attribute of the resource (`delete_backups_on_destroy` always true). */
const scheduleShape = shownShape(fields);

const listSchema = resourceSchema(
  {
    id: attr.computedId('`<account_id>/<cluster_id>`.'),
    account_id: attr.string({
      validate: ACCOUNT_ID,
      optional: true,
      computed: true,
      description: "The account of the cluster. Defaults to the provider's `account_id`.",
    }),
    cluster_id: attr.string({
      required: true,
      validate: [uuid],
      description: 'The cluster whose schedules are listed.',
    }),
    schedules: attr.of(t.list(scheduleShape))({
      computed: true,
      description:
        'The backup schedules of the cluster, with the attributes of the `vdb_accounts_backup_schedule` resource ' +
        '(`delete_backups_on_destroy` is always true).',
    }),
  },
  { description: 'Lists the backup schedules of a cluster.' },
);

export const backupSchedulesDataSource = dataSource<typeof listSchema.fields, VdbContext>({
  typeName: 'vdb_accounts_backup_schedules',
  schema: listSchema,
  async read(config, ctx) {
    const accountId = accountIdOf(config.account_id, ctx);
    const schedules = await ctx.client.api.backupSchedules.list(
      { accountId, clusterId: config.cluster_id },
      { signal: ctx.signal },
    );
    return {
      id: `${accountId}/${config.cluster_id}`,
      account_id: accountId,
      schedules: schedules.map((s) => ({
        ...scheduleFromApi(s),
        retention_period: protoToGoDuration(s.retentionPeriod) ?? '',
        delete_backups_on_destroy: true,
      })),
    };
  },
});

const singleDeclared = {
  id: attr.string({ required: true, validate: [uuid], description: 'The id of the schedule to look up.' }),
  cluster_id: attr.string({ required: true, validate: [uuid], description: 'The cluster the schedule belongs to.' }),
  account_id: attr.string({
    validate: ACCOUNT_ID,
    optional: true,
    computed: true,
    description: "The account of the cluster. Defaults to the provider's `account_id`.",
  }),
  cron_expression: attr.string({ computed: true, description: 'When backups run.' }),
  retention_period: attr.string({
    computed: true,
    description: "How long each backup is kept (Go duration), or empty for the platform's default.",
  }),
  created_at: attr.string({ computed: true, description: 'When the schedule was created (RFC 3339).' }),
  deleted_at: attr.string({ computed: true, description: 'When the schedule was deleted (RFC 3339), or empty.' }),
  status: attr.string({
    computed: true,
    description: 'Status of the schedule, e.g. `BACKUP_SCHEDULE_STATUS_ACTIVE`.',
  }),
  delete_backups_on_destroy: attr.bool({
    computed: true,
    description: "Always true; kept for compatibility with the resource's attributes.",
  }),
};

/** The schedule's own attributes; every other attribute of the resource is shown too (`shownAsComputed`). */
const singleSchema = resourceSchema(
  { ...singleDeclared, ...(shownAsComputed(fields, singleDeclared) as Record<never, never>) },
  { description: 'Looks up one backup schedule of a cluster.' },
);

export const backupScheduleDataSource = dataSource<typeof singleSchema.fields, VdbContext>({
  typeName: 'vdb_accounts_backup_schedule',
  schema: singleSchema,
  async read(config, ctx) {
    const accountId = accountIdOf(config.account_id, ctx);
    const s = await ctx.client.api.backupSchedules.get(
      { accountId, clusterId: config.cluster_id, backupScheduleId: config.id },
      { signal: ctx.signal },
    );
    return {
      ...scheduleFromApi(s),
      retention_period: protoToGoDuration(s.retentionPeriod) ?? '',
      delete_backups_on_destroy: true,
    };
  },
});
