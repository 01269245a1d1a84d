/** BookingService (booking.v1): the packages a cluster is booked with. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, ServiceCalls, type Sender } from '../calls.js';
import { type Answered, VDB_ENUMS, type VdbEnum } from '../messages.js';

export const PACKAGE_STATUSES = VDB_ENUMS['booking.v1.PackageStatus'];
export type PackageStatus = VdbEnum<'booking.v1.PackageStatus'>;
/** The zero value's name really is `PACKAGE_TIER_STATUS_UNSPECIFIED` (docs/api/vdb.md, "Booking packages"). */
export const PACKAGE_TIERS = VDB_ENUMS['booking.v1.PackageTier'];
export type PackageTier = VdbEnum<'booking.v1.PackageTier'>;

/** A package: its type `free` or `paid`, its price per hour in the currency's smallest unit. */
export type BookingPackage = Answered<'booking.v1.Package'>;

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
