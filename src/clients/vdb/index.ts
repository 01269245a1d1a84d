export * from './api.js';
export { createVdbClient } from './client.js';
export { isLoopbackHost, parseApiUrl, type VdbEndpoint } from './endpoint.js';
export {
  GoDurationError,
  durationToNanos,
  formatGoDuration,
  goDurationToProto,
  nanosToDuration,
  parseGoDuration,
  protoToGoDuration,
} from '../../wire/go-duration.js';
export { formatTimestamp, parseTimestamp } from './time.js';
export { JWT_RBAC_METADATA, TRACE_ID_METADATA } from './metadata.js';
export { ApiError, isApiError, type ApiErrorCode } from '../../wire/api-error.js';
