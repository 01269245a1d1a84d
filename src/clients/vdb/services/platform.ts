/** PlatformService (platform.v1): the cloud providers and regions clusters run in. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, one, ServiceCalls, type Sender } from '../calls.js';

export interface CloudProvider {
  readonly id: string;
  readonly name: string;
  readonly freeTier: boolean;
  readonly available: boolean;
}

export interface CloudProviderRegion {
  readonly id: string;
  readonly name: string;
  readonly freeTier: boolean;
  readonly available: boolean;
  /** The provider id. */
  readonly provider: string;
  readonly countryIsoCode?: string | undefined;
  readonly geographicalSubRegion?: string | undefined;
  readonly namespace?: string | undefined;
  readonly capabilities?: { readonly volumeSnapshot: boolean; readonly volumeExpansion: boolean } | undefined;
}

export type PlatformApi = ReturnType<typeof platformApi>;

export function platformApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.platform);
  return {
    listCloudProviders: calls.unary<{ accountId: string }, CloudProvider[]>({
      method: 'ListCloudProviders',
      safety: 'read',
      answer: many('items', ['id']),
    }),

    listCloudProviderRegions: calls.unary<{ accountId: string; cloudProviderId: string }, CloudProviderRegion[]>({
      method: 'ListCloudProviderRegions',
      safety: 'read',
      answer: many('items', ['id']),
    }),

    getCloudProviderRegion: calls.unary<
      { accountId: string; cloudProviderId: string; regionId: string },
      CloudProviderRegion
    >({ method: 'GetCloudProviderRegion', safety: 'read', answer: one('region', ['id']) }),
  };
}
