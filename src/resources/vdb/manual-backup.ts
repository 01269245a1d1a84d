/**
 * `vdb_accounts_manual_backup` (docs/api/vdb.md, "Backups"): a one-off backup of a cluster. A backup cannot
 * be changed, so every input forces a new one; the platform runs it in the background (no waiting),
 * and refreshes show its progress in `status`.
 */
import {
  attr,
  listResource,
  type ModelOf,
  resource,
  resourceSchema,
  t,
  listedInOneCall,
} from '@keel/provider-framework';
import type { Backup, BackupClusterInfo, ResourceQuantity } from '../../clients/vdb/api.js';
import {
  accountScopedIdentity,
  accountFilter,
  accountIdField,
  accountIdOf,
  deleteIgnoringNotFound,
  goDurationToProto,
  protoToGoDuration,
  type VdbContext,
} from './common.js';
import { formatTimestamp, sameGoDuration, uuid } from './formats.js';
import { apiRules } from './rules.js';
import { wireMessage } from './wired-fields.js';

const BACKUP = 'cluster.backup.v1.Backup';
import { configurationShape } from './cluster/schema.js';
import { configurationFromApi } from './cluster/mapping.js';
import { madeAtFrom } from '../shared/made-at.js';

const quantity = t.list(t.object({ amount: t.number, unit: t.string }));

const clusterInfoType = t.object({
  name: t.string,
  cloud_provider_id: t.string,
  cloud_provider_region_id: t.string,
  restore_package_id: t.string,
  resources_summary: t.list(t.object({ cpu: quantity, ram: quantity, disk: quantity })),
  configuration: t.list(configurationShape),
});

const declared = {
  id: attr.computedId('The backup id (a UUID).'),
  account_id: accountIdField(),
  cluster_id: attr.string({
    required: true,
    replace: true,
    refersTo: 'a cluster',
    description: 'The cluster to back up.',
  }),
  retention_period: attr.string({
    optional: true,
    replace: true,
    validate: apiRules('cluster.backup.v1.Backup.retention_period'),
    equal: sameGoDuration,
    description:
      "How long the backup is kept, as a Go duration from `24h` to `8760h` (e.g. `72h`). Unset uses the platform's " +
      'default.',
  }),
  created_at: attr.string({ computed: true, description: 'When the backup was created (RFC 3339).' }),
  deleted_at: attr.string({ computed: true, description: 'When the backup was deleted (RFC 3339), or empty.' }),
  name: attr.string({ computed: true, description: 'The name the platform gave the backup.' }),
  status: attr.string({
    computed: true,
    description: 'Status of the backup, e.g. `BACKUP_STATUS_RUNNING` or `BACKUP_STATUS_SUCCEEDED`.',
  }),
  backup_duration: attr.string({ computed: true, description: 'How long the backup took (Go duration).' }),
  backup_schedule_id: attr.string({
    computed: true,
    description: 'The schedule that made the backup; empty for a manual backup.',
  }),
  cluster_info: attr.of(t.list(clusterInfoType))({
    computed: true,
    description:
      'The cluster as it was when the backup was taken: `name`, `cloud_provider_id`, `cloud_provider_region_id`, ' +
      '`restore_package_id`, `resources_summary` (cpu, ram, disk amounts) and `configuration` (the attributes of the ' +
      "cluster's `configuration` block).",
  }),
};

/**
 * The backup's fields that are the API's as they are (./wired-fields.ts): checked, sent and read back from
 * their wiring alone, so a field the `.proto` gains needs its attribute (`replace`: a backup never changes)
 * and its entry here. The retention period (a Duration held as a Go duration) is mapped by hand.
 */
const wired = wireMessage(BACKUP, declared, { cluster_id: 'cluster_id' });
const fields = wired.fields;

const schema = resourceSchema(fields, { description: 'A one-off backup of a cluster.' });
type Model = ModelOf<typeof fields>;

const quantityFromApi = (q: ResourceQuantity | undefined) => (q ? [{ amount: q.amount, unit: q.unit }] : []);

function clusterInfoFromApi(i: BackupClusterInfo) {
  return {
    name: i.name,
    cloud_provider_id: i.cloudProviderId,
    cloud_provider_region_id: i.cloudProviderRegionId,
    restore_package_id: i.restorePackageId ?? '',
    resources_summary: i.resourcesSummary
      ? [
          {
            cpu: quantityFromApi(i.resourcesSummary.cpu),
            ram: quantityFromApi(i.resourcesSummary.ram),
            disk: quantityFromApi(i.resourcesSummary.disk),
          },
        ]
      : [],
    // A snapshot of the configuration: no live cluster state, so no JWT information.
    configuration: i.configuration ? [configurationFromApi(i.configuration, undefined, undefined)] : [],
  };
}

