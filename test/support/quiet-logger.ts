import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';

/** A logger that writes nothing and says every level is off (so no trace-only work runs). */
export const quietLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => quietLogger,
  enabled: () => false,
};
