/**
 * The read-mostly catalog: cloud providers and regions (platform.v1), booking packages
 * (booking.v1). Values follow the documented ones (docs/api/vdb.md, "The emulator's catalog");
 * package ids are stable across runs so examples and tests can name them.
 */
import type { BookingPackage, CloudProvider, CloudProviderRegion, PackageStatus } from './records.js';
import type { WireObject } from './wire-codec.js';
import { VDB_SERVICES } from '../../wire/vdb-proto.js';
import { checkAccount, stableUuid, type StoredKind, type VdbContext } from './context.js';
import { Violations, notFound, quoted } from './errors.js';
import type { ServiceRegistration } from './server.js';

export const HYBRID_PROVIDER = 'hybrid';
/** The status of a package that can be booked. */
export const BOOKABLE: PackageStatus = 'PACKAGE_STATUS_ACTIVE';

const REGIONS: Readonly<
  Record<string, readonly { id: string; name: string; country: string; sub: string; free?: boolean }[]>
> = {
  aws: [
    { id: 'us-east-1', name: 'US East (N. Virginia)', country: 'US', sub: 'North America', free: true },
    { id: 'us-west-1', name: 'US West (N. California)', country: 'US', sub: 'North America' },
    { id: 'us-west-2', name: 'US West (Oregon)', country: 'US', sub: 'North America' },
    { id: 'ap-northeast-1', name: 'Asia Pacific (Tokyo)', country: 'JP', sub: 'Asia' },
    { id: 'ap-southeast-1', name: 'Asia Pacific (Singapore)', country: 'SG', sub: 'Asia' },
    { id: 'ap-southeast-2', name: 'Asia Pacific (Sydney)', country: 'AU', sub: 'Oceania' },
    { id: 'ap-south-1', name: 'Asia Pacific (Mumbai)', country: 'IN', sub: 'Asia' },
    { id: 'eu-central-1', name: 'Europe (Frankfurt)', country: 'DE', sub: 'Europe', free: true },
    { id: 'eu-west-1', name: 'Europe (Ireland)', country: 'IE', sub: 'Europe' },
    { id: 'eu-west-2', name: 'Europe (London)', country: 'GB', sub: 'Europe' },
  ],
  gcp: [
    { id: 'europe-west3', name: 'Frankfurt', country: 'DE', sub: 'Europe', free: true },
    { id: 'us-east4', name: 'Northern Virginia', country: 'US', sub: 'North America', free: true },
  ],
  azure: [
    { id: 'eastus', name: 'East US', country: 'US', sub: 'North America', free: true },
    { id: 'germanywestcentral', name: 'Germany West Central', country: 'DE', sub: 'Europe' },
    { id: 'southeastasia', name: 'Southeast Asia', country: 'SG', sub: 'Asia' },
    { id: 'uksouth', name: 'UK South', country: 'GB', sub: 'Europe' },
  ],
  private: [{ id: 'private', name: 'Private', country: 'US', sub: 'North America' }],
};

const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  aws: 'AWS',
  gcp: 'Google Cloud',
  azure: 'Azure',
  private: 'Private (legacy)',
  [HYBRID_PROVIDER]: 'Hybrid Cloud',
};

interface PackageSpec {
  readonly name: string;
  readonly type: 'free' | 'paid';
  readonly cpu: string;
  readonly ram: string;
  readonly disk: string;
  readonly price: number;
  readonly tier: BookingPackage['tier'];
  readonly status?: PackageStatus;
}

const PACKAGE_SPECS: readonly PackageSpec[] = [
  { name: 'free', type: 'free', cpu: '500m', ram: '1Gi', disk: '4Gi', price: 0, tier: 'PACKAGE_TIER_STANDARD' },
  { name: 'small', type: 'paid', cpu: '1000m', ram: '4Gi', disk: '32Gi', price: 6_500, tier: 'PACKAGE_TIER_STANDARD' },
  {
    name: 'medium',
    type: 'paid',
    cpu: '2000m',
    ram: '8Gi',
    disk: '64Gi',
    price: 13_000,
    tier: 'PACKAGE_TIER_STANDARD',
  },
  {
    name: 'large',
    type: 'paid',
    cpu: '4000m',
    ram: '16Gi',
    disk: '128Gi',
    price: 26_000,
    tier: 'PACKAGE_TIER_PREMIUM',
  },
  {
    name: 'xlarge',
    type: 'paid',
    cpu: '8000m',
    ram: '32Gi',
    disk: '256Gi',
    price: 52_000,
    tier: 'PACKAGE_TIER_PREMIUM',
  },
  {
    name: 'legacy',
    type: 'paid',
    cpu: '1000m',
    ram: '2Gi',
    disk: '16Gi',
    price: 4_000,
    tier: 'PACKAGE_TIER_STANDARD',
    status: 'PACKAGE_STATUS_DEACTIVATED',
  },
];

