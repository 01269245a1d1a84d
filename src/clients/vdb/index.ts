/**
 * The vdb management API client: createVdbClient (./client.ts) and the API it speaks (./api.ts).
 *
 * Where things are:
 * - ./services/<service>.ts: one module per gRPC service, each holding its calls and the shapes and enums
 *   they carry (clusters.ts is ClusterService; backups.ts is BackupService, schedules and backups).
 * - ./calls.ts: the one mechanism every call goes through (ServiceCalls; the answers `one`, `many`, `items`,
 *   `nothing`); ./transport.ts: the channel, deadlines, retries, cancellation and ApiErrors, loaded at the
 *   first call; ./codec.ts: protobuf ⇄ plain camelCase objects, by the descriptor.
 * - ./api.ts: the conventions, the VdbClient the resources use, and every service's types gathered.
 *
 * To add a call of a service the client already has, edit its module under ./services/ only:
 * 1. Name the messages the call takes and returns beside the others: `Answered<'cluster.v1.Cluster',
 *    'configuration'>` is a message as an answer holds it (with the message fields the answer must
 *    carry), `Sent<'cluster.v1.Cluster', 'name'>` as a caller sends it (with the fields it must give);
 *    an enum is `VDB_ENUMS['<area>.v1.<Enum>']` and `VdbEnum<'<area>.v1.<Enum>'>` (./messages.ts). Their
 *    fields and values come from the .proto files as the project builds (scripts/vdb-types.mjs).
 * 2. Add the call to the object the module's factory returns, once:
 *      suspend: calls.unary<{ accountId: string; clusterId: string }, void>({
 *        method: 'SuspendCluster',   // its name in the service, as on the wire
 *        safety: 'idempotent',        // 'read', 'idempotent' (retried) or 'once' (a create)
 *        request: (input) => ({ ... }),   // optional: the request message; by default the input as it is
 *        answer: nothing,             // or one('cluster', ['id', ...]), many('items', ['id']), your own
 *      }),
 *    `one` and `many` name the field of the response the answer is in and the fields it must carry, its
 *    key first; a paginated list is `calls.allPages<In, Item>({ method, items: items(['id']) })`.
 * The client's type (VdbClient) follows from the factory, so nothing else changes. A new service also
 * needs its full name in src/wire/vdb-services.ts, a module here, and a line in VdbClient (./api.ts)
 * and in createVdbClient (./client.ts).
 */
export * from './api.js';
export { createVdbClient } from './client.js';
export { isLoopbackHost, parseApiUrl, type VdbEndpoint } from './endpoint.js';
export {
  ApiError,
  type ApiErrorCode,
  durationToNanos,
  formatGoDuration,
  GoDurationError,
  goDurationToProto,
  isApiError,
  nanosToDuration,
  parseGoDuration,
  protoToGoDuration,
} from '@keel/provider-framework/client';
export { formatTimestamp, parseTimestamp } from './time.js';
export { JWT_RBAC_METADATA, TRACE_ID_METADATA } from './metadata.js';