function fromApi(b: Backup, prior?: Partial<Model>): Partial<Model> {
  const retention = protoToGoDuration(b.retentionPeriod);
  return {
    ...wired.read(b, prior),
    id: b.id,
    account_id: b.accountId,
    // Read back only when the platform reports it; otherwise the configured value stays.
    ...(retention !== null ? { retention_period: retention } : {}),
    created_at: formatTimestamp(b.createdAt),
    deleted_at: formatTimestamp(b.deletedAt),
    name: b.name,
    status: b.status,
    backup_duration: protoToGoDuration(b.backupDuration) ?? '0s',
    backup_schedule_id: b.backupScheduleId ?? '',
    cluster_info: b.clusterInfo ? ([clusterInfoFromApi(b.clusterInfo)] as never) : [],
  };
}

/** The API lists an account's backups, or one cluster's. */
const backupFilters = resourceSchema(
  {
    account_id: accountFilter('backups'),
    cluster_id: attr.string({ optional: true, validate: [uuid], description: 'Only the backups of this cluster.' }),
  },
  {
    description:
      'Lists the manual backups of an account, or of one cluster (not those a schedule made, nor deleted ones).',
  },
);

export const manualBackup = resource<typeof fields, VdbContext>({
  typeName: 'vdb_accounts_manual_backup',
  schema,
  importIdDescription: 'the backup id',
  importState: async (id) => ({ id }),
  identity: accountScopedIdentity({ id: 'The backup id.' }),
  list: listResource<typeof fields, typeof backupFilters.fields, VdbContext>({
    schema: backupFilters,
    async list(f, ctx) {
      const request = {
        accountId: accountIdOf(f.account_id, ctx),
        ...(f.cluster_id ? { clusterId: f.cluster_id } : {}),
      };
      // Backups a schedule made belong to the schedule; deleted ones are gone.
      return (await ctx.client.api.backups.list(request, { signal: ctx.signal }))
        .filter((b) => !b.backupScheduleId && !b.deletedAt)
        .map((b) => fromApi(b));
    },
    displayName: (m) => m.name ?? m.id ?? '',
  }),
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const retentionPeriod = goDurationToProto(plan.retention_period);
    return fromApi(
      await ctx.client.api.backups.create(
        {
          ...(wired.send(plan) as { clusterId: string }),
          accountId,
          ...(retentionPeriod ? { retentionPeriod } : {}),
        },
        { signal: ctx.signal },
      ),
      plan,
    );
  },
  /**
   * A backup has no name of its own (the platform names it): a manual one is known by its cluster,
   * no schedule, its retention when one is configured, among the backups created since this apply began.
   */
  findCreated: {
    key: 'its cluster (a backup that no schedule made)',
    uniqueKey: false,
    describe: (plan) => `a manual backup of cluster ${plan.cluster_id}`,
    // One listing of the account's backups serves the creates on every cluster.
    list: async (plan, ctx) =>
      (await ctx.client.api.backups.list({ accountId: accountIdOf(plan.account_id, ctx) }, { signal: ctx.signal }))
        .filter((b) => !b.backupScheduleId && !b.deletedAt)
        .map((b) => fromApi(b, plan)),
    scope: (plan) => plan.account_id ?? '',
    holdsKey: (plan, found) => found.cluster_id === plan.cluster_id,
    importId: (found) => found.id ?? '',
    madeAt: madeAtFrom('created_at'),
  },
  async read(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    return fromApi(await ctx.client.api.backups.get({ accountId, backupId: prior.id! }, { signal: ctx.signal }), prior);
  },
  readsByListing: {
    scope: (prior, ctx) => accountIdOf(prior.account_id, ctx),
    pages: listedInOneCall((ctx, prior: Model) =>
      ctx.client.api.backups.list({ accountId: accountIdOf(prior.account_id, ctx) }, { signal: ctx.signal }),
    ),
    idOf: (backup) => backup.id,
    read: (backup, prior) => fromApi(backup, prior),
  },
  async delete(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    await deleteIgnoringNotFound(() =>
      ctx.client.api.backups.delete({ accountId, backupId: prior.id! }, { signal: ctx.signal }),
    );
  },
});
