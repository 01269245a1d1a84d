/** PlatformService (platform.v1): the cloud providers and regions clusters run in. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, one, ServiceCalls, type Sender } from '../calls.js';
import type { Answered } from '../messages.js';

export type CloudProvider = Answered<'platform.v1.CloudProvider'>;
/** A region; `provider` is its provider's id. */
export type CloudProviderRegion = Answered<'platform.v1.CloudProviderRegion'>;

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
