/**
 * The vdb management API as the provider sees it: one method per RPC it uses, with plain,
 * camelCase TypeScript objects in and out (no protobuf types leak out of src/clients/vdb). Each
 * service's calls, and the shapes they carry, are in its module under ./services/ (./index.ts says
 * how to add a call); this module gathers them into the client.
 *
 * Conventions of every object here:
 * - Timestamps are RFC 3339 strings in UTC (`2024-05-01T10:00:00Z`, fractional seconds only when
 *   the server sent them); an absent timestamp is `undefined`.
 * - Durations are {@link ProtoDuration} (seconds + nanos, exact); `packages/framework/src/wire/go-duration.ts` converts
 * them to
 *   and from Go duration strings such as `72h0m0s`.
 * - Enums are the proto value names (`CLUSTER_PHASE_HEALTHY`). A number this client does not know
 *   (a newer server) decodes to the enum's `..._UNSPECIFIED` name.
 * - proto3 `optional` scalars and sub-messages are `undefined` when absent; repeated fields are
 *   always arrays (possibly empty) on output and may be omitted on input.
 * - Ids are strings (UUIDs); `accountId` is explicit on every call (the caller resolves resource
 *   account id → provider account id).
 *
 * Errors: every method throws ApiError (packages/framework/src/wire/api-error.ts) with codes not_found, conflict,
 * invalid, unauthenticated, forbidden, rate_limited, unavailable, timeout, cancelled,
 * outcome_unknown, malformed_response or unknown; the message carries the server's text and the
 * call's `vdb-trace-id` (as "request id …"), never the API key.
 *
 * Retries: reads and idempotent writes are repeated with backoff on UNAVAILABLE and
 * RESOURCE_EXHAUSTED. Creates (and other calls that must not happen twice) are repeated only on
 * RESOURCE_EXHAUSTED, where the server declined them; when their answer is lost (UNAVAILABLE,
 * DEADLINE_EXCEEDED) they fail with 'outcome_unknown' and the caller decides (look for the object,
 * then create again or adopt it). A RESOURCE_EXHAUSTED slows every call the process makes to the
 * API, not only the refused one (../host-gate.ts).
 */
import type { AccountsApi } from './services/accounts.js';
import type { AuthKeysApi } from './services/auth-keys.js';
import type { BackupSchedulesApi, BackupsApi } from './services/backups.js';
import type { BookingApi } from './services/booking.js';
import type { ClustersApi } from './services/clusters.js';
import type { DatabaseApiKeysApi } from './services/database-api-keys.js';
import type { HybridEnvironmentsApi } from './services/hybrid.js';
import type { IamApi } from './services/iam.js';
import type { PlatformApi } from './services/platform.js';

export * from './config.js';
export * from './common.js';
export * from './services/accounts.js';
export * from './services/auth-keys.js';
export * from './services/backups.js';
export * from './services/booking.js';
export * from './services/clusters.js';
export * from './services/database-api-keys.js';
export * from './services/hybrid.js';
export * from './services/iam.js';
export * from './services/platform.js';

/**
 * A client of the vdb management API over one gRPC channel. Reads (list/get) and idempotent
 * writes (update, delete, assign) are retried on UNAVAILABLE and RESOURCE_EXHAUSTED with
 * exponential backoff and jitter; creates and bootstrap generation are not.
 */
export interface VdbClient {
  readonly clusters: ClustersApi;
  /** Database API keys (v2). */
  readonly databaseApiKeys: DatabaseApiKeysApi;
  /** Legacy database API keys (v1, deprecated service). */
  readonly authKeys: AuthKeysApi;
  readonly backupSchedules: BackupSchedulesApi;
  readonly backups: BackupsApi;
  readonly hybridEnvironments: HybridEnvironmentsApi;
  readonly booking: BookingApi;
  readonly platform: PlatformApi;
  readonly iam: IamApi;
  readonly accounts: AccountsApi;
  /** Closes the channel; calls made afterwards fail with 'cancelled'. */
  close(): void;
}
