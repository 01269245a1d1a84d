/**
 * `vdb_accounts_cluster` (docs/api/vdb.md, "Creating a cluster"). Create and update wait until the
 * cluster is ready: a healthy phase and a published URL
 * (docs/decisions.md, "Clusters wait until ready"), 20 minutes at most, cancelled by StopProvider,
 * and failing with the platform's reason when the cluster enters a failed phase. A cluster that
 * exists but failed to become ready is kept in the state (Terraform marks it tainted), never lost.
 */
import {
  attr,
  type AttributePath,
  attrStep,
  type ConfigModelOf,
  DiagnosticError,
  type Diagnostics,
  indexStep,
  isApiError,
  listResource,
  type OpContext,
  resource,
  resourceSchema,
  listedInOneCall,
} from '@keel/provider-framework';
import { CLUSTER_PHASES, type Cluster, type ClusterPhase } from '../../../clients/vdb/api.js';
import { waitFor, WaitFailedError, WaitTimeoutError } from '../../shared/wait.js';
import {
  accountScopedIdentity,
  accountFilter,
  accountIdOf,
  checkTolerations,
  deleteIgnoringNotFound,
  keyValuesToApi,
  type VdbContext,
} from '../common.js';
import { clusterFields, type ClusterModel, type ConfigurationModel, wiredCluster } from './schema.js';
import {
  additionalDisk,
  clusterFromApi,
  configurationToApi,
  jwtRbacOnCreate,
  tlsAsWritten,
  tlsToApi,
  wantsJwtRbac,
} from './mapping.js';
import { cloudProviderId, cloudRegionId, HYBRID, uuid } from '../formats.js';
import { apiRules } from '../rules.js';
import { combinations, heldBySchema, heldInCode } from '../rules-held.js';
import { checkClusterPlacement } from '../catalogue.js';
import { madeAtFrom } from '../../shared/made-at.js';

const schema = resourceSchema(clusterFields, {
  description:
    'A managed vector-database cluster. Creating or updating a cluster waits until it is healthy and its URL is ' +
    'published (at most 20 minutes); a cluster that fails to provision stays in the state, marked tainted, so the ' +
    'next apply replaces it.',
});

/** How long create and update wait for the cluster to become ready (docs/decisions.md, "Clusters wait until ready"). */
export const CLUSTER_READY_TIMEOUT_MS = 20 * 60_000;
/** First poll interval; it grows to at most MAX (fast for quick provisioning, gentle for slow). */
const POLL_FIRST_MS = 500;
const POLL_MAX_MS = 10_000;

/** Phases a cluster passes through on its way to healthy. */
const PROGRESSING: ClusterPhase[] = [
  'CLUSTER_PHASE_UNSPECIFIED',
  'CLUSTER_PHASE_CREATING',
  'CLUSTER_PHASE_UPDATING',
  'CLUSTER_PHASE_SCALING',
  'CLUSTER_PHASE_UPGRADING',
  'CLUSTER_PHASE_RESUMING',
  'CLUSTER_PHASE_NOT_READY',
  'CLUSTER_PHASE_RECOVERY_MODE',
  'CLUSTER_PHASE_FAILED_TO_SYNC',
];

/** Rules across the cluster's arguments; what is not known yet is not judged. */
function validateConfiguration(config: ConfigModelOf<typeof clusterFields>, diags: Diagnostics): void {
  const c = config.configuration?.[0];
  if (!c) return;
  const at = (...names: (string | number)[]) => names.map((n) => (typeof n === 'number' ? indexStep(n) : attrStep(n)));
  checkTolerations(c.tolerations, at('configuration', 0, 'tolerations'), diags);
  const tls = c.database_configuration?.[0]?.tls?.[0];
  if (tls) checkTls(tls, at('configuration', 0, 'database_configuration', 0, 'tls', 0), diags);
  checkHybridRegion(config, diags);
  const node = c.node_configuration?.[0];
  checkAdditionalDisk(node?.resource_configurations, at('configuration', 0, 'node_configuration', 0), diags);
  if (config.private_region_id && config.cloud_provider && config.cloud_provider !== HYBRID) {
    diags.warning(
      'private_region_id has no effect',
      `private_region_id only applies to clusters with cloud_provider = "${HYBRID}".`,
      at('private_region_id'),
    );
  }
}

/** The API's rules of a tls block (DatabaseConfigurationTls: cert and key required), judged where both are known. */
function checkTls(
  tls: { cert?: readonly unknown[] | undefined; key?: readonly unknown[] | undefined },
  at: AttributePath,
  diags: Diagnostics,
): void {
  if (tls.cert === undefined || tls.key === undefined || (tls.cert.length > 0 && tls.key.length > 0)) return;
  diags.error('Incomplete TLS settings', 'The tls block needs both a `cert` and a `key` block.', at);
}

