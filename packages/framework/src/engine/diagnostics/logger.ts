/**
 * Structured logging, as the engine and the modules use it (packages/framework/src/server/log.ts writes it to stderr);
 * implementations never write stdout. Never pass secret values.
 */
export interface Logger {
  trace(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  /** Whether lines of this level are written; absent = assume they are. */
  enabled?(level: 'trace' | 'debug' | 'info' | 'warn' | 'error'): boolean;
}
