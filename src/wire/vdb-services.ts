// The vdb management API's service names, apart from its protobuf types (./vdb-proto.ts), so that a
// module can name a service without loading protobufjs' reflection.

/** Full names of the services, as they appear in method paths. */
export const VDB_SERVICES = {
  cluster: 'vdb.cloud.cluster.v1.ClusterService',
  databaseApiKeyV2: 'vdb.cloud.cluster.auth.v2.DatabaseApiKeyService',
  databaseApiKeyV1: 'vdb.cloud.cluster.auth.v1.DatabaseApiKeyService',
  backup: 'vdb.cloud.cluster.backup.v1.BackupService',
  hybrid: 'vdb.cloud.hybrid.v1.HybridCloudService',
  booking: 'vdb.cloud.booking.v1.BookingService',
  platform: 'vdb.cloud.platform.v1.PlatformService',
  iam: 'vdb.cloud.iam.v1.IAMService',
  account: 'vdb.cloud.account.v1.AccountService',
} as const;

export type VdbServiceName = (typeof VDB_SERVICES)[keyof typeof VDB_SERVICES];