const SECRET = [{ secret_name: 'qdrant-tls', secret_key: 'tls.crt' }];
heldInCode({
  message: 'cluster.v1.DatabaseConfigurationTls',
  rules: ['cert#required', 'key#required'],
  where: 'cluster/resource.ts: checkTls',
  samples: () => combinations({ cert: [[], SECRET], key: [[], SECRET] }),
  planReports: (tls, diags) => checkTls(tls, [], diags),
  sent: tlsToApi,
  literal: tlsAsWritten,
});

heldBySchema('cluster.v1.Cluster.configuration#required', {
  type: 'vdb_accounts_cluster',
  attribute: 'configuration',
  as: 'required',
});

/** Where a cluster is placed: what the hybrid region rule reads. */
type Placement = Pick<ClusterModel, 'cloud_provider' | 'cloud_region' | 'private_region_id'>;

/** Where the cluster is placed, as sent. */
function placementToApi(plan: Placement) {
  return {
    cloudProviderId: plan.cloud_provider,
    // The deprecated private_region_id names the hybrid region when set (docs/api/vdb.md, "Cluster fields").
    cloudProviderRegionId:
      plan.cloud_provider === HYBRID && plan.private_region_id ? plan.private_region_id : plan.cloud_region,
  };
}

/** The API's rule of a Cluster (cluster.hybrid_region_uuid): a hybrid cluster's region is an environment's id. */
function checkHybridRegion(
  config: Pick<ConfigModelOf<typeof clusterFields>, keyof Placement>,
  diags: Diagnostics,
): void {
  if (config.cloud_provider !== HYBRID) return;
  const [name, region] = config.private_region_id
    ? ['private_region_id', config.private_region_id]
    : ['cloud_region', config.cloud_region];
  if (typeof region !== 'string' || uuid.check(region) === undefined) return;
  diags.error(
    'Invalid hybrid cloud region',
    `With cloud_provider = "${HYBRID}" the ${name} is the id of a hybrid cloud environment, which ` +
      `${uuid.check(region)}.`,
    [attrStep(name)],
  );
}

const ENVIRONMENT_ID = '0b7e4a7c-5d1e-4f3a-9a55-3f1e2d6c7b80';
heldInCode({
  message: 'cluster.v1.Cluster',
  rules: ['cluster.hybrid_region_uuid'],
  where: 'cluster/resource.ts: checkHybridRegion',
  samples: () =>
    combinations({
      cloud_provider: ['aws', HYBRID],
      cloud_region: ['eu-west-1', ENVIRONMENT_ID],
      private_region_id: [null, 'eu-west-1', ENVIRONMENT_ID],
    }),
  planReports: checkHybridRegion,
  sent: placementToApi,
});

/** The disk amounts add up to the extra disk per node, whose bound is the API's (AdditionalResources.disk). */
function checkAdditionalDisk(
  resources:
    | readonly { amount?: number | null; resource_type?: string | null; resource_unit?: string | null }[]
    | undefined,
  at: AttributePath,
  diags: Diagnostics,
): void {
  if (!resources?.every((r) => typeof r.amount === 'number' && r.resource_type != null && r.resource_unit != null))
    return;
  const total = additionalDisk(resources as { amount: number; resource_type: string; resource_unit: string }[]);
  const problem = EXTRA_DISK.map((rule) => rule.check(total)).find(Boolean);
  if (problem) {
    diags.error(
      'Too much extra disk',
      `The disk amounts in Gi of resource_configurations add up to the extra disk per node, which ${problem}.`,
      [...at, attrStep('resource_configurations')],
    );
  }
}

const EXTRA_DISK = apiRules<number>('cluster.v1.AdditionalResources.disk');

function toApi(plan: ClusterModel, accountId: string) {
  const configuration = plan.configuration[0]!;
  return {
    ...(wiredCluster.send(plan) as { name: string }),
    accountId,
    ...placementToApi(plan),
    labels: keyValuesToApi(plan.labels),
    configuration: configurationToApi(configuration),
  };
}

const fromApi = (c: Cluster, prior: ClusterModel | null) => clusterFromApi(c, prior);

