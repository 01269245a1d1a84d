/**
 * What the vdb platform's catalogue decides, checked at plan against what it lists
 * (engine/catalogue/catalogue-checks.ts): a cluster's cloud provider and region, the package offered there and
 * what it allows, the permissions of a role. Each listing is read once per process; what is not known
 * at plan is skipped, and the apply decides. The platform answers the same at apply
 * (docs/api/vdb.md, "Creating a cluster", "Roles").
 */
import { attrStep, type CatalogueContext, indexStep } from '@keel/provider-framework';
import type { BookingPackage } from '../../clients/vdb/api.js';
import type { VdbContext } from './common.js';
import { HYBRID } from './formats.js';
import { lookUp, named } from '../shared/catalogue.js';

/** The account a listing is read in: the resource's own, else the provider's; undefined when not known yet. */
function accountOf(own: string | null | undefined, ctx: CatalogueContext<VdbContext>): string | undefined {
  if (own === undefined) return undefined;
  return own || ctx.client.defaultAccountId || undefined;
}

const BOTH_STATUSES = ['PACKAGE_STATUS_ACTIVE', 'PACKAGE_STATUS_DEACTIVATED'] as const;

interface Placement {
  readonly account_id?: string | null | undefined;
  readonly cloud_provider?: string | undefined;
  readonly cloud_region?: string | undefined;
  readonly private_region_id?: string | null | undefined;
  readonly configuration?:
    | readonly {
        readonly number_of_nodes?: number | undefined;
        readonly node_configuration?: readonly { readonly package_id?: string | undefined }[] | undefined;
      }[]
    | undefined;
}

/**
 * A cluster's placement: the provider is one the platform lists, the region one of the provider's (a
 * hybrid cluster's, an environment of the account), the package one offered there and bookable, and
 * the number of nodes one the package allows.
 */
export async function checkClusterPlacement(config: Placement, ctx: CatalogueContext<VdbContext>): Promise<void> {
  const accountId = accountOf(config.account_id, ctx);
  const provider = config.cloud_provider;
  if (accountId === undefined || provider === undefined) return;
  const api = ctx.client.api;
  const providers = await lookUp(
    ctx,
    `cloud providers of ${accountId}`,
    (signal) => api.platform.listCloudProviders({ accountId }, { signal }),
    (p) => p.id === provider,
  );
  if (!providers.found) {
    const offered = named(providers.listed.map((p) => p.id));
    ctx.diags.error('Unknown cloud provider', `The platform offers ${offered}; not "${provider}".`, [
      attrStep('cloud_provider'),
    ]);
    return;
  }
  // A hybrid cluster names its environment in cloud_region, or in the deprecated private_region_id.
  const regionName = provider === HYBRID && config.private_region_id ? 'private_region_id' : 'cloud_region';
  const region = regionName === 'private_region_id' ? config.private_region_id : config.cloud_region;
  if (typeof region !== 'string' || (provider === HYBRID && config.private_region_id === undefined)) return;
  if (provider === HYBRID) {
    const environments = await lookUp(
      ctx,
      `hybrid cloud environments of ${accountId}`,
      (signal) => api.hybridEnvironments.list({ accountId }, { signal }),
      (e) => e.id === region,
    );
    if (!environments.found) {
      const held = environments.listed.map((e) => `${e.id} (${e.name})`);
      ctx.missing(
        'Unknown hybrid cloud environment',
        `A hybrid cluster's ${regionName} is the id of a hybrid cloud environment of the account, which has ` +
          `${named(held)}; not "${region}".`,
        [attrStep(regionName)],
      );
      return;
    }
  } else {
    const regions = await lookUp(
      ctx,
      `regions of ${provider} for ${accountId}`,
      (signal) => api.platform.listCloudProviderRegions({ accountId, cloudProviderId: provider }, { signal }),
      (r) => r.id === region,
    );
    if (!regions.found) {
      ctx.diags.error(
        'Unknown region',
        `The cloud provider ${provider} offers the regions ${named(regions.listed.map((r) => r.id))}; not "${region}".`,
        [attrStep('cloud_region')],
      );
      return;
    }
  }
  const configuration = config.configuration?.[0];
  const packageId = configuration?.node_configuration?.[0]?.package_id;
  if (packageId === undefined) return;
  const where = provider === HYBRID ? 'hybrid' : `${provider}/${region}`;
  const packages = await lookUp(
    ctx,
    `packages of ${where} for ${accountId}`,
    (signal) =>
      api.booking.listPackages(
        {
          accountId,
          cloudProviderId: provider,
          cloudProviderRegionId: provider === HYBRID ? '' : region,
          statuses: BOTH_STATUSES,
        },
        { signal },
      ),
    (p) => p.id === packageId,
  );
  const pkg = packages.found;
  if (pkg?.status !== 'PACKAGE_STATUS_ACTIVE') {
    const bookable = packages.listed.filter((p) => p.status === 'PACKAGE_STATUS_ACTIVE');
    ctx.diags.error(
      pkg ? 'Deactivated package' : 'Package not offered here',
      `The package ${packageId} ${pkg ? 'is deactivated' : `is not offered in ${where}`}. Packages offered there: ` +
        `${named(bookable.map(describe))} (the vdb_booking_packages data source lists them).`,
      [attrStep('configuration'), indexStep(0), attrStep('node_configuration'), indexStep(0), attrStep('package_id')],
    );
    return;
  }
  const nodes = configuration?.number_of_nodes;
  if (pkg.type === 'free' && nodes !== undefined && nodes > 1) {
    ctx.diags.error(
      'Too many nodes for the free package',
      `The free package ${pkg.id} (${pkg.name}) allows 1 node; the configuration asks for ${nodes}. Choose a paid ` +
        'package for more.',
      [attrStep('configuration'), indexStep(0), attrStep('number_of_nodes')],
    );
  }
}

const describe = (p: BookingPackage) => `${p.id} (${p.name})`;

/** A role's permissions are ones the platform's catalogue lists. */
export async function checkPermissions(
  config: {
    readonly account_id?: string | null | undefined;
    readonly permissions?: readonly { readonly value?: string | undefined }[] | undefined;
  },
  ctx: CatalogueContext<VdbContext>,
): Promise<void> {
  const accountId = accountOf(config.account_id, ctx);
  const wanted = config.permissions;
  if (accountId === undefined || wanted === undefined) return;
  const read = (signal: AbortSignal) => ctx.client.api.iam.listPermissions({ accountId }, { signal });
  let catalogue = await ctx.listing(`permissions of ${accountId}`, read);
  const missing = () => wanted.filter((p) => p.value !== undefined && !catalogue.some((c) => c.value === p.value));
  if (missing().length > 0) catalogue = await ctx.listing(`permissions of ${accountId}`, read, { fresh: true });
  const offered = catalogue.map((c) => c.value).sort();
  for (const { value } of missing()) {
    // Those sharing its action or its object (`read:…`, `…:clusters`) first: the likely typo.
    const parts = String(value).split(':');
    const like = offered.filter((o) => o.split(':').some((part, i) => part === parts[i]));
    const hint = like.length > 0 ? `Permissions like it: ${named(like)}.` : `It offers ${named(offered)}.`;
    // A set's element has no index: the error is the block's, naming the value.
    ctx.diags.error('Unknown permission', `"${value}" is no permission of the platform. ${hint}`, [
      attrStep('permissions'),
    ]);
  }
}
