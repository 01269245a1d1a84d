/**
 * The diagnostics part: how a failure leaves the engine (Diagnostics, and DiagnosticError for one
 * thrown), and the Logger the engine and the modules write to.
 */
export { type Diagnostic, DiagnosticError, diagnosticFromError, Diagnostics, sentences } from './diagnostics.js';
export type { Logger } from './logger.js';