/** The stable id of a catalog package, e.g. packageId('aws', 'small'). */
export function packageId(cloudProviderId: string, name: string): string {
  return stableUuid(`vdb-emulator/package/${cloudProviderId}/${name}`);
}

/** Stored packages carry where they are offered; stripped before they go on the wire. */
export interface StoredPackage extends BookingPackage {
  readonly offeredIn: { readonly cloudProviderId: string; readonly regionIds: readonly string[] };
}

export function seedCatalog(ctx: VdbContext): void {
  for (const [provider, regions] of [...Object.entries(REGIONS), [HYBRID_PROVIDER, []] as const]) {
    const cloudProvider: CloudProvider = {
      id: provider,
      name: PROVIDER_NAMES[provider] ?? provider,
      freeTier: regions.some((region) => region.free),
      available: true,
    };
    ctx.store.put(CLOUD_PROVIDERS.name, provider, cloudProvider);
    for (const region of regions) {
      const value: CloudProviderRegion = {
        id: region.id,
        name: region.name,
        freeTier: region.free ?? false,
        available: true,
        provider,
        countryIsoCode: region.country,
        geographicalSubRegion: region.sub,
        capabilities: { volumeSnapshot: true, volumeExpansion: true },
      };
      ctx.store.put(CLOUD_PROVIDER_REGIONS.name, `${provider}/${region.id}`, value);
    }
    for (const spec of PACKAGE_SPECS) {
      const regionIds =
        provider === HYBRID_PROVIDER
          ? ['']
          : regions.filter((region) => spec.type === 'paid' || region.free).map((region) => region.id);
      if (spec.type === 'free' && provider === HYBRID_PROVIDER) continue;
      const id = packageId(provider, spec.name);
      const stored: StoredPackage = {
        id,
        name: spec.name,
        type: spec.type,
        resourceConfiguration: { cpu: spec.cpu, ram: spec.ram, disk: spec.disk },
        currency: 'USD',
        unitIntPricePerHour: spec.price,
        status: spec.status ?? BOOKABLE,
        ...(spec.type === 'paid' ? { availableAdditionalResources: { diskPricePerHour: 20 } } : {}),
        tier: spec.tier,
        availableStorageTierConfigurations:
          spec.type === 'paid'
            ? [
                { storageTierType: 'STORAGE_TIER_TYPE_COST_OPTIMISED', pricePerHour: 0 },
                { storageTierType: 'STORAGE_TIER_TYPE_BALANCED', pricePerHour: 10 },
                { storageTierType: 'STORAGE_TIER_TYPE_PERFORMANCE', pricePerHour: 30 },
              ]
            : [],
        offeredIn: { cloudProviderId: provider, regionIds },
      };
      ctx.store.put(PACKAGES.name, id, stored);
    }
  }
}

export function wirePackage(stored: StoredPackage): BookingPackage {
  const { offeredIn: _offeredIn, ...wire } = stored;
  return wire;
}

/** A known provider or INVALID_ARGUMENT naming the valid ones. */
export function requireProvider(ctx: VdbContext, path: string, cloudProviderId: string): void {
  if (ctx.store.has(CLOUD_PROVIDERS.name, cloudProviderId)) return;
  const known = ctx.store.list<CloudProvider>(CLOUD_PROVIDERS.name).map((provider) => provider.id);
  const v = new Violations();
  v.add(
    path,
    `unknown cloud provider ${quoted(cloudProviderId)} (known: ${known.join(', ')})`,
    'cloud_provider.exists',
  );
  v.throwIfAny();
}

/** A known region of a (non-hybrid) provider or INVALID_ARGUMENT naming the valid ones. */
export function requireRegion(ctx: VdbContext, path: string, cloudProviderId: string, regionId: string): void {
  if (ctx.store.has(CLOUD_PROVIDER_REGIONS.name, `${cloudProviderId}/${regionId}`)) return;
  const known = regionsOf(ctx, cloudProviderId).map((region) => region.id);
  const v = new Violations();
  v.add(
    path,
    `unknown region ${quoted(regionId)} for cloud provider ${cloudProviderId} (known: ${known.join(', ')})`,
    'cloud_provider_region.exists',
  );
  v.throwIfAny();
}

