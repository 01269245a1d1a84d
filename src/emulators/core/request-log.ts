import type { IncomingHttpHeaders } from 'node:http';
import type { FaultKind } from './fault-profile.js';

/** One request as the emulator received it; secret headers are masked. */
export interface LoggedRequest {
  readonly method: string;
  /** Path including the query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, or the raw text when it was not JSON; undefined when empty. */
  readonly body: unknown;
  /** The seeded fault this request got (see SeededFaults); absent when none. */
  injectedFault?: FaultKind;
}

export const MASKED = '***';

/**
 * How much of its request log an emulator keeps. An emulator serving a CI farm for hours would
 * otherwise hold every request it ever got; tests look at the last few, benchmarks count them all
 * (`received`), and whoever needs every entry of a long run raises the bounds.
 */
export interface LogLimits {
  readonly entries: number;
  /** Request bytes (bodies) held by the kept entries. */
  readonly bytes: number;
}

export const DEFAULT_LOG_LIMITS: LogLimits = { entries: 10_000, bytes: 64 * 1024 * 1024 };

/** The newest entries within the limits, oldest first; older ones are let go in batches. */
export class BoundedLog<T> {
  readonly entries: T[] = [];
  private sizes: number[] = [];
  private bytes = 0;
  /** Every entry ever pushed, kept or not. */
  received = 0;

  constructor(private readonly limits: LogLimits = DEFAULT_LOG_LIMITS) {}

  push(entry: T, bytes: number): T {
    this.received++;
    this.entries.push(entry);
    this.sizes.push(bytes);
    this.bytes += bytes;
    if (this.entries.length > this.limits.entries || this.bytes > this.limits.bytes) this.trim();
    return entry;
  }

  clear(): void {
    this.entries.length = 0;
    this.sizes = [];
    this.bytes = 0;
  }

  /** Drops the oldest down to 90% of each limit, so that a full log trims once per tenth of it, not per entry. */
  private trim(): void {
    const keepEntries = Math.floor(this.limits.entries * 0.9);
    const keepBytes = this.limits.bytes * 0.9;
    let drop = Math.max(0, this.entries.length - keepEntries);
    for (let i = 0; i < drop; i++) this.bytes -= this.sizes[i]!;
    while (drop < this.entries.length - 1 && this.bytes > keepBytes) this.bytes -= this.sizes[drop++]!;
    this.entries.splice(0, drop);
    this.sizes.splice(0, drop);
  }
}

/** Keeps the requests in arrival order, within its limits, so tests can assert on what a client sent. */
export class RequestLog extends BoundedLog<LoggedRequest> {
  /** @param secretHeaders lower-case header names whose values are replaced by `***`. */
  constructor(
    private readonly secretHeaders: ReadonlySet<string>,
    limits?: LogLimits,
  ) {
    super(limits);
  }

  /** `bodyBytes`: the request body's size, what the entry holds of it. */
  record(method: string, path: string, headers: IncomingHttpHeaders, body: unknown, bodyBytes = 0): LoggedRequest {
    return this.push({ method, path, headers: this.mask(headers), body }, bodyBytes + path.length);
  }

  private mask(headers: IncomingHttpHeaders): Record<string, string> {
    const masked: [string, string][] = [];
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      masked.push([name, this.secretHeaders.has(name.toLowerCase()) ? maskValue(text) : text]);
    }
    return Object.fromEntries(masked);
  }
}

/** Keeps an auth scheme ("Bearer ***") so tests can check how a credential was sent. */
function maskValue(value: string): string {
  const scheme = /^(Bearer|Basic)\s+/i.exec(value);
  return scheme ? `${scheme[1]} ${MASKED}` : MASKED;
}