/** Polls the cluster until it is healthy with a URL; on failure keeps the last form in state and explains. */
async function waitUntilReady(
  request: ClusterRequest,
  plan: ClusterModel,
  verb: 'created' | 'updated',
  ctx: OpContext<VdbContext>,
): Promise<Cluster> {
  try {
    return await waitFor({
      what: `cluster ${request.clusterId} to become ready`,
      refresh: (signal) => ctx.client.api.clusters.get(request, { signal }),
      phaseOf: (c) => c.state?.phase ?? 'CLUSTER_PHASE_UNSPECIFIED',
      pending: PROGRESSING,
      target: ['CLUSTER_PHASE_HEALTHY'],
      isComplete: (c) => Boolean(c.state?.endpoint?.url),
      reasonOf: (c) => c.state?.reason ?? '',
      timeoutMs: CLUSTER_READY_TIMEOUT_MS,
      intervalMs: POLL_FIRST_MS,
      maxIntervalMs: POLL_MAX_MS,
      signal: ctx.signal,
      onPoll: (c) => {
        ctx.partial(fromApi(c, plan));
        ctx.log.debug('waiting for the cluster to become ready', {
          cluster_id: c.id,
          phase: c.state?.phase ?? 'unknown',
        });
      },
    });
  } catch (err) {
    // A created cluster is kept in the state by the engine, which says so; an update says it here.
    const keep =
      verb === 'updated' ? ' The change was made and the state shows it; the next apply retries whatever is left.' : '';
    if (err instanceof WaitFailedError) {
      throw new DiagnosticError(
        `Cluster ${verb === 'created' ? 'failed to provision' : 'failed to apply the change'}`,
        `The cluster ${request.clusterId} (${plan.name}) entered ` +
          `phase ${err.phase}${err.reason ? `: ${err.reason}` : ' without a reason from the platform'}.${keep}`,
      );
    }
    if (err instanceof WaitTimeoutError) {
      throw new DiagnosticError('Timed out waiting for the cluster', `${err.message}.${keep}`);
    }
    throw err;
  }
}

type ClusterRequest = { accountId: string; clusterId: string };

/** Enables JWT RBAC when wanted and not yet on (one-way: the platform cannot disable it). */
async function ensureJwtRbac(
  cluster: Cluster,
  configuration: ConfigurationModel,
  ctx: OpContext<VdbContext>,
): Promise<Cluster> {
  if (!wantsJwtRbac(configuration) || cluster.state?.jwtRbac) return cluster;
  const request = { accountId: cluster.accountId, clusterId: cluster.id };
  await ctx.client.api.clusters.enableJwtRbac(request, { signal: ctx.signal });
  return ctx.client.api.clusters.get(request, { signal: ctx.signal });
}

/** What a create does once the cluster exists: wait until it is ready, enable JWT RBAC. */
async function settle(
  created: Partial<ClusterModel>,
  plan: ClusterModel,
  ctx: OpContext<VdbContext>,
): Promise<Partial<ClusterModel>> {
  const request = { accountId: created.account_id ?? accountIdOf(plan.account_id, ctx), clusterId: created.id! };
  const cluster = await waitUntilReady(request, plan, 'created', ctx);
  return fromApi(await ensureJwtRbac(cluster, plan.configuration[0]!, ctx), plan);
}

/** Only settings the platform does not know changed (nothing to send). */
const onlyLocalChanges = (plan: ClusterModel, prior: ClusterModel): boolean =>
  JSON.stringify({ ...plan, delete_backups_on_destroy: null, status: null }) ===
  JSON.stringify({ ...prior, delete_backups_on_destroy: null, status: null });

/** The API lists an account's clusters, optionally of one cloud provider and region. */
const clusterFilters = resourceSchema(
  {
    account_id: accountFilter('clusters'),
    cloud_provider: attr.string({
      optional: true,
      validate: [cloudProviderId],
      description: 'Only clusters of this cloud provider (e.g. `aws`, or `hybrid`).',
    }),
    cloud_region: attr.string({
      optional: true,
      validate: [cloudRegionId],
      description: 'Only clusters in this region (for `hybrid`, the hybrid cloud environment id).',
    }),
  },
  {
    description:
      'Lists the clusters of an account (not those marked for deletion), optionally of one cloud provider and region.',
  },
);

