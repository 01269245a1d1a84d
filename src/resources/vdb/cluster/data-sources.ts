/**
 * The cluster data sources (docs/api/vdb.md, "Data sources"): `vdb_accounts_cluster` looks up one
 * cluster by id, `vdb_accounts_clusters` lists the clusters of an account. Both show the resource's
 * attributes with nested objects as lists.
 */
import { attr, type AttrDef, dataSource, resourceSchema, t, type Typed } from '@keel/provider-framework';
import type { Cluster } from '../../../clients/vdb/api.js';
import { ACCOUNT_ID, accountIdOf, shownAsComputed, type VdbContext } from '../common.js';
import { uuid } from '../formats.js';
import { clusterFromApi } from './mapping.js';
import { HYBRID } from '../formats.js';
import { clusterFields, clusterShapeFields, configurationShape, statusDescription, statusType } from './schema.js';

/** One cluster in data-source form (the same plain structure the resource uses). */
function clusterData(c: Cluster) {
  // Data sources show the legacy private region id of hybrid clusters, as the platform names it.
  return {
    ...clusterFromApi(c, null),
    private_region_id: c.cloudProviderId === HYBRID ? c.cloudProviderRegionId : '',
    delete_backups_on_destroy: true,
  };
}

const singleDeclared = {
  id: attr.string({ required: true, validate: [uuid], description: 'The id of the cluster to look up.' }),
  account_id: attr.string({
    validate: ACCOUNT_ID,
    optional: true,
    computed: true,
    description: "The account of the cluster. Defaults to the provider's `account_id`.",
  }),
  name: attr.string({ computed: true, description: 'Name of the cluster.' }),
  labels: attr.of(t.list(t.object({ key: t.string, value: t.string })))({
    computed: true,
    description: 'Labels of the cluster.',
  }),
  cloud_provider: attr.string({ computed: true, description: 'The cloud provider id, or `hybrid`.' }),
  cloud_region: attr.string({
    computed: true,
    description: 'The region id; for hybrid clusters, the hybrid cloud environment id.',
  }),
  private_region_id: attr.string({
    computed: true,
    deprecated: 'Read `cloud_region` instead, which holds the same id when `cloud_provider` is "hybrid".',
    description: 'For hybrid clusters, the hybrid cloud environment id (the same as `cloud_region`); empty otherwise.',
  }),
  created_at: attr.string({ computed: true, description: 'When the cluster was created (RFC 3339).' }),
  marked_for_deletion_at: attr.string({
    computed: true,
    description: 'When the cluster was marked for deletion (RFC 3339), or empty.',
  }),
  url: attr.string({ computed: true, description: 'The endpoint URL of the cluster.' }),
  configuration: attr.of(t.list(configurationShape))({
    computed: true,
    description:
      "The configuration of the cluster (the attributes of the `vdb_accounts_cluster` resource's `configuration` " +
      'block).',
  }),
  status: attr.of(t.list(statusType))({ computed: true, description: statusDescription }),
  delete_backups_on_destroy: attr.bool({
    optional: true,
    default: true,
    description: "Has no effect in a data source; kept for compatibility with the resource's attributes.",
  }),
};

/** The attributes shaped here; every other attribute of the resource (a field the `.proto` adds) is shown too. */
const singleSchema = resourceSchema(
  { ...singleDeclared, ...(shownAsComputed(clusterFields, singleDeclared) as Record<never, never>) },
  { description: 'Looks up one cluster by its id.' },
);

export const clusterDataSource = dataSource<typeof singleSchema.fields, VdbContext>({
  typeName: 'vdb_accounts_cluster',
  schema: singleSchema,
  async read(config, ctx) {
    const accountId = accountIdOf(config.account_id, ctx);
    const c = await ctx.client.api.clusters.get({ accountId, clusterId: config.id }, { signal: ctx.signal });
    return {
      ...clusterData(c),
      id: c.id,
      delete_backups_on_destroy: config.delete_backups_on_destroy ?? true,
    } as never;
  },
});

/** The type of each attribute of the resource that clusterShapeFields does not shape (a field the `.proto` adds). */
function unshapedTypes(): Record<string, Typed<unknown>> {
  const shown = shownAsComputed(clusterFields, { id: null, ...clusterShapeFields } as never);
  return Object.fromEntries(Object.entries(shown).map(([name, def]) => [name, (def as AttrDef<unknown>).type]));
}

const listSchema = resourceSchema(
  {
    id: attr.computedId('The account whose clusters are listed.'),
    account_id: attr.string({
      validate: ACCOUNT_ID,
      optional: true,
      computed: true,
      description: "The account whose clusters are listed. Defaults to the provider's `account_id`.",
    }),
    clusters: attr.of(t.list(t.object({ id: t.string, ...clusterShapeFields, ...unshapedTypes() })))({
      computed: true,
      description:
        'The clusters of the account, with the attributes of the `vdb_accounts_cluster` resource (nested objects as ' +
        'lists).',
    }),
  },
  { description: 'Lists the clusters of an account.' },
);

export const clustersDataSource = dataSource<typeof listSchema.fields, VdbContext>({
  typeName: 'vdb_accounts_clusters',
  schema: listSchema,
  async read(config, ctx) {
    const accountId = accountIdOf(config.account_id, ctx);
    const clusters = await ctx.client.api.clusters.list({ accountId }, { signal: ctx.signal });
    return {
      id: accountId,
      account_id: accountId,
      clusters: clusters.map(clusterData) as never,
    };
  },
});