export function regionsOf(ctx: VdbContext, cloudProviderId: string): CloudProviderRegion[] {
  return ctx.store
    .list<CloudProviderRegion>(CLOUD_PROVIDER_REGIONS.name)
    .filter((region) => region.provider === cloudProviderId);
}

export function packagesFor(ctx: VdbContext, cloudProviderId: string, regionId: string): StoredPackage[] {
  const region = cloudProviderId === HYBRID_PROVIDER ? '' : regionId;
  return ctx.store
    .list<StoredPackage>(PACKAGES.name)
    .filter((pkg) => pkg.offeredIn.cloudProviderId === cloudProviderId && pkg.offeredIn.regionIds.includes(region));
}

export const CLOUD_PROVIDERS: StoredKind<'cloudProviders', CloudProvider> = {
  name: 'cloudProviders',
  label: 'cloud provider',
};

/** Keyed by `provider/region`. */
export const CLOUD_PROVIDER_REGIONS: StoredKind<'cloudProviderRegions', CloudProviderRegion> = {
  name: 'cloudProviderRegions',
  label: 'cloud provider region',
};

export const PACKAGES: StoredKind<'packages', StoredPackage> = { name: 'packages', label: 'package' };

export const CATALOG_MODULE = {
  services: catalogServices,
  storage: [CLOUD_PROVIDERS, CLOUD_PROVIDER_REGIONS, PACKAGES],
} as const;

function catalogServices(ctx: VdbContext): ServiceRegistration[] {
  const providers = (): WireObject => ({ items: ctx.store.list(CLOUD_PROVIDERS.name) });
  const regions = (cloudProviderId: string): WireObject => {
    requireProvider(ctx, 'cloud_provider_id', cloudProviderId);
    return { items: regionsOf(ctx, cloudProviderId) };
  };
  const region = (cloudProviderId: string, regionId: string): WireObject => {
    requireProvider(ctx, 'cloud_provider_id', cloudProviderId);
    const found = ctx.store.get(CLOUD_PROVIDER_REGIONS.name, `${cloudProviderId}/${regionId}`);
    if (!found) throw notFound(`region ${regionId} of cloud provider ${cloudProviderId}`);
    return { region: found };
  };
  return [
    {
      service: VDB_SERVICES.platform,
      public: new Set(['ListGlobalCloudProviders', 'ListGlobalCloudProviderRegions', 'GetGlobalCloudProviderRegion']),
      handlers: {
        ListCloudProviders: (request) => {
          checkAccount(ctx, request.accountId);
          return providers();
        },
        ListCloudProviderRegions: (request) => {
          checkAccount(ctx, request.accountId);
          return regions(request.cloudProviderId as string);
        },
        GetCloudProviderRegion: (request) => {
          checkAccount(ctx, request.accountId);
          return region(request.cloudProviderId as string, request.regionId as string);
        },
        ListGlobalCloudProviders: () => providers(),
        ListGlobalCloudProviderRegions: (request) => regions(request.cloudProviderId as string),
        GetGlobalCloudProviderRegion: (request) =>
          region(request.cloudProviderId as string, request.regionId as string),
      },
    },
    {
      service: VDB_SERVICES.booking,
      handlers: {
        ListPackages: (request) => {
          checkAccount(ctx, request.accountId);
          const provider = request.cloudProviderId as string;
          const regionId = (request.cloudProviderRegionId as string | undefined) ?? '';
          requireProvider(ctx, 'cloud_provider_id', provider);
          // A region unless hybrid, and few statuses, are the API's rules, held before the handler.
          if (provider !== HYBRID_PROVIDER) requireRegion(ctx, 'cloud_provider_region_id', provider, regionId);
          const statuses = (request.statuses as string[] | undefined) ?? [];
          // Unfiltered, the platform lists what can be booked: a deactivated package stays with the
          // clusters that have it and is listed only when asked for by its status.
          const wanted = statuses.length > 0 ? statuses : [BOOKABLE];
          const items = packagesFor(ctx, provider, regionId)
            .filter((pkg) => wanted.includes(pkg.status))
            .map(wirePackage);
          return { items };
        },
      },
    },
  ];
}
