export { Clock } from './clock.js';
export { FaultInjector, type Fault } from './faults.js';
export {
  DEFAULT_RETRY_AFTER_SECONDS,
  DEFAULT_SLOW_MS,
  FAULT_KINDS,
  FaultProfileError,
  SeededFaults,
  describeFaultProfile,
  describeFaultStats,
  faultProfileProblem,
  faultProfileSettings,
  mulberry32,
  type FaultDecision,
  type FaultKind,
  type FaultProfileOptions,
  type FaultProfileProblem,
  type FaultProfileSettings,
  type FaultStats,
} from './fault-profile.js';
export { RequestQuota, quotaProblem, type QuotaOptions, type QuotaStats } from './quota.js';
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js';
export { startHttpServer, type HttpServerOptions, type RunningHttpServer } from './http-server.js';
export {
  HttpError,
  json,
  noContent,
  type EmulatorRequest,
  type EmulatorResponse,
  type Handler,
  type Middleware,
} from './http-types.js';
export { prefixedId, randomHex, secretValue } from './ids.js';
export {
  BoundedLog,
  DEFAULT_LOG_LIMITS,
  MASKED,
  RequestLog,
  type LogLimits,
  type LoggedRequest,
} from './request-log.js';
export { Router, type DescribedRoute, type RouteDoc, type RouteMatch } from './router.js';
export { jsonSchemaOf, type JsonSchema } from '../../wire/sec-contract/json-schema.js';
export { MemoryStore } from './store.js';
export {
  DEFAULT_BODY_LIMITS,
  STRING_FORMATS,
  checkItemCount,
  checkLength,
  field,
  heldFields,
  declaredFields,
  withSentFields,
  holds,
  invalid,
  quote,
  quoteKey,
  isEmail,
  keepStoredSecrets,
  maskSecrets,
  validate,
  withHeldFields,
  type ArraySpec,
  type FieldSpec,
  type ObjectSpec,
  type StringFormat,
  type StringSpec,
} from './body-spec.js';
