/** BookingService (booking.v1): the packages a cluster is booked with. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, ServiceCalls, type Sender } from '../calls.js';
import type { StorageTierType } from '../common.js';

export const PACKAGE_STATUSES = [
  'PACKAGE_STATUS_UNSPECIFIED',
  'PACKAGE_STATUS_ACTIVE',
  'PACKAGE_STATUS_DEACTIVATED',
] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/**
 * The zero value's name really is `PACKAGE_TIER_STATUS_UNSPECIFIED`
 * (docs/api/vdb.md, "Booking packages").
 */
export const PACKAGE_TIERS = [
  'PACKAGE_TIER_STATUS_UNSPECIFIED',
  'PACKAGE_TIER_STANDARD',
  'PACKAGE_TIER_PREMIUM',
] as const;
export type PackageTier = (typeof PACKAGE_TIERS)[number];

export interface BookingPackage {
  readonly id: string;
  readonly name: string;
  /** `free` or `paid`. */
  readonly type: string;
  /** e.g. { ram: '8Gi', cpu: '2000m', disk: '64Gi' }. */
  readonly resourceConfiguration?: { readonly ram: string; readonly cpu: string; readonly disk: string } | undefined;
  /** Three upper-case letters. */
  readonly currency: string;
  /** Price in the currency's smallest unit (e.g. millicents) per hour. */
  readonly unitIntPricePerHour: number;
  readonly status: PackageStatus;
  readonly availableAdditionalResources?: { readonly diskPricePerHour: number } | undefined;
  readonly tier: PackageTier;
  readonly availableStorageTierConfigurations: readonly {
    readonly storageTierType: StorageTierType;
    readonly pricePerHour: number;
  }[];
}

export type BookingApi = ReturnType<typeof bookingApi>;

export function bookingApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.booking);
  return {
    /** `cloudProviderRegionId` may be "" only for the `hybrid` provider. */
    listPackages: calls.unary<
      {
        accountId: string;
        cloudProviderId: string;
        cloudProviderRegionId?: string | undefined;
        statuses?: readonly PackageStatus[] | undefined;
      },
      BookingPackage[]
    >({
      method: 'ListPackages',
      safety: 'read',
      request: (request) => ({
        accountId: request.accountId,
        cloudProviderId: request.cloudProviderId,
        // The provider always sends the region, possibly "" (docs/api/vdb.md, "Booking packages").
        cloudProviderRegionId: request.cloudProviderRegionId ?? '',
        statuses: request.statuses,
      }),
      answer: many('items', ['id']),
    }),
  };
}
