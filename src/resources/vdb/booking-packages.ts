/**
 * `vdb_booking_packages` (docs/api/vdb.md, "Booking packages"): the booking packages (node sizes
 * and prices) of a cloud provider region, whose ids go into a cluster's
 * `node_configuration.package_id`.
 */
import { attr, attrStep, dataSource, type Diagnostics, resourceSchema, t } from '@keel/provider-framework';
import { providerAccountId, type VdbContext } from './common.js';
import { cloudProviderId, cloudRegionId, HYBRID } from './formats.js';
import { apiRules } from './rules.js';
import { heldInCode, combinations } from './rules-held.js';

const REQUEST = 'booking.v1.ListPackagesRequest';

const packageShape = t.object({
  id: t.string,
  name: t.string,
  type: t.string,
  currency: t.string,
  unit_int_price_per_hour: t.number,
  resource_configuration: t.list(t.object({ ram: t.string, cpu: t.string, disk: t.string })),
  status: t.string,
  tier: t.string,
  available_additional_resources: t.list(t.object({ disk_price_per_hour: t.number })),
});

const schema = resourceSchema(
  {
    id: attr.computedId('`<cloud_provider>/<cloud_region>`.'),
    cloud_provider: attr.string({
      required: true,
      validate: [...apiRules(`${REQUEST}.cloud_provider_id`), cloudProviderId],
      description: 'The cloud provider id, e.g. `aws`, or `hybrid`.',
    }),
    cloud_region: attr.string({
      required: true,
      validate: [...apiRules(`${REQUEST}.cloud_provider_region_id`), cloudRegionId],
      description: 'The region id, e.g. `eu-central-1`. May be empty for `hybrid`.',
    }),
    packages: attr.of(t.list(packageShape))({
      computed: true,
      description:
        "The packages: `id` (for a cluster's `package_id`), `name`, `type` (`free` or `paid`), `currency`, " +
        '`unit_int_price_per_hour`, `resource_configuration` per node (`cpu` like `2000m`, `ram` and `disk` like ' +
        '`8Gi`), `status`, `tier` and the price of extra disk.',
    }),
  },
  { description: 'Lists the booking packages (node sizes and prices) available in a cloud provider region.' },
);

/** What the request's rule reads of the data source's arguments. */
type Region = { cloud_provider?: string | null; cloud_region?: string | null };

const regionToApi = (config: Region) => ({
  cloudProviderId: config.cloud_provider ?? '',
  cloudProviderRegionId: config.cloud_region ?? '',
});

/** The API's rule of the request (region_required). */
function checkRegion(config: Region, diags: Diagnostics): void {
  if (config.cloud_provider === undefined || config.cloud_provider === HYBRID || config.cloud_region !== '') return;
  diags.error(
    'Missing cloud region',
    `A region is required unless cloud_provider is "${HYBRID}": set cloud_region to one of the provider's regions.`,
    [attrStep('cloud_region')],
  );
}

heldInCode({
  message: 'booking.v1.ListPackagesRequest',
  rules: ['region_required'],
  where: 'booking-packages.ts: checkRegion',
  samples: () => combinations({ cloud_provider: ['aws', HYBRID], cloud_region: ['', 'eu-west-1'] }),
  planReports: checkRegion,
  sent: regionToApi,
});

export const bookingPackagesDataSource = dataSource<typeof schema.fields, VdbContext>({
  typeName: 'vdb_booking_packages',
  schema,
  validate: checkRegion,
  async read(config, ctx) {
    const accountId = providerAccountId(ctx);
    const packages = await ctx.client.api.booking.listPackages(
      { accountId, ...regionToApi(config) },
      { signal: ctx.signal },
    );
    return {
      id: `${config.cloud_provider}/${config.cloud_region}`,
      packages: packages.map((p) => ({
        id: p.id,
        name: p.name,
        type: p.type,
        currency: p.currency,
        unit_int_price_per_hour: p.unitIntPricePerHour,
        resource_configuration: p.resourceConfiguration
          ? [{ ram: p.resourceConfiguration.ram, cpu: p.resourceConfiguration.cpu, disk: p.resourceConfiguration.disk }]
          : [],
        status: p.status,
        tier: p.tier,
        available_additional_resources: p.availableAdditionalResources
          ? [{ disk_price_per_hour: p.availableAdditionalResources.diskPricePerHour }]
          : [],
      })),
    };
  },
});
