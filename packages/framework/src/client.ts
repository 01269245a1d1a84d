/**
 * The package's entry point for a platform's API client, `@keel/provider-framework/client`: what a client
 * (and what reads the provider's credentials for it) needs to speak for the provider, without the
 * lifecycle, the schemas or the value system behind them: errors by kind, diagnostics at attribute paths,
 * Go's durations, look-ups by outside keys. A client loaded on the first call to its platform loads this
 * much, and a bundle that defers the client keeps it small. The main entry exports the same.
 */
export {
  ApiError,
  codeForStatus,
  isApiError,
  OUTCOME_UNKNOWN_NOTE,
  requestIdsOf,
  type ApiErrorCode,
  type ApiErrorDetails,
} from './wire/api-error.js';
export { timeApiExchange } from './wire/api-timing.js';
export { notePlatformDate } from './wire/platform-clock.js';
export { DiagnosticError, Diagnostics, sentences, type Diagnostic } from './engine/diagnostics/index.js';
export { attrStep, indexStep, keyStep, type AttributePath, type PathStep } from './schema/path.js';
export {
  durationToNanos,
  formatGoDuration,
  GoDurationError,
  goDurationToProto,
  nanosToDuration,
  parseGoDuration,
  protoToGoDuration,
  type ProtoDuration,
} from './wire/go-duration.js';
export { isOwnKey, ownEntry } from './wire/own-entry.js';
export { setEntry } from './schema/entries.js';
