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

/** Keeps every request in arrival order so tests can assert on what a client sent. */
export class RequestLog {
  readonly entries: LoggedRequest[] = [];

  /** @param secretHeaders lower-case header names whose values are replaced by `***`. */
  constructor(private readonly secretHeaders: ReadonlySet<string>) {}

  record(method: string, path: string, headers: IncomingHttpHeaders, body: unknown): LoggedRequest {
    const entry: LoggedRequest = { method, path, headers: this.mask(headers), body };
    this.entries.push(entry);
    return entry;
  }

  clear(): void {
    this.entries.length = 0;
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