export default resource<typeof clusterFields, VdbContext>({
  typeName: 'vdb_accounts_cluster',
  schema,
  importIdDescription: 'the cluster id',
  importState: async (id) => ({ id }),
  identity: accountScopedIdentity({ id: 'The cluster id.' }),
  list: listResource<typeof clusterFields, typeof clusterFilters.fields, VdbContext>({
    schema: clusterFilters,
    async list(f, ctx) {
      const accountId = accountIdOf(f.account_id, ctx);
      const request = {
        accountId,
        ...(f.cloud_provider ? { cloudProviderId: f.cloud_provider } : {}),
        ...(f.cloud_region ? { cloudProviderRegionId: f.cloud_region } : {}),
      };
      // A cluster marked for deletion is on its way out: not one to manage.
      return (await ctx.client.api.clusters.list(request, { signal: ctx.signal }))
        .filter((c) => !c.deletedAt)
        .map((c) => fromApi(c, null));
    },
    displayName: (m) => m.name,
  }),
  validate: validateConfiguration,
  checkAgainstCatalogue: checkClusterPlacement,
  // The deprecated private_region_id is the region of a hybrid cluster (toApi): its current form is
  // cloud_region, which the schema cannot say, since only a hybrid cluster takes it.
  generatedConfig: (state) =>
    state.cloud_provider === HYBRID && state.private_region_id ? { cloud_region: state.private_region_id } : {},
  async create(plan, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const jwtRbac = jwtRbacOnCreate(plan.configuration[0]!);
    const created = await ctx.client.api.clusters.create(toApi(plan, accountId), {
      signal: ctx.signal,
      ...(jwtRbac !== undefined ? { jwtRbac } : {}),
    });
    return fromApi(created, plan);
  },
  settle,
  // A cluster is known by its name, provider and region (one not being deleted).
  findCreated: {
    key: 'its name, cloud provider and region',
    uniqueKey: false,
    describe: (plan) => `the cluster named ${JSON.stringify(plan.name)} in ${plan.cloud_provider} ${plan.cloud_region}`,
    list: async (plan, ctx) =>
      (await ctx.client.api.clusters.list({ accountId: accountIdOf(plan.account_id, ctx) }, { signal: ctx.signal }))
        .filter((c) => !c.deletedAt)
        .map((c) => fromApi(c, plan)),
    scope: (plan) => plan.account_id ?? '',
    holdsKey: (plan, found) =>
      found.name === plan.name &&
      found.cloud_provider === plan.cloud_provider &&
      found.cloud_region === plan.cloud_region,
    importId: (found) => found.id ?? '',
    madeAt: madeAtFrom('created_at'),
  },
  async read(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    return fromApi(
      await ctx.client.api.clusters.get({ accountId, clusterId: prior.id! }, { signal: ctx.signal }),
      prior,
    );
  },
  // The account's clusters, every page: ListClusters answers each as GetCluster does.
  readsByListing: {
    scope: (prior, ctx) => accountIdOf(prior.account_id, ctx),
    pages: listedInOneCall((ctx, prior: ClusterModel) =>
      ctx.client.api.clusters.list({ accountId: accountIdOf(prior.account_id, ctx) }, { signal: ctx.signal }),
    ),
    idOf: (cluster) => cluster.id,
    read: fromApi,
  },
  async update(plan, prior, ctx) {
    const accountId = accountIdOf(plan.account_id, ctx);
    const request = { accountId, clusterId: prior.id! };
    if (onlyLocalChanges(plan, prior))
      return fromApi(await ctx.client.api.clusters.get(request, { signal: ctx.signal }), plan);
    let cluster = await ctx.client.api.clusters.update(
      {
        ...toApi(plan, accountId),
        id: prior.id!,
        // No field mask: the whole object goes back, timestamps included
        // (docs/api/vdb.md, "Updating a cluster").
        ...(prior.created_at ? { createdAt: prior.created_at } : {}),
        ...(prior.marked_for_deletion_at ? { deletedAt: prior.marked_for_deletion_at } : {}),
      },
      { signal: ctx.signal },
    );
    // The platform accepted the change: the state shows it even if the cluster then fails to apply it.
    ctx.partial(fromApi(cluster, plan));
    cluster = await waitUntilReady(request, plan, 'updated', ctx);
    cluster = await ensureJwtRbac(cluster, plan.configuration[0]!, ctx);
    return fromApi(cluster, plan);
  },
  async delete(prior, ctx) {
    const accountId = accountIdOf(prior.account_id, ctx);
    const request = { accountId, clusterId: prior.id! };
    await deleteIgnoringNotFound(() =>
      ctx.client.api.clusters.delete(
        { ...request, deleteBackups: prior.delete_backups_on_destroy !== false },
        { signal: ctx.signal },
      ),
    );
    // Wait until the cluster is gone, so a new cluster of the same name can follow at once
    // (docs/api/vdb.md, "Deleting a cluster").
    await waitFor({
      what: `cluster ${prior.id} to be deleted`,
      refresh: async (signal) => {
        try {
          return (await ctx.client.api.clusters.get(request, { signal })).state?.phase ?? 'CLUSTER_PHASE_UNSPECIFIED';
        } catch (err) {
          if (isApiError(err, 'not_found')) return 'GONE';
          throw err;
        }
      },
      phaseOf: (phase) => phase,
      pending: CLUSTER_PHASES,
      target: ['GONE'],
      timeoutMs: CLUSTER_READY_TIMEOUT_MS,
      intervalMs: POLL_FIRST_MS,
      maxIntervalMs: POLL_MAX_MS,
      signal: ctx.signal,
    });
  },
});
