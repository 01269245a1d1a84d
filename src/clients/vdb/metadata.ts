/** gRPC metadata the vdb management API reads or sends. */
export const TRACE_ID_METADATA = 'vdb-trace-id';
export const JWT_RBAC_METADATA = 'vdb-jwt-rbac';
/** Trailing metadata of a RESOURCE_EXHAUSTED answer: seconds to wait before trying again. */
export const RETRY_AFTER_METADATA = 'retry-after';
