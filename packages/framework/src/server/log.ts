// hclog-format JSON lines on stderr (docs/protocol.md, "Logging").
//
// Terraform reads the provider's stderr line by line; a line that is a JSON
// object is an hclog entry whose `@level`, `@message` and `@timestamp` must be
// strings, and `@timestamp` must have exactly 6 fractional digits or Terraform
// falls back to logging the raw line at DEBUG. Nothing here ever touches stdout
// (stdout carries the go-plugin handshake:
// docs/protocol.md, "Stdout after the handshake").

import { isOwnKey } from '../wire/own-entry.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogSetting = LogLevel | 'off';
export type LogFields = Record<string, unknown>;

const SEVERITY: Record<LogSetting, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 99 };

/** Placeholder used wherever a secret would otherwise be logged. */
export const REDACTED = '(sensitive value)';

/** Replaces a secret before logging. null/undefined stay as they are (absence is not secret). */
export function redact(value: unknown): string | null | undefined {
  return value === null || value === undefined ? value : REDACTED;
}

/**
 * Maps one TF_LOG-style value to a setting, as Terraform does: case-insensitive,
 * "json" means trace, an unknown value means trace; empty means "not set".
 */
export function parseLogSetting(raw: string | undefined): LogSetting | undefined {
  if (raw === undefined) return undefined;
  const v = raw.trim().toLowerCase();
  if (v === '') return undefined;
  if (v === 'json') return 'trace';
  return isOwnKey(SEVERITY, v) ? v : 'trace';
}

/** TF_LOG_PROVIDER_<NAME>, then TF_LOG_PROVIDER, then TF_LOG; default off. */
export function logSettingFromEnv(providerName: string, env: NodeJS.ProcessEnv = process.env): LogSetting {
  const specific = `TF_LOG_PROVIDER_${providerName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  for (const key of [specific, 'TF_LOG_PROVIDER', 'TF_LOG']) {
    const setting = parseLogSetting(env[key]);
    if (setting) return setting;
  }
  return 'off';
}

/** Go layout 2006-01-02T15:04:05.000000Z07:00 in UTC: exactly 6 fractional digits, then Z. */
export function hclogTimestamp(epochMs: number = performance.timeOrigin + performance.now()): string {
  const wholeMs = Math.floor(epochMs);
  const micros = Math.min(999, Math.floor((epochMs - wholeMs) * 1000));
  const iso = new Date(wholeMs).toISOString(); // 2024-01-02T03:04:05.678Z
  return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return value.message;
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  return value;
}

export type LineWriter = (line: string) => void;

const stderrWriter: LineWriter = (line) => {
  process.stderr.write(line);
};

export interface LoggerOptions {
  /** "provider" or "provider.<subsystem>". */
  module?: string;
  level?: LogSetting;
  fields?: LogFields;
  /** Where complete lines go; stderr by default (tests may capture). */
  write?: LineWriter;
}

export class Logger {
  readonly module: string;
  readonly level: LogSetting;
  private readonly fields: LogFields;
  private readonly write: LineWriter;

  constructor(opts: LoggerOptions = {}) {
    this.module = opts.module ?? 'provider';
    this.level = opts.level ?? 'off';
    this.fields = opts.fields ?? {};
    this.write = opts.write ?? stderrWriter;
  }

  enabled(level: LogLevel): boolean {
    return SEVERITY[level] >= SEVERITY[this.level];
  }

  trace(message: string, fields?: LogFields): void {
    this.log('trace', message, fields);
  }
  debug(message: string, fields?: LogFields): void {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.log('info', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.log('warn', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.log('error', message, fields);
  }

  /** A logger with extra fields on every line; a `@module` field replaces the module. */
  child(fields: LogFields): Logger {
    const { '@module': module, ...rest } = fields;
    return new Logger({
      module: typeof module === 'string' ? module : this.module,
      level: this.level,
      fields: { ...this.fields, ...rest },
      write: this.write,
    });
  }

  log(level: LogLevel, message: string, fields?: LogFields): void {
    if (!this.enabled(level)) return;
    const entry: LogFields = {
      '@level': level,
      '@message': String(message),
      '@module': this.module,
      '@timestamp': hclogTimestamp(),
    };
    for (const source of [this.fields, fields ?? {}]) {
      for (const [key, value] of Object.entries(source)) {
        if (!key.startsWith('@')) entry[key] = value;
      }
    }
    let line: string;
    try {
      line = JSON.stringify(entry, jsonSafe);
    } catch {
      // Circular or otherwise unserialisable fields: keep the message at least.
      const { '@level': l, '@message': m, '@module': mod, '@timestamp': t } = entry;
      line = JSON.stringify({
        '@level': l,
        '@message': m,
        '@module': mod,
        '@timestamp': t,
        log_error: 'unserialisable fields',
      });
    }
    this.write(`${line}\n`);
  }
}

/** The root logger of a provider process, level from the environment. */
export function createLogger(providerName: string, env: NodeJS.ProcessEnv = process.env): Logger {
  return new Logger({ module: 'provider', level: logSettingFromEnv(providerName, env) });
}
